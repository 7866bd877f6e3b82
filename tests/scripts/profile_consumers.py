#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The consumers' view of pft profile / pft timeline output.

usage: profile_consumers.py INSNS [CYCLES] -- FILES...
  *.callgrind   callgrind_annotate reads it with nothing on stderr, and its
                PROGRAM TOTALS equal INSNS (and CYCLES when given)
  *.speedscope  validates against tests/scripts/profile_speedscope.schema.json;
                sample indices within the frames; weights add up to INSNS
  *.json        (timeline) parses; per track the B/E slices nest; the end time
                equals the trace's (INSNS, or CYCLES with clock "cycles")
  *.folded      "stack weight" lines whose weights add up to INSNS
"""
import json
import os
import re
import subprocess
import sys

import jsonschema


def main():
    args = sys.argv[1:]
    sep = args.index("--")
    insns = int(args[0])
    cycles = int(args[1]) if sep > 1 else None
    bad = 0
    here = os.path.dirname(os.path.abspath(__file__))
    schema = json.load(open(os.path.join(here, "profile_speedscope.schema.json")))
    for f in args[sep + 1:]:
        if f.endswith(".callgrind"):
            r = subprocess.run(["callgrind_annotate", f], capture_output=True, text=True)
            m = re.search(r"^([\d,]+)(?: +\([^)]*\))?(?: +([\d,]+))?.*PROGRAM TOTALS", r.stdout, re.M)
            tot = [int(x.replace(",", "")) for x in m.groups() if x] if m else []
            want = [insns] + ([cycles] if cycles is not None else [])
            if r.returncode or r.stderr.strip() or tot[:len(want)] != want:
                print(f"FAIL {f}: callgrind_annotate rc={r.returncode} totals={tot} want {want} "
                      f"stderr={r.stderr.strip()[:200]}")
                bad += 1
        elif f.endswith(".speedscope"):
            d = json.load(open(f))
            try:
                jsonschema.validate(d, schema)
            except jsonschema.ValidationError as e:
                print(f"FAIL {f}: {e.message}")
                bad += 1
                continue
            p = d["profiles"][0]
            nf = len(d["shared"]["frames"])
            if any(i >= nf for s in p["samples"] for i in s) or sum(p["weights"]) != insns or \
                    len(p["samples"]) != len(p["weights"]):
                print(f"FAIL {f}: samples/weights inconsistent (sum {sum(p['weights'])}, want {insns})")
                bad += 1
        elif f.endswith(".folded"):
            tot = sum(int(line.rsplit(" ", 1)[1]) for line in open(f) if line.strip())
            if tot != insns:
                print(f"FAIL {f}: weights add up to {tot}, want {insns}")
                bad += 1
        elif f.endswith(".json"):
            d = json.load(open(f))
            clock = d["otherData"]["clock"]
            depth, last, end = {}, {}, 0.0
            for e in d["traceEvents"]:
                if e["ph"] not in "BEi":
                    continue
                t, ts = e["tid"], float(e["ts"])
                if ts < last.get(t, 0.0):
                    print(f"FAIL {f}: time goes back on track {t} at {ts}")
                    bad += 1
                    break
                last[t] = ts
                end = max(end, ts)
                if e["ph"] == "B":
                    depth[t] = depth.get(t, 0) + 1
                elif e["ph"] == "E":
                    depth[t] = depth.get(t, 0) - 1
                    if depth[t] < 0:
                        print(f"FAIL {f}: E without B on track {t} at {ts}")
                        bad += 1
                        break
            want = insns if clock == "insns" else cycles if clock == "cycles" else None
            if any(depth.values()) or (want is not None and end != want) or \
                    float(d["pft"]["end"]) != end:
                print(f"FAIL {f}: open slices {depth}, end {end}, want {want}")
                bad += 1
        else:
            print(f"FAIL {f}: unknown kind")
            bad += 1
    print(("ok  " if not bad else "FAIL") + f" {len(args) - sep - 1} files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
