#!/usr/bin/env python3
"""A raw capture in a regular file is mapped, not read (tools/pft/input.c):
the pages behind the reader must leave the resident set, so that peak memory
does not grow with the file.  TC2's trace ID 0x13 stream (pft_frame_extract
through ctypes) repeated to 128 MiB and to 32 MiB, written to files; `pft
dump --stats` and `pft decode --stats` at --jobs 1 and 2 on each: the peak
RSS (getrusage of the child) on 128 MiB must exceed that on 32 MiB by less
than BOUND (kept mapped, the file would add 96 MiB), and every stream byte
must be accounted for.  Usage: raw_file_memory.py PFT LIBPFT_SO DATA_DIR"""
import os
import subprocess
import sys
import tempfile

from support import CHILD_ENV, load_libpft, tc2_image, tc2_raw_opts, tc2_stream

BOUND = 16 << 20
REGS = tc2_raw_opts(0x13)


def run(pft, args):
    """(exit code, stdout, peak RSS bytes) of `pft args`."""
    p = subprocess.Popen([pft] + args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=CHILD_ENV)
    out = p.stdout.read().decode()
    _, status, ru = os.wait4(p.pid, 0)
    return os.waitstatus_to_exitcode(status), out, ru.ru_maxrss * 1024


def main():
    pft, lib, data = sys.argv[1:4]
    stream = tc2_stream(load_libpft(lib), data, 0x13)
    image = tc2_image(data)
    block = stream * ((1 << 20) // len(stream) + 1)
    cases = [
        ("dump --stats", ["dump", "--stats"] + REGS,
         lambda out, n: "stream bytes %d, accounted for %d (all)" % (n, n) in out),
        ("decode --stats", ["decode", "--stats"] + REGS + image,
         lambda out, n: ("bytes         %d\n" % n) in out),
    ]
    fails = 0
    with tempfile.TemporaryDirectory() as t:
        files = {}
        for mib in (32, 128):
            files[mib] = os.path.join(t, "s%d.bin" % mib)
            with open(files[mib], "wb") as f:
                for _ in range(mib):
                    f.write(block)
        for name, args, ok in cases:
            for jobs in ("1", "2"):
                res = {}
                for mib in (32, 128):
                    res[mib] = run(pft, args + ["--jobs", jobs, files[mib]])
                size = {m: os.path.getsize(files[m]) for m in files}
                good = all(res[m][0] in (0, 1) and ok(res[m][1], size[m]) for m in res) and \
                    res[128][2] - res[32][2] < BOUND
                print("%s %s --jobs %s: peak RSS %.1f MiB on 128 MiB, %.1f MiB on 32 MiB" %
                      ("ok" if good else "FAIL", name, jobs, res[128][2] / 2**20, res[32][2] / 2**20))
                if not good:
                    print(res[128][1][-2000:])
                    fails += 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
