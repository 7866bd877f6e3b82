#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# pft dump and pft decode reading a pipe (no second pass possible): the same
# packets and instructions as from the file, and the errors that need the
# whole capture reported at the end with the file's messages and exit
# status.  Needs $PFT_BIN and $PFT_DATA.
set -u
PFT=${PFT_BIN:?PFT_BIN not set}
TC2=${PFT_DATA:?PFT_DATA not set}/TC2
CAP=$TC2/cstrace.bin
T=$(mktemp -d "${TMPDIR:-/tmp}/pft_pipe.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect STATUS WORDS -- ARGS...: pft ARGS with the capture piped in
expect() {
	want=$1
	words=$2
	shift 3
	cat "$CAP" | "$PFT" "$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" -ne "$want" ] || [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -q -- "$words" "$T/err"; then
		bad "pft $* <pipe: exit $got (want $want), want one line '$words':"
		cat "$T/err"
	else
		echo "ok: pft $* <pipe: exit $got: $(cat "$T/err")"
	fi
}
expect 2 "no data for trace ID 0x42 in standard input; it holds 0x10 (10873 bytes), 0x11 (10619 bytes), 0x12 (3153 bytes), 0x13 (4533 bytes)" -- dump - --id 0x42
expect 2 "no data for trace ID 0x42 in standard input" -- decode - --id 0x42 --stats --image "$TC2/kernel_dump.bin@0xC0008000"
expect 2 "standard input holds several trace IDs: 0x10 (10873 bytes)" -- dump - --format frames
head -c 9 "$CAP" >"$T/tiny.bin"
CAP=$T/tiny.bin
expect 1 "standard input holds no trace data in frames format (9 capture bytes; truncated frame at capture offset 0 (9 bytes))" -- dump - --format frames
CAP=$TC2/cstrace.bin

# the same output as from the file (the text header gives no length)
for mode in --json --stats "--stats --json" ""; do
	"$PFT" dump "$CAP" --id 0x13 --cycle-accurate --timestamps $mode >"$T/file" 2>&1
	cat "$CAP" | "$PFT" dump - --id 0x13 --cycle-accurate --timestamps $mode >"$T/pipe" 2>&1
	if [ -z "$mode" ]; then
		grep -q "^# pft dump - trace ID 0x13 format frames: stream length not known in advance" "$T/pipe" ||
			bad "dump text from a pipe: header"
		sed -i 1d "$T/file" "$T/pipe"
	fi
	sed -i 's/"input":"[^"]*","buffer":"[^"]*"/"input":"X","buffer":"X"/' "$T/file" "$T/pipe"
	sed -i 's/^# pft dump --stats [^ ]* /# pft dump --stats X /' "$T/file" "$T/pipe"
	sed -i "s|$CAP|-|" "$T/file"
	cmp -s "$T/file" "$T/pipe" || bad "dump $mode: the pipe differs from the file"
done
for mode in --json --ranges --stats "--format addrs"; do
	"$PFT" decode "$CAP" --id 0x13 --cycle-accurate --timestamps \
		--image "$TC2/kernel_dump.bin@0xC0008000" $mode >"$T/file" 2>&1
	cat "$CAP" | "$PFT" decode - --id 0x13 --cycle-accurate --timestamps \
		--image "$TC2/kernel_dump.bin@0xC0008000" $mode >"$T/pipe" 2>&1
	sed -i "s|$CAP|-|" "$T/file"
	cmp -s "$T/file" "$T/pipe" || bad "decode $mode: the pipe differs from the file"
done
[ "$fails" -eq 0 ] && echo "stream_pipe: all checks passed"
[ "$fails" -eq 0 ]
