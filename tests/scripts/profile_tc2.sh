#!/bin/sh
# pft profile / timeline on real hardware trace: TC2's kernel run (PTM 0x13,
# binary image, no symbols: functions are call targets).
#   - the profile's instruction and cycle totals equal pft decode --stats;
#   - every gap of the trace (pft decode's events: memory not readable,
#     unknown address, unsynced bytes, packet errors, ... and every trace_on
#     after the first) is a gap instant on the timeline;
#   - callgrind_annotate, the speedscope schema and the timeline checks of
#     profile_consumers.py accept the files.
set -eu
: "${PFT_BIN:?}" "${PFT_DATA:?}" "${PFT_SOURCE:?}"
S="$PFT_SOURCE/tests/scripts"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
in="$PFT_DATA/TC2 --id 0x13"
# shellcheck disable=SC2086
"$PFT_BIN" decode $in --stats > "$T/stats"
insns=$(awk '$1 == "instructions" { print $2 }' "$T/stats")
gaps=$(awk '$1 == "trace_on" { n += $2 - 1 } $1 ~ /^(memory_not_readable|unknown_address|unsynced|packet_error|address_lost|inconsistent|sync_mismatch|jazelle)$/ { n += $2 } END { print n + 0 }' "$T/stats")
# shellcheck disable=SC2086
"$PFT_BIN" decode $in --json | python3 -c '
import json, sys
print(sum(json.loads(l).get("cycles", 0) for l in sys.stdin))' > "$T/cycles"
cyc=$(cat "$T/cycles")
# shellcheck disable=SC2086
"$PFT_BIN" profile $in > "$T/table"
# shellcheck disable=SC2086
"$PFT_BIN" profile $in --format callgrind -o "$T/p.callgrind"
# shellcheck disable=SC2086
"$PFT_BIN" profile $in --format speedscope -o "$T/p.speedscope"
# shellcheck disable=SC2086
"$PFT_BIN" timeline $in -o "$T/t.json"
fail=0
head -1 "$T/table" | grep -q "^# pft profile: $insns instructions, $cyc cycles;" || {
	echo "FAIL: profile header '$(head -1 "$T/table")', decode: $insns instructions, $cyc cycles"; fail=1; }
tl=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(1 for e in d["traceEvents"] if e["ph"] == "i" and e["cat"] == "gap"))' "$T/t.json")
if [ "$tl" != "$gaps" ]; then
	echo "FAIL: $tl gap instants on the timeline, $gaps gaps in the decode"; fail=1
fi
python3 "$S/profile_consumers.py" "$insns" "$cyc" -- "$T/p.callgrind" "$T/p.speedscope" "$T/t.json" || fail=1
echo "TC2: $insns instructions, $cyc cycles, $gaps gaps ($tl on the timeline)"
exit $fail
