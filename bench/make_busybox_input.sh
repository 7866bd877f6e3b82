#!/bin/sh
# A benchmark input at real scale: a snapshot holding more than 100 M traced
# instructions of a real program.  Debian's busybox for armhf
# (scripts/fetch_busybox_armhf.sh) runs a shell loop under qemu-arm
# -singlestep -d exec,nochain; pft record replays the log into a snapshot
# (PTM with return stack, cycle counts and timestamps, CoreSight frames);
# the snapshot's buffer is then repeated COPIES times (a whole number of
# 16-byte frames each, every copy starting with A-sync + I-sync), so that
# the input is COPIES times the recording.  Nothing is committed: run it.
#
# usage: bench/make_busybox_input.sh OUTDIR [COPIES] [LOOPS] [BUILD_DIR]
#        (default 24 copies of a 200-iteration loop: 4.36 M instructions
#        each, 104.6 M in all, 24.6 MB of frames)
# then:  pft decode OUTDIR --stats      pft dump OUTDIR --stats
set -eu
OUT=${1:?usage: make_busybox_input.sh OUTDIR [COPIES] [LOOPS] [BUILD_DIR]}
COPIES=${2:-24}
LOOPS=${3:-200}
B=${4:-build}
SRC=$(cd "$(dirname "$0")/.." && pwd)
BB=${PFT_BUSYBOX_ARMHF:-$SRC/build/armhf/bin/busybox}
if [ ! -x "$BB" ] || ! command -v qemu-arm >/dev/null 2>&1; then
	echo "make_busybox_input: needs qemu-arm and $BB (scripts/fetch_busybox_armhf.sh)" >&2
	exit 2
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
qemu-arm -cpu cortex-a15 -singlestep -d exec,nochain -D "$T/q.log" \
	"$BB" sh -c "i=0; while [ \$i -lt $LOOPS ]; do i=\$((i+1)); done; echo \$i" > "$T/out"
[ "$(cat "$T/out")" = "$LOOPS" ] || { echo "make_busybox_input: busybox failed" >&2; exit 1; }
rm -rf "$OUT"
"$B/pft" record --qemu-log "$T/q.log" --elf "$BB" -o "$OUT" \
	--return-stack --cycle-accurate --timestamps
rm -f "$T/q.log"
mv "$OUT/cstrace.bin" "$T/one.bin"
i=0
while [ $i -lt "$COPIES" ]; do
	cat "$T/one.bin"
	i=$((i + 1))
done > "$OUT/cstrace.bin"
echo "make_busybox_input: $OUT: $COPIES copies, $(stat -c %s "$OUT/cstrace.bin") bytes of frames"
