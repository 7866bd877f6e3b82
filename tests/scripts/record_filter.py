#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Address-range filtering check for `pft record --range/--exclude-range`.

The PTM filters by instruction blocks (spec 3.4.3): a block (the
instructions between two waypoints) is traced when it overlaps an include
range, and not traced when it lies wholly inside an exclude range.  Given the
full executed-instruction log and the decode of the filtered trace, this
checks, without classifying instructions:
  1. the decode is the log with instructions left out (an order-preserving
     selection: nothing invented, nothing reordered);
  2. include: every log instruction inside a range is in the decode (nothing
     in range lost), and every run of consecutive log instructions the decode
     kept touches a range (nothing traced far from the ranges);
     exclude: every log instruction outside the ranges is in the decode;
  3. the filter removed something.
Mode "overflow" (a FIFO that overflows, spec 4.8) checks 1 and 3 only: what
was lost to the overflow is left out, nothing else changes.

usage: record_filter.py include|exclude|overflow LO-HI[,LO-HI...]|- FULL_LOG DECODED_LOG"""
import sys

def main(argv=None):
    argv = sys.argv if argv is None else argv
    if len(argv) != 5:
        sys.exit(__doc__)
    mode, spec, full_f, dec_f = argv[1:]
    ranges = [] if mode == "overflow" else \
        [tuple(int(x, 0) for x in r.split("-")) for r in spec.split(",")]
    inr = lambda a: any(lo <= a < hi for lo, hi in ranges)
    full = [l.split() for l in open(full_f) if l.strip()]
    dec = [l.split() for l in open(dec_f) if l.strip()]
    # 1. embed the decode into the log
    kept = []
    j = 0
    for i, ins in enumerate(full):
        if j < len(dec) and ins == dec[j]:
            kept.append(i)
            j += 1
    if j != len(dec):
        print("FAIL: decoded instruction %d (%s) is not in the log in order" % (j, " ".join(dec[j])))
        return 1
    keptset = set(kept)
    bad = 0
    if mode == "include":
        for i, ins in enumerate(full):
            if inr(int(ins[0], 16)) and i not in keptset:
                bad += 1
                if bad <= 5:
                    print("FAIL: log line %d %s is in range but not decoded" % (i + 1, " ".join(ins)))
        # runs of consecutive kept log lines
        run = []
        for k, i in enumerate(kept + [None]):
            if run and (i is None or i != run[-1] + 1):
                if not any(inr(int(full[x][0], 16)) for x in run):
                    bad += 1
                    if bad <= 5:
                        print("FAIL: decoded run at log lines %d..%d touches no range"
                              % (run[0] + 1, run[-1] + 1))
                run = []
            if i is not None:
                run.append(i)
    elif mode == "exclude":
        for i, ins in enumerate(full):
            if not inr(int(ins[0], 16)) and i not in keptset:
                bad += 1
                if bad <= 5:
                    print("FAIL: log line %d %s is outside the exclude ranges but not decoded"
                          % (i + 1, " ".join(ins)))
    if len(dec) >= len(full) or not dec:
        print("FAIL: the filter kept %d of %d instructions" % (len(dec), len(full)))
        bad += 1
    print("%s %s: %d of %d instructions traced, %d problems" % (mode, spec, len(dec), len(full), bad))
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
