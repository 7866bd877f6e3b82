#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""pft dump and pft decode read their input as a stream: memory stays bounded
whatever the input size.  TC2's capture (frames, four trace IDs) repeated to
256 MiB is piped through standard input, generated on the fly; the peak RSS
of each command (getrusage of the child) must exceed that of the same command
on a 1 MiB input by less than BOUND, and every stream byte must be accounted
for.  Usage: stream_memory.py PFT SHARED_DIR [MiB]"""
import os
import subprocess
import sys

BOUND = 16 << 20  # bytes of RSS growth allowed from 1 MiB to the big input


def run(pft, args, blocks, block):
    """Pipe `blocks` copies of `block` into `pft args`; (rc, out, max RSS bytes)."""
    out_path = "/tmp/pft_stream_mem.%d.out" % os.getpid()
    with open(out_path, "wb") as out:
        p = subprocess.Popen([pft] + args, stdin=subprocess.PIPE, stdout=out,
                             stderr=subprocess.DEVNULL)
        try:
            for _ in range(blocks):
                p.stdin.write(block)
            p.stdin.close()
        except BrokenPipeError:
            pass
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    with open(out_path, "rb") as f:
        text = f.read().decode()
    os.unlink(out_path)
    return p.returncode, text, ru.ru_maxrss * 1024


def main():
    pft, data = sys.argv[1], sys.argv[2]
    mib = int(sys.argv[3]) if len(sys.argv) > 3 else 256
    tc2 = os.path.join(data, "TC2")
    with open(os.path.join(tc2, "cstrace.bin"), "rb") as f:
        cap = f.read()
    assert len(cap) == 32768
    block = cap * 32  # 1 MiB
    id13 = 4533  # stream bytes of ID 0x13 in one copy (frame statistics of TC2)
    cfg = ["--id", "0x13", "--cycle-accurate", "--timestamps"]
    image = ["--image", os.path.join(tc2, "kernel_dump.bin") + "@0xC0008000"]
    stats_ok = lambda out, n: "stream bytes %d, accounted for %d (all)" % (n * 32 * id13, n * 32 * id13) in out
    cases = [
        ("dump --stats --jobs 1", ["dump", "-", "--stats", "--jobs", "1"] + cfg, stats_ok),
        # parallel segments hold a window of the stream per thread: bounded
        # too, by a constant of its own (doc/performance.md)
        ("dump --stats --jobs 2", ["dump", "-", "--stats", "--jobs", "2"] + cfg, stats_ok, 2 * BOUND),
        # JSON keeps the capture-offset map of the chunks in flight
        ("dump --json", ["dump", "-", "--json", "--stats"] + cfg,
         lambda out, n: '"stream_bytes":%d,"accounted_bytes":%d' % (n * 32 * id13, n * 32 * id13) in out, 2 * BOUND),
        ("decode --stats --jobs 1", ["decode", "-", "--stats", "--jobs", "1"] + cfg + image,
         lambda out, n: ("bytes         %d\n" % (n * 32 * id13)) in out),
        ("decode --stats --jobs 2", ["decode", "-", "--stats", "--jobs", "2"] + cfg + image,
         lambda out, n: ("bytes         %d\n" % (n * 32 * id13)) in out, 2 * BOUND),
    ]
    fails = 0
    for case in cases:
        name, args, ok = case[:3]
        bound = case[3] if len(case) > 3 else BOUND
        rc1, out1, rss1 = run(pft, args, 1, block)
        rcn, outn, rssn = run(pft, args, mib, block)
        good = rc1 == rcn and rc1 in (0, 1) and ok(out1, 1) and ok(outn, mib) and rssn - rss1 < bound
        print("%s %s: %d MiB in: peak RSS %.1f MiB (1 MiB in: %.1f MiB), exit %d" %
              ("ok" if good else "FAIL", name, mib, rssn / 2**20, rss1 / 2**20, rcn))
        if not good:
            print(outn[-2000:])
            fails += 1
    # --json output itself (the capture offset map), all packets listed, on
    # the default threads (the machine's cores): like every case on several
    # threads, a window of segments and their packet buffers per thread
    rc1, _, rss1 = run(pft, ["dump", "-", "--json", "-o", "/dev/null"] + cfg, 1, block)
    rcn, _, rssn = run(pft, ["dump", "-", "--json", "-o", "/dev/null"] + cfg, mib // 8, block)
    good = rc1 == rcn and rssn - rss1 < 2 * BOUND
    print("%s dump --json -o /dev/null: %d MiB in: peak RSS %.1f MiB (1 MiB in: %.1f MiB)" %
          ("ok" if good else "FAIL", mib // 8, rssn / 2**20, rss1 / 2**20))
    fails += not good
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
