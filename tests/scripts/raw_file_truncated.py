#!/usr/bin/env python3
"""A raw capture file is mapped (tools/pft/input.c).  When the file is cut
short while pft reads it, the next read of the mapping past the new end
faults (SIGBUS): pft must say which file and exit 1, not die of the signal.
TC2's 0x13 stream repeated to 16 MiB; `pft dump` (a listing) writes into a
pipe this script does not read, so pft blocks early in the file; the file
is then truncated to 4 KiB and the pipe drained.  Usage:
raw_file_truncated.py PFT LIBPFT_SO DATA_DIR"""
import os
import subprocess
import sys
import tempfile
import time

from support import CHILD_ENV, load_libpft, tc2_raw_opts, tc2_stream

REGS = tc2_raw_opts(0x13)


def main():
    pft, lib, data = sys.argv[1:4]
    stream = tc2_stream(load_libpft(lib), data, 0x13)
    block = stream * ((1 << 20) // len(stream) + 1)
    with tempfile.TemporaryDirectory() as t:
        path = os.path.join(t, "s.bin")
        with open(path, "wb") as f:
            for _ in range(16):
                f.write(block)
        p = subprocess.Popen([pft, "dump", "--jobs", "1"] + REGS + [path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=CHILD_ENV)
        first = p.stdout.read(4096)          # pft has started and is mapped
        time.sleep(0.5)                      # and is now blocked on the full pipe
        os.truncate(path, 4096)
        rest = p.stdout.read()
        err = p.stderr.read().decode(errors="replace")
        rc = p.wait()
    print("exit %d after %d bytes of listing; stderr: %s" % (rc, len(first) + len(rest), err.strip()))
    ok = rc == 1 and path in err and "shorter while it was read" in err
    print("ok" if ok else "FAIL: expected exit 1 and a message naming the file")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
