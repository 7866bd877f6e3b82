#!/bin/sh
# pft record's emulated execution source against an independent emulator:
# every example program that runs in User mode (no exceptions) is run under
# Unicorn by `pft record --log` and under qemu-arm -singlestep, whose exec log
# is turned into the same "ADDR ISA" lines here with awk (bit 23 of the
# logged cs_base word is the Thumb bit).  From main on, both sequences must be
# identical: this checks, among others, the re-insertion of the
# condition-failed IT-block instructions Unicorn 2.0.1 does not report (the
# itblock example must have some).
# Also: the irq example gives the same result with and without interrupts,
# SVCs, undefined instructions and aborts hitting it at many places (the
# exception entry and return model keeps the program state).
set -eu
: "${PFT_BIN:?}" "${PFT_BUILD:?}"
EX="$PFT_BUILD/examples"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ ! -f "$EX/recursion.elf" ]; then
	echo "SKIP: example programs not built (arm-none-eabi-gcc missing)"; exit 77
fi
fail=0

# the `main` symbol of an example (Thumb bit cleared), as 8 hex digits
main_addr() {
	a=$(arm-none-eabi-nm "$1" 2>/dev/null | awk '$3 == "main" { print $1 }')
	[ -n "$a" ] || a=$(readelf -s "$1" | awk '$8 == "main" { print $2 }')
	printf '%08x' $((0x$a & ~1))
}

# qemu exec log -> "ADDR A32|T32"; the last line (the BKPT that ends the
# program under qemu) is dropped: pft record stops before a BKPT.
qemu_addrs() {
	awk '/^Trace / { s = $0; sub(/.*\[/, "", s); split(s, f, "/");
	                 d = substr(f[1], 3, 1);
	                 printf "%s %s\n", f[2], (d ~ /[89a-f]/ ? "T32" : "A32") }' "$1" | sed '$d'
}

from_main() { # FILE ADDR: the lines from the first one at ADDR on
	awk -v a="$2" 'found || $1 == a { found = 1; print }' "$1"
}

if command -v qemu-arm >/dev/null 2>&1; then
	for e in recursion switch funcptr interwork itblock; do
		elf="$EX/$e.elf"
		"$PFT_BIN" record "$elf" --log "$T/$e.emu" 2>"$T/$e.err" || { cat "$T/$e.err"; fail=1; continue; }
		qemu-arm -cpu cortex-a15 -singlestep -d exec,nochain -D "$T/$e.qlog" "$elf" >/dev/null 2>&1 || true
		qemu_addrs "$T/$e.qlog" > "$T/$e.qemu"
		m=$(main_addr "$elf")
		from_main "$T/$e.emu" "$m" > "$T/$e.a"
		from_main "$T/$e.qemu" "$m" > "$T/$e.b"
		n=$(wc -l < "$T/$e.a")
		if [ "$n" -lt 500 ] || ! cmp -s "$T/$e.a" "$T/$e.b"; then
			echo "FAIL $e: Unicorn and qemu differ ($n vs $(wc -l < "$T/$e.b") lines from main)"
			diff "$T/$e.a" "$T/$e.b" | head -10
			fail=1
		else
			echo "ok   $e: $n instructions from main identical to qemu-arm"
		fi
	done
	re=$(sed -n 's/.* \([0-9][0-9]*\) IT instructions re-inserted.*/\1/p' "$T/itblock.err")
	if [ "${re:-0}" -lt 50 ]; then
		echo "FAIL itblock: expected many re-inserted IT instructions, got '${re:-}'"; fail=1
	else
		echo "ok   itblock: $re condition-failed IT instructions re-inserted (Unicorn skipped them)"
	fi
else
	echo "note: qemu-arm not installed, emulator oracle skipped"
fi

# irq: same result (r0 at the BKPT) whatever the interrupts
ref=""
for opt in "" "--irq-every 50" "--irq-every 3" "--irq-random 40 --seed 3" "--irq-at 100,2000,2001,5000"; do
	# shellcheck disable=SC2086
	"$PFT_BIN" record "$EX/irq.elf" --log "$T/irq.log" $opt 2>"$T/irq.err" || { cat "$T/irq.err"; fail=1; continue; }
	r=$(sed -n 's/.*stopped: bkpt at 0x[0-9a-f]* with r0=\(0x[0-9a-f]*\).*/\1/p' "$T/irq.err")
	exc=$(sed -n 's/.* \([0-9][0-9]*\) exceptions.*/\1/p' "$T/irq.err")
	[ -n "$ref" ] || ref=$r
	if [ -z "$r" ] || [ "$r" != "$ref" ] || [ "${exc:-0}" -lt 10 ]; then
		echo "FAIL irq $opt: r0=$r (expected $ref), $exc exceptions"; cat "$T/irq.err"; fail=1
	else
		echo "ok   irq $opt: r0=$r with $exc exceptions"
	fi
done
exit $fail
