#!/bin/sh
# A real Linux user-mode program nobody here wrote, end to end: Debian's
# statically linked busybox for armhf (scripts/fetch_busybox_armhf.sh, run by
# scripts/deps.sh) runs a shell loop under qemu-arm -singlestep -d
# exec,nochain (more than 10^6 instructions, mostly Thumb-2); pft record
# replays the qemu log with the code bytes from the busybox ELF and writes a
# snapshot; pft decode must give back exactly the instruction sequence qemu
# logged, which awk extracts here from the log itself (bit 23 of cs_base is
# the Thumb bit).  OpenCSD's decode of the same snapshot is compared too.
set -eu
: "${PFT_BIN:?}" "${PFT_SOURCE:?}"
BB=${PFT_BUSYBOX_ARMHF:-$PFT_SOURCE/build/armhf/bin/busybox}
if [ ! -x "$BB" ] || ! command -v qemu-arm >/dev/null 2>&1; then
	echo "SKIP: needs qemu-arm and $BB (scripts/fetch_busybox_armhf.sh)"; exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
N=${PFT_BUSYBOX_LOOPS:-50}

qemu-arm -cpu cortex-a15 -singlestep -d exec,nochain -D "$T/q.log" \
	"$BB" sh -c "i=0; while [ \$i -lt $N ]; do i=\$((i+1)); done; echo \$i" > "$T/out"
[ "$(cat "$T/out")" = "$N" ] || { echo "FAIL: busybox printed '$(cat "$T/out")'"; exit 1; }

awk '/^Trace / { s = $0; sub(/.*\[/, "", s); split(s, f, "/"); d = substr(f[1], 3, 1);
                 printf "%s %s\n", f[2], (d ~ /[89a-f]/ ? "T32" : "A32") }' "$T/q.log" > "$T/expected"
n=$(wc -l < "$T/expected")
t32=$(grep -c ' T32$' "$T/expected" || true)
if [ "$n" -lt 1000000 ]; then
	echo "FAIL: only $n instructions logged (need >= 10^6)"; exit 1
fi

"$PFT_BIN" record --qemu-log "$T/q.log" --elf "$BB" -o "$T/snap" --log "$T/rec.log" \
	--return-stack --cycle-accurate
rm -f "$T/q.log"
"$PFT_BIN" decode "$T/snap" --format addrs > "$T/decoded"
fail=0
if cmp -s "$T/expected" "$T/rec.log"; then
	echo "ok   pft record --log: $n instructions ($t32 T32) as qemu logged them"
else
	echo "FAIL: pft record --log differs from the qemu log"; diff "$T/expected" "$T/rec.log" | head -5; fail=1
fi
if cmp -s "$T/expected" "$T/decoded"; then
	echo "ok   pft decode of the recorded trace: the same $n instructions"
else
	echo "FAIL: pft decode differs from the qemu log ($(wc -l < "$T/decoded") lines)"
	diff "$T/expected" "$T/decoded" | head -5; fail=1
fi
if command -v trc_pkt_lister >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	python3 "$PFT_SOURCE/tests/scripts/record_opencsd.py" "$T/snap" "$T/expected" || fail=1
fi
exit $fail
