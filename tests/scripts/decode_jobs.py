#!/usr/bin/env python3
"""pft decode --jobs N gives the output of --jobs 1, byte for byte (standard
output, standard error and exit code), in every output format.

Inputs:
  - every real capture in data/: TC2's PTM source 0x13 and its ETMv3 source
    0x10 (decoded on one thread: the same by construction, checked anyway),
    trace_cov_a15;
  - TC2's 0x13 stream (libpft's pft_frame_extract through ctypes) repeated
    as a raw capture with the kernel image, and corrupted copies of it
    (seeded): bytes changed, deleted, inserted, A-sync patterns, zero runs
    and stray I-sync headers planted anywhere, even inside packets; some
    with --isync-resync always;
  - `pft record` recordings of the example programs under random PTM
    configurations (cycle accuracy, timestamps, context ID size, VMID,
    return stack or branch broadcast, PFT version, raw or framed, random
    IRQs, sync frequency), each also with its trace corrupted.
Threads 2-8, segments from 64 bytes (many cuts and joins), against --jobs 1.
usage: decode_jobs.py PFT LIBPFT_SO DATA_DIR EXAMPLES_DIR [RECORDINGS [SEED]]"""
import os
import random
import shutil
import sys
import tempfile

from support import corrupt, extract, fail, failures, load_libpft, runner

PFT, LIB, DATA, EX = sys.argv[1:5]
NREC = int(sys.argv[5]) if len(sys.argv) > 5 else 30
SEED = int(sys.argv[6]) if len(sys.argv) > 6 else 13
lib = load_libpft(LIB)
stream = extract(lib, open(os.path.join(DATA, "TC2", "cstrace.bin"), "rb").read(), 0x13)
run = runner(PFT, text=False)
REGS = ["--format", "raw", "--etmcr", "0x10001000", "--etmccer", "0x34C01AC2",
        "--etmidr", "0x411CF312", "--etmtraceidr", "0x13",
        "--image", os.path.join(DATA, "TC2", "kernel_dump.bin") + "@0xC0008000"]
FORMATS = ([], ["--json"], ["--stats"], ["--ranges"], ["--format", "addrs"],
           ["--json", "--ranges"])
rng = random.Random(SEED)
checked = 0


def decode(inp, opts, jobs, seg):
    return run("decode", "--jobs", str(jobs), "--segment-size", str(seg), inp, *opts)


def check(name, inp, opts, runs):
    """runs: (format, jobs, segment) tuples, each against --jobs 1."""
    global checked
    refs = {}
    for fmt, j, seg in runs:
        key = tuple(fmt)
        if key not in refs:
            refs[key] = decode(inp, opts + fmt, 1, 4096)
        got = decode(inp, opts + fmt, j, seg)
        checked += 1
        if got != refs[key]:
            fail("%s %s --jobs %d --segment-size %d differs from --jobs 1" %
                 (name, " ".join(opts + fmt), j, seg))
            return


def every(jobs=(2, 3, 8), segs=(64, 300, 4096), formats=FORMATS):
    return [(f, j, s) for f in formats for j in jobs for s in segs]


def some(k):
    return [(rng.choice(FORMATS), rng.randint(2, 8), rng.choice([64, 97, 256, 1000, 4096]))
            for _ in range(k)]


def record(n, t):
    progs = sorted(f for f in os.listdir(EX) if f.endswith(".elf")) if os.path.isdir(EX) else []
    if not progs:
        return None
    prog = rng.choice(progs)
    ver = rng.choice(["1.0", "1.1"])
    args = [PFT, "record", os.path.join(EX, prog), "-o", os.path.join(t, "s%d" % n), "-q",
            "--format", rng.choice(["raw", "frames"]), "--pft-version", ver,
            "--contextid-bytes", str(rng.choice([0, 0, 1, 2, 4]))]
    for o, p in (("--cycle-accurate", 0.5), ("--timestamps", 0.5)):
        if rng.random() < p:
            args.append(o)
    if ver == "1.1" and rng.random() < 0.3:
        args.append("--vmid")
    k = rng.random()
    if k < 0.3:
        args.append("--return-stack")
    elif k < 0.5:
        args.append("--branch-broadcast")
    if rng.random() < 0.5:
        args += ["--irq-random", str(rng.choice([50, 200, 1000])), "--seed", str(n)]
    if rng.random() < 0.5:
        args += ["--sync-freq", str(rng.choice([64, 256, 1024]))]
    rc, _, err = run(*args[1:])
    if rc:
        fail("record %s: %s" % (" ".join(args[2:]), err.decode()[:200]))
        return None
    return os.path.join(t, "s%d" % n), " ".join([prog] + args[4:])


with tempfile.TemporaryDirectory() as t:
    check("TC2 0x13", os.path.join(DATA, "TC2"), ["--id", "0x13"], every())
    check("TC2 0x10 (ETMv3)", os.path.join(DATA, "TC2"), ["--id", "0x10"],
          every(jobs=(2, 8), segs=(64,), formats=FORMATS[:3]))
    check("trace_cov_a15", os.path.join(DATA, "trace_cov_a15"), [], every(segs=(64, 4096)))
    f = os.path.join(t, "tc2x10.bin")
    open(f, "wb").write(stream * 10)
    check("TC2 0x13 x10", f, REGS, every(jobs=(2, 5, 8), segs=(64, 1000, 100000),
                                         formats=FORMATS[:3]))
    for i in range(30):
        g = os.path.join(t, "c%d.bin" % i)
        open(g, "wb").write(corrupt(stream * rng.randint(1, 4), rng))
        opts = REGS + (["--isync-resync", "always"] if i % 5 == 4 else [])
        check("TC2 corrupt copy %d" % i, g, opts, some(4))
    nrec = 0
    for i in range(NREC):
        r = record(i, t)
        if not r:
            continue
        nrec += 1
        snap, name = r
        check("recording %d (%s)" % (i, name), snap, [], some(4))
        # the same recording, its trace corrupted
        for b in ("PTM_0.bin", "cstrace.bin"):
            p = os.path.join(snap, b)
            if os.path.exists(p):
                open(p, "wb").write(corrupt(open(p, "rb").read(), rng))
        check("recording %d corrupted (%s)" % (i, name), snap, [], some(3))
        shutil.rmtree(snap, ignore_errors=True)
print("decode --jobs: %d runs against --jobs 1 (%d recordings), %d differ" %
      (checked, nrec, failures()))
sys.exit(1 if failures() else 0)
