#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# pft decode on TC2's three ETMv3.5 sources: the executed instruction
# addresses (--format addrs) must be DS-5's, row by row
# (data/TC2/ds5-dumps/etmv3_0xNN.txt), and the exit status 0.
# Usage: etm3_decode.sh PFT DATA_DIR
set -u
PFT=$1
DATA=$2
tmp=${TMPDIR:-/tmp}/etm3_decode.$$
status=0
for id in 10 11 12; do
	"$PFT" decode "$DATA/TC2" --id 0x$id --format addrs >"$tmp.pft" 2>"$tmp.err"
	rc=$?
	awk -F'\t' '$1 == "Instruction" { a = tolower(substr($3, 5)); print a }' \
		"$DATA/TC2/ds5-dumps/etmv3_0x$id.txt" >"$tmp.ds5"
	cut -d' ' -f1 "$tmp.pft" >"$tmp.addr"
	n=$(wc -l <"$tmp.ds5")
	if [ "$rc" != 0 ] || [ "$n" -lt 1000 ] || ! cmp -s "$tmp.addr" "$tmp.ds5"; then
		echo "FAIL: trace ID 0x$id: exit $rc, DS-5 $n rows, pft $(wc -l <"$tmp.addr")"
		diff "$tmp.ds5" "$tmp.addr" | head -5
		cat "$tmp.err"
		status=1
	else
		echo "trace ID 0x$id: $n instructions equal to DS-5"
	fi
done
rm -f "$tmp.pft" "$tmp.err" "$tmp.ds5" "$tmp.addr"
exit $status
