#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# pft decode command line: options, exit codes, and the output formats agreeing
# with each other (the bare address log, the listing, ranges, JSON, totals),
# snapshot input against the same trace given as a raw capture with --image,
# and symbols from --elf.
set -u
PFT=${PFT_BIN:?}
SH=${PFT_DATA:?}
COV=$SH/trace_cov_a15
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# help and usage errors
"$PFT" decode --help > "$T/help" || bad "--help exit status"
grep -q -- "--format addrs" "$T/help" || bad "--help does not mention --format addrs"
"$PFT" decode 2>/dev/null; [ $? -eq 2 ] || bad "no input: exit status not 2"
"$PFT" decode "$COV" --image 2>/dev/null; [ $? -eq 2 ] || bad "--image without value: not 2"
"$PFT" decode "$COV" --image x@zz 2>/dev/null; [ $? -eq 2 ] || bad "bad --image address: not 2"
"$PFT" decode "$COV" --image /nonexistent@0x1000 2>/dev/null; [ $? -eq 2 ] || bad "missing --image file: not 2"
"$PFT" decode "$COV" --bogus 2>/dev/null; [ $? -eq 2 ] || bad "unknown option: not 2"
"$PFT" decode /nonexistent 2>/dev/null; [ $? -eq 2 ] || bad "missing input: not 2"
head -c 3000 "$COV/mem_Cortex-A15_0_5_ARM_LIB_HEAP.bin" > "$T/garbage"
"$PFT" decode "$T/garbage" --stats >/dev/null 2>&1; [ $? -eq 1 ] || bad "no I-sync in the stream: exit status not 1"

# the formats agree
"$PFT" decode "$COV" --format addrs > "$T/addrs" || bad "addrs exit status"
"$PFT" decode "$COV" > "$T/text" || bad "text exit status"
"$PFT" decode "$COV" --stats > "$T/stats" || bad "stats exit status"
"$PFT" decode "$COV" --json > "$T/json" || bad "json exit status"
"$PFT" decode "$COV" --ranges > "$T/ranges" || bad "ranges exit status"
n_addrs=$(wc -l < "$T/addrs")
n_stats=$(awk '$1 == "instructions" { print $2 }' "$T/stats")
n_text=$(grep -vc '^-- ' "$T/text")
n_json=$(grep -vc '"event"' "$T/json")
n_ranges=$(awk '{ s += $4 } END { print s }' "$T/ranges")
[ "$n_addrs" -gt 50 ] || bad "too few instructions ($n_addrs)"
[ "$n_addrs" = "$n_stats" ] || bad "addrs $n_addrs != stats $n_stats"
[ "$n_addrs" = "$n_text" ] || bad "addrs $n_addrs != text $n_text"
[ "$n_addrs" = "$n_json" ] || bad "addrs $n_addrs != json $n_json"
[ "$n_addrs" = "$n_ranges" ] || bad "addrs $n_addrs != ranges $n_ranges"
grep -Evq '^[0-9a-f]{8} (A32|T32|T32EE|JAZ)$' "$T/addrs" && bad "addrs: a line not in '%08x ISA' form"
awk '!/^-- / { print $2 " " $3 }' "$T/text" | cmp -s - "$T/addrs" || bad "text addresses differ from addrs"
grep -q '^-- trace_on reason=debug_exit addr=80000558' "$T/text" || bad "text: no trace_on event"
grep -q '^-- exception exception=1 name=debug_halt' "$T/text" || bad "text: no exception event"
grep -q '"event":"exception"' "$T/json" || bad "json: no exception event"

# -o FILE writes what stdout gets
"$PFT" decode "$COV" -o "$T/out" && cmp -s "$T/out" "$T/text" || bad "-o FILE differs from stdout"

# the same trace as a raw capture (file and stdin) with --image regions
IMG="--image $COV/mem_Cortex-A15_0_0_VECTORS.bin@0x80000000 --image $COV/mem_Cortex-A15_0_1_RO_CODE.bin@0x80000278"
"$PFT" decode "$COV/PTM_0_2.bin" --format raw --etmcr 0x20000400 --etmtraceidr 2 $IMG \
	--format addrs > "$T/raw" || bad "raw capture exit status"
cmp -s "$T/raw" "$T/addrs" || bad "raw capture + --image differs from the snapshot decode"
"$PFT" decode - --etmcr 0x20000400 --etmtraceidr 2 $IMG --format addrs < "$COV/PTM_0_2.bin" \
	> "$T/stdin" || bad "stdin exit status"
cmp -s "$T/stdin" "$T/addrs" || bad "stdin decode differs"
# without an image nothing can be followed: every atom becomes an event
"$PFT" decode "$COV" --no-dumps --json 2>/dev/null > "$T/noimg"
grep -q '"event":"memory_not_readable"' "$T/noimg" || bad "no image: no memory_not_readable event"
grep -vq '"event"' "$T/noimg" && bad "no image: instructions decoded"

# symbols from an ELF (needs the ARM binutils)
if command -v arm-none-eabi-objcopy >/dev/null && command -v arm-none-eabi-ld >/dev/null; then
	cp "$COV/mem_Cortex-A15_0_1_RO_CODE.bin" "$T/code.bin"
	(cd "$T" && arm-none-eabi-objcopy -I binary -O elf32-littlearm -B arm \
		--rename-section .data=.text,alloc,load,readonly,code,contents \
		--add-symbol fn_4d8=.text:0x260,function,global \
		--add-symbol fn_504=.text:0x28c,function,global code.bin code.o &&
	 arm-none-eabi-ld -Ttext=0x80000278 -e 0x80000278 code.o -o code.elf) || bad "building the ELF"
	"$PFT" decode "$COV" --elf "$T/code.elf" > "$T/sym" || bad "--elf exit status"
	grep -q '80000558  A32   ebffffe9  bl #0x80000504 .*<fn_504+0x54>' "$T/sym" || bad "no symbol+offset"
	grep -q '"sym":"fn_4d8","sym_offset":0' "$(
		"$PFT" decode "$COV" --elf "$T/code.elf" --json > "$T/symj"; echo "$T/symj")" ||
		bad "json: no sym"
fi
[ $fail -eq 0 ] && echo "decode_cli: all checks passed"
exit $fail
