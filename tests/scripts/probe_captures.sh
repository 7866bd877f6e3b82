#!/bin/sh
# pft probe on every capture of the repository with its ini files removed (the
# trace file copied alone into an empty folder), against the truth the ini
# files and data/README.md give:
#   TC2/cstrace.bin          frames, wrapped; 0x13 PFT 1.1, cycle-accurate,
#                            timestamps, no context ID (device_8.ini ETMCR
#                            0x10001000); 0x10-0x12 ETMv3.5 (device_5-7.ini),
#                            never PFT
#   trace_cov_a15/PTM_0_2.bin raw PFT 1.1 (device5.ini ETMCR 0x20000400:
#                            return stack, which the bytes cannot tell)
# and the command lines it prints decode without errors; a snapshot folder
# is compared with its ini files; bad input fails cleanly.
set -eu
: "${PFT_BIN:?}" "${PFT_DATA:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
cp "$PFT_DATA/TC2/cstrace.bin" "$T/cstrace.bin"
cp "$PFT_DATA/trace_cov_a15/PTM_0_2.bin" "$T/ptm.bin"

"$PFT_BIN" probe --json "$T/cstrace.bin" > "$T/tc2.json"
"$PFT_BIN" probe --json "$T/ptm.bin" > "$T/cov.json"
python3 - "$T/tc2.json" "$T/cov.json" <<'PY' || fail=1
import json, sys
tc2 = json.load(open(sys.argv[1])); cov = json.load(open(sys.argv[2]))
bad = []
def want(what, got, exp):
    if got != exp: bad.append("%s: %r, expected %r" % (what, got, exp))
want("TC2 layout", tc2["layout"], "frames")
want("TC2 wrapped", tc2["wrapped"], True)
ids = {s["id"]: s for s in tc2["streams"]}
want("TC2 IDs", sorted(ids), [0x10, 0x11, 0x12, 0x13])
for i in (0x10, 0x11, 0x12):
    want("TC2 0x%02x protocol" % i, ids[i]["protocol"], "etmv3")
    # device_5-7.ini: ETMCR 0x10001860 (cycle-accurate, timestamps, no
    # context ID, no data trace), ETMIDR 0x410CF250 (ETMv3.5, original
    # branch encoding)
    for o, v in (("cycle_accurate", True), ("contextid_bytes", 0), ("timestamps", True),
                 ("alt_branch", False)):
        want("TC2 0x%02x %s" % (i, o), ids[i]["options"][o]["value"], v)
        if ids[i]["options"][o]["confidence"] not in ("medium", "high"):
            bad.append("TC2 0x%02x %s: confidence %s" % (i, o, ids[i]["options"][o]["confidence"]))
    want("TC2 0x%02x data_trace" % i, ids[i]["options"]["data_trace"]["value"], "off")
    want("TC2 0x%02x options" % i, ids[i]["options_line"],
         "--format frames --id 0x%02x --etmidr 0x410cf250 --cycle-accurate --timestamps" % i)
p = ids[0x13]
want("TC2 0x13 protocol", p["protocol"], "pft")
want("TC2 0x13 bytes", p["bytes"], 4533)
for o, v in (("version", "1.1"), ("cycle_accurate", True), ("timestamps", True),
             ("contextid_bytes", 0), ("vmid", False), ("branch_broadcast", False)):
    want("TC2 0x13 " + o, p["options"][o]["value"], v)
    if p["options"][o]["confidence"] not in ("medium", "high"):
        bad.append("TC2 0x13 %s: confidence %s" % (o, p["options"][o]["confidence"]))
want("TC2 0x13 return_stack confidence", p["options"]["return_stack"]["confidence"], "none")
want("TC2 0x13 options", p["options_line"], "--format frames --id 0x13 --cycle-accurate --timestamps")
want("cov layout", cov["layout"], "raw")
c = cov["streams"][0]
want("cov protocol", c["protocol"], "pft")
want("cov cycle_accurate", c["options"]["cycle_accurate"]["value"], False)
want("cov return_stack confidence", c["options"]["return_stack"]["confidence"], "none")
for b in bad: print("FAIL", b)
if bad: sys.exit(1)
print("ok   TC2/cstrace.bin: frames, wrapped, 0x13 PFT 1.1 CA+TS cid 0; 0x10-0x12 etmv3")
print("ok   trace_cov_a15/PTM_0_2.bin: raw PFT, not CA, return stack undetermined")
PY

# the command line probe prints decodes the PTM stream without an error
opts=$(python3 -c 'import json,sys; print([s for s in json.load(open(sys.argv[1]))["streams"] if s["protocol"]=="pft"][0]["options_line"])' "$T/tc2.json")
# shellcheck disable=SC2086
if ! "$PFT_BIN" decode "$T/cstrace.bin" $opts --image "$PFT_DATA/TC2/kernel_dump.bin@0xC0008000" \
	--stats > "$T/dec" 2> "$T/err"; then
	echo "FAIL decode with the probe's options: $(cat "$T/err")"; fail=1
else
	echo "ok   pft decode cstrace.bin $opts: no error"
fi

# the ETMv3 streams with the probe's options decode as with the snapshot's
# registers (whose decode equals DS-5's, etm3_decode)
for id in 0x10 0x11 0x12; do
	opts=$(python3 -c 'import json,sys; print([s for s in json.load(open(sys.argv[1]))["streams"] if s["id"]==int(sys.argv[2],16)][0]["options_line"])' "$T/tc2.json" $id)
	# shellcheck disable=SC2086
	"$PFT_BIN" decode "$T/cstrace.bin" $opts --image "$PFT_DATA/TC2/kernel_dump.bin@0xC0008000" \
		--format addrs > "$T/e3probe" 2> "$T/err" || true
	"$PFT_BIN" decode "$PFT_DATA/TC2" --id $id --format addrs > "$T/e3snap" 2>/dev/null || true
	if [ -s "$T/e3snap" ] && cmp -s "$T/e3probe" "$T/e3snap"; then
		echo "ok   pft decode cstrace.bin $opts: $(wc -l < "$T/e3snap") instructions, as with the snapshot"
	else
		echo "FAIL ETMv3 0x$id with the probe's options ($opts) differs from the snapshot's decode: $(head -c 300 "$T/err")"; fail=1
	fi
done

# pft decode / pft dump on the bare file, no layout or ID option: one line on
# stderr saying what was assumed, the PTM stream (0x13) only, ETMv3 skipped;
# the same output as with the options given
K="$PFT_DATA/TC2/kernel_dump.bin@0xC0008000"
if "$PFT_BIN" decode "$T/cstrace.bin" --image "$K" > "$T/auto" 2> "$T/autoerr" &&
   [ "$(wc -l < "$T/autoerr")" = 1 ] &&
   grep -q "reading it as --format frames --id 0x13 --cycle-accurate --timestamps; skipped: 0x10 etmv3, 0x11 etmv3, 0x12 etmv3" "$T/autoerr" &&
   "$PFT_BIN" decode "$T/cstrace.bin" --format frames --id 0x13 --cycle-accurate --timestamps --image "$K" > "$T/explicit" &&
   cmp -s "$T/auto" "$T/explicit"; then
	echo "ok   pft decode cstrace.bin with no options: $(cat "$T/autoerr")"
else
	echo "FAIL pft decode cstrace.bin with no options:"; cat "$T/autoerr"; fail=1
fi
"$PFT_BIN" dump "$T/ptm.bin" > /dev/null 2> "$T/autoerr" && grep -q "one raw stream, PFT 1.1: reading it as --format raw" "$T/autoerr" ||
	{ echo "FAIL pft dump ptm.bin with no options:"; cat "$T/autoerr"; fail=1; }
# a read with errors under a wrong assumption: the last message says what to try
hint() { # WANT ARGS...
	want=$1; shift
	"$PFT_BIN" "$@" > /dev/null 2> "$T/hint" && { echo "FAIL $*: exit 0"; fail=1; return; }
	if tail -1 "$T/hint" | grep -q -- "$want"; then echo "ok   $*: $(tail -1 "$T/hint")"
	else echo "FAIL $*: last message lacks '$want':"; cat "$T/hint"; fail=1; fi
}
hint "cycle-accurate on: try --format frames --id 0x13 --cycle-accurate --timestamps" dump "$T/cstrace.bin" --format frames --id 0x13
hint "trace ID 0x10 looks like etmv3, not PFT: try --format frames --id 0x13" decode "$T/cstrace.bin" --id 0x10 --image "$K"
hint "looks like frames, not raw: try --format frames --id 0x13" dump "$T/cstrace.bin" --format raw

# a raw PFT capture that also reads as plausible frames holding a little PFT
# by chance (found by probe_record): the raw reading decodes more and wins
if [ -f "${PFT_BUILD:-}/examples/irq.elf" ]; then
	"$PFT_BIN" record "$PFT_BUILD/examples/irq.elf" -o "$T/irq" -q --format raw --id 0x53 \
		--pft-version 1.0 --cycle-accurate --timestamps --return-stack
	"$PFT_BIN" probe --json "$T/irq/PTM_0.bin" > "$T/irq.json" || true
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); s=r["streams"][0]
sys.exit(0 if r["layout"]=="raw" and s["protocol"]=="pft" and s["options"]["cycle_accurate"]["value"] and s["options"]["timestamps"]["value"] else 1)' "$T/irq.json" &&
		echo "ok   raw capture that also reads as frames: raw" ||
		{ echo "FAIL raw capture that also reads as frames:"; cat "$T/irq.json"; fail=1; }
fi

# text output names the evidence and the command lines
"$PFT_BIN" probe "$T/cstrace.bin" > "$T/txt"
for s in "layout: frames" "0x10 .* etmv3" "0x13 .* pft 1.1" "pft dump $T/cstrace.bin --format frames --id 0x13"; do
	grep -q -- "$s" "$T/txt" || { echo "FAIL text output lacks '$s'"; fail=1; }
done

# a snapshot folder: probe compares with the ini files
"$PFT_BIN" probe "$PFT_DATA/TC2" > "$T/snap" || { echo "FAIL pft probe data/TC2"; fail=1; }
grep -q "PTM_0 (.*) trace ID 0x13.*ETMCR 0x10001000; probe: pft ETMCR 0x10001000" "$T/snap" ||
	{ echo "FAIL snapshot comparison"; cat "$T/snap"; fail=1; }

# no PFT: exit 1 with a message; bad input: exit 2; empty file: exit 1
head -c 5000 /dev/urandom > "$T/rand.bin"
set +e
"$PFT_BIN" probe "$T/rand.bin" > "$T/r" 2>&1; rc=$?
"$PFT_BIN" probe "$T/nonexistent" > /dev/null 2>&1; rc2=$?
: > "$T/empty.bin"; "$PFT_BIN" probe "$T/empty.bin" > /dev/null 2>&1; rc3=$?
"$PFT_BIN" probe --format bogus "$T/rand.bin" > /dev/null 2>&1; rc4=$?
set -e
[ $rc = 1 ] && grep -q "no PFT or ETMv3 stream" "$T/r" || { echo "FAIL random bytes: exit $rc"; cat "$T/r"; fail=1; }
[ $rc2 = 2 ] || { echo "FAIL missing file: exit $rc2"; fail=1; }
[ $rc3 = 1 ] || { echo "FAIL empty file: exit $rc3"; fail=1; }
[ $rc4 = 2 ] || { echo "FAIL bad --format: exit $rc4"; fail=1; }
"$PFT_BIN" probe --help | grep -q "Usage: pft probe" || { echo "FAIL --help"; fail=1; }
[ $fail = 0 ] && echo "probe_captures: all ok"
exit $fail
