#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A snapshot folder written by `pft record`, decoded by OpenCSD
(trc_pkt_lister -decode), against the executed-instruction log the emulator
wrote (pft record --log).

OpenCSD's instruction ranges (start, end inclusive, ISA) are expanded into
single instructions here from the snapshot's own memory dumps (cpu_0.ini
[dump] sections; Thumb sizes from the first halfword), without pft, and the
sequence must equal the log, line for line.

usage: record_opencsd.py SNAPSHOT_DIR LOG
Exit 0 when equal, 1 with the first differences listed."""
import configparser
import os
import re
import subprocess
import sys
import tempfile

def load_dumps(snap):
    cfg = configparser.ConfigParser(strict=False)
    cfg.read(os.path.join(snap, "cpu_0.ini"))
    mem = []
    for sec in cfg.sections():
        if sec.lower().startswith("dump"):
            data = open(os.path.join(snap, cfg[sec]["file"]), "rb").read()
            mem.append((int(cfg[sec]["address"], 0), data))
    return mem

def read16(mem, addr):
    for base, data in mem:
        if base <= addr and addr + 2 <= base + len(data):
            o = addr - base
            return data[o] | data[o + 1] << 8
    raise KeyError("no code at 0x%08x in the snapshot dumps" % addr)

def opencsd_insns(snap, mem):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "ocsd.ppl")
        subprocess.run(["trc_pkt_lister", "-ss_dir", snap, "-decode", "-logfilename", log],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        text = open(log, errors="replace").read()
    pat = re.compile(r"INSTR_RANGE\(exec range=0x([0-9a-fA-F]+):\[0x([0-9a-fA-F]+)\] "
                     r"num_i\((\d+)\) last_sz\((\d+)\) \(ISA=(\w+)\)")
    out = []
    nranges = 0
    for m in pat.finditer(text):
        start, end, n, isa = int(m.group(1), 16), int(m.group(2), 16), int(m.group(3)), m.group(5)
        nranges += 1
        a = start
        got = []
        while a < end:
            got.append(a)
            if isa == "A32":
                a += 4
            else:
                hw = read16(mem, a)
                a += 4 if (hw >> 11) >= 0x1D else 2
        if len(got) != n:
            print("range %08x..%08x: OpenCSD says %d instructions, the dumps give %d"
                  % (start, end, n, len(got)))
        out += ["%08x %s" % (x, isa) for x in got]
    return out, nranges

def main(argv=None):
    argv = sys.argv if argv is None else argv
    if len(argv) != 3:
        sys.exit(__doc__)
    snap, logf = argv[1], argv[2]
    mem = load_dumps(snap)
    ocsd, nranges = opencsd_insns(snap, mem)
    log = [l.rstrip("\n") for l in open(logf)]
    bad = 0
    for i in range(max(len(ocsd), len(log))):
        a = ocsd[i] if i < len(ocsd) else "none"
        b = log[i] if i < len(log) else "none"
        if a != b:
            bad += 1
            if bad <= 5:
                print("instruction %d: OpenCSD %s, emulator %s" % (i, a, b))
    print("%s: %d OpenCSD ranges = %d instructions, log %d, %d differences"
          % (snap, nranges, len(ocsd), len(log), bad))
    return 1 if bad or not ocsd else 0

if __name__ == "__main__":
    sys.exit(main())
