#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""ETMv3 data trace (pft record --protocol etm3 --data-trace) against the
emulator's own access log and OpenCSD.

Programs: tests/programs/memops.c built for ARM and for Thumb-2 (loads and
stores of every size, LDRD/STRD, LDM/STM both ways, PUSH/POP, LDR PC) and
the example programs fault (cancelling data aborts), irq (exception entry
and return), qsort and interwork.  Data trace configurations: addresses
only, values only, both (ETMCR[3:2]), each under several instruction trace
configurations (plain; cycle-accurate with timestamps; IRQs, 2-byte
context IDs and an A-sync every 64 bytes; branch broadcast in CoreSight
frames with the alternative branch encoding).  For each recording:

  a. pft decode --format addrs equals the emulator's executed-instruction
     log (--log): instruction trace goes on through the data packets;
  b. the normal data packets of pft dump --json, in order, are the
     emulator's data transfers (--data-log, written from Unicorn's memory
     hooks): one packet per transfer; a data address exactly when it is the
     instruction's first transfer or does not follow on from the one before
     (the A bit when addresses are not traced), equal to the transfer's;
     the value (when traced) equal, in the fewest of 0/1/2/4 bytes; every
     byte of the buffer in a packet, no error.  The access log itself is
     checked: each line's instruction is the log's instruction at that
     index, and a load of bytes the program stored before reads them back;
  c. OpenCSD (trc_pkt_lister, run now): with values only, its packets are
     pft's one for one (offset and type) and its data values the
     emulator's; with data addresses it is reported, not required: where
     its packet listing stops and whether -decode runs (doc/etm3.md).

The comparison is run on altered copies of the access log (a value, an
address, a transfer dropped) and must fail on each.

Usage: record_etm3_data.py MEMOPS_ARM.elf MEMOPS_THUMB.elf  (PFT_BIN,
PFT_BUILD in the environment).  Exit 0, 1 on a difference, 77 when the
programs or trc_pkt_lister are missing."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PFT = os.environ.get("PFT_BIN", "")
EX = os.path.join(os.environ.get("PFT_BUILD", ""), "examples")

VARIANTS = [
    [],
    ["--cycle-accurate", "--timestamps"],
    ["--irq-every", "37", "--contextid-bytes", "2", "--sync-freq", "64"],
    ["--branch-broadcast", "--format", "frames", "--etmidr", "0x411CF240"],
]
KINDS = {"address": 0x8, "value": 0x4, "both": 0xC}
IDX_RE = re.compile(r"^Idx:(\d+); ID:[0-9a-fA-F]+;\s+(\w+)")
VAL_RE = re.compile(r"Val=0x([0-9a-fA-F]+)")


def run(args):
    return subprocess.run(args, capture_output=True, text=True, check=False)


def value_bytes(v):
    return 0 if v == 0 else 1 if v <= 0xFF else 2 if v <= 0xFFFF else 4


def read_dlog(path):
    """(index, insn, write, size, addr, value) per transfer; a 64-bit one as
    two 32-bit ones, lower address first."""
    out = []
    with open(path) as f:
        for line in f:
            i, ins, rw, size, addr, val = line.split()
            i, ins, size, addr, val = int(i), int(ins, 16), int(size), int(addr, 16), int(val, 16)
            if size == 8:
                out.append((i, ins, rw == "W", 4, addr, val & 0xFFFFFFFF))
                out.append((i, ins, rw == "W", 4, addr + 4, val >> 32))
            else:
                out.append((i, ins, rw == "W", size, addr, val))
    return out


def check_dlog(acc, log_insns):
    """The access log against the instruction log and itself."""
    bad, mem = [], {}
    for i, ins, w, size, addr, val in acc:
        if i >= len(log_insns) or int(log_insns[i].split()[0], 16) != ins:
            bad.append("access log: instruction %d at 0x%08x is not the log's" % (i, ins))
            break
        for k in range(size):
            b = (val >> (8 * k)) & 0xFF
            if w:
                mem[addr + k] = b
            elif addr + k in mem and mem[addr + k] != b:
                bad.append("access log: load of 0x%08x gave 0x%02x, stored 0x%02x" %
                           (addr + k, b, mem[addr + k]))
                return bad
    return bad


def compare(pkts, acc, etmcr):
    """The data packets against the transfers; a list of differences."""
    daddr, dval = etmcr & 0x8, etmcr & 0x4
    if len(pkts) != len(acc):
        return ["%d data packets, %d transfers" % (len(pkts), len(acc))]
    prev = None
    for n, (p, a) in enumerate(zip(pkts, acc)):
        i, _, _, size, addr, val = a
        need = prev is None or prev[0] != i or prev[4] + prev[3] != addr
        prev = a
        where = "data packet %d (offset %d, transfer of instruction %d)" % (n, p["offset"], i)
        if daddr:
            if need != ("data_address" in p):
                return ["%s: address %s, expected %s" % (where, "data_address" in p, need)]
            if need and p["data_address"] != addr:
                return ["%s: address 0x%08x, transfer 0x%08x" % (where, p["data_address"], addr)]
        elif need != bool(p.get("a")):
            return ["%s: A bit %s, expected %s" % (where, bool(p.get("a")), need)]
        want_v = val & ((1 << (8 * size)) - 1) if dval else 0
        if p.get("data_value") != want_v or p.get("data_size") != value_bytes(want_v):
            return ["%s: value 0x%x (%d bytes), transfer 0x%x" %
                    (where, p.get("data_value", -1), p.get("data_size", -1), want_v)]
    return []


def opencsd(snap, items, etmcr):
    """OpenCSD's packet lister and decoder on the snapshot: differences
    (values-only recordings) and a note."""
    r = subprocess.run(["trc_pkt_lister", "-ss_dir", snap, "-logstdout"],
                       capture_output=True, check=False)
    pk = []
    for line in r.stdout.decode("latin-1").splitlines():
        m = IDX_RE.match(line)
        if m:
            v = VAL_RE.search(line)
            pk.append((int(m.group(1)), m.group(2), int(v.group(1), 16) if v else None))
    d = subprocess.run(["trc_pkt_lister", "-ss_dir", snap, "-decode", "-logstdout"],
                       capture_output=True, check=False)
    dec = d.stdout.decode("latin-1")
    ranges = dec.count("OCSD_GEN_TRC_ELEM_INSTR_RANGE")
    refused = "No decoder configuration information" in dec
    mine = [p for p in items if p["type"] not in ("unsynced",)]
    ndata_o = sum(1 for p in pk if p[1] == "NORM_DATA")
    ndata_p = sum(1 for p in mine if p["type"] == "data")
    note = {"packets": (len(pk), len(mine)), "data": (ndata_o, ndata_p),
            "last": pk[-1][0] if pk else -1, "ranges": ranges, "refused": refused}
    bad = []
    raw = not os.path.exists(os.path.join(snap, "cstrace.bin"))
    if etmcr & 0xC == 0x4:
        if len(pk) != len(mine):
            bad.append("OpenCSD lists %d packets, pft %d" % (len(pk), len(mine)))
        else:
            for (off, typ, val), p in zip(pk, mine):
                # offsets compared in a raw buffer (OpenCSD numbers framed
                # bytes its own way: tests/scripts/etm3_oracle.py)
                if (raw and off != p["offset"]) or \
                        (typ == "NORM_DATA") != (p["type"] == "data"):
                    bad.append("OpenCSD packet at %d %s, pft at %d %s" %
                               (off, typ, p["offset"], p["type"]))
                    break
                if typ == "NORM_DATA" and (val or 0) != p["data_value"]:
                    bad.append("OpenCSD value 0x%x at %d, pft 0x%x" % (val or 0, off,
                                                                       p["data_value"]))
                    break
    return bad, note


def check(prog, kind, extra, tmp):
    snap, log, dlog = (os.path.join(tmp, x) for x in ("s", "log", "data"))
    shutil.rmtree(snap, ignore_errors=True)
    etmcr = KINDS[kind]
    r = run([PFT, "record", "--protocol", "etm3", prog, "-o", snap, "--log", log,
             "--data-trace", kind, "--data-log", dlog] + extra)
    if r.returncode != 0:
        return ["record failed: %s" % r.stderr.strip()[:300]], None, None
    with open(log) as f:
        want = [x for x in f.read().splitlines() if not x.startswith("!")]
    acc = read_dlog(dlog)
    bad = check_dlog(acc, want)
    d = run([PFT, "decode", snap, "--format", "addrs"])
    if d.returncode != 0 or d.stdout.splitlines() != want:
        bad.append("pft decode differs from the log (%d / %d lines; %s)" %
                   (len(d.stdout.splitlines()), len(want), d.stderr.strip()[:200]))
    j = run([PFT, "dump", snap, "--json"])
    items = [json.loads(x) for x in j.stdout.splitlines() if x.startswith("{")]
    items = [x for x in items if "offset" in x]
    errs = [x for x in items if x["type"] in ("error", "unsynced")]
    if j.returncode != 0 or errs:
        bad.append("pft dump: exit %d, %s" % (j.returncode, errs[:2]))
    end = max((x["offset"] + x["size"] for x in items), default=0)
    raw = os.path.join(snap, "ETM_0.bin")
    if os.path.exists(raw) and end != os.path.getsize(raw):
        bad.append("pft dump covers %d of %d bytes" % (end, os.path.getsize(raw)))
    pkts = [x for x in items if x["type"] == "data"]
    if not acc:
        bad.append("no data transfer")
    bad += compare(pkts, acc, etmcr)
    ob, note = opencsd(snap, items, etmcr)
    bad += ob
    return bad, (len(want), len(acc), len(pkts)), (note, pkts, acc, etmcr)


def self_test(keep):
    """compare() must see an altered transfer list."""
    _, pkts, acc, etmcr = keep
    bad = []
    alters = {"value": lambda a: a[:5] + (a[5] ^ 1,),
              "address": lambda a: a[:4] + (a[4] + 4,) + a[5:]}
    k = len(acc) // 2
    for name, f in alters.items():
        alt = acc[:k] + [f(acc[k])] + acc[k + 1:]
        if not compare(pkts, alt, etmcr):
            bad.append("altered %s not seen" % name)
    if not compare(pkts, acc[:k] + acc[k + 1:], etmcr):
        bad.append("dropped transfer not seen")
    return bad


def main():
    if len(sys.argv) < 3 or not all(os.path.exists(p) for p in sys.argv[1:3]) or \
            not shutil.which("trc_pkt_lister"):
        print("SKIP: memops programs or trc_pkt_lister missing")
        return 77
    runs = []
    for prog in sys.argv[1:3]:
        for kind in KINDS:
            for v in VARIANTS:
                runs.append((prog, kind, v))
    n = 0
    for name in ("fault.elf", "irq.elf", "qsort.elf", "interwork.elf"):
        prog = os.path.join(EX, name)
        if os.path.exists(prog):
            for kind in KINDS:
                runs.append((prog, kind, VARIANTS[n % len(VARIANTS)]))
                n += 1
    tmp = tempfile.mkdtemp()
    fails, tot, keep, notes = 0, [0, 0, 0], None, {}
    try:
        for prog, kind, extra in runs:
            name = "%s --data-trace %s %s" % (os.path.basename(prog), kind, " ".join(extra))
            bad, st, k = check(prog, kind, extra, tmp)
            if bad:
                fails += 1
                print("FAIL %s: %s" % (name, "; ".join(bad)))
                continue
            keep = keep or (k if kind == "both" else None)
            tot = [a + b for a, b in zip(tot, st)]
            note = k[0]
            notes.setdefault(kind, []).append(note)
            print("ok   %s: %d instructions, %d transfers; OpenCSD lists %d of %d packets "
                  "(%d of %d data)%s" % (name, st[0], st[1], note["packets"][0],
                                          note["packets"][1], note["data"][0], note["data"][1],
                                          ", -decode refuses the configuration"
                                          if note["refused"] else ""))
        if keep:
            st_bad = self_test(keep)
            if st_bad:
                fails += 1
                print("FAIL self-test: %s" % "; ".join(st_bad))
            else:
                print("ok   self-test: an altered value, address or a dropped transfer is seen")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for kind, ns in sorted(notes.items()):
        full = sum(1 for x in ns if x["packets"][0] == x["packets"][1])
        print("OpenCSD, data %s: full packet listing in %d of %d recordings; -decode refused "
              "in %d" % (kind, full, len(ns), sum(1 for x in ns if x["refused"])))
    print("%d recordings, %d failures; %d instructions, %d data transfers, %d data packets" %
          (len(runs), fails, tot[0], tot[1], tot[2]))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
