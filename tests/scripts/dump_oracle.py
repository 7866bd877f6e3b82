#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compare `pft dump --json` with OpenCSD's trc_pkt_lister, packet by packet.

Usage: dump_oracle.py PFT SNAPSHOT_DIR [--id 0xNN] [--min-packets N]

trc_pkt_lister (Debian package libopencsd-bin) runs now, with -decode so
that it prints every packet's raw bytes.  After the first A-sync, every
packet must have the same capture offset (trc_pkt_lister's Idx), the same
raw bytes (so the same boundaries), the same type and the same decoded
fields: address, ISA, exception, NS, Hyp, cycle count, atoms in order,
timestamp value, context ID, I-sync reason.  Before the first A-sync both
tools skip bytes (pft: one `unsynced` item; OpenCSD: NOTSYNC lines); only
the byte count is compared there.

Deliberate differences (the comparison allows exactly these; the numbers
are those of doc/packets.md, "Choices on the ambiguities"):
  D1  OpenCSD prints "Hyp;" from remembered state on a branch without
      exception byte 1; pft reports Hyp only when the packet carries it.
      Hyp is compared where pft has it.
  D2  OpenCSD prints the ISA of a branch / waypoint update only when it
      changes; pft gives the ISA of every address packet.  Where OpenCSD
      prints none, pft's ISA must equal the previous address packet's.
  D3  OpenCSD prints a VMID as a character ("VMID=0x0*", A18): the value is
      not compared, only the packet.
  D4  Gray-coded timestamps (PFTv1.0, or v1.1 with ETMCCER[28]=0): OpenCSD
      prints the merged Gray value unconverted (A14); it is converted to
      binary before comparing.
  D5  After a malformed packet OpenCSD decodes on at once, pft searches for
      the next A-sync (A20); both `error` items must start at the same
      offset (their lengths may differ), and the comparison resumes at the
      next A-sync.  (The real traces have no malformed packets.)
  D6  trc_pkt_lister's Idx for framed trace is not the capture offset of the
      byte: OpenCSD numbers the de-formatted bytes of a frame from the frame
      start, or from the ID byte that started the run, skipping the ID bytes.
      This script de-formats the capture itself (an independent
      implementation of the frame rules, below), and checks pft's
      capture_offset against the true offset and OpenCSD's Idx against
      OpenCSD's numbering of the same byte.
  D7  ThumbEE on branches and waypoint updates: OpenCSD takes the AltIS
      state only from the last branch that carries exception byte 0 and
      ignores the AltIS bit of I-syncs, so after an I-sync into ThumbEE it
      calls the next compressed branch Thumb, and after an I-sync into Thumb
      it may call it ThumbEE.  pft takes the state from the last I-sync or
      exception byte 0 (a compressed branch cannot change the instruction
      set, spec 4.5.4).  Where the ISA is Thumb or ThumbEE, pft must agree
      on "Thumb family", and OpenCSD's ISA must be what its rule gives.
Exit status 0 when there are no other differences, 1 otherwise.
"""
import json
import re
import subprocess
import sys

from lister_fields import common_field, lister_lines

TYPE_MAP = {
    "ASYNC": "async", "ISYNC": "isync", "ATOM": "atom", "BRANCH_ADDRESS": "branch",
    "WP_UPDATE": "waypoint_update", "TRIGGER": "trigger", "CTXTID": "context_id",
    "VMID": "vmid", "TIMESTAMP": "timestamp", "ERET": "exception_return",
    "IGNORE": "ignore", "NOTSYNC": "unsynced", "BAD_SEQUENCE": "error",
    "RESERVED": "error", "INCOMPLETE_EOT": "error",
}
ISA_MAP = {"ARM(32)": "A32", "Thumb2": "T32", "ThumbEE": "T32EE", "Jazelle": "JAZ"}
REASON_MAP = {"Periodic": "periodic", "Trace Enable": "trace_on",
              "Restart Overflow": "overflow", "Debug Exit": "debug_exit"}
LINE_RE = re.compile(r"^Idx:(\d+); ID:([0-9a-fA-F]+); \[((?:0x[0-9a-f]{2} )*)\];\t(\w+) : [^;]*;(.*)$")


def gray_to_binary(g):
    b = g
    shift = 1
    while shift < 64:
        b ^= b >> shift
        shift <<= 1
    return b


def deformat(cap, want):
    """Stream bytes of trace ID `want` in CoreSight frames: list of
    (true capture offset, OpenCSD-style index) per stream byte."""
    res = []
    cur = None
    for sof in range(0, len(cap) - 15, 16):
        f = cap[sof:sof + 16]
        aux = f[15]
        state = {"idx": sof, "n": 0}

        def put(tid, off):
            if tid == want:
                res.append((off, state["idx"] + state["n"]))
            state["n"] += 1

        for i in range(0, 14, 2):
            old_gets_next = False
            if f[i] & 1:
                new = f[i] >> 1
                if new != cur:
                    old_gets_next = (aux >> (i // 2)) & 1
                    if old_gets_next:
                        put(cur, sof + i + 1)
                    cur = new
                    if state["n"]:
                        state["idx"], state["n"] = sof + i, 0
            else:
                put(cur, sof + i)
            if not old_gets_next:
                put(cur, sof + i + 1)
        if f[14] & 1:
            cur = f[14] >> 1
        else:
            put(cur, sof + 14)
    return res


def lister_packets(snapshot, trace_id):
    lines = lister_lines(snapshot, trace_id)
    pkts = []
    for line in lines:
        m = LINE_RE.match(line)
        if not m:
            continue
        idx, _id, raw, kind, rest = m.groups()
        p = {"idx": int(idx), "bytes": "".join(b[2:] for b in raw.split()),
             "type": TYPE_MAP.get(kind, "?" + kind), "kind": kind}
        fields = [f.strip() for f in rest.split(";")]
        for f in fields:
            if not f:
                continue
            if common_field(p, f, ISA_MAP, REASON_MAP):
                continue
            if f.startswith("Excep="):
                p["exception"] = int(f.rsplit("[", 1)[1].rstrip("]"), 16)
            elif f.startswith("VMID="):
                p["vmid_text"] = f[5:]
            elif re.fullmatch(r"[EN]+", f):
                p["atoms"] = f
        pkts.append(p)
    return pkts, "\n".join(lines)


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    pft, snapshot = args[0], args[1]
    trace_id = None
    min_packets = 1
    i = 2
    while i < len(args):
        if args[i] == "--id":
            trace_id = args[i + 1]
            i += 2
        elif args[i] == "--min-packets":
            min_packets = int(args[i + 1])
            i += 2
        else:
            print("unknown argument " + args[i], file=sys.stderr)
            return 2
    cmd = [pft, "dump", snapshot, "--json"] + (["--id", trace_id] if trace_id else [])
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if res.returncode not in (0, 1):
        print("pft dump failed (%d): %s" % (res.returncode, res.stderr.decode()), file=sys.stderr)
        return 1
    ours = [json.loads(l) for l in res.stdout.decode().splitlines() if l.strip()]
    stats = subprocess.run([pft, "dump", snapshot, "--json", "--stats"] +
                           (["--id", trace_id] if trace_id else []),
                           stdout=subprocess.PIPE, check=False).stdout.decode()
    st = json.loads(stats)["stats"]
    theirs, raw_out = lister_packets(snapshot, trace_id)
    if not theirs:
        print("trc_pkt_lister listed no packets; its output was:\n" + raw_out[-2000:],
              file=sys.stderr)
        return 1

    diffs = []

    def diff(msg):
        diffs.append(msg)
        if len(diffs) <= 20:
            print("DIFF " + msg, file=sys.stderr)

    # Every byte accounted for.
    total = sum(p["size"] for p in ours)
    if total != st["stream_bytes"]:
        diff("pft items cover %d bytes, the stream has %d" % (total, st["stream_bytes"]))

    # Skip to the first A-sync on both sides.
    oi = next((k for k, p in enumerate(ours) if p["type"] == "async"), None)
    ti = next((k for k, p in enumerate(theirs) if p["type"] == "async"), None)
    if oi is None or ti is None:
        diff("no A-sync found (pft: %s, OpenCSD: %s)" % (oi, ti))
        oi, ti = len(ours), len(theirs)
    else:
        skipped_ours = sum(p["size"] for p in ours[:oi])
        skipped_theirs = sum(len(p["bytes"]) // 2 for p in theirs[:ti])
        if skipped_ours != skipped_theirs:
            diff("bytes before the first A-sync: pft %d, OpenCSD %d" % (skipped_ours, skipped_theirs))

    # Gray-coded timestamps (D4)?
    feats = subprocess.run([pft, "dump", snapshot] + (["--id", trace_id] if trace_id else []),
                           stdout=subprocess.PIPE, check=False).stdout.decode().splitlines()
    regs = dict(re.findall(r"(ETM\w+)=0x([0-9A-F]+)", "\n".join(feats[:3])))
    idr = int(regs.get("ETMIDR", "411CF312"), 16)
    ccer = int(regs.get("ETMCCER", "0"), 16)
    ts_gray = ((idr >> 4) & 0xF) == 0 or ((ccer >> 28) & 1) == 0

    # D6: true offsets and OpenCSD's numbering of every stream byte.
    with open(st["buffer"], "rb") as fh:
        cap = fh.read()
    if st["format"] == "frames":
        offs = deformat(cap, st["trace_id"])
        if len(offs) != st["stream_bytes"]:
            diff("this script de-formats %d bytes for ID 0x%02x, pft %d" %
                 (len(offs), st["trace_id"], st["stream_bytes"]))
    elif st["format"] == "raw":
        offs = [(k, k) for k in range(len(cap))]
    else:
        offs = None

    compared = 0
    ocsd_isa = None      # OpenCSD's current ISA: printed, or remembered (D2)
    ocsd_altis = False   # OpenCSD's AltIS: from branch exception byte 0 only (D7)
    while oi < len(ours) and ti < len(theirs):
        o, t = ours[oi], theirs[ti]
        where = "pft offset %d / OpenCSD Idx %d" % (o["offset"], t["idx"])
        if offs is not None and o["offset"] < len(offs):
            true_off, ocsd_idx = offs[o["offset"]]
            if o["capture_offset"] != true_off:
                diff("%s: pft capture_offset %d, the byte is at %d" % (where, o["capture_offset"], true_off))
            if t["idx"] != ocsd_idx:
                diff("%s: OpenCSD Idx %d, expected %d (D6)" % (where, t["idx"], ocsd_idx))
        elif o["capture_offset"] != t["idx"]:
            diff("%s: capture offset differs" % where)
        if o["type"] == "error" and t["type"] == "error":
            pass  # D5: lengths may differ
        elif not t["bytes"].startswith(o["bytes"]) or len(t["bytes"]) // 2 != o["size"]:
            diff("%s: bytes pft %s (%d) vs OpenCSD %s" % (where, o["bytes"], o["size"], t["bytes"]))
        if o["type"] != t["type"]:
            diff("%s: type pft %s vs OpenCSD %s" % (where, o["type"], t["kind"]))
        else:
            ty = o["type"]
            if ty in ("isync", "branch", "waypoint_update"):
                if o.get("address") != t.get("address"):
                    diff("%s: address pft %s vs OpenCSD %s" % (where, hex(o.get("address", 0)),
                                                               hex(t.get("address", 0))))
                if "isa" in t:
                    ocsd_isa = t["isa"]
                if ty == "isync":
                    if o.get("isa") != t.get("isa"):
                        diff("%s: ISA pft %s vs OpenCSD %s" % (where, o.get("isa"), t.get("isa")))
                else:
                    if ty == "branch" and "exception" in o:
                        ocsd_altis = o.get("altis", False)
                    want = o.get("isa")
                    if want in ("T32", "T32EE"):
                        want = "T32EE" if ocsd_altis else "T32"  # D7
                    if ocsd_isa != want:
                        diff("%s: ISA pft %s, OpenCSD %s%s (D2/D7)" %
                             (where, o.get("isa"), ocsd_isa, "" if "isa" in t else " (not printed)"))
            if ty == "isync":
                if o.get("reason") != t.get("reason"):
                    diff("%s: I-sync reason pft %s vs OpenCSD %s" % (where, o.get("reason"), t.get("reason")))
                if o.get("ns") != t.get("ns"):
                    diff("%s: NS pft %s vs OpenCSD %s" % (where, o.get("ns"), t.get("ns")))
                if o.get("hyp", False) != t.get("hyp", False):
                    diff("%s: Hyp pft %s vs OpenCSD %s" % (where, o.get("hyp"), t.get("hyp")))
                if o.get("context_id") != t.get("context_id"):
                    diff("%s: context ID pft %s vs OpenCSD %s" % (where, o.get("context_id"), t.get("context_id")))
            if ty == "branch":
                if o.get("exception") != t.get("exception"):
                    diff("%s: exception pft %s vs OpenCSD %s" % (where, o.get("exception"), t.get("exception")))
                if "exception" in o and o.get("ns") != t.get("ns"):
                    diff("%s: NS pft %s vs OpenCSD %s" % (where, o.get("ns"), t.get("ns")))
                if "hyp" in o and o["hyp"] != t.get("hyp", False):
                    diff("%s: Hyp pft %s vs OpenCSD %s (D1)" % (where, o["hyp"], t.get("hyp", False)))
            if ty == "atom" and o.get("atoms") != t.get("atoms"):
                diff("%s: atoms pft %s vs OpenCSD %s" % (where, o.get("atoms"), t.get("atoms")))
            if ty == "timestamp":
                tv = t.get("timestamp")
                if ts_gray and tv is not None:
                    tv = gray_to_binary(tv)
                if o.get("timestamp") != tv:
                    diff("%s: timestamp pft %s vs OpenCSD %s" % (where, o.get("timestamp"), tv))
            if ty == "context_id" and o.get("context_id") != t.get("context_id"):
                diff("%s: context ID pft %s vs OpenCSD %s" % (where, o.get("context_id"), t.get("context_id")))
            if o.get("cycles") != t.get("cycles"):
                diff("%s: cycles pft %s vs OpenCSD %s" % (where, o.get("cycles"), t.get("cycles")))
        compared += 1
        oi += 1
        ti += 1
        if o["type"] == "error" and t["type"] == "error":
            # D5: resume both at the next A-sync
            while oi < len(ours) and ours[oi]["type"] != "async":
                oi += 1
            while ti < len(theirs) and theirs[ti]["type"] != "async":
                ti += 1
    if oi < len(ours) or ti < len(theirs):
        diff("packets left over: pft %d, OpenCSD %d" % (len(ours) - oi, len(theirs) - ti))
    if compared < min_packets:
        diff("only %d packets compared, expected at least %d" % (compared, min_packets))
    print("%s%s: %d packets compared after the first A-sync, %d stream bytes, %d differences" %
          (snapshot, " ID " + trace_id if trace_id else "", compared, st["stream_bytes"], len(diffs)))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
