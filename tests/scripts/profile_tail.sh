#!/bin/sh
# pft tail golden outputs: the fault example (ends inside the data abort
# handler), the irq example under interrupts, and TC2 (an ETB that wrapped:
# the capture starts mid-packet).  Regenerate with PFT_GOLDEN_UPDATE=1
# after checking the difference by hand.
set -eu
: "${PFT_BIN:?}" "${PFT_BUILD:?}" "${PFT_SOURCE:?}" "${PFT_DATA:?}"
EX="$PFT_BUILD/examples"
G="$PFT_SOURCE/tests/scripts/profile_tail"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { # NAME (output in $T/out)
	if [ "${PFT_GOLDEN_UPDATE:-}" = 1 ]; then cp "$T/out" "$G/$1.txt"; fi
	if ! diff -u "$G/$1.txt" "$T/out"; then
		echo "FAIL tail $1 differs from $G/$1.txt"; fail=1
	else
		echo "ok   tail $1"
	fi
}
"$PFT_BIN" tail "$PFT_DATA/TC2" --id 0x13 -n 12 > "$T/out"
check tc2
"$PFT_BIN" tail "$PFT_DATA/TC2" --id 0x13 -n 6 --before 5000 > "$T/out"
check tc2_before
if [ -f "$EX/fault.elf" ]; then
	"$PFT_BIN" record -q "$EX/fault.elf" -o "$T/f"
	"$PFT_BIN" tail "$T/f" --elf "$EX/fault.elf" -n 12 > "$T/out"
	check fault
	"$PFT_BIN" record -q "$EX/irq.elf" -o "$T/i" --irq-every 37 --return-stack
	"$PFT_BIN" tail "$T/i" --elf "$EX/irq.elf" -n 12 > "$T/out"
	check irq
else
	echo "note: example programs not built: their goldens skipped"
fi
exit $fail
