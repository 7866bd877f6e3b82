#!/bin/sh
# pft coverage on the example programs run under the emulator (pft record):
#  - per-address counts and per-branch taken / not-taken counts equal what
#    coverage_emu_oracle.py computes from the emulator's executed-instruction
#    log and objdump's disassembly (no libpft in that path);
#  - genhtml --branch-coverage --function-coverage reads every tracefile
#    without a warning, and lcov --summary gives the totals the oracle
#    expects from addr2line (lines) and the log (branches);
#  - two runs merged by pft coverage equal lcov -a of the two tracefiles,
#    and their per-address counts are the sums;
#  - pft decode shows file:line; the listing, ranges and autofdo formats
#    and bad input.
set -eu
: "${PFT_BIN:?}" "${PFT_SOURCE:?}" "${PFT_BUILD:?}"
EX=$PFT_BUILD/examples
for t in arm-none-eabi-objdump arm-none-eabi-addr2line lcov genhtml python3; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: needs $t"; exit 77; }
done
[ -f "$EX/recursion.elf" ] || { echo "SKIP: examples not built"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ORACLE="$PFT_SOURCE/tests/scripts/coverage_emu_oracle.py"
LC="--rc lcov_branch_coverage=1 --rc lcov_function_coverage=1"
fail=0
for e in recursion switch funcptr interwork itblock irq pgo; do
	"$PFT_BIN" record "$EX/$e.elf" -o "$T/$e" --log "$T/$e.log" --log-exceptions -q
	"$PFT_BIN" coverage "$T/$e" --elf "$EX/$e.elf" --format insns -o "$T/$e.insns" -q
	"$PFT_BIN" coverage "$T/$e" --elf "$EX/$e.elf" --test-name "$e" -o "$T/$e.info" -q
	# shellcheck disable=SC2086
	lcov $LC --summary "$T/$e.info" > "$T/$e.sum" 2>&1
	python3 "$ORACLE" "$EX/$e.elf" "$T/$e.log" "$T/$e.insns" --lcov-summary "$T/$e.sum" || fail=1
	genhtml --branch-coverage --function-coverage -q "$T/$e.info" -o "$T/html_$e" > "$T/$e.gh" 2>&1 ||
		{ echo "FAIL genhtml $e"; cat "$T/$e.gh"; fail=1; }
	if grep -qi "warn\|error" "$T/$e.gh"; then
		echo "FAIL genhtml $e warns:"; cat "$T/$e.gh"; fail=1
	fi
	# every record the consumers count is in the file (genhtml drops malformed lines silently)
	awk -F'[:,]' '/^DA:/ { lf++; if ($3 > 0) lh++ } /^BRDA:/ { bf++; if ($5 != "-" && $5 > 0) bh++ }
		/^FNDA:/ { ff++; if ($2 > 0) fh++ }
		END { printf "lines %d of %d\nfunctions %d of %d\nbranches %d of %d\n", lh, lf, fh, ff, bh, bf }' \
		"$T/$e.info" > "$T/$e.want"
	sed -n 's/^ *\(lines\|functions\|branches\)\.*: [0-9.]*% (\([0-9]*\) of \([0-9]*\).*/\1 \2 of \3/p' \
		"$T/$e.sum" > "$T/$e.got"
	cmp -s "$T/$e.want" "$T/$e.got" || { echo "FAIL $e: lcov --summary"; cat "$T/$e.sum" "$T/$e.want"; fail=1; }
done

# merging: a partial run and a full run of the same program
"$PFT_BIN" record "$EX/recursion.elf" --max-insns 1200 -o "$T/ra" -q
"$PFT_BIN" coverage "$T/ra" --elf "$EX/recursion.elf" -o "$T/a.info" -q
"$PFT_BIN" coverage "$T/recursion" --elf "$EX/recursion.elf" -o "$T/b.info" -q
"$PFT_BIN" coverage "$T/ra" "$T/recursion" --elf "$EX/recursion.elf" -o "$T/ab.info" -q
"$PFT_BIN" coverage "$T/ra" --elf "$EX/recursion.elf" --format insns -o "$T/a.insns" -q
"$PFT_BIN" coverage "$T/ra" "$T/recursion" --elf "$EX/recursion.elf" --format insns -o "$T/ab.insns" -q
# shellcheck disable=SC2086
lcov $LC -q -a "$T/a.info" -a "$T/b.info" -o "$T/lcov_ab.info"
# shellcheck disable=SC2086
lcov $LC -q -a "$T/ab.info" -o "$T/pft_ab.info"
# the same records (in any order within a file)
norm() { awk '/^SF:/ { sf = $0 } { print sf "|" $0 }' "$1" | sort; }
norm "$T/lcov_ab.info" > "$T/lcov_ab.n"
norm "$T/pft_ab.info" > "$T/pft_ab.n"
if cmp -s "$T/lcov_ab.n" "$T/pft_ab.n" && ! cmp -s "$T/a.info" "$T/b.info"; then
	echo "ok   merge: pft coverage A B equals lcov -a A -a B"
else
	echo "FAIL merge differs from lcov -a"; diff "$T/lcov_ab.n" "$T/pft_ab.n" | head; fail=1
fi
sum=$(awk 'FNR == 1 { f++ } { k = $1; c[k] += (f < 3 ? $3 : -$3); t[k] += (f < 3 ? $4 : -$4) }
	END { for (k in c) if (c[k] || t[k]) n++; print n + 0 }' "$T/a.insns" "$T/recursion.insns" "$T/ab.insns")
[ "$sum" = 0 ] && echo "ok   merge: counts of A B = counts of A + counts of B" ||
	{ echo "FAIL merge: $sum addresses differ from the sum"; fail=1; }

# pft decode: file:line beside the symbol
"$PFT_BIN" decode "$T/recursion" --elf "$EX/recursion.elf" > "$T/dec"
grep -q '<fib+0x[0-9a-f]*>  recursion.c:[0-9]' "$T/dec" && echo "ok   decode shows file:line" ||
	{ echo "FAIL decode: no file:line"; fail=1; }
# listing: the source with counts, never-run lines marked, branch outcomes
"$PFT_BIN" coverage "$T/ra" --elf "$EX/recursion.elf" --format listing -o "$T/list" -q
if grep -q '#####:' "$T/list" && grep -q 'branch [0-9a-f]* taken [0-9]*, not taken' "$T/list" &&
   grep -q 'Source:.*recursion.c' "$T/list"; then
	echo "ok   listing"
else
	echo "FAIL listing"; head -30 "$T/list"; fail=1
fi
# binary-only code: ranges and the instruction listing from a symbol map
arm-none-eabi-nm "$EX/switch.elf" > "$T/switch.map"
arm-none-eabi-objcopy -O binary "$EX/switch.elf" "$T/switch.bin"
"$PFT_BIN" coverage "$T/switch" --no-dumps --image "$T/switch.bin@0x10000" --symbols "$T/switch.map" \
	--format ranges -o "$T/ranges" -q
n=$(awk '!/^#/ { n += $4 * $5 } END { print n }' "$T/ranges")
m=$(wc -l < "$T/switch.log")
[ "$n" = "$m" ] && grep -q '<main+0x0>' "$T/ranges" && echo "ok   ranges: $n executions, as logged" ||
	{ echo "FAIL ranges: $n executions, $m logged"; fail=1; }
# bad input: a clear message and a non-zero exit, never a crash
printf 'garbage' > "$T/bad.bin"
if "$PFT_BIN" coverage "$T/bad.bin" --elf "$EX/switch.elf" -o "$T/bad.info" 2> "$T/bad.err"; then
	echo "FAIL: garbage input accepted"; fail=1
elif grep -q 'pft coverage: .*nothing could be decoded' "$T/bad.err"; then
	echo "ok   bad input: $(head -1 "$T/bad.err")"
else
	echo "FAIL bad input message:"; cat "$T/bad.err"; fail=1
fi
"$PFT_BIN" coverage "$T/switch" --elf /nonexistent 2>/dev/null && { echo "FAIL: missing ELF accepted"; fail=1; }
exit $fail
