#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compare libpft's ETMv3 packet decoder with OpenCSD's trc_pkt_lister,
packet by packet, on one ETMv3 source of a snapshot.

Usage: etm3_oracle.py ETM3_DUMP SNAPSHOT_DIR --id 0xNN [--min-packets N] [--pft PFT]

ETM3_DUMP is tests/scripts/etm3_dump.c (capture, ID, ETMCR, ETMIDR, ETMCCER
-> JSON Lines); the registers come from the snapshot's device_*.ini of the
trace ID.  trc_pkt_lister (Debian libopencsd-bin) runs now, with -decode so
that it prints every packet's raw bytes.  After the first A-sync every
packet must have the same trc_pkt_lister index (see D6 of dump_oracle.py:
this script de-formats the capture with dump_oracle.deformat to map stream
offsets to OpenCSD's numbering), the same raw bytes, the same type and the
same decoded fields: P-header atoms and W marks as OpenCSD spells them and
the cycle count, branch address (and ISA where OpenCSD prints it), I-sync
reason / address / NS / Hyp / ISA / cycle count, timestamp value, context
ID.  Before the first A-sync only the number of skipped bytes is compared.
The decoder is also run with the stream fed one byte at a time: the items
must be identical (chunking independence).

With --pft, `pft dump SNAPSHOT_DIR --id 0xNN --json` must list the same
items (offset, size, type, bytes) and give each its true capture offset.

Deliberate differences (doc/etm3.md, "Differences from OpenCSD"):
  E1  OpenCSD prints the ISA of a branch only when it changes, pft on every
      branch: where OpenCSD prints none, pft's must equal the previous one.
  E2  P-header format 4 (one atom without a cycle): OpenCSD prints it
      without "W" and without "Cycles="; compared in that spelling.
  E3  A-sync with more than 5 zeros: OpenCSD reports the extra zeros as
      errors, pft as one longer A-sync (the real traces have none).
Exit status 0 when there are no other differences, 1 otherwise.
"""
import configparser
import glob
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dump_oracle import deformat  # noqa: E402
from lister_fields import common_field, lister_lines  # noqa: E402

LINE_RE = re.compile(r"^Idx:(\d+); ID:([0-9a-fA-F]+); \[((?:0x[0-9a-f]{2} )*)\];\t(\w+) : ([^;]*)(?:;(.*))?$")
TYPE_MAP = {
    "A_SYNC": "async", "I_SYNC": "isync", "I_SYNC_CYCLE": "isync", "P_HDR": "phdr",
    "BRANCH_ADDRESS": "branch", "CYCLE_COUNT": "cycle_count", "TRIGGER": "trigger",
    "CONTEXT_ID": "context_id", "VMID": "vmid", "TIMESTAMP": "timestamp",
    "EXCEPTION_EXIT": "exception_return", "EXCEPTION_ENTRY": "exception_entry",
    "IGNORE": "ignore", "NORM_DATA": "data", "OOO_DATA": "ooo_data",
    "OOO_ADDR_PLC": "ooo_placeholder", "VAL_NOT_TRACED": "value_not_traced",
    "DATA_SUPPRESSED": "data_suppressed", "STORE_FAIL": "store_failed",
    "NOTSYNC": "unsynced", "BAD_SEQUENCE": "error", "BAD_TRACEMODE": "error",
    "I_RESERVED": "error",
}
ISA_MAP = {"ARM(32)": "A32", "Thumb2": "T32", "ThumbEE": "T32EE", "Jazelle": "JAZ"}
REASONS = {"Periodic": 0, "Trace Enable": 1, "Restart Overflow": 2, "Debug Exit": 3}


def registers(snapshot, trace_id):
    for ini in sorted(glob.glob(os.path.join(snapshot, "device_*.ini"))):
        cp = configparser.ConfigParser(strict=False)
        cp.optionxform = str
        cp.read(ini)
        if not cp.has_section("regs"):
            continue
        regs = {}
        for k, v in cp.items("regs"):
            regs[k.split("(")[0].upper()] = int(v, 0)
        if regs.get("ETMTRACEIDR", -1) & 0x7F == trace_id:
            return cp.get("device", "type", fallback="?"), regs
    return None, None


def source_args(trace_id, regs):
    """The trace ID and registers (ETMCR, ETMIDR, ETMCCER) as etm3_dump
    takes them after the capture."""
    return ["0x%x" % trace_id] + ["0x%x" % regs.get(r, 0) for r in ("ETMCR", "ETMIDR", "ETMCCER")]


def lister(snapshot, trace_id):
    pkts = []
    for line in lister_lines(snapshot, "0x%x" % trace_id):
        m = LINE_RE.match(line)
        if not m:
            continue
        idx, _id, raw, kind, _desc, rest = m.groups()
        p = {"idx": int(idx), "bytes": "".join(b[2:] for b in raw.split()), "kind": kind,
             "type": TYPE_MAP.get(kind, "?" + kind)}
        fields = [f.strip() for f in (rest or "").split(";")]
        for f in fields:
            if not f:
                continue
            if common_field(p, f, ISA_MAP, REASONS):
                continue
            if re.fullmatch(r"[WEN]+", f):
                p["atoms"] = f
        pkts.append(p)
    return pkts


def atom_string(p, ca):
    """OpenCSD's spelling of a P-header (oldest first)."""
    bits = [(p["atoms"] >> i) & 1 for i in range(p["atom_count"])]
    en = "".join("E" if b else "N" for b in bits)
    if not ca or p["format"] == 4:
        return en, None
    if p["format"] == 1:
        return "".join("W" + c for c in en), p["cycles"]
    if p["format"] == 2:
        return "W" + en, p["cycles"]
    return "W" * p["cycles"] + en, p["cycles"]


def run_dump(tool, capture, trace_id, regs, chunk=None):
    cmd = [tool, capture] + source_args(trace_id, regs)
    if chunk:
        cmd.append(str(chunk))
    out = subprocess.run(cmd, stdout=subprocess.PIPE, check=False)
    return out.returncode, [json.loads(line) for line in out.stdout.decode().splitlines()]


def main():
    args = sys.argv[1:]
    if len(args) < 4 or args[2] != "--id":
        print(__doc__)
        return 2
    tool, snapshot, trace_id = args[0], args[1], int(args[3], 0)
    min_packets = int(args[args.index("--min-packets") + 1]) if "--min-packets" in args else 100
    dev_type, regs = registers(snapshot, trace_id)
    if regs is None:
        print("no device with trace ID 0x%x in %s" % (trace_id, snapshot))
        return 1
    capture = os.path.join(snapshot, "cstrace.bin")
    rc, mine = run_dump(tool, capture, trace_id, regs)
    rc1, mine1 = run_dump(tool, capture, trace_id, regs, chunk=1)
    ref = lister(snapshot, trace_id)
    errors = []

    def diff(msg):
        errors.append(msg)

    if rc not in (0, 1) or not mine:
        print("etm3_dump failed (status %d)" % rc)
        return 1
    if mine1 != mine:
        diff("decoding one byte at a time gives different items")
    # stream offset -> OpenCSD index
    with open(capture, "rb") as fp:
        cap = fp.read()
    where = deformat(cap, trace_id)
    if "--pft" in args:
        pft = args[args.index("--pft") + 1]
        out = subprocess.run([pft, "dump", snapshot, "--id", "0x%x" % trace_id, "--json"],
                             stdout=subprocess.PIPE, check=False)
        cli = [json.loads(line) for line in out.stdout.decode().splitlines()]
        if out.returncode != 0:
            diff("pft dump exit status %d" % out.returncode)
        if len(cli) != len(mine):
            diff("pft dump: %d items, etm3_dump %d" % (len(cli), len(mine)))
        for c, m in zip(cli, mine):
            if [c[k] for k in ("offset", "size", "type", "bytes")] != \
               [m[k] for k in ("offset", "size", "type", "bytes")]:
                diff("pft dump item at %d differs: %s" % (m["offset"], c))
                break
            if c["capture_offset"] != where[m["offset"]][0]:
                diff("pft dump item at %d: capture offset %d, true %d"
                     % (m["offset"], c["capture_offset"], where[m["offset"]][0]))
                break
        print("pft dump --json: %d items checked" % len(cli))
    ca = bool(regs.get("ETMCR", 0) & (1 << 12))

    # unsynced prefix
    ref_unsync = sum(len(p["bytes"]) // 2 for p in ref if p["type"] == "unsynced")
    mine_unsync = sum(p["size"] for p in mine if p["type"] == "unsynced")
    if ref_unsync != mine_unsync:
        diff("unsynced bytes: OpenCSD %d, pft %d" % (ref_unsync, mine_unsync))
    ref = [p for p in ref if p["type"] != "unsynced"]
    mine = [p for p in mine if p["type"] != "unsynced"]
    if len(ref) != len(mine):
        diff("packet count: OpenCSD %d, pft %d" % (len(ref), len(mine)))
    last_isa = None
    for i, (r, m) in enumerate(zip(ref, mine)):
        tag = "packet %d (OpenCSD Idx %d, %s)" % (i, r["idx"], r["kind"])
        if len(errors) > 20:
            break
        if m["offset"] >= len(where) or where[m["offset"]][1] != r["idx"]:
            diff("%s: pft offset %d is OpenCSD Idx %s" % (tag, m["offset"],
                 where[m["offset"]][1] if m["offset"] < len(where) else "?"))
        if r["bytes"] != m["bytes"]:
            diff("%s: bytes %s vs pft %s" % (tag, r["bytes"], m["bytes"]))
        if r["type"] != m["type"]:
            diff("%s: type %s vs pft %s" % (tag, r["type"], m["type"]))
            continue
        t = m["type"]
        if t == "phdr":
            atoms, cyc = atom_string(m, ca)
            if r.get("atoms", "") != atoms or r.get("cycles") != cyc:
                diff("%s: %s cycles %s vs pft %s cycles %s" % (tag, r.get("atoms"), r.get("cycles"),
                                                              atoms, cyc))
        elif t == "branch":
            if r.get("address") != m["address"]:
                diff("%s: address %#x vs pft %#x" % (tag, r.get("address", -1), m["address"]))
            isa = r.get("isa", last_isa)  # E1
            if isa is not None and isa != m["isa"]:
                diff("%s: ISA %s vs pft %s" % (tag, isa, m["isa"]))
            last_isa = m["isa"]
            if "exception" in m and bool(r.get("ns")) != bool(m["ns"]):
                diff("%s: NS differs" % tag)
        elif t == "isync":
            for k in ("address", "isa", "reason", "cycles"):
                if r.get(k) != m.get(k):
                    diff("%s: %s %s vs pft %s" % (tag, k, r.get(k), m.get(k)))
            if bool(r.get("ns")) != bool(m["ns"]) or bool(r.get("hyp")) != bool(m["hyp"]):
                diff("%s: NS/Hyp differ" % tag)
            last_isa = m["isa"]
        elif t in ("timestamp", "context_id", "cycle_count"):
            k = {"timestamp": "timestamp", "context_id": "context_id", "cycle_count": "cycles"}[t]
            if r.get(k) != m.get(k):
                diff("%s: %s %s vs pft %s" % (tag, k, r.get(k), m.get(k)))
    n = min(len(ref), len(mine))
    if n < min_packets:
        diff("only %d packets compared (expected at least %d)" % (n, min_packets))
    for e in errors[:30]:
        print(e)
    print("trace ID 0x%x (%s): %d packets compared, %d unsynced bytes, %d differences"
          % (trace_id, dev_type, n, mine_unsync, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
