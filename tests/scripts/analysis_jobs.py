#!/usr/bin/env python3
"""pft profile, coverage, timeline and tail with --jobs N give the output of
--jobs 1, byte for byte (standard output, standard error and exit code): the
flow is decoded on N threads and joined (pft/parallel.h), the analysis (call
stacks, coverage counts, profile model) runs on the items in stream order.

Analyses: profile in every format (table, callgrind, folded, speedscope),
coverage as lcov and listing, timeline (Chrome JSON), tail, and tail
--before (the run stops in the middle of the stream).
Inputs:
  - every real capture in data/: TC2's PTM source 0x13 and its ETMv3 source
    0x10, trace_cov_a15;
  - TC2's 0x13 and 0x10 streams repeated as raw captures with the kernel
    image, and corrupted copies of them (seeded, support.corrupt), some with
    --isync-resync always;
  - `pft record` recordings of the example programs under random PTM
    configurations, with the program's ELF (symbols, DWARF lines), each also
    with its trace corrupted.
Threads 2-8, segments from 64 bytes (many cuts and joins), against --jobs 1.
usage: analysis_jobs.py PFT LIBPFT_SO DATA_DIR EXAMPLES_DIR [RECORDINGS [SEED]]"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

from support import (CHILD_ENV, corrupt, fail, failures, load_libpft, record_pft, tc2_image,
                     tc2_raw_opts, tc2_stream)

PFT, LIB, DATA, EX = sys.argv[1:5]
NREC = int(sys.argv[5]) if len(sys.argv) > 5 else 20
SEED = int(sys.argv[6]) if len(sys.argv) > 6 else 17
rng = random.Random(SEED)
lib = load_libpft(LIB)
stream = tc2_stream(lib, DATA, 0x13)
stream3 = tc2_stream(lib, DATA, 0x10)
REGS = tc2_raw_opts(0x13) + tc2_image(DATA)
REGS3 = tc2_raw_opts(0x10) + tc2_image(DATA)


def analyses(before):
    """Every analysis and output format; tail --before stops at instruction
    `before`."""
    return [["profile"], ["profile", "--format", "callgrind"],
            ["profile", "--format", "folded"], ["profile", "--format", "speedscope"],
            ["coverage", "--format", "lcov"], ["coverage", "--format", "listing"],
            ["timeline", "-o", "-"], ["tail", "-n", "40"],
            ["tail", "--before", str(before)]]


checked = 0


def run(cmd, inp, opts, jobs, seg):
    p = subprocess.run([PFT, cmd[0], "--jobs", str(jobs), "--segment-size", str(seg), inp] +
                       cmd[1:] + opts, capture_output=True, env=CHILD_ENV)
    return p.returncode, p.stdout, p.stderr


def check(name, inp, opts, runs):
    """runs: (analysis, jobs, segment) tuples, each against --jobs 1."""
    global checked
    refs = {}
    for cmd, j, seg in runs:
        key = tuple(cmd)
        if key not in refs:
            refs[key] = run(cmd, inp, opts, 1, 4096)
            if refs[key][0] == 2:
                fail("%s pft %s %s: usage error at --jobs 1: %s" %
                     (name, " ".join(cmd), " ".join(opts), refs[key][2].decode()[:300]))
                return
        got = run(cmd, inp, opts, j, seg)
        checked += 1
        if got != refs[key]:
            fail("%s pft %s %s --jobs %d --segment-size %d differs from --jobs 1" %
                 (name, " ".join(cmd), " ".join(opts), j, seg))
            return


def every(cmds, jobs=(2, 3, 8), segs=(64, 300, 4096)):
    return [(c, j, s) for c in cmds for j in jobs for s in segs]


def some(cmds, k):
    return [(rng.choice(cmds), rng.randint(2, 8), rng.choice([64, 97, 256, 1000, 4096]))
            for _ in range(k)]


with tempfile.TemporaryDirectory() as t:
    tc2 = os.path.join(DATA, "TC2")
    check("TC2 0x13", tc2, ["--id", "0x13"], every(analyses(5000)))
    check("TC2 0x10 (ETMv3)", tc2, ["--id", "0x10"], every(analyses(5000)))
    check("trace_cov_a15", os.path.join(DATA, "trace_cov_a15"), [],
          every(analyses(30), jobs=(2, 8), segs=(64, 4096)))
    f = os.path.join(t, "tc2x6.bin")
    open(f, "wb").write(stream * 6)
    check("TC2 0x13 x6", f, REGS, every(analyses(30000), jobs=(2, 5, 8), segs=(64, 100000)))
    f = os.path.join(t, "tc2etm3x6.bin")
    open(f, "wb").write(stream3 * 6)
    check("TC2 0x10 (ETMv3) x6", f, REGS3, every(analyses(20000), jobs=(2, 8), segs=(64, 100000)))
    for i in range(16):
        g = os.path.join(t, "c%d.bin" % i)
        open(g, "wb").write(corrupt(stream * rng.randint(1, 3), rng))
        opts = REGS + (["--isync-resync", "always"] if i % 4 == 3 else [])
        check("TC2 corrupt copy %d" % i, g, opts, some(analyses(rng.randint(1, 20000)), 4))
    for i in range(6):
        g = os.path.join(t, "e%d.bin" % i)
        open(g, "wb").write(corrupt(stream3 * rng.randint(1, 3), rng))
        check("TC2 ETMv3 corrupt copy %d" % i, g, REGS3, some(analyses(rng.randint(1, 20000)), 4))
    nrec = 0
    for i in range(NREC):
        r = record_pft(PFT, EX, rng, i, t)
        if not r:
            continue
        nrec += 1
        snap, elf, name = r
        cmds = analyses(rng.randint(1, 2500))
        check("recording %d (%s)" % (i, name), snap, ["--elf", elf], some(cmds, 6))
        for b in ("PTM_0.bin", "cstrace.bin"):
            p = os.path.join(snap, b)
            if os.path.exists(p):
                open(p, "wb").write(corrupt(open(p, "rb").read(), rng))
        check("recording %d corrupted (%s)" % (i, name), snap, ["--elf", elf], some(cmds, 5))
        shutil.rmtree(snap, ignore_errors=True)
print("profile/coverage/timeline/tail --jobs: %d runs against --jobs 1 (%d recordings), "
      "%d differ" % (checked, nrec, failures()))
sys.exit(1 if failures() or not checked else 0)
