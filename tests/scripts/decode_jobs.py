#!/usr/bin/env python3
"""pft decode --jobs N gives the output of --jobs 1, byte for byte (standard
output, standard error and exit code), in every output format (text, --json,
--ranges, --json --ranges, --format addrs, --stats, and text and JSON with
--no-disasm), through the listing formatted on several threads.

Inputs:
  - every real capture in data/: TC2's PTM source 0x13 and its ETMv3
    sources 0x10, 0x11 and 0x12, trace_cov_a15;
  - TC2's 0x13 stream (libpft's pft_frame_extract through ctypes) repeated
    as a raw capture with the kernel image, and corrupted copies of it
    (seeded): bytes changed, deleted, inserted, A-sync patterns, zero runs
    and stray I-sync headers planted anywhere, even inside packets; some
    with --isync-resync always;
  - `pft record` recordings of the example programs under random PTM
    configurations (cycle accuracy, timestamps, context ID size, VMID,
    return stack or branch broadcast, PFT version, raw or framed, random
    IRQs, sync frequency), each also with its trace corrupted;
  - every other recording also with its program (--elf: symbols, file:line);
  - the same for ETMv3: TC2's 0x10 stream repeated as a raw capture and 20
    corrupted copies of it, and `pft record --protocol etm3` recordings
    (half as many) under random ETMv3 configurations (version, branch
    encoding, cycle accuracy, context ID size, timestamps, branch
    broadcast, sync frequency, IRQs, cycle costs), each also corrupted.
Threads 2-8, segments from 64 bytes (many cuts and joins), against --jobs 1;
and TC2 written to /dev/full (the same message and exit code).
usage: decode_jobs.py PFT LIBPFT_SO DATA_DIR EXAMPLES_DIR [RECORDINGS [SEED]]"""
import os
import random
import shutil
import sys
import tempfile

from support import (corrupt, fail, failures, load_libpft, record_pft, runner, tc2_image,
                     tc2_raw_opts, tc2_stream)

PFT, LIB, DATA, EX = sys.argv[1:5]
NREC = int(sys.argv[5]) if len(sys.argv) > 5 else 30
SEED = int(sys.argv[6]) if len(sys.argv) > 6 else 13
lib = load_libpft(LIB)
stream = tc2_stream(lib, DATA, 0x13)
stream3 = tc2_stream(lib, DATA, 0x10)
run = runner(PFT, text=False)
REGS3 = tc2_raw_opts(0x10) + tc2_image(DATA)
REGS = tc2_raw_opts(0x13) + tc2_image(DATA)
FORMATS = ([], ["--json"], ["--stats"], ["--ranges"], ["--format", "addrs"],
           ["--json", "--ranges"], ["--no-disasm"], ["--json", "--no-disasm"])
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


def record_etm3(n, t):
    """A `pft record --protocol etm3` recording under a random configuration."""
    progs = sorted(f for f in os.listdir(EX) if f.endswith(".elf")) if os.path.isdir(EX) else []
    if not progs:
        return None
    prog = rng.choice(progs)
    minor = rng.choice([0, 3, 4, 5, 5, 5])
    etmidr = 0x410CF200 | (minor << 4) | ((1 << 20) if minor >= 4 and rng.random() < 0.5 else 0)
    args = [PFT, "record", "--protocol", "etm3", os.path.join(EX, prog), "-o",
            os.path.join(t, "e%d" % n), "-q", "--etmidr", hex(etmidr),
            "--format", rng.choice(["raw", "frames"]),
            "--contextid-bytes", str(rng.choice([0, 1, 2, 4]))]
    if rng.random() < 0.5:
        args.append("--cycle-accurate")
    if minor == 5 and rng.random() < 0.5:
        args.append("--timestamps")
    if rng.random() < 0.3:
        args.append("--branch-broadcast")
    if rng.random() < 0.7:
        args += ["--sync-freq", str(rng.choice([16, 64, 300, 1024]))]
    if rng.random() < 0.5:
        args += ["--irq-random", str(rng.choice([7, 30, 200])), "--seed", str(n)]
    if rng.random() < 0.5:
        args += ["--cycles", "other=%d,branch=%d,load=%d,failed=%d,exception=%d" % (
            rng.randint(1, 3), rng.randint(1, 12), rng.randint(1, 20), rng.randint(1, 2),
            rng.randint(1, 40))]
    rc, _, err = run(*args[1:])
    if rc:
        fail("record %s: %s" % (" ".join(args[2:]), err.decode()[:200]))
        return None
    return os.path.join(t, "e%d" % n), os.path.join(EX, prog), " ".join([prog] + args[6:])


def record(n, t):
    return record_pft(PFT, EX, rng, n, t)


def elf_opts(n, elf):
    """Every other recording with its program's symbols and lines."""
    return ["--elf", elf] if n % 2 == 0 else []


with tempfile.TemporaryDirectory() as t:
    check("TC2 0x13", os.path.join(DATA, "TC2"), ["--id", "0x13"], every())
    for i in ("0x10", "0x11", "0x12"):
        check("TC2 %s (ETMv3)" % i, os.path.join(DATA, "TC2"), ["--id", i],
              every(jobs=(2, 3, 8), segs=(64, 300, 4096)))
    check("trace_cov_a15", os.path.join(DATA, "trace_cov_a15"), [], every(segs=(64, 4096)))
    if os.path.exists("/dev/full"):  # a write error: the same message and exit code
        check("TC2 0x13 to /dev/full", os.path.join(DATA, "TC2"), ["--id", "0x13", "-o", "/dev/full"],
              [([], 2, 4096), (["--json"], 3, 300), (["--ranges"], 2, 64)])
    f = os.path.join(t, "tc2x10.bin")
    open(f, "wb").write(stream * 10)
    check("TC2 0x13 x10", f, REGS, every(jobs=(2, 5, 8), segs=(64, 1000, 100000),
                                         formats=FORMATS[:3]))
    for i in range(30):
        g = os.path.join(t, "c%d.bin" % i)
        open(g, "wb").write(corrupt(stream * rng.randint(1, 4), rng))
        opts = REGS + (["--isync-resync", "always"] if i % 5 == 4 else [])
        check("TC2 corrupt copy %d" % i, g, opts, some(4))
    # ETMv3: a repeated stream, corrupted copies, recordings
    f = os.path.join(t, "tc2x10e3.bin")
    open(f, "wb").write(stream3 * 10)
    check("TC2 0x10 x10 (ETMv3)", f, REGS3, every(jobs=(2, 5, 8), segs=(64, 1000, 100000),
                                                  formats=FORMATS[:3]))
    for i in range(20):
        g = os.path.join(t, "e%d.bin" % i)
        open(g, "wb").write(corrupt(stream3 * rng.randint(1, 4), rng))
        check("TC2 0x10 (ETMv3) corrupt copy %d" % i, g, REGS3, some(4))
    nrec = 0
    for i in range(max(1, NREC // 2)):
        r = record_etm3(i, t)
        if not r:
            continue
        nrec += 1
        snap, elf, name = r
        check("ETMv3 recording %d (%s)" % (i, name), snap, elf_opts(i, elf), some(4))
        # the same recording, its trace corrupted
        for b in os.listdir(snap):
            p = os.path.join(snap, b)
            if b.endswith(".bin") and ("ETM" in b or b == "cstrace.bin"):
                open(p, "wb").write(corrupt(open(p, "rb").read(), rng))
        check("ETMv3 recording %d corrupted (%s)" % (i, name), snap, [], some(3))
        shutil.rmtree(snap, ignore_errors=True)
    for i in range(NREC):
        r = record(i, t)
        if not r:
            continue
        nrec += 1
        snap, elf, name = r
        check("recording %d (%s)" % (i, name), snap, elf_opts(i, elf), some(4))
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
