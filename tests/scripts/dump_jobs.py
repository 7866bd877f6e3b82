#!/usr/bin/env python3
"""pft dump --jobs N gives the output of --jobs 1, byte for byte: the
statistics (--stats), the listing and JSON Lines.

Inputs: the TC2 snapshot; TC2's trace ID 0x13 stream (libpft's
pft_frame_extract through ctypes) repeated 40 times as a raw capture, read
with the right options and with cycle-accurate off (errors everywhere); and
100 corrupted copies of it (seeded): random bytes changed, bytes deleted or
inserted, A-sync patterns (00 00 00 00 00 80) and zero runs planted anywhere,
even inside packets.  Each at --jobs 2..8 with segments of 64, 251 and 4096
bytes (many cuts and joins), against --jobs 1.
usage: dump_jobs.py PFT LIBPFT_SO DATA_DIR"""
import ctypes
import os
import random
import subprocess
import sys
import tempfile

PFT, LIB, DATA = sys.argv[1:4]
lib = ctypes.CDLL(LIB)
# a sanitizer build preloads its runtime for this interpreter only; pft
# carries its own
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
lib.pft_frame_extract.restype = ctypes.c_int64
lib.pft_frame_extract.argtypes = [ctypes.c_int, ctypes.c_uint8, ctypes.c_char_p, ctypes.c_size_t,
                                  ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p]
cap = open(os.path.join(DATA, "TC2", "cstrace.bin"), "rb").read()
out = ctypes.create_string_buffer(len(cap))
n = lib.pft_frame_extract(1, 0x13, cap, len(cap), out, len(cap), None)
stream = out.raw[:n]
REGS = ["--format", "raw", "--etmcr", "0x10001000", "--etmccer", "0x34C01AC2",
        "--etmidr", "0x411CF312", "--etmtraceidr", "0x13"]
NOCA = ["--format", "raw", "--etmcr", "0x10000000", "--etmccer", "0x34C01AC2",
        "--etmidr", "0x411CF312", "--etmtraceidr", "0x13"]
fails = 0
checked = 0


def dump(inp, opts, fmt, jobs, seg):
    p = subprocess.run([PFT, "dump", "--jobs", str(jobs), "--segment-size", str(seg), inp] +
                       fmt + opts, capture_output=True, env=CHILD_ENV)
    return p.returncode, p.stdout, p.stderr


FORMATS = (["--stats"], [], ["--json"])


def check(name, inp, opts, jobs_list=range(2, 9), segs=(64, 251, 4096), formats=FORMATS):
    global fails, checked
    for fmt in formats:
        ref = dump(inp, opts, fmt, 1, 4096)
        for seg in segs:
            for j in jobs_list:
                got = dump(inp, opts, fmt, j, seg)
                checked += 1
                if got != ref:
                    fails += 1
                    print("FAIL: %s %s --jobs %d --segment-size %d differs from --jobs 1" %
                          (name, " ".join(fmt), j, seg))
                    return


def corrupt(b, rng):
    b = bytearray(b)
    for _ in range(rng.randint(1, 12)):
        k = rng.randrange(6)
        i = rng.randrange(len(b))
        if k == 0:
            b[i] = rng.randrange(256)
        elif k == 1:
            del b[i:i + rng.randint(1, 20)]
        elif k == 2:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
        elif k == 3:
            b[i:i] = b"\0" * rng.randint(5, 12) + b"\x80"
        elif k == 4:
            b[i:i] = b"\0" * rng.randint(1, 40)
        else:
            b[i:i] = b"\x08" + bytes(rng.randrange(256) for _ in range(5))  # a stray I-sync
    return bytes(b)


with tempfile.TemporaryDirectory() as t:
    check("TC2", os.path.join(DATA, "TC2"), [])
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
print("dump --jobs: %d runs against --jobs 1, %d differ" % (checked, fails))
sys.exit(1 if fails else 0)
