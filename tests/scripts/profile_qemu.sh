#!/bin/sh
# pft profile / timeline on a Linux program under qemu-arm: recursion,
# function pointers, qsort with a callback, setjmp/longjmp, a signal raised
# synchronously and SIGVTALRMs delivered while a function is busy
# (tests/programs/linux_calls.c, static, built -marm and -mthumb; glibc's
# own code is Thumb-2 in both).  For each build and two PTM configurations:
#   1. pft decode of the recording is a prefix of the instructions qemu
#      logged, address and instruction set (awk reads them from the log);
#   2. per-function calls and exclusive instructions (callgrind output) and
#      the stack depth before every instruction (timeline, --clock insns)
#      equal what profile_oracle.py computes from qemu's log, nm and objdump
#      alone (system calls and signals are untraced exceptions: see its
#      header and doc/profile.md, "Untraced handlers");
#   3. callgrind_annotate, the speedscope schema and the timeline checks of
#      profile_consumers.py accept the files;
#   4. the signal handlers are where the rules put them: on_usr1 above the
#      kill system call's exception frame, on_alarm above an interrupt-like
#      one inside busy (folded stacks).
set -eu
: "${PFT_BIN:?}" "${PFT_SOURCE:?}"
for t in arm-linux-gnueabihf-gcc qemu-arm arm-none-eabi-objdump callgrind_annotate; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: $t missing (scripts/deps.sh)"; exit 77; }
done
[ -e /usr/arm-linux-gnueabihf/lib/libc.a ] || { echo "SKIP: libc6-dev-armhf-cross missing"; exit 77; }
S="$PFT_SOURCE/tests/scripts"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0 n=0
for isa in arm thumb; do
	arm-linux-gnueabihf-gcc -O1 -static -m$isa -o "$T/prog" "$PFT_SOURCE/tests/programs/linux_calls.c"
	qemu-arm -cpu cortex-a15 -singlestep -d exec,nochain -D "$T/q.log" "$T/prog" > "$T/out"
	# the instructions that ran: a line qemu stopped before did not run yet
	awk '/^Trace / { if (p != "") print p; s = $0; sub(/.*\[/, "", s); split(s, f, "/")
	                 p = f[2] " " (substr(f[1], 3, 1) ~ /[89a-f]/ ? "T32" : "A32") }
	     /^Stopped execution/ { p = "" } END { if (p != "") print p }' "$T/q.log" > "$T/expected"
	for cfg in "" "--return-stack --cycle-accurate"; do
		n=$((n + 1))
		rm -rf "$T/s"
		# shellcheck disable=SC2086
		"$PFT_BIN" record --qemu-log "$T/q.log" --elf "$T/prog" -o "$T/s" $cfg > "$T/rec" 2>&1
		sig=$(sed -n 's/.* \([0-9]*\) signals.*/\1/p' "$T/rec")
		elf="--elf $T/prog"
		# shellcheck disable=SC2086
		"$PFT_BIN" profile "$T/s" $elf --format callgrind -o "$T/p.callgrind"
		# shellcheck disable=SC2086
		"$PFT_BIN" timeline "$T/s" $elf --clock insns -o "$T/t.json"
		# shellcheck disable=SC2086
		"$PFT_BIN" profile "$T/s" $elf --format speedscope -o "$T/p.speedscope"
		# shellcheck disable=SC2086
		"$PFT_BIN" profile "$T/s" $elf --format folded -o "$T/p.folded"
		"$PFT_BIN" decode "$T/s" --format addrs > "$T/dec"
		insns=$(wc -l < "$T/dec")
		if [ "$insns" -lt 10000 ] || ! head -n "$insns" "$T/expected" | cmp -s - "$T/dec"; then
			echo "FAIL $isa $cfg: the decode ($insns instructions) is not a prefix of qemu's log"
			fail=1; continue
		fi
		if [ -z "$sig" ] || [ "$sig" -lt 1 ]; then
			echo "FAIL $isa $cfg: no signal was delivered during the run ($(tail -1 "$T/rec"))"; fail=1
		fi
		if ! python3 "$S/profile_oracle.py" "$T/prog" "$T/q.log" "$T/p.callgrind" "$T/t.json" "$insns" > "$T/o"; then
			echo "FAIL $isa $cfg:"; cat "$T/o"; fail=1; continue
		fi
		if ! python3 "$S/profile_consumers.py" "$insns" -- "$T/p.callgrind" "$T/t.json" \
			"$T/p.speedscope" "$T/p.folded" > "$T/c"; then
			echo "FAIL $isa $cfg:"; cat "$T/c"; fail=1; continue
		fi
		if ! grep -q ';main;.*\[exception svc\];on_usr1 ' "$T/p.folded" ||
		   ! grep -q ';main;busy;.*\[exception irq\];on_alarm ' "$T/p.folded"; then
			echo "FAIL $isa $cfg: the signal handlers are not nested in their exception frames:"
			grep -e on_usr1 -e on_alarm "$T/p.folded"; fail=1; continue
		fi
		echo "$isa $cfg: $sig signals; $(cat "$T/o")"
	done
done
echo "$n recordings checked"
exit $fail
