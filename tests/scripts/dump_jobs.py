#!/usr/bin/env python3
"""pft dump --jobs N gives the output of --jobs 1, byte for byte: the
statistics (--stats), the listing and JSON Lines.

Inputs: the TC2 snapshot; TC2's trace ID 0x13 stream (libpft's
pft_frame_extract through ctypes) repeated 40 times as a raw capture, read
with the right options and with cycle-accurate off (errors everywhere); and
100 corrupted copies of it (seeded): random bytes changed, bytes deleted or
inserted, A-sync patterns (00 00 00 00 00 80) and zero runs planted anywhere,
even inside packets.  The same for ETMv3: TC2's sources 0x10-0x12, its 0x10
stream repeated 20 times, read right and with cycle-accurate off, and 20
corrupted copies.  Each at --jobs 2..8 with segments of 64, 251 and 4096
bytes (many cuts and joins), against --jobs 1; and the listings written to
/dev/full (the same message and exit code).
usage: dump_jobs.py PFT LIBPFT_SO DATA_DIR"""
import os
import random
import sys
import tempfile

from support import corrupt, fail, failures, load_libpft, runner, tc2_raw_opts, tc2_stream

PFT, LIB, DATA = sys.argv[1:4]
lib = load_libpft(LIB)
stream = tc2_stream(lib, DATA, 0x13)
stream3 = tc2_stream(lib, DATA, 0x10)
run = runner(PFT, text=False)
E3REGS = tc2_raw_opts(0x10)
E3NOCA = tc2_raw_opts(0x10, etmcr="0x10000860")  # cycle-accurate off
REGS = tc2_raw_opts(0x13)
NOCA = tc2_raw_opts(0x13, etmcr="0x10000000")
checked = 0


def dump(inp, opts, fmt, jobs, seg):
    return run("dump", "--jobs", str(jobs), "--segment-size", str(seg), inp, *(fmt + opts))


FORMATS = (["--stats"], [], ["--json"])


def check(name, inp, opts, jobs_list=range(2, 9), segs=(64, 251, 4096), formats=FORMATS):
    global checked
    for fmt in formats:
        ref = dump(inp, opts, fmt, 1, 4096)
        for seg in segs:
            for j in jobs_list:
                got = dump(inp, opts, fmt, j, seg)
                checked += 1
                if got != ref:
                    fail("%s %s --jobs %d --segment-size %d differs from --jobs 1" %
                         (name, " ".join(fmt), j, seg))
                    return


with tempfile.TemporaryDirectory() as t:
    check("TC2", os.path.join(DATA, "TC2"), [])
    if os.path.exists("/dev/full"):  # a write error: the same message and exit code
        check("TC2 to /dev/full", os.path.join(DATA, "TC2"), ["-o", "/dev/full"], jobs_list=(2, 3),
              segs=(64, 4096), formats=FORMATS[1:])
        check("TC2 0x10 to /dev/full", os.path.join(DATA, "TC2"), ["--id", "0x10", "-o", "/dev/full"],
              jobs_list=(2,), segs=(64,), formats=FORMATS[1:])
    big = stream * 40
    f = os.path.join(t, "tc2x40.bin")
    open(f, "wb").write(big)
    check("TC2 x40", f, REGS)
    check("TC2 x40, cycle-accurate off", f, NOCA, jobs_list=(2, 5, 8))
    rng = random.Random(2013)
    for i in range(100):
        g = os.path.join(t, "c%d.bin" % i)
        open(g, "wb").write(corrupt(stream * rng.randint(2, 12), rng))
        check("corrupt copy %d (seed 2013)" % i, g, REGS, jobs_list=(2, 3, 8), segs=(64, 251),
              formats=(FORMATS[0], FORMATS[1 + i % 2]))
    # ETMv3
    for i in ("0x10", "0x11", "0x12"):
        check("TC2 %s (ETMv3)" % i, os.path.join(DATA, "TC2"), ["--id", i], jobs_list=(2, 8))
    f = os.path.join(t, "tc2x20e3.bin")
    open(f, "wb").write(stream3 * 20)
    check("TC2 0x10 x20 (ETMv3)", f, E3REGS, jobs_list=(2, 5, 8))
    check("TC2 0x10 x20 (ETMv3), cycle-accurate off", f, E3NOCA, jobs_list=(2, 8))
    for i in range(20):
        g = os.path.join(t, "e%d.bin" % i)
        open(g, "wb").write(corrupt(stream3 * rng.randint(2, 12), rng))
        check("ETMv3 corrupt copy %d (seed 2013)" % i, g, E3REGS, jobs_list=(2, 8),
              segs=(64, 251), formats=(FORMATS[0], FORMATS[1 + i % 2]))
print("dump --jobs: %d runs against --jobs 1, %d differ" % (checked, failures()))
sys.exit(1 if failures() else 0)
