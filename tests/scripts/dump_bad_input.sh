#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# pft dump on bad input: each case must give exactly one message on stderr
# (containing the expected words), the expected non-zero exit status, and
# no packet output.  Needs $PFT_BIN and $PFT_DATA.
set -u
PFT=${PFT_BIN:?PFT_BIN not set}
TC2=${PFT_DATA:?PFT_DATA not set}/TC2
T=$(mktemp -d "${TMPDIR:-/tmp}/pft_bad.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fails=0
n=0

# expect STATUS WORDS -- pft dump ARGS...
expect() {
	want=$1
	words=$2
	shift 3
	n=$((n + 1))
	"$PFT" dump "$@" >"$T/out" 2>"$T/err"
	got=$?
	lines=$(wc -l <"$T/err")
	if [ "$got" -ne "$want" ] || [ "$lines" -ne 1 ] || ! grep -q -- "$words" "$T/err"; then
		echo "FAIL: pft dump $*: exit $got (want $want), $lines stderr lines (want 1), want '$words':"
		cat "$T/err"
		fails=$((fails + 1))
		return
	fi
	echo "ok: pft dump $*: exit $got: $(cat "$T/err")"
}

# empty input: a file, and standard input
: >"$T/empty.bin"
expect 1 "empty" -- "$T/empty.bin"
expect 1 "standard input is empty" -- - </dev/null
if [ -s "$T/out" ]; then echo "FAIL: output for an empty input"; fails=$((fails + 1)); fi

# truncated frame: TC2's buffer cut 7 bytes into frame 1687
head -c 26999 "$TC2/cstrace.bin" >"$T/cut.bin"
expect 1 "truncated frame at capture offset 26992 (7 bytes)" -- "$T/cut.bin" --format frames --id 0x13 --cycle-accurate --timestamps
# a frame capture of less than one frame
head -c 9 "$TC2/cstrace.bin" >"$T/tiny.bin"
expect 1 "no trace data in frames format (9 capture bytes; truncated frame at capture offset 0 (9 bytes))" -- "$T/tiny.bin" --format frames

# wrong --id: the message lists the IDs the capture holds
expect 2 "no data for trace ID 0x42.*0x10 (10873 bytes), 0x11 (10619 bytes), 0x12 (3153 bytes), 0x13 (4533 bytes)" -- "$TC2/cstrace.bin" --id 0x42
expect 2 "no trace source with trace ID 0x42 .*PTM_0 (PTM1.1, ID 0x13)" -- "$TC2" --id 0x42
expect 2 "several trace IDs" -- "$TC2/cstrace.bin" --format frames
expect 2 "not a trace ID" -- "$TC2" --id 0x80
expect 2 "no trace source 'PTM_7'" -- "$TC2" --source PTM_7

# missing snapshot files
mkdir "$T/snap"
cp "$TC2"/*.ini "$T/snap/"
expect 2 "cannot open $T/snap/cstrace.bin" -- "$T/snap"
rm "$T/snap/device_8.ini"
expect 2 "snapshot.ini:13: device file: cannot open $T/snap/device_8.ini" -- "$T/snap"
rm "$T/snap/snapshot.ini"
expect 2 "cannot open $T/snap/snapshot.ini" -- "$T/snap"
expect 2 "cannot open $T/none.bin" -- "$T/none.bin"

# nonsense register values: on the command line and in a snapshot
expect 2 "ETMIDR 0x410CF250: major version 2 is not PFTv1" -- "$TC2" --etmidr 0x410CF250
expect 2 "trace ID 0x00 is reserved" -- "$T/cut.bin" --etmtraceidr 0
expect 2 "ETMCR 0x00000002: reserved bits set" -- "$TC2/cstrace.bin" --id 0x13 --etmcr 0x2
expect 2 "return stack (bit 29) with branch broadcast (bit 8)" -- "$TC2" --return-stack --branch-broadcast
expect 2 "'banana' is not a 32-bit number" -- "$TC2" --etmccer banana
expect 2 "not 0, 1, 2 or 4" -- "$TC2" --contextid-bytes 3
mkdir "$T/snap2"
cp "$TC2"/*.ini "$TC2/cstrace.bin" "$T/snap2/"
sed 's/ETMIDR(0x079)=0x411CF312/ETMIDR(0x079)=0x12345678/' "$TC2/device_8.ini" >"$T/snap2/device_8.ini"
expect 2 "bad PTM registers in $T/snap2 (source PTM_0): ETMIDR 0x12345678" -- "$T/snap2" --source PTM_0
sed 's/ETMCR(0x000)=0x10001000/ETMCR(0x000)=lots/' "$TC2/device_8.ini" >"$T/snap2/device_8.ini"
expect 2 "device_8.ini:7: register value 'lots' is not a number" -- "$T/snap2"

# usage
expect 2 "no input given" --
expect 2 "unknown option '--bogus'" -- --bogus "$TC2"
expect 2 "one input only" -- "$TC2" "$TC2"

echo "$n cases, $fails failed"
[ "$fails" -eq 0 ]
