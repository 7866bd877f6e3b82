#!/usr/bin/env python3
"""pft dump --id all on TC2's snapshot: its three ETMv3 sources (0x10-0x12)
and its PFT source (0x13) in one listing.  Checks, in text, JSON Lines and
--stats:
  - every packet line carries its source (trace ID and name), and the lines
    of each source, without it, are byte for byte those of `pft dump TC2
    --id ID` alone (so no source is dropped, listed twice, or mixed up);
  - every source of the snapshot with data is in the listing, and the ones
    skipped (PTM_1 without data, the ITM) are named once on stderr;
  - the JSON capture offsets never go down (capture order);
  - --stats gives per source the summary of --id ID alone;
  - without --id the output is that of --id all.
usage: idall_dump.py PFT DATA_DIR"""
import json
import os
import re
import sys

from support import fail, failures, runner

PFT, DATA = sys.argv[1:3]
run = runner(PFT)
TC2 = os.path.join(DATA, "TC2")
IDS = {0x10: "ETM_0", 0x11: "ETM_1", 0x12: "ETM_2", 0x13: "PTM_0"}
TEXT_PFX = re.compile(r"^0x([0-9A-F]{2}) (\S+) ")
JSON_PFX = re.compile(r'^\{"trace_id":(\d+),"source":"([^"]*)",')


def per_source(lines, pfx, base, what):
    """Lines grouped by source, the prefix taken off: {id: [line]}."""
    per = {}
    for x in lines:
        m = pfx.match(x)
        if not m:
            fail("%s: a line without its source: %r" % (what, x[:80]))
            return {}
        tid = int(m.group(1), base)
        if IDS.get(tid) != m.group(2):
            fail("%s: source 0x%02x named %r" % (what, tid, m.group(2)))
        rest = x[m.end():]
        per.setdefault(tid, []).append("{" + rest if pfx is JSON_PFX else rest)
    return per


def alone(tid, *args):
    rc, out, err = run("dump", TC2, "--id", "0x%02x" % tid, *args)
    if rc not in (0, 1):
        fail("dump --id 0x%02x %s: exit %d: %s" % (tid, " ".join(args), rc, err))
    return out


total = 0
for args, pfx, base in (([], TEXT_PFX, 16), (["--json"], JSON_PFX, 10)):
    what = "--id all " + " ".join(args)
    rc, out, err = run("dump", TC2, "--id", "all", *args)
    if rc not in (0, 1):
        fail("%s: exit %d: %s" % (what, rc, err))
    body = [x for x in out.splitlines() if not x.startswith("#")]
    per = per_source(body, pfx, base, what)
    if sorted(per) != sorted(IDS):
        fail("%s: sources listed %s, want %s" % (what, [hex(k) for k in sorted(per)],
                                                  [hex(k) for k in sorted(IDS)]))
    for tid in sorted(IDS):
        one = [x for x in alone(tid, *args).splitlines() if not x.startswith("#")]
        if per.get(tid) != one:
            fail("%s: the lines of 0x%02x (%d) differ from --id 0x%02x alone (%d)" %
                 (what, tid, len(per.get(tid, [])), tid, len(one)))
    if err.count("skipped") != 1 or "0x14 (PTM1.1, no data" not in err or "0x00 (ITM, 36 bytes)" not in err:
        fail("%s: the skipped sources not named once: %r" % (what, err))
    if args:
        last = -1
        for x in body:
            c = json.loads(x)["capture_offset"]
            if c < last:
                fail("--json: capture offset goes down at %r" % x[:100])
                break
            last = c
    else:
        heads = [x for x in out.splitlines() if x.startswith("# pft dump")]
        if len(heads) != len(IDS):
            fail("text: %d source headers, want %d" % (len(heads), len(IDS)))
    total = len(body)
    rc0, out0, err0 = run("dump", TC2, *args)
    if (rc0, out0, err0) != (rc, out, err):
        fail("without --id %s: not the output of --id all" % " ".join(args))
# --stats: each source's summary as alone, in the order of the sources
for args in (["--stats"], ["--stats", "--json"]):
    rc, out, err = run("dump", TC2, "--id", "all", *args)
    want = "".join(alone(tid, *args) for tid in sorted(IDS))
    if out != want:
        fail("--id all %s: not the summaries of each source alone" % " ".join(args))
print("dump --id all of TC2: %d packets of 3 ETMv3 and 1 PFT sources, each as alone" % total)
sys.exit(1 if failures() else 0)
