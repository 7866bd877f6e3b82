#!/usr/bin/env python3
"""--id all in the analysis commands (pft coverage, profile, tail,
timeline): every PFT and ETMv3 source of one input, checked against the
one-source runs (--id ID), so that a source dropped or counted twice fails.

tc2: TC2's snapshot (0x10-0x12 ETMv3.5, 0x13 PFT; PTM_1 without data and
  the ITM skipped):
  - coverage: per instruction, the counts (executions, taken, not taken) of
    --id all are the sums of the four one-source runs (--format insns and
    listing); --format ranges: the same instructions executed in all and
    the same address ranges covered;
  - profile: per function, self, inclusive, calls and the exception parts
    are the sums of the one-source tables (instructions, cycles, time);
    each source's part in the table header and speedscope's pft_sources is
    the total of its own run; the folded stacks are the sums; callgrind's
    totals are the sum and callgrind_annotate reads the file;
  - tail: one block per source, each exactly the report of --id ID, in the
    order of their last timestamps;
  - timeline: see decode_all.py tc2 (each track group equals its own
    timeline); here: the sources interleave in the file;
  - without --id, every command gives the output of --id all; the skipped
    sources are named once on stderr.
cores: three recordings of one program (pft record --timestamps, different
  cycle models, IRQ periods and trace IDs) framed together into one
  snapshot, a core each: coverage against the program's ELF (lcov DA, BRDA,
  FNDA and autofdo body counts: the sums of the one-source runs), profile
  with its symbols (table sums, callgrind_annotate).
usage: idall_analysis.py tc2 PFT DATA_DIR | cores PFT DATA_DIR LIBPFT_SO EXAMPLES_DIR"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from support import fail, failures, load_libpft, record_cores, runner

MODE, PFT, DATA = sys.argv[1:4]
run = runner(PFT)


def ok_run(*args):
    """pft's output; a failure counted unless it exits 0 or 1."""
    rc, out, err = run(*args)
    if rc not in (0, 1):
        fail("pft %s: exit %d: %s" % (" ".join(args), rc, err.strip()[:300]))
    return out, err


def summed(outs, parse):
    """The sum of the Counters parse gives for each output."""
    tot = collections.Counter()
    for o in outs:
        tot.update(parse(o))
    return +tot


def per_insn(text):
    """--format insns (ADDR ISA COUNT TAKEN NOT_TAKEN) or listing (COUNT
    ADDR ISA ..., or gcov's COUNT:LINE:source with DWARF): counts per
    instruction, or per line."""
    c, src = collections.Counter(), None
    for line in text.splitlines():
        m = re.match(r"\s*(\d+|-|#####):\s*(\d+):(.*)", line)  # gcov style (DWARF)
        if m:
            if m.group(2) == "0" and m.group(3).startswith("Source:"):
                src = m.group(3)
            elif m.group(1).isdigit():
                c[(src, m.group(2), "n")] += int(m.group(1))
            continue
        x = line.split()
        if not x or line.startswith("#"):
            continue
        if re.fullmatch(r"[0-9a-f]{8}", x[0]) and len(x) >= 5:  # insns
            c[(x[0], x[1], "n")] += int(x[2])
            c[(x[0], x[1], "t")] += int(x[3])
            c[(x[0], x[1], "f")] += int(x[4])
        elif len(x) >= 3 and x[0].isdigit() and re.fullmatch(r"[0-9a-f]{8}", x[1]):
            c[(x[1], x[2], "n")] += int(x[0])
    return c


def ranges_of(text):
    """--format ranges: (instructions executed, the address ranges covered)."""
    n, cov = 0, set()
    for line in text.splitlines():
        x = line.split()
        if line.startswith("#") or len(x) < 5:
            continue
        n += int(x[3]) * int(x[4])
        cov.add((int(x[0], 16), int(x[1], 16)))
    merged = []
    for a, b in sorted(cov):
        if merged and a <= merged[-1][1] + 4:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return n, merged


def prof_table(text):
    """The table's per-function sums (self, incl, calls, self-exc,
    incl-exc), and the per-call extremes."""
    c, lo, hi = collections.Counter(), {}, {}
    for line in text.splitlines():
        if line.startswith("#") or line.lstrip().startswith("self%"):
            continue
        x = line.split(None, 9)
        name = x[9]
        for k, i in (("self", 1), ("incl", 2), ("calls", 3), ("sx", 7), ("ix", 8)):
            c[(name, k)] += int(x[i])
        if x[4] != "-":
            lo[name] = min(lo.get(name, 1 << 64), int(x[4]))
            hi[name] = max(hi.get(name, 0), int(x[6]))
    return c, lo, hi


def header_total(text):
    """The table's first line: (instructions, calls, gaps)."""
    m = re.match(r"# pft profile: (\d+) instructions.*; (\d+) calls, (\d+) trace gaps", text)
    return tuple(int(v) for v in m.groups()) if m else None


def folded(text):
    c = collections.Counter()
    for line in text.splitlines():
        stack, _, n = line.rpartition(" ")
        c[stack] += int(n)
    return c


def check_coverage(snap, ids, extra, formats):
    for fmt in formats:
        out, err = ok_run("coverage", snap, "--id", "all", "--format", fmt, *extra)
        ones = [ok_run("coverage", snap, "--id", "0x%02x" % t, "--format", fmt, *extra)[0]
                for t in ids]
        if fmt in ("insns", "listing"):
            got, want = +per_insn(out), summed(ones, per_insn)
            if got != want or not want:
                fail("coverage --format %s: --id all is not the sum of the %d sources (%d vs "
                     "%d counts)" % (fmt, len(ids), len(got), len(want)))
        elif fmt == "ranges":
            n, cov = ranges_of(out)
            parts = [ranges_of(o) for o in ones]
            cov1 = ranges_of("\n".join("%x %x T32 0 0" % (a, b) for _, r in parts for a, b in r))[1]
            if n != sum(p[0] for p in parts) or cov != cov1 or not n:
                fail("coverage --format ranges: %d instructions (sum %d), %d ranges (union %d)" %
                     (n, sum(p[0] for p in parts), len(cov), len(cov1)))
        elif fmt == "lcov":
            got, want = lcov(out), summed(ones, lcov)
            if got != want or not want:
                fail("coverage lcov: --id all is not the sum of the sources (%d vs %d records)" %
                     (len(got), len(want)))
        elif fmt == "autofdo":
            got, want = autofdo(out), summed(ones, autofdo)
            if got != want or not want:
                fail("coverage autofdo: --id all is not the sum of the sources (%d vs %d)" %
                     (len(got), len(want)))
        # the sources counted one after the other (--jobs 1) or several at
        # a time on threads (the default: the cores; --jobs 3): the same
        # output and messages
        for jobs in ("1", "3"):
            if ok_run("coverage", snap, "--id", "all", "--format", fmt, "--jobs", jobs,
                      *extra) != (out, err):
                fail("coverage --format %s --jobs %s: not the default's output" % (fmt, jobs))
        m = re.search(r"1 input\(s\) \((\d+) sources\), (\d+) instructions", err)
        if not m or int(m.group(1)) != len(ids):
            fail("coverage --format %s: the summary does not count %d sources: %r" %
                 (fmt, len(ids), err[:300]))


def lcov(text):
    """DA (per line), BRDA (per branch) and FNDA (per function) counts."""
    c, sf = collections.Counter(), None
    for line in text.splitlines():
        if line.startswith("SF:"):
            sf = line[3:]
        elif line.startswith("DA:"):
            ln, n = line[3:].split(",")[:2]
            c[(sf, "DA", ln)] += int(n)
        elif line.startswith("BRDA:"):
            ln, blk, br, n = line[5:].split(",")
            c[(sf, "BR", ln, blk, br)] += 0 if n == "-" else int(n)
        elif line.startswith("FNDA:"):
            n, fn = line[5:].split(",", 1)
            c[(sf, "FN", fn)] += int(n)
    return c


def autofdo(text):
    """AutoFDO text: the range and branch counts (lines 'a-b:n', 'a->b:n')."""
    c = collections.Counter()
    for line in text.splitlines():
        m = re.fullmatch(r"\s*([0-9a-fx]+(?:-|->)[0-9a-fx]+):(\d+)", line)
        if m:
            c[m.group(1)] += int(m.group(2))
    return c


def check_profile(snap, ids, extra, weights):
    for w in weights:
        out, err = ok_run("profile", snap, "--id", "all", "--weight", w[0], *(w[1:] + extra))
        ones = [ok_run("profile", snap, "--id", "0x%02x" % t, "--weight", w[0],
                       *(w[1:] + extra))[0] for t in ids]
        got, want = prof_table(out), [prof_table(o) for o in ones]
        sums = summed([x[0] for x in want], lambda c: c)
        lo, hi = {}, {}
        for x in want:
            for k, v in x[1].items():
                lo[k] = min(lo.get(k, 1 << 64), v)
            for k, v in x[2].items():
                hi[k] = max(hi.get(k, 0), v)
        if +got[0] != sums or got[1] != lo or got[2] != hi or not sums:
            fail("profile --weight %s: --id all is not the sum of the %d sources (%d vs %d)" %
                 (w[0], len(ids), len(+got[0]), len(sums)))
        parts = re.findall(r"^# source 0x([0-9A-F]{2})\S*( \S+)?: (\d+) instructions.*; (\d+) "
                           r"calls, (\d+) trace gaps$", out, re.M)
        tot = header_total(out)
        if [int(p[0], 16) for p in parts] != ids or \
                [tuple(int(v) for v in p[2:]) for p in parts] != [header_total(o) for o in ones] \
                or tot != tuple(map(sum, zip(*[header_total(o) for o in ones]))):
            fail("profile --weight %s: the sources' parts in the header are not their own "
                 "totals: %r" % (w[0], parts))
    # folded: the stacks' sums; speedscope: each source's part
    out = ok_run("profile", snap, "--id", "all", "--format", "folded", *extra)[0]
    ones = [ok_run("profile", snap, "--id", "0x%02x" % t, "--format", "folded", *extra)[0]
            for t in ids]
    if folded(out) != summed(ones, folded):
        fail("profile --format folded: --id all is not the sum of the sources")
    out = ok_run("profile", snap, "--id", "all", "--format", "speedscope", *extra)[0]
    try:
        d = json.loads(out)
        src = [(s["trace_id"], s["instructions"], s["calls"], s["gaps"]) for s in d["pft_sources"]]
        if src != [(t,) + header_total(ok_run("profile", snap, "--id", "0x%02x" % t, *extra)[0])
                   for t in ids] or sum(d["profiles"][0]["weights"]) != sum(s[1] for s in src):
            fail("profile speedscope: pft_sources %r" % src)
    except (ValueError, KeyError, TypeError) as e:
        fail("profile speedscope: %s" % e)
    # callgrind: the totals the sum; callgrind_annotate reads it
    with tempfile.TemporaryDirectory() as t:
        cg = os.path.join(t, "callgrind.out.all")
        ok_run("profile", snap, "--id", "all", "--format", "callgrind", "-o", cg, *extra)
        tot = open(cg).read().split("\ntotals: ")[1].split()
        want = [0] * len(tot)
        for i in ids:
            one = os.path.join(t, "one")
            ok_run("profile", snap, "--id", "0x%02x" % i, "--format", "callgrind", "-o", one, *extra)
            for k, v in enumerate(open(one).read().split("\ntotals: ")[1].split()):
                want[k] += int(v)
        if [int(v) for v in tot] != want:
            fail("profile callgrind: totals %s, the sources' sum %s" % (tot, want))
        if shutil.which("callgrind_annotate"):
            r = subprocess.run(["callgrind_annotate", cg], capture_output=True, text=True)
            if r.returncode or r.stderr.strip() or "Source 0x%02X" % ids[0] not in r.stdout:
                fail("callgrind_annotate: exit %d: %s" % (r.returncode, r.stderr[:300]))


def check_tail(snap, ids, extra):
    out, err = ok_run("tail", snap, "--id", "all", "-n", "12", *extra)
    blocks = re.split(r"^## source 0x([0-9A-F]{2})\S*(?: \S+)?(?:: last timestamp (\d+))?\n",
                      out, flags=re.M)
    got = {int(blocks[i], 16): (blocks[i + 1], blocks[i + 2]) for i in range(1, len(blocks), 3)}
    order = [int(blocks[i], 16) for i in range(1, len(blocks), 3)]
    if sorted(got) != sorted(ids):
        fail("tail --id all: sources %s" % [hex(i) for i in order])
        return
    for t in ids:
        one = ok_run("tail", snap, "--id", "0x%02x" % t, "-n", "12", *extra)[0]
        if got[t][1].rstrip("\n") != one.rstrip("\n"):
            fail("tail --id all: the block of 0x%02x is not its own report" % t)
    ts = [int(got[t][0]) for t in order if got[t][0]]
    if len(ts) == len(ids) and (ts != sorted(ts) or "in the order their traces end" not in out):
        fail("tail --id all: not in the order of the last timestamps: %s" % ts)


def check_default(snap, extra):
    with tempfile.TemporaryDirectory() as t:
        for cmd in (["coverage", "--format", "insns"], ["profile"], ["tail"],
                    ["timeline", "-o", os.path.join(t, "x.json")]):
            a = run(*(cmd + [snap] + extra))
            if cmd[0] == "timeline":
                a = a + (open(os.path.join(t, "x.json")).read(),)
            b = run(*(cmd + [snap, "--id", "all"] + extra))
            if cmd[0] == "timeline":
                b = b + (open(os.path.join(t, "x.json")).read(),)
            if a != b:
                fail("%s without --id: not the output of --id all" % cmd[0])


def tc2():
    snap = os.path.join(DATA, "TC2")
    ids = [0x10, 0x11, 0x12, 0x13]
    check_coverage(snap, ids, [], ["insns", "listing", "ranges"])
    check_profile(snap, ids, [], [["insns"], ["cycles"], ["time", "--ts-freq", "24000000"]])
    check_tail(snap, ids, [])
    check_default(snap, [])
    for cmd in (["coverage"], ["profile"], ["tail"], ["timeline", "-o", "-"]):
        err = run(*(cmd + [snap]))[2]
        if err.count("skipped") != 1 or "0x14 (PTM1.1, no data, 0 bytes)" not in err or \
                "0x00 (ITM, 36 bytes)" not in err:
            fail("%s: the skipped sources are not named once: %r" % (cmd[0], err[:300]))
    # timeline: the sources' events interleave (merged as decode --id all)
    out = run("timeline", snap, "--ts-freq", "24000000", "-o", "-")[1]
    pids = [e["pid"] for e in json.loads(out)["traceEvents"] if e.get("ph") != "M"]
    changes = sum(1 for i in range(1, len(pids)) if pids[i] != pids[i - 1])
    if changes < 20:
        fail("timeline --id all: %d changes of source in %d events (not merged)" %
             (changes, len(pids)))
    print("TC2: coverage, profile, tail and timeline --id all equal the sums / reports of "
          "the 4 sources (timeline: %d changes of source)" % changes)


def cores(lib_so, examples):
    if not os.path.exists(os.path.join(examples, "qsort.elf")):
        print("SKIP: no example programs in %s (no ARM cross compiler)" % examples)
        sys.exit(77)
    lib = load_libpft(lib_so)
    cs = [("qsort", 1, 0x21, 97), ("qsort", 3, 0x22, 61), ("qsort", 2, 0x23, 113)]
    with tempfile.TemporaryDirectory() as t:
        built = record_cores(run, lib, examples, t, "snap", True, cs)
        if not built:
            return
        snap = built[0]
        ids = [c[2] for c in cs]
        elf = ["--elf", os.path.join(examples, "qsort.elf")]
        check_coverage(snap, ids, elf, ["lcov", "insns", "listing", "ranges", "autofdo"])
        check_profile(snap, ids, elf, [["insns"]])
        check_tail(snap, ids, elf)
        check_default(snap, elf)
        print("3 recordings of qsort framed together: coverage (lcov, autofdo ...) and "
              "profile --id all the sums of the sources, tail their reports")


if MODE == "tc2":
    tc2()
else:
    cores(*sys.argv[4:6])
sys.exit(1 if failures() else 0)
