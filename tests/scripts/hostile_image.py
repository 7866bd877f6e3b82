#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Memory dumps of a snapshot cost what the decoder touches (issue 14,
defect 5): trace_cov_a15 with a 2 GiB sparse [dump] added decodes to the same
output with a peak RSS far below 2 GiB, and with 6,000 and 60,000 small [dump]
sections added the decode's CPU time grows about tenfold, not a
hundredfold (the image map is built in n log n; the map rebuilt on every
region, the defect guarded here, is quadratic).  CPU time of the child, not
wall-clock time: a loaded machine stretches the one, hardly the other, and
the assertion is a ratio, not a speed (speed is measured in bench/).
Needs $PFT_BIN and $PFT_DATA."""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

PFT = os.environ["PFT_BIN"]
SNAP = os.path.join(os.environ["PFT_DATA"], "trace_cov_a15")
fails = 0


def check(cond, what):
    global fails
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails += 1


def decode(folder):
    """(stdout, CPU seconds (user + system) of this child, peak RSS in KiB
    of this child, exit status)"""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([PFT, "decode", folder, "--stats"], stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if p.returncode not in (0, 1):
        print(stderr)
    return stdout, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, p.returncode


def add_dumps(folder, sections):
    with open(os.path.join(folder, "device1.ini"), "a") as f:
        for i, (addr, name) in enumerate(sections):
            f.write("\n[dump%d]\nspace=S\naddress=0x%X\nfile=%s\n" % (1000 + i, addr, name))


with tempfile.TemporaryDirectory(prefix="pft_hostile_image.") as tmp:
    clean = os.path.join(tmp, "clean")
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

    # 6,000 and 60,000 dump sections of 16 bytes each, away from the code:
    # ten times the sections may cost about ten times the CPU (n log n, plus
    # the decode itself), far from the hundred times of a quadratic build;
    # the cap is only there to fail rather than hang
    cpu = {}
    for n in (6000, 60000):
        many = os.path.join(tmp, "many%d" % n)
        shutil.copytree(SNAP, many)
        with open(os.path.join(many, "small.bin"), "wb") as f:
            f.write(bytes(16))
        add_dumps(many, [(0x10000000 + 16 * i, "small.bin") for i in range(n)])
        got, cpu[n], _, rc = decode(many)
        check(rc == want_rc and got == want, "%d dumps: same output as without them" % n)
        shutil.rmtree(many)
    ratio = cpu[60000] / max(cpu[6000], 0.01)
    check(ratio < 30, "60,000 vs 6,000 dumps: CPU %.3f s / %.3f s = %.1fx (< 30x; quadratic is ~100x)"
          % (cpu[60000], cpu[6000], ratio))
    check(cpu[60000] < 60, "60,000 dumps: CPU %.2f s (< 60 s)" % cpu[60000])

sys.exit(1 if fails else 0)
