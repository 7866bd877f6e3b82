#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The commands above the flow on an ETMv3 source against DS-5's dump.

For one of TC2's ETMv3.5 trace IDs: `pft profile` and `pft decode --stats`
must count as many instructions as DS-5 has Instruction rows
(data/TC2/ds5-dumps/etmv3_0xNN.txt), and `pft coverage --format insns`
must give every address the number of DS-5 rows at that address (and no
other address).  Condition-failed rows count as executed, as in DS-5.

Usage: etm3_tools_oracle.py PFT TC2_DIR --id 0xNN
"""
import collections
import os
import re
import subprocess
import sys


def run(args):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("FAIL: %s: exit %d\n%s" % (" ".join(args), r.returncode, r.stderr))
    return r.stdout


def main():
    pft, tc2, idopt, tid = sys.argv[1:5]
    assert idopt == "--id"
    ds5 = collections.Counter()
    with open(os.path.join(tc2, "ds5-dumps", "etmv3_0x%02x.txt" % int(tid, 16))) as f:
        for line in f:
            col = line.rstrip("\n").split("\t")
            if col[0] == "Instruction":
                ds5[int(col[2].split(":")[1], 16)] += 1
    total = sum(ds5.values())
    if total < 1000:
        sys.exit("FAIL: only %d DS-5 instruction rows" % total)
    fails = 0

    head = run([pft, "profile", tc2, "--id", tid]).splitlines()[0]
    m = re.match(r"# pft profile: (\d+) instructions", head)
    if not m or int(m.group(1)) != total:
        print("FAIL: pft profile: %r, DS-5 %d instructions" % (head, total))
        fails += 1

    stats = run([pft, "decode", tc2, "--id", tid, "--stats"])
    m = re.search(r"^instructions\s+(\d+)$", stats, re.M)
    if not m or int(m.group(1)) != total:
        print("FAIL: pft decode --stats: %s, DS-5 %d instructions" % (m and m.group(1), total))
        fails += 1

    cov = collections.Counter()
    for line in run([pft, "coverage", tc2, "--id", tid, "--format", "insns"]).splitlines():
        if line.startswith("#") or not line.strip():
            continue
        addr, _isa, count = line.split()[:3]
        cov[int(addr, 16)] += int(count)
    if cov != ds5:
        diff = sorted(set(cov) ^ set(ds5) | {a for a in cov if cov[a] != ds5.get(a)})
        print("FAIL: pft coverage: %d of %d addresses differ from DS-5, first: %s" %
              (len(diff), len(set(cov) | set(ds5)),
               ", ".join("%x pft %d DS-5 %d" % (a, cov.get(a, 0), ds5.get(a, 0)) for a in diff[:5])))
        fails += 1
    if fails:
        sys.exit(1)
    print("trace ID %s: profile, decode --stats and coverage of %d instructions at %d addresses "
          "equal to DS-5" % (tid, total, len(ds5)))


if __name__ == "__main__":
    main()
