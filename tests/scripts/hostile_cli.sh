#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Hostile input to the pft commands (issue 14): bad image files, addresses
# that do not fit, malformed snapshots, outputs onto inputs, bad options.
# Each case must exit with the expected status (1 the input had errors,
# 2 usage or setup error) and say, on stderr, the expected words (the file
# it is about, and why).  Needs $PFT_BIN and $PFT_DATA.
set -u
PFT=${PFT_BIN:?PFT_BIN not set}
DATA=${PFT_DATA:?PFT_DATA not set}
T=$(mktemp -d "${TMPDIR:-/tmp}/pft_hostile.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fails=0
n=0

# expect STATUS WORDS -- ARGS... : run pft ARGS
expect() {
	want=$1
	words=$2
	shift 3
	n=$((n + 1))
	"$PFT" "$@" >"$T/out" 2>"$T/err" </dev/null
	got=$?
	if [ "$got" -ne "$want" ] || { [ -n "$words" ] && ! grep -q -- "$words" "$T/err"; }; then
		echo "FAIL: pft $*: exit $got (want $want), want '$words' on stderr:"
		head -5 "$T/err"
		fails=$((fails + 1))
		return
	fi
	echo "ok: pft $*: exit $got: $(head -1 "$T/err")"
}

# a copy of a snapshot to spoil: snap NAME -> $T/NAME
snap() {
	rm -rf "${T:?}/$1"
	cp -r "$DATA/trace_cov_a15" "$T/$1"
}

# ---- program image files (defects 2 and 6) ---------------------------------
COV=$DATA/trace_cov_a15
ARMBIN=$COV/mem_Cortex-A15_0_1_RO_CODE.bin
mkdir "$T/dir"
head -c 60 /bin/sh >"$T/trunc60.elf"
printf '\177ELF\001\001\001\000\000\000\000\000\000\000\000\000\002\000\050\000\001\000\000\000' >"$T/arm_hdr_only.elf"
expect 2 "'$T/dir': Is a directory" -- decode "$COV" --stats --image "$T/dir"
expect 2 "'$T/dir': Is a directory" -- decode "$COV" --stats --elf "$T/dir"
expect 2 "'$T/missing': No such file" -- decode "$COV" --stats --image "$T/missing"
expect 2 "not a 32-bit ARM program" -- decode "$COV" --stats --elf /bin/sh
expect 2 "trunc60.elf': not an ELF file, or a truncated one" -- decode "$COV" --stats --elf "$T/trunc60.elf"
expect 2 "arm_hdr_only.elf': not an ELF file, or a truncated one" -- decode "$COV" --stats --elf "$T/arm_hdr_only.elf"
expect 2 "beyond the 32-bit address space" -- decode "$COV" --stats --image "$ARMBIN@0x1C0008000"
expect 2 "do not fit the 32-bit address space" -- decode "$COV" --stats --image "$ARMBIN@0xFFFFFF00"
expect 2 "beyond the 32-bit address space" -- decode "$COV" --stats --elf "/bin/sh@0xFFFFFFFFFFFFFFFF"
expect 2 "'$T/dir': Is a directory" -- coverage "$COV" --image "$T/dir"
expect 2 "not a 32-bit ARM program" -- profile "$COV" --elf /bin/sh
snap hidump
printf '\n[dump99]\nspace=S\naddress=0xFFFFFFF0\nfile=big.bin\n' >>"$T/hidump/device1.ini"
head -c 327680 /dev/zero >"$T/hidump/big.bin"
expect 2 "big.bin': 0x50000 bytes at 0xfffffff0 do not fit" -- decode "$T/hidump" --stats
snap dirdump
printf '\n[dump99]\nspace=S\naddress=0x1000\nfile=.\n' >>"$T/dirdump/device1.ini"
expect 2 "Is a directory" -- decode "$T/dirdump" --stats

# ---- exit status means the same in every command (defect 8) ----------------
head -c 4096 /dev/zero | tr '\0' '\377' >"$T/ff.bin"
awk 'BEGIN { x = 7; for (i = 0; i < 4096; i++) { x = (x * 1103515245 + 12345) % 2147483648; printf "%c", 1 + int(x / 65536) % 255 } }' >"$T/noise.bin"
expect 1 "no synchronisation (A-sync) in 4096 bytes" -- dump "$T/ff.bin"
expect 1 "no synchronisation (A-sync) in 4096 bytes" -- dump "$T/ff.bin" --stats
expect 1 "no instruction synchronisation" -- decode "$T/ff.bin"
expect 1 "no synchronisation (A-sync)" -- dump "$T/noise.bin" --format raw --etmidr 0x411CF312

# ---- pft record: options named, timestamps scaled without overflow (7, 9) --
EX=${PFT_BUILD:?PFT_BUILD not set}/examples
expect 2 "bad value '0' for --ts-freq" -- record --ts-freq 0 -o "$T/r0" "$EX/recursion.elf"
expect 2 "bad value '12x' for --max-insns" -- record --max-insns 12x --log "$T/l" "$EX/recursion.elf"
expect 0 "instructions" -- record --ts-freq 18446744073709551615 --timestamps -o "$T/rts" "$EX/recursion.elf"

# ---- paths in a snapshot's ini files stay in its folder (defect 10) ---------
printf '\0\0\0\0' >"$T/outside.bin"
snap up
printf '\n[dump99]\nspace=S\naddress=0x1000\nfile=../outside.bin\n' >>"$T/up/device1.ini"
expect 2 "device1.ini:[0-9]*: '../outside.bin' is outside the snapshot folder" -- decode "$T/up" --stats
expect 0 "" -- decode "$T/up" --stats --allow-outside
snap abs
sed -i "s|^file=PTM_0_2.bin|file=$T/abs/PTM_0_2.bin|" "$T/abs/trace.ini"
expect 2 "trace.ini:[0-9]*: '$T/abs/PTM_0_2.bin' is outside the snapshot folder" -- dump "$T/abs"
expect 0 "" -- dump "$T/abs" --allow-outside
snap dev
mv "$T/dev/device3.ini" "$T/device3.ini"
sed -i 's|^device3=device3.ini|device3=sub/../../device3.ini|' "$T/dev/snapshot.ini"
expect 2 "snapshot.ini:[0-9]*: 'sub/../../device3.ini' is outside" -- dump "$T/dev"
snap link
ln -s "$T/outside.bin" "$T/link/mem.bin"
printf '\n[dump99]\nspace=S\naddress=0x1000\nfile=./mem.bin\n' >>"$T/link/device1.ini"
expect 2 "'./mem.bin' is outside the snapshot folder" -- decode "$T/link" --stats
snap inside
mkdir "$T/inside/sub"
mv "$T/inside/mem_Cortex-A15_0_0_VECTORS.bin" "$T/inside/sub/"
sed -i 's|^file=mem_Cortex-A15_0_0_VECTORS.bin|file=sub/../sub/mem_Cortex-A15_0_0_VECTORS.bin|' "$T/inside/device1.ini"
expect 0 "" -- decode "$T/inside" --stats
# an ini error shows a short escaped excerpt, not the raw line
snap ctl
printf '\033]0;title\007 and a very long line that goes on and on and on and on\n' >>"$T/ctl/device1.ini"
expect 2 "got '\\\\x1B]0;title\\\\x07 and a" -- dump "$T/ctl"
if grep -q "$(printf '\033')" "$T/err" || grep -q "on and on and on and on" "$T/err"; then
	echo "FAIL: the ini error echoes control bytes or the whole line"; fails=$((fails + 1))
fi

# ---- outputs onto inputs, existing snapshots (defect 4) ---------------------
cp "$DATA/TC2/cstrace.bin" "$T/x.bin"
ln "$T/x.bin" "$T/x_link.bin"
expect 2 "output '$T/x.bin' is the input" -- dump "$T/x.bin" --format raw -o "$T/x.bin"
expect 2 "output '$T/x_link.bin' is the input" -- decode "$T/x.bin" --id 0x13 -o "$T/x_link.bin"
expect 2 "is the input" -- decode "$COV" --stats -o "$COV/PTM_0_2.bin"
expect 2 "is the input" -- decode "$COV" --image "$T/x.bin@0x10000000" -o "$T/x.bin"
cmp -s "$DATA/TC2/cstrace.bin" "$T/x.bin" || { echo "FAIL: the input was changed"; fails=$((fails + 1)); }
expect 0 "" -- record -q -o "$T/rec" "$EX/recursion.elf"
expect 2 "-o '$T/rec' is not empty: not overwritten" -- record -q -o "$T/rec" "$EX/recursion.elf"
expect 0 "" -- record -q --force -o "$T/rec" "$EX/recursion.elf"
expect 2 "not a folder" -- record -q -o "$T/x.bin" "$EX/recursion.elf"
"$PFT" record -q --log "$T/run.log" "$EX/recursion.elf"
expect 2 "output '$T/run.log' is the input" -- record -q --import "$T/run.log" --elf "$EX/recursion.elf" --log "$T/run.log"

# ---- messages (defect 9) -----------------------------------------------------
expect 2 "ETMTRACEIDR 0x00000113: the trace ID has 7 bits" -- dump "$DATA/TC2" --etmtraceidr 0x113
expect 2 "the capture layout is given twice" -- dump "$DATA/TC2/cstrace.bin" --format raw --format frames
if [ -w /dev/full ]; then
	for args in "--help" "--version" "version" "dump --help"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		"$PFT" $args >/dev/full 2>"$T/err"; got=$?
		if [ "$got" -ne 2 ] || ! grep -q "cannot write standard output" "$T/err"; then
			echo "FAIL: pft $args >/dev/full: exit $got"; fails=$((fails + 1))
		else
			echo "ok: pft $args >/dev/full: exit 2: $(cat "$T/err")"
		fi
	done
fi

# write errors name the file and the system's reason, exit 2 (defect 9)
if [ -w /dev/full ]; then
	printf 'etmv2-port 4\nTD b1001\nWT b0000\nWT b0000\nWT b0010\nID b1101\nIE b1100\nWT b1011\nTD b1001\nIE b0001\nWT b0110\nIN b1010\nDN b0000\nIE b0000\n' >"$T/tfo.txt"
	FULL="/dev/full: No space left on device"
	expect 2 "pft dump: $FULL" -- dump "$DATA/TC2" -o /dev/full
	expect 2 "pft dump: $FULL" -- dump "$DATA/TC2" --id all -o /dev/full
	expect 2 "pft decode: $FULL" -- decode "$COV" -o /dev/full
	expect 2 "pft decode: $FULL" -- decode "$COV" --format addrs -o /dev/full
	expect 2 "pft coverage: $FULL" -- coverage "$COV" --format ranges -o /dev/full
	expect 2 "pft profile: $FULL" -- profile "$COV" -o /dev/full
	expect 2 "pft timeline: $FULL" -- timeline "$COV" -o /dev/full
	expect 2 "pft tail: $FULL" -- tail "$COV" -o /dev/full
	expect 2 "pft probe: $FULL" -- probe "$DATA/TC2/cstrace.bin" -o /dev/full
	expect 2 "pft tfo: $FULL" -- tfo "$T/tfo.txt" -o /dev/full
	expect 2 "pft tfo: $FULL" -- tfo "$T/tfo.txt" --capture-out /dev/full
	expect 2 "pft record: $FULL" -- record -q --log /dev/full "$EX/recursion.elf"
	expect 2 "pft record: $FULL" -- record -q --import "$T/run.log" --elf "$EX/recursion.elf" --log /dev/full
	for args in "dump $DATA/TC2" "decode $COV" "tail $COV" "record -q --log - $EX/recursion.elf"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		"$PFT" $args >/dev/full 2>"$T/err"; got=$?
		if [ "$got" -ne 2 ] || ! grep -q "standard output: No space left on device" "$T/err" ||
		   [ "$(wc -l <"$T/err")" -ne 1 ]; then
			echo "FAIL: pft $args >/dev/full: exit $got: $(cat "$T/err")"; fails=$((fails + 1))
		else
			echo "ok: pft $args >/dev/full: exit 2: $(cat "$T/err")"
		fi
	done
fi

# a snapshot.ini without [trace] is blamed, not a trace.ini it never named
snap notrace
sed -i '/^\[trace\]/,$d' "$T/notrace/snapshot.ini"
expect 2 "notrace/snapshot.ini has no \[trace\] section" -- decode "$T/notrace" --stats
if grep -q "trace.ini" "$T/err"; then
	echo "FAIL: the message names trace.ini"; fails=$((fails + 1))
fi
# --id and --source naming different sources
expect 2 "\-\-id 0x13 and --source PTM_1 disagree: PTM_1 has trace ID 0x14" -- dump "$DATA/TC2" --id 0x13 --source PTM_1
expect 0 "" -- dump "$DATA/TC2" --id 0x13 --source PTM_0 --stats
# an ETMTRACEIDR of more than 7 bits in a snapshot's ini
rm -rf "$T/tc2id"
mkdir "$T/tc2id"
cp "$DATA/TC2"/*.ini "$DATA/TC2/cstrace.bin" "$T/tc2id/"
sed -i 's/^ETMTRACEIDR(0x080)=0x00000013/ETMTRACEIDR(0x080)=0x00000113/' "$T/tc2id/device_8.ini"
expect 2 "ETMTRACEIDR 0x00000113: the trace ID has 7 bits" -- dump "$T/tc2id" --stats
# record's PTM options name themselves in errors
expect 2 "bad value 'ETMCR=zz' for --reg" -- record --reg ETMCR=zz --log "$T/l" "$EX/recursion.elf"
expect 2 "bad value '0' for --drain" -- record --drain 0 --log "$T/l" "$EX/recursion.elf"
expect 2 "bad value '5' for --range" -- record --range 5 --log "$T/l" "$EX/recursion.elf"

echo "$n cases, $fails failed"
[ "$fails" -eq 0 ]
