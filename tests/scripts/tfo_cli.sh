#!/bin/sh
# pft tfo: the Table 6.5 sequence (IHI 0014 ETMv2, mid-byte TFO) behind a
# trace-enable TFO, in text and binary form; listing, JSON Lines, the
# aligned byte stream, capture conversion, exit codes and error reports.
set -u
PFT=${PFT_BIN:?PFT_BIN not set}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { # name expected actual
	if [ "$2" != "$3" ]; then
		echo "FAIL $1: expected [$2] got [$3]"
		fail=1
	fi
}

cat > "$T/a.txt" <<'CAP'
# trace enabled (TFO value 0, header 0x20), then Table 6.5
etmv2-port 4
TD b1001
WT b0000
WT b0000
WT b0010
ID b1101
IE b1100
WT b1011
TD b1001
IE b0001
WT b0110
IN b1010
DN b0000
IE b0000
CAP

# listing
"$PFT" tfo "$T/a.txt" > "$T/out.txt"; rc=$?
check "exit status" 0 "$rc"
check "first TFO" "0 TFO value=0 reason=enable header=0x20 offset=0 sync" "$(sed -n 1p "$T/out.txt")"
check "mid-byte TFO" "7 TFO value=1 reason=sync header=0x00 offset=3 gap" "$(grep '^7 TFO' "$T/out.txt")"
check "implied IE" "7 status IE implied" "$(grep '^7 status' "$T/out.txt")"
check "statuses" "12" "$(grep -c ' status ' "$T/out.txt")"

# aligned bytes: header 0x20, 0xCD, 0xAB (B before the TFO, A after the gap), header 0x00
"$PFT" tfo --no-status -o "$T/bytes" "$T/a.txt" > /dev/null; rc=$?
check "-o exit" 0 "$rc"
check "-o bytes" "20cdab00" "$(od -An -tx1 "$T/bytes" | tr -d ' \n')"

# JSON Lines: one object per line, TFOs as expected
"$PFT" tfo --json "$T/a.txt" > "$T/out.json"
check "json tfo" '{"type":"tfo","cycle":7,"value":1,"reason":"sync","header":0,"offset":3,"lsm":false,"gap":true,"trigger":false,"resync":false}' \
	"$(grep '"cycle":7,"value"' "$T/out.json")"
check "json summary" '{"type":"summary","cycles":13,"tfos":2,"bytes":4,"skipped":0,"errors":0}' "$(tail -n 1 "$T/out.json")"
if command -v python3 > /dev/null; then
	python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/out.json" || { echo "FAIL json parse"; fail=1; }
fi

# text -> binary -> same listing; binary from stdin
"$PFT" tfo --capture-out "$T/a.bin" "$T/a.txt" > /dev/null
check "binary magic" "ETM2" "$(head -c 4 "$T/a.bin")"
"$PFT" tfo - < "$T/a.bin" > "$T/out2.txt"; rc=$?
check "binary exit" 0 "$rc"
check "binary listing" "$(cat "$T/out.txt")" "$(cat "$T/out2.txt")"
"$PFT" tfo --capture-out "$T/b.txt" "$T/a.bin" > /dev/null
"$PFT" tfo "$T/b.txt" > "$T/out3.txt"
check "text again" "$(cat "$T/out.txt")" "$(cat "$T/out3.txt")"

# data errors: exit 1, reported with the cycle
printf 'etmv2-port 8\nTD 0x05\nTD 0x29\nIE 0x11\n' > "$T/bad.txt"
"$PFT" tfo "$T/bad.txt" > "$T/bad.out" 2> "$T/bad.err"; rc=$?
check "bad exit" 1 "$rc"
check "reserved" "0 error: TD cycle with the reserved TFO encoding b0101" "$(grep '^0 error' "$T/bad.out")"
check "truncated" "1" "$(grep -c 'capture ended inside a TFO' "$T/bad.out")"
check "stderr count" "pft tfo: $T/bad.txt: 2 errors in the capture" "$(cat "$T/bad.err")"
head -c 13 "$T/a.bin" > "$T/cut.bin"
"$PFT" tfo "$T/cut.bin" > "$T/cut.out" 2> /dev/null; rc=$?
check "cut exit" 1 "$rc"
check "cut record" "1" "$(grep -c 'capture ends inside a record (file offset 12)' "$T/cut.out")"

# usage errors: exit 2
"$PFT" tfo --port-width 5 "$T/a.txt" 2> /dev/null; check "bad width" 2 "$?"
"$PFT" tfo --port-width 8 "$T/a.txt" 2> /dev/null; check "width mismatch" 2 "$?"
"$PFT" tfo "$T/missing" 2> /dev/null; check "missing file" 2 "$?"
"$PFT" tfo 2> /dev/null; check "no file" 2 "$?"
"$PFT" tfo --frobnicate "$T/a.txt" 2> /dev/null; check "bad option" 2 "$?"
printf 'IE 0\n' | "$PFT" tfo - 2> /dev/null; check "no width" 2 "$?"
printf 'IE 0\nTD 9\nWT 0\nWT 0\nWT 2\n' | "$PFT" tfo --port-width 4 --no-status - > "$T/w.out"; check "--port-width text" 0 "$?"
check "--port-width tfo" "1 TFO value=0 reason=enable header=0x20 offset=0 sync" "$(sed -n 1p "$T/w.out")"
printf 'PK\003\004' > "$T/zip"
"$PFT" tfo "$T/zip" > /dev/null 2>&1; check "not a capture" 2 "$?"
"$PFT" tfo --help > "$T/help"; check "help exit" 0 "$?"
check "help text" "1" "$(grep -c 'Usage: pft tfo' "$T/help")"

[ $fail = 0 ] && echo "tfo_cli: all checks passed"
exit $fail
