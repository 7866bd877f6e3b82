#!/bin/sh
# pft profile / timeline / tail on every example program, under several PTM
# configurations (tests/profile.cmake):
#   1. per-function calls and exclusive instructions (callgrind output), and
#      the stack depth before every instruction (timeline, --clock insns),
#      equal what profile_oracle.py computes from the emulator's log, nm and
#      objdump alone;
#   2. callgrind_annotate, the speedscope schema and a JSON reader accept
#      every file, with totals equal to the trace's (profile_consumers.py).
set -eu
: "${PFT_BIN:?}" "${PFT_BUILD:?}" "${PFT_SOURCE:?}"
EX="$PFT_BUILD/examples"
S="$PFT_SOURCE/tests/scripts"
if [ ! -f "$EX/recursion.elf" ]; then
	echo "SKIP: example programs not built (arm-none-eabi-gcc missing)"; exit 77
fi
command -v arm-none-eabi-objdump >/dev/null || { echo "SKIP: arm-none-eabi-objdump missing"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0 n=0
for e in $(cd "$EX" && ls *.elf | sed 's/\.elf$//'); do
	irq=""
	[ "$e" = irq ] && irq="--irq-every 37"
	for cfg in "" "--return-stack" "--cycle-accurate --return-stack $irq" "--irq-every 41 --cycle-accurate"; do
		n=$((n + 1))
		rm -rf "$T/s"
		# shellcheck disable=SC2086
		"$PFT_BIN" record -q "$EX/$e.elf" -o "$T/s" --log "$T/log" $cfg $irq
		elf="--elf $EX/$e.elf"
		# shellcheck disable=SC2086
		"$PFT_BIN" profile "$T/s" $elf --format callgrind -o "$T/p.callgrind"
		# shellcheck disable=SC2086
		"$PFT_BIN" timeline "$T/s" $elf --clock insns -o "$T/t.json"
		# shellcheck disable=SC2086
		"$PFT_BIN" profile "$T/s" $elf --format speedscope -o "$T/p.speedscope"
		# shellcheck disable=SC2086
		"$PFT_BIN" profile "$T/s" $elf --format folded -o "$T/p.folded"
		# the trace ends at the last waypoint before the run stopped: the
		# decode must be the log up to there
		"$PFT_BIN" decode "$T/s" --format addrs > "$T/dec"
		insns=$(wc -l < "$T/dec")
		if ! head -n "$insns" "$T/log" | cmp -s - "$T/dec"; then
			echo "FAIL $e $cfg: the decode is not a prefix of the log"; fail=1; continue
		fi
		cyc=""
		case "$cfg" in *cycle-accurate*)
			cyc=$("$PFT_BIN" decode "$T/s" --json | python3 -c '
import json, sys
print(sum(json.loads(l).get("cycles", 0) for l in sys.stdin))')
			# shellcheck disable=SC2086
			"$PFT_BIN" timeline "$T/s" $elf -o "$T/c.json" ;;
		esac
		if ! python3 "$S/profile_oracle.py" "$EX/$e.elf" "$T/log" "$T/p.callgrind" "$T/t.json" "$insns" > "$T/o"; then
			echo "FAIL $e $cfg:"; cat "$T/o"; fail=1; continue
		fi
		files="$T/p.callgrind $T/t.json $T/p.speedscope $T/p.folded"
		[ -n "$cyc" ] && files="$files $T/c.json"
		# shellcheck disable=SC2086
		if ! python3 "$S/profile_consumers.py" "$insns" $cyc -- $files > "$T/c"; then
			echo "FAIL $e $cfg:"; cat "$T/c"; fail=1; continue
		fi
		echo "$e $cfg: $(cat "$T/o")"
	done
done
echo "$n recordings checked"
exit $fail
