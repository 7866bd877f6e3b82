#!/bin/sh
# pft record's command line: help, exit codes (2 usage/setup, 1 data), clear
# messages for bad input, the plain log import round trip, --until and
# --max-insns.
set -u
: "${PFT_BIN:?}" "${PFT_BUILD:?}"
EX="$PFT_BUILD/examples"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0

expect() { # CODE PATTERN CMD...: exit status and a stderr pattern
	code=$1 pat=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc -ne "$code" ] || ! grep -q -- "$pat" "$T/err" "$T/out"; then
		echo "FAIL: $* -> $rc (want $code, '$pat')"; cat "$T/err"; fail=1
	else
		echo "ok   $code: $*"
	fi
}

expect 0 "Usage: pft record" "$PFT_BIN" record --help
expect 2 "nothing to write" "$PFT_BIN" record "$EX/recursion.elf"
expect 2 "cannot open" "$PFT_BIN" record "$T/none.elf" --log "$T/l"
printf 'hello' > "$T/bad.elf"
expect 2 "not an ELF" "$PFT_BIN" record "$T/bad.elf" --log "$T/l"
expect 2 "bad value" "$PFT_BIN" record "$EX/recursion.elf" --log "$T/l" --max-insns 12x
expect 2 "bad value" "$PFT_BIN" record "$EX/recursion.elf" --log "$T/l" --irq-at 5,3
expect 2 "bad value" "$PFT_BIN" record "$EX/recursion.elf" --log "$T/l" --cycles load=x
expect 2 "no symbol" "$PFT_BIN" record "$EX/recursion.elf" --log "$T/l" --until nosuchsym
expect 2 "cannot be mixed" "$PFT_BIN" record "$EX/recursion.elf" -o "$T/s" --range 1-2 --exclude-range 3-4
expect 2 "no PTM register" "$PFT_BIN" record "$EX/recursion.elf" -o "$T/s" --reg ETMNOPE=1
expect 2 "source names a trace source" "$PFT_BIN" record "$EX/recursion.elf" -o "$T/s" --source PTM_0
expect 2 "not a trace ID" "$PFT_BIN" record "$EX/recursion.elf" -o "$T/s" --id 0x7f
expect 2 "needs --elf" "$PFT_BIN" record --qemu-log "$T/none" -o "$T/s"
expect 2 "bad value" "$PFT_BIN" record --qemu-log "$T/none" --elf "$EX/recursion.elf@zz" -o "$T/s"
expect 2 "cannot open" "$PFT_BIN" record --qemu-log "$T/none" --elf "$EX/recursion.elf" -o "$T/s"
printf 'not a qemu log\n' > "$T/q.log"
expect 1 "no 'Trace" "$PFT_BIN" record --qemu-log "$T/q.log" --elf "$EX/recursion.elf" --log "$T/l"
printf 'Trace 0: 0x7f00 [00000480/00900000/00000000/00000201]\n' > "$T/q.log"
expect 1 "line 1: no code at 0x00900000" "$PFT_BIN" record --qemu-log "$T/q.log" --elf "$EX/recursion.elf" --log "$T/l"
printf '0001003c A32\nzzz\n' > "$T/p.log"
expect 1 "line 2: expected 'ADDR ISA'" "$PFT_BIN" record --import "$T/p.log" --elf "$EX/recursion.elf" --log "$T/l"

# --until and --max-insns
"$PFT_BIN" record "$EX/recursion.elf" --log "$T/u" --until main 2>"$T/err"
m=$(readelf -sW "$EX/recursion.elf" | awk '$8 == "main" { print $2 }')
if grep -q "stopped: until at 0x$m" "$T/err" && ! grep -q "^$m " "$T/u"; then
	echo "ok   --until main stops before main"
else
	echo "FAIL: --until main"; cat "$T/err"; fail=1
fi
"$PFT_BIN" record "$EX/switch.elf" --log "$T/m" --max-insns 777 2>/dev/null
[ "$(wc -l < "$T/m")" -eq 777 ] && echo "ok   --max-insns 777" || { echo "FAIL: --max-insns"; fail=1; }

# the plain log with exceptions (--log-exceptions) imported back (--import)
# gives a trace that decodes to the same instructions
for e in irq itblock interwork; do
	"$PFT_BIN" record "$EX/$e.elf" --log "$T/full" --log-exceptions --irq-every 50 2>/dev/null
	grep -v '^!' "$T/full" > "$T/insns"
	rm -rf "$T/imp" # a new folder each time (record does not overwrite a snapshot)
	"$PFT_BIN" record -q --import "$T/full" --elf "$EX/$e.elf" -o "$T/imp" --log "$T/imp.log" --return-stack
	"$PFT_BIN" decode "$T/imp" --format addrs > "$T/imp.dec"
	nx=$(grep -c '^!' "$T/full" || true)
	if cmp -s "$T/insns" "$T/imp.log" && cmp -s "$T/insns" "$T/imp.dec" && { [ "$e" != irq ] || [ "$nx" -gt 10 ]; }; then
		echo "ok   $e: plain log with $nx exceptions imported, decodes to the same $(wc -l < "$T/insns") instructions"
	else
		echo "FAIL: $e plain log import round trip"; diff "$T/insns" "$T/imp.dec" | head -5; fail=1
	fi
done

# a program without a vector table: the SVC's vector is not mapped, the
# prefetch aborts at the vectors must end in an error, not a hang; a
# program that loops for ever stops at --max-insns
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
	printf '.arm\n.global _start\n_start: mov r0, #1\nsvc #0\n' > "$T/novec.s"
	printf '.thumb\n.syntax unified\n.global _start\n.thumb_func\n_start: adds r0, #1\nb _start\n' > "$T/loop.s"
	arm-none-eabi-gcc -nostdlib -Wl,-Ttext=0x20000 -o "$T/novec.elf" "$T/novec.s" &&
	arm-none-eabi-gcc -nostdlib -Wl,-Ttext=0x20000 -o "$T/loop.elf" "$T/loop.s" &&
	{
		expect 1 "exception loop" "$PFT_BIN" record "$T/novec.elf" --log "$T/l"
		expect 0 "stopped: max-insns" "$PFT_BIN" record "$T/loop.elf" -o "$T/lo" --log "$T/l" --max-insns 5000
		"$PFT_BIN" decode "$T/lo" --format addrs | cmp -s - "$T/l" && grep -q ' T32$' "$T/l" &&
			echo "ok   endless Thumb loop: 5000 instructions recorded and decoded" ||
			{ echo "FAIL: endless loop decode"; fail=1; }
	}
fi

# registers from a snapshot device ini (--regs), written back complete, and
# re-recording from the written ini gives the same trace
if [ -n "${PFT_DATA:-}" ] && [ -f "$PFT_DATA/trace_cov_a15/device5.ini" ]; then
	"$PFT_BIN" record -q "$EX/switch.elf" -o "$T/r1" --log "$T/r1.log" --range 0x10000-0x10100 \
		--regs "$PFT_DATA/trace_cov_a15/device5.ini"
	"$PFT_BIN" record -q "$EX/switch.elf" -o "$T/r2" --regs "$T/r1/PTM_0.ini"
	if grep -q '^ETMTRACEIDR(0x080)=0x00000002' "$T/r1/PTM_0.ini" &&
	   grep -q '^ETMTECR1(0x009)=0x00000001' "$T/r1/PTM_0.ini" &&
	   [ "$(grep -c '^ETM' "$T/r1/PTM_0.ini")" -gt 60 ] &&
	   cmp -s "$T/r1/cstrace.bin" "$T/r2/cstrace.bin"; then
		echo "ok   --regs device5.ini: registers written back, re-recorded from them: same trace"
	else
		echo "FAIL: --regs round trip"; cat "$T/r1/PTM_0.ini" | head -12; fail=1
	fi
fi
exit $fail
