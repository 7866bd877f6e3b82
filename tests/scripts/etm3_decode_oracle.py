#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compare libpft's ETMv3 instruction flow with OpenCSD's decode of the same
source: trc_pkt_lister -decode, run now.

Usage: etm3_decode_oracle.py ETM3_DUMP SNAPSHOT_DIR --id 0xNN

ETM3_DUMP is tests/scripts/etm3_dump.c run with --flow (the image is the
snapshot's kernel_dump.bin at 0xC0008000, as in TC2's cpu_*.ini).  OpenCSD
gives one OCSD_GEN_TRC_ELEM_INSTR_RANGE per atom (ETMv3 traces every
instruction), as pft gives one range per instruction: the ranges must be the
same, in order: start, end, E or N.

Cycle counts are kept apart differently: OpenCSD puts the W marks of
W-only P-headers in CYCLE_COUNT elements and gives a range only its own W;
pft gives an instruction every W since the previous atom (as DS-5 does).
So each pft count must equal the sum of OpenCSD's counts (CYCLE_COUNT
elements and ranges) since the previous range; the sum restarts at each
TRACE_ON (pft adds the W marks left when trace went off to the cycle count
of the I-sync that turns it on again, which OpenCSD does not report).
The number of trace-on events and exception returns must agree too.
Exit status 0 when everything agrees, 1 otherwise.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from etm3_oracle import registers, source_args  # noqa: E402

ELEM_RE = re.compile(r"^Idx:\d+; ID:[0-9a-fA-F]+; (OCSD_GEN_TRC_ELEM_\w+)\((.*)\)\s*$")
RANGE_RE = re.compile(r"exec range=0x([0-9a-f]+):\[0x([0-9a-f]+)\] num_i\((\d+)\).*?\) ([EN]) ")
CC_RE = re.compile(r"\[CC=(\d+)\]")


def opencsd(snapshot, trace_id):
    cmd = ["trc_pkt_lister", "-ss_dir", snapshot, "-decode", "-logstdout", "-id", "0x%x" % trace_id]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False).stdout
    ranges, trace_on, eret = [], 0, 0
    acc = 0
    for line in out.decode("latin-1").splitlines():
        m = ELEM_RE.match(line)
        if not m:
            continue
        kind, body = m.groups()
        cc = CC_RE.search(body)
        if kind.endswith("TRACE_ON"):
            trace_on += 1
            acc = 0
        elif kind.endswith("EXCEPTION_RET"):
            eret += 1
        elif kind.endswith("CYCLE_COUNT") and cc:
            acc += int(cc.group(1))
        elif kind.endswith("INSTR_RANGE"):
            r = RANGE_RE.search(body)
            if not r:
                ranges.append(None)
                continue
            acc += int(cc.group(1)) if cc else 0
            ranges.append((int(r.group(1), 16), int(r.group(2), 16), r.group(4) == "E",
                           int(r.group(3)), acc))
            acc = 0
    return ranges, trace_on, eret


def main():
    args = sys.argv[1:]
    if len(args) < 4 or args[2] != "--id":
        print(__doc__)
        return 2
    tool, snapshot, trace_id = args[0], args[1], int(args[3], 0)
    _type, regs = registers(snapshot, trace_id)
    if regs is None:
        print("no device with trace ID 0x%x in %s" % (trace_id, snapshot))
        return 1
    cmd = [tool, "--flow", os.path.join(snapshot, "kernel_dump.bin"), "0xC0008000",
           os.path.join(snapshot, "cstrace.bin")] + source_args(trace_id, regs)
    out = subprocess.run(cmd, stdout=subprocess.PIPE, check=False)
    items = [json.loads(line) for line in out.stdout.decode().splitlines()]
    mine = [it for it in items if "range" in it]
    my_on = sum(1 for it in items if it.get("event") == "trace_on")
    my_eret = sum(1 for it in items if it.get("event") == "exception_return")
    ref, ref_on, ref_eret = opencsd(snapshot, trace_id)
    errors = []
    if len(ref) != len(mine):
        errors.append("ranges: OpenCSD %d, pft %d" % (len(ref), len(mine)))
    for i, (r, m) in enumerate(zip(ref, mine)):
        if len(errors) > 10:
            break
        if r is None or r[3] != 1:
            errors.append("range %d: OpenCSD %s is not one instruction" % (i, r))
            continue
        if (r[0], r[1], r[2]) != (m["range"][0], m["range"][1], bool(m["e"])):
            errors.append("range %d: OpenCSD %#x-%#x %s, pft %#x-%#x %s" % (
                i, r[0], r[1], "E" if r[2] else "N", m["range"][0], m["range"][1],
                "E" if m["e"] else "N"))
        elif r[4] != m["cycles"]:
            errors.append("range %d at %#x: OpenCSD cycles %d, pft %d" % (i, r[0], r[4], m["cycles"]))
    # pft counts the first I-sync (periodic) as trace on, as OpenCSD does
    if ref_on != my_on:
        errors.append("trace on: OpenCSD %d, pft %d" % (ref_on, my_on))
    if ref_eret != my_eret:
        errors.append("exception returns: OpenCSD %d, pft %d" % (ref_eret, my_eret))
    if len(ref) < 1000:
        errors.append("only %d ranges" % len(ref))
    for e in errors:
        print(e)
    print("trace ID 0x%x: %d instruction ranges compared, %d trace on, %d exception returns, "
          "%d differences" % (trace_id, min(len(ref), len(mine)), ref_on, ref_eret, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
