#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""pft decode against ARM DS-5's own decode of the same trace, row by row.

usage: decode_ds5.py PFT_BIN SNAPSHOT_DIR TRACE_ID DS5_DUMP

DS-5 writes one tab-separated row per executed instruction ("Instruction":
address, opcode, cycles, "fail" when a waypoint failed its condition), one
"Cannot access target memory" row where an atom needed code the image does
not hold, one "Unknown instruction address" row for every atom after that
until an address packet, "Cycle Count" rows for the cycle count of trace-on
I-syncs and "Timestamp" rows.  pft decode --json must give, in the same
order: an instruction object with the same address, cycle count (on the
waypoint; DS-5 prints 0 elsewhere) and cond_failed; a memory_not_readable
event with the same address and cycle count; an unknown_address event with
the same cycle count and E/N; a trace_on event with that cycle count; a
timestamp event with that value.  Exit 0 when there is no difference."""
import json
import subprocess
import sys

def ds5_rows(path):
    rows = []
    for line in open(path, errors="replace"):
        f = line.rstrip("\r\n").split("\t")
        if f[0] == "Instruction" and len(f) >= 6:
            kind = "I"
            if "Cannot access target memory" in f[5]:
                kind = "N"
            elif "Unknown instruction address" in f[5]:
                kind = "U"
            a = f[2].split(":", 1)[-1]
            addr = None if a == "?" else int(a, 16)
            fail = len(f) >= 8 and f[7] == "fail"
            rows.append((kind, addr, int(f[4] or 0), fail))
        elif f[0] == "Cycle Count" and len(f) >= 5:
            rows.append(("C", None, int(f[4]), False))
        elif f[0] == "Timestamp" and len(f) >= 6 and "Timestamp: " in f[5]:
            rows.append(("T", None, int(f[5].split(": ")[1]), False))
    return rows

def pft_rows(pft, snapdir, trace_id):
    p = subprocess.run([pft, "decode", snapdir, "--id", trace_id, "--json", "--no-disasm"],
                       stdout=subprocess.PIPE, check=False)
    if p.returncode not in (0, 1):
        sys.exit("pft decode failed with status %d" % p.returncode)
    rows = []
    for line in p.stdout.decode().splitlines():
        o = json.loads(line)
        ev = o.get("event")
        if ev is None:
            rows.append(("I", int(o["addr"], 16), o.get("cycles", 0), o.get("cond_failed", False)))
        elif ev == "memory_not_readable":
            rows.append(("N", int(o["addr"], 16), o.get("cycles", 0), o.get("cond_failed", False)))
        elif ev == "unknown_address":
            rows.append(("U", None, o.get("cycles", 0), o.get("cond_failed", False)))
        elif ev == "trace_on" and "cycles" in o:
            rows.append(("C", None, o["cycles"], False))
        elif ev == "timestamp":
            rows.append(("T", None, o["timestamp"], False))
    return rows

def fmt(r):
    if r is None:
        return "nothing"
    kind, addr, val, fail = r
    return "%s %s %d%s" % (kind, "?" if addr is None else "%08x" % addr, val, " fail" if fail else "")

def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    pft, snapdir, trace_id, dump = sys.argv[1:5]
    ds5 = ds5_rows(dump)
    ours = pft_rows(pft, snapdir, trace_id)
    bad = 0
    for i in range(max(len(ds5), len(ours))):
        a = ds5[i] if i < len(ds5) else None
        b = ours[i] if i < len(ours) else None
        if a != b:
            bad += 1
            if bad <= 10:
                print("row %d: DS-5 %s, pft %s" % (i, fmt(a), fmt(b)))
    count = lambda k: sum(1 for r in ds5 if r[0] == k)
    print("%s: %d DS-5 rows (%d instructions, %d not readable, %d unknown address, "
          "%d I-sync cycle counts, %d timestamps), %d pft rows, %d differences"
          % (dump, len(ds5), count("I"), count("N"), count("U"), count("C"), count("T"),
             len(ours), bad))
    if count("I") == 0:
        print("no instruction rows read from the DS-5 file: nothing compared")
        return 1
    return 1 if bad else 0

sys.exit(main())
