#!/usr/bin/env python3
"""pft decode --id all: every PFT and ETMv3 source at once.

tc2: TC2's snapshot (0x10-0x12 ETMv3.5, 0x13 PFT, all with timestamps).
  - every line of the listing (text, --ranges, --format addrs, --stats,
    JSON) starts with its source, and the lines of one source, without it,
    are byte for byte those of `--id ID` alone;
  - without --id the output is that of --id all;
  - the timestamps of all sources, in the merged order, never go down;
  - the ETMv3 sources' instructions in the merged --format addrs equal
    DS-5's rows (data/TC2/ds5-dumps/etmv3_0xNN.txt), an oracle apart from
    pft;
  - the sources skipped (PTM_1 without data, the ITM) are named once on
    stderr;
  - TC2's capture 300 times over: per source the --stats of --id ID alone
    (--stats reads the sources in turn); merged through one source group
    whose members fall behind by more than its lag bound, per source the
    --format addrs of --id ID alone.

order: recordings of three programs (pft record --timestamps, each with its
  own cycle model, trace ID and IRQs), framed together by libpft's frame
  encoder (through ctypes) in runs of random lengths, so that capture order
  says nothing of time, into one snapshot with a core and a PTM each.  The
  time of every instruction is known from the recording: its cycle count
  (--cycles N: N per instruction and per exception entry, the log's '!'
  lines), which is the timestamp clock.  Checks:
  - per source, the decode equals the recording's log and the one-source run;
  - the key of each item (the value of its source's first timestamp at or
    after it; the last one after the last) never goes down in the merged
    order, and is never below the item's true time: so every instruction
    listed before another ran no later than the other's key;
  - the sources do interleave (a merge source by source fails).
usage: decode_all.py tc2|order PFT DATA_DIR [LIBPFT_SO EXAMPLES_DIR]"""
import json
import os
import re
import sys
import tempfile

from support import CORES, fail, failures, load_libpft, record_cores, runner

MODE, PFT, DATA = sys.argv[1:4]
run = runner(PFT)


TEXT_PFX = re.compile(r"^(0x[0-9A-F]{2}) (\S+) ")
JSON_PFX = re.compile(r'^\{"trace_id":(\d+),"source":"([^"]*)",')


def split_text(out):
    """{trace ID: lines without the source}, or None if a line lacks it."""
    per = {}
    for line in out.splitlines():
        m = TEXT_PFX.match(line)
        if not m:
            fail("a line without its source: %r" % line)
            return None
        per.setdefault(int(m.group(1), 16), []).append(line[m.end():])
    return per


def split_json(out):
    per, order = {}, []
    for line in out.splitlines():
        m = JSON_PFX.match(line)
        if not m:
            fail("a JSON line without trace_id and source first: %r" % line)
            return None, None
        tid = int(m.group(1))
        rest = "{" + line[m.end():]
        per.setdefault(tid, []).append(rest)
        order.append((tid, json.loads(rest)))
    return per, order


def same_per_source(per, snap, ids, args, what):
    for tid in ids:
        rc, out, err = run("decode", snap, "--id", "0x%02x" % tid, *args)
        if out.splitlines() != per.get(tid):
            fail("%s: the lines of 0x%02x differ from --id 0x%02x alone (%d vs %d)" %
                 (what, tid, tid, len(per.get(tid, [])), len(out.splitlines())))


def tc2():
    snap = os.path.join(DATA, "TC2")
    ids = [0x10, 0x11, 0x12, 0x13]
    for args in ([], ["--ranges"], ["--format", "addrs"], ["--stats"]):
        rc, out, err = run("decode", snap, "--id", "all", *args)
        if rc != 0:
            fail("--id all %s: exit %d: %s" % (" ".join(args), rc, err))
        per = split_text(out)
        if per is None:
            continue
        if sorted(per) != ids:
            fail("IDs listed: %s" % [hex(i) for i in sorted(per)])
        same_per_source(per, snap, ids, args, "text " + " ".join(args))
        if err.count("skipped") != 1 or "0x14 (PTM1.1, no data" not in err or "ITM" not in err:
            fail("the skipped sources are not named once: %r" % err)
        if args == ["--format", "addrs"]:
            for tid in ids[:3]:
                ds5 = []
                with open(os.path.join(snap, "ds5-dumps", "etmv3_0x%02x.txt" % tid)) as f:
                    for row in f:
                        col = row.rstrip("\n").split("\t")
                        if col[0] == "Instruction":
                            ds5.append(col[2][4:].lower())
                mine = [x.split()[0] for x in per[tid]]
                if len(ds5) < 1000 or mine != ds5:
                    fail("0x%02x: merged instructions differ from DS-5 (%d vs %d)" %
                         (tid, len(mine), len(ds5)))
        rc2, out2, err2 = run("decode", snap, *args)
        if out2 != out:
            fail("without --id: not the output of --id all (%s)" % " ".join(args))
    # TC2's capture 300 times over (9.4 MiB, each copy starting the
    # timestamps again): per source the totals of --id alone (--stats reads
    # each source to its end in turn); and, merged by time through one
    # source group, the sources fall behind each other by more than the
    # group's lag bound and read the capture alone: per source the
    # addresses of --id alone
    with tempfile.TemporaryDirectory() as t:
        big = os.path.join(t, "TC2")
        os.mkdir(big)
        for f in os.listdir(snap):
            if os.path.isfile(os.path.join(snap, f)):
                data = open(os.path.join(snap, f), "rb").read()
                open(os.path.join(big, f), "wb").write(data * 300 if f == "cstrace.bin" else data)
        rc, out, err = run("decode", big, "--id", "all", "--stats")
        per = split_text(out)
        if rc != 0 or per is None or sorted(per) != ids:
            fail("repeated TC2 --id all --stats: exit %d: %s" % (rc, err))
        else:
            same_per_source(per, big, ids, ["--stats"], "repeated TC2 --stats")
        for jobs in ("1", "3"):
            rcj, outj, errj = run("decode", big, "--id", "all", "--stats", "--jobs", jobs)
            if (rcj, outj) != (rc, out):
                fail("repeated TC2 --id all --stats --jobs %s: not the default's output" % jobs)
        rc, out, err = run("decode", big, "--id", "all", "--format", "addrs")
        per = split_text(out)
        if rc != 0 or per is None or sorted(per) != ids:
            fail("repeated TC2 --id all --format addrs: exit %d: %s" % (rc, err))
        else:
            same_per_source(per, big, ids, ["--format", "addrs"], "repeated TC2 addrs")
    rc, out, err = run("decode", snap, "--id", "all", "--json")
    per, order = split_json(out)
    if per is None:
        return
    same_per_source(per, snap, ids, ["--json"], "JSON")
    ts = [(t, o["timestamp"]) for t, o in order if o.get("event") == "timestamp"]
    back = [i for i in range(1, len(ts)) if ts[i][1] < ts[i - 1][1]]
    if back or len(ts) < 100 or len({t for t, _ in ts}) != 4:
        fail("timestamps: %d, %d go down, from %d sources" % (len(ts), len(back),
                                                              len({t for t, _ in ts})))
    print("TC2 --id all: %d lines from 4 sources, %d timestamps in order" % (len(order), len(ts)))
    # pft timeline --id all: a track group (pid) per source, named, each the
    # events of that source's own timeline
    with tempfile.TemporaryDirectory() as t:
        out = os.path.join(t, "all.json")
        rc, _, err = run("timeline", snap, "--id", "all", "--ts-freq", "24000000", "-o", out)
        if rc or "0x14 (PTM1.1, no data, 0 bytes)" not in err:
            fail("timeline --id all: exit %d: %s" % (rc, err))
        ev = json.load(open(out))["traceEvents"]
        names = {e["pid"]: e["args"]["name"] for e in ev if e.get("name") == "process_name"}
        if names != {1: "0x10 ETM_0", 2: "0x11 ETM_1", 3: "0x12 ETM_2", 4: "0x13 PTM_0"}:
            fail("timeline --id all: track groups %r" % names)
        for pid, tid in ((1, 0x10), (2, 0x11), (3, 0x12), (4, 0x13)):
            one = os.path.join(t, "one.json")
            run("timeline", snap, "--id", "0x%02x" % tid, "--ts-freq", "24000000", "-o", one)
            want = json.load(open(one))["traceEvents"]
            got = [dict(e, pid=1) for e in ev if e["pid"] == pid and e.get("name") != "process_name"]
            if got != want or len(want) < 100:
                fail("timeline --id all: the events of 0x%02x differ from its own timeline "
                     "(%d vs %d)" % (tid, len(got), len(want)))
        print("timeline --id all: %d events in 4 track groups" % len(ev))


def build(lib, examples, t, name, timestamps):
    """The CORES recorded and framed into t/name (support.record_cores)."""
    return record_cores(run, lib, examples, t, name, timestamps, CORES)


def capture_order(snap):
    """Without timestamps: the events of the merged decode, placed in the
    capture by pft dump --id all's offset map, never go back."""
    rc, out, err = run("decode", snap, "--json", "--no-disasm")
    per, merged = split_json(out)
    if rc or per is None:
        fail("untimed decode: exit %d: %s" % (rc, err))
        return
    capmap = {}
    rc, dump, err = run("dump", snap, "--id", "all", "--json")
    for line in dump.splitlines():
        o = json.loads(line)
        capmap[(o["trace_id"], o["offset"])] = o["capture_offset"]
    last, back, n, switches, prev = -1, 0, 0, 0, None
    for tid, o in merged:
        if tid != prev:
            switches += 1
            prev = tid
        if "event" not in o or (tid, o["offset"]) not in capmap:
            continue
        n += 1
        c = capmap[(tid, o["offset"])]
        if c < last:
            back += 1
        last = max(last, c)
    if back or n < 100 or switches < 10:
        fail("untimed: %d of %d events placed before an earlier one in the capture, "
             "%d changes of source" % (back, n, switches))
    else:
        print("3 recordings without timestamps: %d events in capture order, %d changes of "
              "source" % (n, switches))


def order(lib_so, examples):
    if not os.path.exists(os.path.join(examples, CORES[0][0] + ".elf")):
        print("SKIP: no example programs in %s (no ARM cross compiler)" % examples)
        sys.exit(77)
    lib = load_libpft(lib_so)
    with tempfile.TemporaryDirectory() as t:
        t = os.environ.get("DECODE_ALL_KEEP", t)  # a folder to keep the snapshots in
        built = build(lib, examples, t, "untimed", False)
        if built:
            capture_order(built[0])
        built = build(lib, examples, t, "snap", True)
        if not built:
            return
        snap, streams, times, logs = built
        rc, out, err = run("decode", snap, "--json", "--no-disasm")
        if rc:
            fail("decode of the three recordings: exit %d: %s" % (rc, err))
        per, merged = split_json(out)
        if per is None:
            return
        ids = sorted(streams)
        if sorted(per) != ids:
            fail("IDs: %s" % sorted(per))
            return
        for k, tid in enumerate(ids):
            r1, o1, e1 = run("decode", snap, "--source", "PTM_%d" % k, "--json", "--no-disasm")
            if o1.splitlines() != per[tid]:
                fail("0x%02x: not the lines of --source PTM_%d" % (tid, k))
            addrs = ["%s %s" % (o["addr"][2:].rjust(8, "0"), o["isa"])
                     for tt, o in merged if tt == tid and "event" not in o]
            if addrs != logs[tid]:
                fail("0x%02x: decode differs from the recording's log (%d vs %d)" %
                     (tid, len(addrs), len(logs[tid])))
        # keys: each source's next timestamp at or after the item
        key = [None] * len(merged)
        nxt, last = {}, {}
        for i in range(len(merged) - 1, -1, -1):
            tid, o = merged[i]
            if o.get("event") == "timestamp":
                nxt[tid] = o["timestamp"]
            key[i] = nxt.get(tid)
        for i, (tid, o) in enumerate(merged):
            if o.get("event") == "timestamp":
                last[tid] = o["timestamp"]
            if key[i] is None:
                key[i] = last.get(tid, 0)
        down = [i for i in range(1, len(key)) if key[i] < key[i - 1]]
        if down:
            fail("the merged keys go down at %d places, first at line %d" % (len(down), down[0]))
        late = worst = switches = 0
        ran = 0  # latest true time listed so far
        prev = None
        for i, (tid, o) in enumerate(merged):
            if tid != prev:
                switches += 1
                prev = tid
            if "event" in o:
                continue
            tt = times[tid][o["index"]]
            if tt > key[i]:
                late += 1
            ran = max(ran, tt)
            worst = max(worst, ran - key[i])
        if late or worst > 0:
            fail("%d instructions after their key; an instruction listed after one that ran "
                 "%d later than its key" % (late, worst))
        if switches < 50:
            fail("only %d changes of source: not a time merge" % switches)
        print("3 recordings: %d lines, %d changes of source, keys in order, every instruction "
              "listed after those that ran before its key" % (len(merged), switches))


if MODE == "tc2":
    tc2()
else:
    order(sys.argv[4], sys.argv[5])
sys.exit(1 if failures() else 0)
