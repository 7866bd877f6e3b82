#!/bin/sh
# The call-stack commands end to end against `pft decode --stats`, on the
# same file in the same run, with the ratios printed (the goal of
# doc/profile.md: profile and timeline at least half of decode's speed),
# all on one thread (--jobs 1); then each analysis command (profile,
# timeline, tail, coverage) at --jobs 1 and --jobs 2, with the speed-up.
#
# usage: bench/bench_callstack_cli.sh [MIB] [BUILD_DIR] [--callgrind] [--symbols MAP]
#        (default 32 MiB, build/)
#
# The stream is TC2 trace ID 0x13 from its first A-sync repeated to MIB MiB
# (bench_packet --save), decoded with kernel_dump.bin at 0xC0008000 and
# TC2's registers given as options.  Each command is timed with
# /usr/bin/time (user + system CPU seconds, best of 3).  With --callgrind
# each command runs once under valgrind --tool=callgrind instead and the
# ratios are of executed instructions: exact, and the same on a loaded
# machine (use a few MiB: callgrind is ~50x slower); the --jobs part is
# left out then (callgrind runs one thread at a time).  --symbols MAP adds
# `--symbols MAP` to the call-stack commands (function lookups per item).
#
# The --jobs part times each command 3 times at --jobs 1 and at --jobs 2
# and keeps the fastest wall-clock run of each, printing its wall-clock
# seconds and its CPU seconds (user + system, all threads).  The speed-up
# is wall --jobs 1 / wall --jobs 2: it means something only on an idle
# machine with 2 free cores (the load average is printed before and
# after); the CPU cost (CPU --jobs 2 / CPU --jobs 1: the split, the
# overlaps decoded twice, the threads) holds on a loaded machine too.
set -eu
MIB=32
B=build
CG=0
SYMS=""
n=0
while [ $# -gt 0 ]; do
	case "$1" in
	--callgrind) CG=1 ;;
	--symbols) shift; SYMS="--symbols $1" ;;
	*) if [ $n -eq 0 ]; then MIB=$1; else B=$1; fi; n=$((n + 1)) ;;
	esac
	shift
done
SRC=$(cd "$(dirname "$0")/.." && pwd)
PFT=$B/pft
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
OPTS="--format raw --etmcr 0x10001000 --etmccer 0x34C01AC2 --etmidr 0x411CF312 --etmtraceidr 0x13"
OPTS="$OPTS --image $SRC/data/TC2/kernel_dump.bin@0xC0008000"

"$B/bench/bench_packet" --mib "$MIB" --reps 1 --save "$T/tc2.bin" > /dev/null

cost() { # cost cmd...: CPU seconds (best of 3), or instructions under callgrind
	if [ $CG -eq 1 ]; then
		valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$@" > /dev/null 2> "$T/vg" || true
		awk '/Collected :/ { print $NF }' "$T/vg"
		return
	fi
	b=""
	for _ in 1 2 3; do
		/usr/bin/time -f "%U %S" -o "$T/time" "$@" > /dev/null 2>&1 || true # exit 1: I-sync mismatches
		t=$(tail -n 1 "$T/time" | awk '{ printf "%.3f", $1 + $2 }')
		if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN { exit !(a < b) }'; then b=$t; fi
	done
	echo "$b"
}

unit="s CPU"
[ $CG -eq 1 ] && unit="instructions"
echo "stream: $MIB MiB of TC2 0x13 (raw PFT)${SYMS:+, $SYMS}; cost in $unit"
# shellcheck disable=SC2086
dec=$(cost "$PFT" decode --stats --jobs 1 $OPTS "$T/tc2.bin")
printf "%-40s %10s\n" "pft decode --stats --jobs 1" "$dec"
for c in "profile" "profile --format callgrind" "timeline -o /dev/null" "tail"; do
	# shellcheck disable=SC2086
	v=$(cost "$PFT" $c --jobs 1 $OPTS $SYMS "$T/tc2.bin")
	awk -v c="pft $c --jobs 1" -v v="$v" -v d="$dec" 'BEGIN { printf "%-40s %10s   ratio to decode: %.2f\n", c, v, d / v }'
done
[ $CG -eq 1 ] && exit 0

wallcpu() { # wallcpu cmd...: "WALL CPU" seconds of the fastest (wall-clock) of 3 runs
	b=""
	for _ in 1 2 3; do
		/usr/bin/time -f "%e %U %S" -o "$T/time" "$@" > /dev/null 2>&1 || true
		r=$(tail -n 1 "$T/time" | awk '{ printf "%.3f %.3f", $1, $2 + $3 }')
		if [ -z "$b" ] || awk -v a="${r%% *}" -v b="${b%% *}" 'BEGIN { exit !(a < b) }'; then b=$r; fi
	done
	echo "$b"
}

echo
echo "--jobs 1 against --jobs 2: $(getconf _NPROCESSORS_ONLN) cores online, load average before" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
echo "seconds of the fastest of 3 runs: wall-clock, and CPU (user + system, all threads)"
echo "speed-up = wall 1 / wall 2: meaningful only on an idle machine with 2 free cores"
echo "CPU cost = CPU 2 / CPU 1: the price of the threads, firm on a loaded machine too"
printf "%-32s %8s %8s %8s %8s %9s %9s\n" "command" "wall 1" "CPU 1" "wall 2" "CPU 2" "speed-up" "CPU cost"
for c in "profile" "timeline -o /dev/null" "tail" "coverage --format ranges -q"; do
	# shellcheck disable=SC2086
	one=$(wallcpu "$PFT" $c --jobs 1 $OPTS $SYMS "$T/tc2.bin")
	# shellcheck disable=SC2086
	two=$(wallcpu "$PFT" $c --jobs 2 $OPTS $SYMS "$T/tc2.bin")
	echo "$one $two" | awk -v c="pft $c" '{ printf "%-32s %8.3f %8.3f %8.3f %8.3f %8.2fx %8.2fx\n",
		c, $1, $2, $3, $4, ($3 > 0 ? $1 / $3 : 0), ($2 > 0 ? $4 / $2 : 0) }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
