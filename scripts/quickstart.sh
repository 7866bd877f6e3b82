#!/bin/sh
# Install dependencies, build pft, and run the main job on a bundled example:
# record a bare-metal program (examples/itblock.c, Thumb-2 with IT blocks)
# under the emulator with the software PTM, decode the trace it wrote, and
# check that the decode is exactly what the emulator executed.
set -e
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc 2>/dev/null || echo 2)"
PFT=./build/release/pft
ELF=build/release/examples/itblock.elf
OUT=build/release/quickstart
[ -f "$ELF" ] || { echo "quickstart: $ELF was not built (arm-none-eabi-gcc missing?)" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"

echo
echo "\$ pft record $ELF -o $OUT/trace --log $OUT/executed.txt --cycle-accurate --return-stack --irq-every 200"
$PFT record "$ELF" -o "$OUT/trace" --log "$OUT/executed.txt" --cycle-accurate --return-stack --irq-every 200
echo
echo "\$ pft decode $OUT/trace --elf $ELF   (an excerpt)"
$PFT decode "$OUT/trace" --elf "$ELF" > "$OUT/decoded.txt"
# the start, the first IT block with a failed conditional branch, the first
# interrupt and its return
it=$(grep -n -m 1 'ittee' "$OUT/decoded.txt" | cut -d: -f1)
ex=$(grep -n -m 1 '^-- exception ' "$OUT/decoded.txt" | cut -d: -f1)
sed -n "1,4p" "$OUT/decoded.txt"
echo "   ..."
[ -n "$it" ] && sed -n "$((it - 1)),$((it + 10))p" "$OUT/decoded.txt" && echo "   ..."
[ -n "$ex" ] && sed -n "$((ex - 2)),$((ex + 10))p" "$OUT/decoded.txt" && echo "   ..."
echo
$PFT decode "$OUT/trace" --format addrs > "$OUT/decoded_addrs.txt"
n=$(wc -l < "$OUT/executed.txt")
if cmp -s "$OUT/executed.txt" "$OUT/decoded_addrs.txt"; then
	echo "verdict: OK: the decoded trace is exactly the $n instructions the emulator executed"
else
	echo "verdict: MISMATCH: decoded trace differs from the executed-instruction log (diff $OUT/executed.txt $OUT/decoded_addrs.txt)"
	exit 1
fi
