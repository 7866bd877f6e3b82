#!/bin/sh
# The CLI end to end beside the library benchmarks and OpenCSD's library, on
# the same bytes in the same run, with the ratios printed.
#
# usage: bench/bench_cli.sh [MIB] [BUILD_DIR]      (default 64 MiB, build/)
#
# 1. bench_packet --save writes the stream it times (TC2 trace ID 0x13 from
#    its first A-sync, repeated to MIB MiB: raw PFT bytes) and prints
#    libpft's and OpenCSD's packet speed on it.
# 2. `pft dump --stats --jobs 1` (one thread) reads that file (raw layout, TC2's registers given
#    as options), timed with /usr/bin/time: user + system CPU seconds, peak
#    resident memory.
# 3. bench_flow MIB prints libpft's and OpenCSD's full decode on the same
#    bytes with kernel_dump.bin at 0xC0008000; `pft decode --stats` decodes
#    the file with the same image.
# 4. --jobs: `pft dump --stats` (on four times the bytes: it is fast),
#    `pft dump` (the listing, to /dev/null, on an eighth of the bytes), `pft decode --stats`
#    and `pft decode` (the text listing, to /dev/null, on 1/64 of the bytes); then every
#    source at once (TC2's snapshot with its capture repeated to MIB MiB, four sources:
#    `dump --id all --stats`, `decode --id all --stats`, `coverage --id all`), at --jobs 1, 2 and 8:
#    wall-clock and CPU (user + system) seconds, peak RSS, and the speed-up
#    of --jobs 2 over --jobs 1 in wall-clock time (the goal: 1.8x on an idle
#    2-core machine) with its CPU cost.  On a loaded machine the wall-clock
#    figures mean little: the load average is printed with them.
# 5. A SUMMARY: each goal of issue 13 with its figure (CLI at % of the
#    library, ratio to OpenCSD, --jobs 2 speed-ups, peak RSS).
# 6. PFT_BENCH_CALLGRIND=MIB (e.g. 8), if set: instruction counts under
#    callgrind, which the machine's load does not change: the CLI against
#    the library's loop on the same MIB MiB (bench_packet --only count and
#    bench_flow, --toggle-collect on the library's calls; the CLI's count is
#    its whole process: start, options, image, reading), and `dump --stats`
#    / `decode --stats` at --jobs 2 with --separate-threads=yes: the main
#    thread's share and the speed-up the counts allow on 2 cores, counting
#    the main thread (process start, reading, split, join) as serial.
#    The flow part runs bench_flow, OpenCSD included: minutes under
#    callgrind for 8 MiB.
# 7. The same as 4 for an ETMv3 stream: bench_etm3 --save writes MIB MiB of TC2
#    trace ID 0x10 (raw ETMv3 bytes, cycle-accurate); `pft dump --stats` and
#    `pft decode --stats` (with kernel_dump.bin) at --jobs 1, 2 and 8, and
#    the SPEED-UP lines.
# Ratios: OpenCSD's CPU time over the CLI's (the CLI's includes process start,
# option parsing, the probe and reading the file).  PFT_BENCH_EXTRA, if set,
# is a list of further raw PFT files with their options, one per line:
#     FILE|pft options for dump and decode
# (e.g. the recording made by bench/make_busybox_input.sh), timed the same way.
set -eu
MIB=${1:-64}
B=${2:-build}
SRC=$(cd "$(dirname "$0")/.." && pwd)
PFT=$B/pft
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
REGS="--format raw --etmcr 0x10001000 --etmccer 0x34C01AC2 --etmidr 0x411CF312 --etmtraceidr 0x13"
IMG="--image $SRC/data/TC2/kernel_dump.bin@0xC0008000"

cpu() { # cpu OUTFILE cmd...: CPU seconds and peak RSS (KiB) of cmd into $T/time
	out=$1; shift
	/usr/bin/time -f "%U %S %M" -o "$T/time" "$@" > "$out" 2>&1 || true # decode exits 1: see below
	tail -n 1 "$T/time" > "$T/time1" && mv "$T/time1" "$T/time"
	awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$T/time"
}
wall() { # wall OUTFILE cmd...: wall-clock s, CPU (user + system) s, peak RSS KiB
	out=$1; shift
	/usr/bin/time -f "%e %U %S %M" -o "$T/time" "$@" > "$out" 2>&1 || true
	tail -n 1 "$T/time" | awk '{ printf "%.3f %.3f %d\n", $1, $2 + $3, $4 }'
}
bestof() { # bestof MEASURE N OUTFILE cmd...: of N runs measured by MEASURE
	   # (cpu or wall), the one whose first number is least
	m=$1; n=$2; shift 2
	i=0; b=""
	while [ $i -lt "$n" ]; do
		r=$("$m" "$@")
		if [ -z "$b" ] || awk -v a="$r" -v b="$b" 'BEGIN { split(a, x); split(b, y); exit !(x[1] < y[1]) }'; then
			b=$r
		fi
		i=$((i + 1))
	done
	echo "$b"
}
best() { bestof cpu "$@"; }   # best N OUTFILE cmd...: the fastest of N runs (CPU time)
bestw() { bestof wall "$@"; } # bestw N OUTFILE cmd...: the least wall-clock time of N

echo "== packets: $MIB MiB of TC2 0x13 (raw PFT) =="
"$B/bench/bench_packet" --mib "$MIB" --reps 3 --save "$T/tc2.bin" | tee "$T/pkt"
bytes=$(stat -c %s "$T/tc2.bin")
secs() { awk -v w="$1" 'index($0, w) == 1 { s = $(NF - 1); sub(/^\(/, "", s); print s }' "$T/pkt"; }
ocsd_pkt=$(secs OpenCSD)
lib_pkt=$(secs "libpft (count)")
# shellcheck disable=SC2086
r=$(best 3 "$T/dump.out" "$PFT" dump --stats --jobs 1 $REGS "$T/tc2.bin")
set -- $r
awk -v t="$1" -v m="$2" -v n="$bytes" -v o="$ocsd_pkt" -v l="$lib_pkt" 'BEGIN {
	printf "pft dump --stats --jobs 1 %8.1f MB/s  (%.3f s CPU, peak RSS %d KiB)\n", n / t / 1e6, t, m
	printf "ratio CLI dump   %5.1fx OpenCSD   CLI at %.0f%% of the library (count, what it uses)\n", o / t, 100 * l / t }' |
	tee -a "$T/summary"
head -3 "$T/dump.out"

echo "== full decode: the same bytes, kernel_dump.bin at 0xC0008000 =="
"$B/bench/bench_flow" "$MIB" "$SRC/data" | tee "$T/flow"
ocsd_flow=$(awk '/^OpenCSD/ { for (i = 1; i <= NF; i++) if ($i == "in") print $(i + 1) }' "$T/flow")
lib_flow=$(awk '/^libpft/ { for (i = 1; i <= NF; i++) if ($i == "in") print $(i + 1) }' "$T/flow")
# shellcheck disable=SC2086
r=$(best 3 "$T/decode.out" "$PFT" decode --stats --jobs 1 $REGS $IMG "$T/tc2.bin")
set -- $r
insns=$(awk '/^libpft/ { print $3 }' "$T/flow")
awk -v t="$1" -v m="$2" -v i="$insns" -v o="$ocsd_flow" -v l="$lib_flow" 'BEGIN {
	printf "pft decode --stats --jobs 1 %7.1f M instr/s  (%.3f s CPU, peak RSS %d KiB)\n", i / t / 1e6, t, m
	printf "ratio CLI decode %5.1fx OpenCSD   CLI at %.0f%% of the library\n", o / t, 100 * l / t }' |
	tee -a "$T/summary"
head -3 "$T/decode.out"

jobs_case() { # jobs_case LABEL cmd...: the command at --jobs 1, 2, 8 and the speed-up
	label=$1; shift
	for j in 1 2 8; do
		r=$(bestw 3 "$T/jobs.out" "$@" --jobs "$j")
		echo "$r" | awk -v l="$label" -v j="$j" '{
			printf "%-22s --jobs %d  wall %7.3f s  CPU %7.3f s  peak RSS %7d KiB\n", l, j, $1, $2, $3 }'
		echo "$j $r" >> "$T/jobs.rows"
	done
	awk -v l="$label" '$1 == 1 { w1 = $2; c1 = $3; m1 = $4 } $1 == 2 { w2 = $2; c2 = $3; m2 = $4 }
		$1 == 8 { m8 = $4 } END {
		printf "SPEED-UP %-17s --jobs 2 over --jobs 1: %.2fx wall-clock (goal 1.8x), CPU cost %.2fx\n",
		       l, w1 / w2, c2 / c1
		printf "RSS      %-17s peak %.1f / %.1f / %.1f MB at --jobs 1 / 2 / 8\n",
		       l, m1 / 1024, m2 / 1024, m8 / 1024 }' "$T/jobs.rows" | tee -a "$T/summary"
	rm -f "$T/jobs.rows"
}
echo "== --jobs: one stream on several threads (load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores) =="
head -c $((MIB * 131072)) "$T/tc2.bin" > "$T/tc2s.bin"
cat "$T/tc2.bin" "$T/tc2.bin" "$T/tc2.bin" "$T/tc2.bin" > "$T/tc2x4.bin"
# shellcheck disable=SC2086
jobs_case "dump --stats (x4)" "$PFT" dump --stats $REGS "$T/tc2x4.bin"
# shellcheck disable=SC2086
jobs_case "dump (listing, 1/8)" "$PFT" dump -o /dev/null $REGS "$T/tc2s.bin"
# shellcheck disable=SC2086
jobs_case "decode --stats" "$PFT" decode --stats $REGS $IMG "$T/tc2.bin"
head -c $((MIB * 16384)) "$T/tc2.bin" > "$T/tc2l.bin"
# shellcheck disable=SC2086
jobs_case "decode (listing, 1/64)" "$PFT" decode -o /dev/null $REGS $IMG "$T/tc2l.bin"
# every source at once: TC2's snapshot, its capture repeated to MIB MiB
mkdir "$T/snap"
cp "$SRC"/data/TC2/*.ini "$SRC"/data/TC2/*.bin "$T/snap/"
n=$((MIB * 32)); i=0
while [ $i -lt "$n" ]; do cat "$SRC/data/TC2/cstrace.bin"; i=$((i + 1)); done > "$T/snap/cstrace.bin"
echo "== --jobs, --id all: TC2's snapshot, its capture $n times over ($(($(stat -c %s "$T/snap/cstrace.bin") >> 20)) MiB, 4 sources) =="
jobs_case "dump --id all --stats" "$PFT" dump --id all --stats "$T/snap"
jobs_case "decode --id all --stats" "$PFT" decode --id all --stats "$T/snap"
jobs_case "coverage --id all" "$PFT" coverage --id all --format ranges -o /dev/null "$T/snap"
echo "== --jobs, ETMv3: $MIB MiB of TC2 0x10 (raw ETMv3) (load average $(cut -d' ' -f1-3 /proc/loadavg)) =="
"$B/bench/bench_etm3" --mib "$MIB" --reps 1 --only pft --save "$T/e3.bin" > /dev/null
E3REGS="--format raw --etmcr 0x10001860 --etmidr 0x410CF250 --etmccer 0x344008F2 --etmtraceidr 0x10"
# shellcheck disable=SC2086
jobs_case "ETMv3 dump --stats" "$PFT" dump --stats $E3REGS "$T/e3.bin"
# shellcheck disable=SC2086
jobs_case "ETMv3 decode --stats" "$PFT" decode --stats $E3REGS $IMG "$T/e3.bin"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg) (wall-clock speed-ups need an idle machine)"

echo
echo "== SUMMARY ($MIB MiB; goals of issue 13: CLI within 10% of the library, --jobs 2 >= 1.8x) =="
grep -E "^(ratio|SPEED-UP|RSS)" "$T/summary"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores: the SPEED-UP lines are wall-clock and mean something only on an idle machine"

if [ -n "${PFT_BENCH_CALLGRIND:-}" ] && command -v valgrind > /dev/null; then
	C=$PFT_BENCH_CALLGRIND
	echo
	echo "== callgrind: instructions on $C MiB of the same stream (load-independent) =="
	"$B/bench/bench_packet" --mib "$C" --reps 1 --only count --save "$T/cg.bin" > /dev/null
	ir() { # ir NAME valgrind-options -- cmd...: instructions per thread into $T/NAME.N, their sum printed
		name=$1; shift
		valgrind --tool=callgrind --callgrind-out-file="$T/$name" "$@" > /dev/null 2>&1 || true
		cat "$T/$name"* | awk '/^totals:/ { s += $2 } END { printf "%.0f\n", s }'
	}
	# shellcheck disable=SC2086
	lp=$(ir lp --toggle-collect=run_pft_count --collect-atstart=no "$B/bench/bench_packet" --mib "$C" --reps 1 --only count)
	# shellcheck disable=SC2086
	cp=$(ir cp "$PFT" dump --stats --jobs 1 $REGS "$T/cg.bin")
	lf=$(ir lf "--toggle-collect=pft_flow_decoder_*" --collect-atstart=no "$B/bench/bench_flow" "$C" "$SRC/data")
	# shellcheck disable=SC2086
	cf=$(ir cf "$PFT" decode --stats --jobs 1 $REGS $IMG "$T/cg.bin")
	awk -v a="$lp" -v b="$cp" -v c="$lf" -v d="$cf" 'BEGIN {
		printf "packets: library loop %12.0f Ir, pft dump --stats   %12.0f Ir: CLI %+.1f%%\n", a, b, 100 * (b - a) / a
		printf "flow   : library loop %12.0f Ir, pft decode --stats %12.0f Ir: CLI %+.1f%%\n", c, d, 100 * (d - c) / c }'
	for cmd in dump decode; do
		if [ $cmd = dump ]; then extra=""; one=$cp; else extra=$IMG; one=$cf; fi
		# shellcheck disable=SC2086
		ir "j2$cmd" --separate-threads=yes "$PFT" $cmd --stats --jobs 2 $REGS $extra "$T/cg.bin" > /dev/null
		main=$(awk '/^totals:/ { print $2 }' "$T/j2$cmd-01")
		all=$(cat "$T/j2$cmd"-* | awk '/^totals:/ { s += $2 } END { printf "%.0f\n", s }')
		awk -v c="$cmd" -v o="$one" -v m="$main" -v a="$all" 'BEGIN {
			printf "%-6s --stats --jobs 2: main thread %11.0f Ir (%.1f%% of %.0f), --jobs 1 %.0f Ir: %.2fx on 2 cores if the main thread overlapped nothing\n",
			       c, m, 100 * m / a, a, o, o / (m + (a - m) / 2) }'
	done
fi

if [ -n "${PFT_BENCH_EXTRA:-}" ]; then
	echo "$PFT_BENCH_EXTRA" | while IFS='|' read -r f opts; do
		[ -n "$f" ] || continue
		echo "== $f =="
		# shellcheck disable=SC2086
		r=$(best 1 "$T/x.out" "$PFT" dump --stats $opts "$f"); set -- $r
		echo "pft dump --stats   $1 s CPU, peak RSS $2 KiB, $(du -sb "$f" | cut -f1) bytes"
		# shellcheck disable=SC2086
		r=$(best 1 "$T/x.out" "$PFT" decode --stats $opts "$f"); set -- $r
		echo "pft decode --stats $1 s CPU, peak RSS $2 KiB"
		grep -i "instructions" "$T/x.out" | head -1
	done
fi
