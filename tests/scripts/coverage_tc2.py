#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Address coverage of real hardware trace against ARM DS-5: TC2's kernel
run (trace ID 0x13, data/TC2), `pft coverage --format insns` against the
Instruction rows of DS-5's decode (data/TC2/ds5-dumps/ptmv1_0x13.txt): the
same executed addresses, the same count at each, and at every waypoint DS-5
marks as a branch the same taken / failed (condition code) counts.  The gaps
pft reports must be where DS-5 says it could not follow (memory not
accessible, unknown address)."""
import os
import re
import subprocess
import sys


def main():
    pft = os.environ.get("PFT_BIN")
    data = os.environ.get("PFT_DATA")
    if not pft or not data:
        print("SKIP: needs PFT_BIN and PFT_DATA")
        return 77
    ds5 = os.path.join(data, "TC2", "ds5-dumps", "ptmv1_0x13.txt")
    count, taken, failed, branch = {}, {}, {}, set()
    holes = 0
    with open(ds5) as f:
        for line in f:
            p = line.rstrip("\r\n").split("\t")
            if p[0] != "Instruction":
                continue
            if "?" in p[2] or "?" in p[3]:  # an atom DS-5 could not place or read
                holes += 1
                continue
            a = int(p[2].split(":")[-1], 16)
            count[a] = count.get(a, 0) + 1
            if p[6] == "true":
                branch.add(a)
                if len(p) > 7 and p[7] == "fail":
                    failed[a] = failed.get(a, 0) + 1
                else:
                    taken[a] = taken.get(a, 0) + 1
    r = subprocess.run([pft, "coverage", os.path.join(data, "TC2"), "--id", "0x13",
                        "--format", "insns"], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        print(r.stderr)
        return 1
    ours = {}
    for line in r.stdout.splitlines():
        p = line.split()
        ours[int(p[0], 16)] = (int(p[2]), int(p[3]), int(p[4]))
    bad = 0
    for a in sorted(set(count) | set(ours)):
        c, t, n = ours.get(a, (0, 0, 0))
        want = (count.get(a, 0), taken.get(a, 0), failed.get(a, 0)) if a in branch else \
            (count.get(a, 0), t, n)
        if (c, t, n) != want:
            bad += 1
            if bad <= 10:
                print(f"  {a:08x}: DS-5 count/taken/failed {want}, pft {(c, t, n)}")
    gaps = r.stderr.count("gap @")
    m = re.search(r"(\d+) gaps: \d+ trace bytes and (\d+) atoms not followed", r.stderr)
    atoms = int(m.group(2)) if m else -1
    if atoms != holes:
        print(f"  pft's gaps hold {atoms} atoms not followed, DS-5 has {holes} rows it could not follow")
        bad += 1
    if bad:
        print(f"FAIL TC2: {bad} addresses differ")
        return 1
    print(f"ok   TC2 0x13: {len(count)} addresses, {sum(count.values())} executions, "
          f"{len(branch)} waypoints: counts and outcomes equal DS-5's; "
          f"pft's {gaps} gaps hold the {atoms} atoms DS-5 could not follow either")
    return 0


if __name__ == "__main__":
    sys.exit(main())
