#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Memory dumps of a snapshot cost what the decoder touches (issue 14,
defect 5): trace_cov_a15 with a 2 GiB sparse [dump] added decodes to the same
output with a peak RSS far below 2 GiB, and with 60,000 small [dump] sections
added the decode stays under a few seconds (the image map is built in
n log n).  Needs $PFT_BIN and $PFT_DATA."""
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

PFT = os.environ["PFT_BIN"]
SNAP = os.path.join(os.environ["PFT_DATA"], "trace_cov_a15")
fails = 0


def check(cond, what):
    global fails
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails += 1


def decode(folder):
    """(stdout, seconds, peak RSS in KiB of this child)"""
    t0 = time.monotonic()
    p = subprocess.run([PFT, "decode", folder, "--stats"], capture_output=True, text=True)
    secs = time.monotonic() - t0
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the largest child so far
    if p.returncode not in (0, 1):
        print(p.stderr)
    return p.stdout, secs, rss, p.returncode


def add_dumps(folder, sections):
    with open(os.path.join(folder, "device1.ini"), "a") as f:
        for i, (addr, name) in enumerate(sections):
            f.write("\n[dump%d]\nspace=S\naddress=0x%X\nfile=%s\n" % (1000 + i, addr, name))


with tempfile.TemporaryDirectory(prefix="pft_hostile_image.") as tmp:
    clean = os.path.join(tmp, "clean")  # decoded first: the RSS figures below are its or larger
    shutil.copytree(SNAP, clean)
    want, _, _, want_rc = decode(clean)

    # a 2 GiB sparse dump, below the code (a decoder that reads dumps whole
    # pays 2 GiB of RSS here)
    sparse = os.path.join(tmp, "sparse")
    shutil.copytree(SNAP, sparse)
    with open(os.path.join(sparse, "big.bin"), "wb") as f:
        f.truncate(2 << 30)
    add_dumps(sparse, [(0x0, "big.bin")])
    got, secs, rss, rc = decode(sparse)
    check(rc == want_rc and got == want, "2 GiB sparse dump: same output as without it")
    check(rss < 256 * 1024, "2 GiB sparse dump: peak RSS %d KiB (< 256 MiB)" % rss)

    # 60,000 dump sections of 16 bytes each, away from the code
    many = os.path.join(tmp, "many")
    shutil.copytree(SNAP, many)
    with open(os.path.join(many, "small.bin"), "wb") as f:
        f.write(bytes(16))
    add_dumps(many, [(0x10000000 + 16 * i, "small.bin") for i in range(60000)])
    got, secs, _, rc = decode(many)
    check(rc == want_rc and got == want, "60,000 dumps: same output as without them")
    check(secs < 5.0, "60,000 dumps: decode in %.2f s (< 5 s)" % secs)

sys.exit(1 if fails else 0)
