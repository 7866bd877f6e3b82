#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""pft record --protocol etm3 against the emulator and OpenCSD.

Every example program under fixed configurations (ARM and Thumb-2,
interworking, IRQs, cycle-accurate on and off, context IDs, timestamps,
branch broadcast), then N random ETMv3 configurations (ETMv3.0 to 3.5,
original or alternative branch encoding, cycle-accurate, timestamps of 48
or 64 bits, context ID size, branch broadcast, ETMSYNCFR, raw or framed
buffer, trace ID, IRQs at random, cycle model).  For each recording:

  1. pft decode --format addrs equals the emulator's executed-instruction
     log (pft record --log), line for line: ETMv3 traces every instruction;
  2. OpenCSD (trc_pkt_lister -ss_dir DIR -decode), run now, gives the same
     instructions: its INSTR_RANGE elements expanded from the snapshot's own
     memory dumps (record_opencsd.py), after taking away the aborted
     instruction (the log's '! dabt' lines) when OpenCSD output it just
     before the branch packet that says "Cancel prev instr" (doc/etm3.md, E6);
  3. cycle-accurate: the cycle counts pft decode gives add up to the cycles
     the pipeline counted up to the last instruction (record's summary, less
     those of an exception after it);
  4. the generator wrote what the configuration asks for: timestamps only
     with ETMCR[28], exceptions with cancel only when a data abort was taken;
  5. pft probe of the trace buffer alone (no ini) finds the layout (raw or
     frames) and one ETMv3 stream, never PFT (doc/probe.md), with
     confidence medium or high, no ETMv3 errors, and in frames the trace ID.

Usage: record_etm3.py N SEED   (PFT_BIN, PFT_BUILD in the environment)
Exit 0 when every recording agrees, 1 otherwise, 77 when the examples or
trc_pkt_lister are missing."""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record_opencsd import load_dumps, read16  # noqa: E402

PFT = os.environ.get("PFT_BIN", "")
EX = os.path.join(os.environ.get("PFT_BUILD", ""), "examples")

RANGE_RE = re.compile(r"OCSD_GEN_TRC_ELEM_INSTR_RANGE\(exec range=0x([0-9a-fA-F]+):\[0x([0-9a-fA-F]+)\] "
                      r"num_i\((\d+)\) last_sz\((\d+)\) \(ISA=(\w+)\)")


def run(args):
    return subprocess.run(args, capture_output=True, text=True, check=False)


def opencsd_insns(snap, aborted):
    """OpenCSD's instructions as log lines, cancelled ones taken away: the
    range just before a branch packet with "Cancel prev instr", when it is
    an instruction that aborted (OpenCSD outputs it when it shared its
    P-header with other atoms, not when it was alone)."""
    mem = load_dumps(snap)
    r = subprocess.run(["trc_pkt_lister", "-ss_dir", snap, "-decode", "-logstdout"],
                       capture_output=True, check=False)
    out, cancels = [], 0
    for line in r.stdout.decode("latin-1").splitlines():
        if "BRANCH_ADDRESS" in line and "Cancel prev instr" in line:
            cancels += 1
            if out and int(out[-1].split()[0], 16) in aborted:
                out.pop()
            continue
        m = RANGE_RE.search(line)
        if not m:
            continue
        a, end, isa = int(m.group(1), 16), int(m.group(2), 16), m.group(5)
        while a < end:
            out.append("%08x %s" % (a, "A32" if isa == "A32" else "T32"))
            if isa == "A32":
                a += 4
            else:
                a += 4 if (read16(mem, a) >> 11) >= 0x1D else 2
    return out, cancels


def probe(snap, t, tmp):
    frames = os.path.exists(os.path.join(snap, "cstrace.bin"))
    alone = os.path.join(tmp, "alone.bin")
    shutil.copy(os.path.join(snap, "cstrace.bin" if frames else "ETM_0.bin"), alone)
    r = run([PFT, "probe", "--json", alone])
    try:
        rep = json.loads(r.stdout)
    except ValueError:
        return ["probe gave no JSON (%s)" % r.stderr.strip()[:200]]
    bad = []
    if rep.get("layout") != ("frames" if frames else "raw"):
        bad.append("probe: layout %s" % rep.get("layout"))
    st = rep.get("streams", [])
    if len(st) != 1 or st[0].get("protocol") != "etmv3" or \
            st[0].get("confidence") not in ("medium", "high") or st[0].get("etm3_errors"):
        bad.append("probe: %s" % [(s.get("protocol"), s.get("confidence"), s.get("etm3_errors"))
                                  for s in st][:6])
    elif frames and st[0].get("id") != t["id"]:
        bad.append("probe: ID %s, recorded 0x%x" % (st[0].get("id"), t["id"]))
    return bad


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "line %d: %s / %s" % (i + 1, x, y)
    return "lengths %d / %d" % (len(a), len(b))


def check(name, prog, args, t, tmp):
    snap = os.path.join(tmp, "s")
    log = os.path.join(tmp, "log")
    shutil.rmtree(snap, ignore_errors=True)
    r = run([PFT, "record", "--protocol", "etm3", os.path.join(EX, prog), "-o", snap,
             "--log", log, "--log-exceptions"] + args)
    if r.returncode != 0:
        return ["record failed: %s" % r.stderr.strip()[:300]], None
    summary = r.stderr
    with open(log) as f:
        lines = f.read().splitlines()
    want = [x for x in lines if not x.startswith("!")]
    aborted = {int(x.split()[2], 16) for x in lines if x.startswith("! dabt ")}
    bad = []
    # the fixed configurations decode without --id: the snapshot's only source
    ida = [] if t["id"] == 0x10 else ["--id", hex(t["id"])]
    d = run([PFT, "decode", snap, "--format", "addrs"] + ida)
    got = d.stdout.splitlines()
    if d.returncode != 0 or got != want:
        bad.append("pft decode differs from the log (%s; %s)" % (first_diff(got, want),
                                                                d.stderr.strip()[:200]))
    ocsd, cancels = opencsd_insns(snap, aborted)
    if ocsd != want:
        bad.append("OpenCSD differs from the log (%s)" % first_diff(ocsd, want))
    bad += probe(snap, t, tmp)
    m = re.search(r"(\d+) instructions, (\d+) exceptions, (\d+) cycles", summary)
    g = re.search(r"ETMv3: .*?(\d+) exceptions \((\d+) cancelling\), (\d+) exception returns, "
                  r"(\d+) timestamps", summary)
    if not m or not g:
        bad.append("no summary: %s" % summary.strip()[:200])
        return bad, None
    if int(g.group(2)) != cancels:
        bad.append("%s cancelling exceptions written, OpenCSD saw %d" % (g.group(2), cancels))
    if (int(g.group(4)) > 0) != t["timestamps"]:
        bad.append("%s timestamp packets with timestamps %s" % (g.group(4), t["timestamps"]))
    if t["cycle_accurate"] and not bad:
        j = run([PFT, "decode", snap, "--id", hex(t["id"]), "--json", "--ranges"])
        cyc = sum(json.loads(line).get("cycles", 0) for line in j.stdout.splitlines()
                  if '"range"' in line)
        total = int(m.group(3))
        if cyc > total or (cyc != total and not t.get("irq")):
            bad.append("pft decode counts %d cycles, the pipeline %d" % (cyc, total))
    return bad, (int(g.group(1)), cancels, int(g.group(3)), int(g.group(4)))


def fixed_configs(progs):
    out = []
    for p in progs:
        base = []
        for cfg in ([], ["--cycle-accurate"], ["--timestamps", "--contextid-bytes", "4"],
                    ["--irq-every", "41", "--cycle-accurate", "--timestamps"],
                    ["--irq-every", "13", "--branch-broadcast", "--contextid-bytes", "1"]):
            t = {"id": 0x10, "timestamps": "--timestamps" in cfg,
                 "cycle_accurate": "--cycle-accurate" in cfg, "irq": "--irq-every" in cfg}
            out.append((p, base + cfg, t))
    return out


def random_config(rng, progs, n):
    prog = rng.choice(progs)
    minor = rng.choice([0, 3, 4, 5, 5, 5])
    alt = minor >= 4 and rng.random() < 0.5
    ts = minor == 5 and rng.random() < 0.5
    ts64 = rng.random() < 0.5
    tid = rng.randint(1, 0x6F)
    t = {"id": tid, "timestamps": ts, "cycle_accurate": rng.random() < 0.5}
    etmidr = 0x410CF200 | (minor << 4) | ((1 << 20) if alt else 0)
    etmccer = 0x344008F2 & ~(1 << 29) | ((1 << 29) if ts64 else 0)
    args = ["--etmidr", hex(etmidr), "--etmccer", hex(etmccer), "--id", hex(tid),
            "--contextid-bytes", str(rng.choice([0, 1, 2, 4])),
            "--format", rng.choice(["raw", "frames"])]
    if t["cycle_accurate"]:
        args.append("--cycle-accurate")
    if ts:
        args.append("--timestamps")
    if rng.random() < 0.3:
        args.append("--branch-broadcast")
    if rng.random() < 0.5:
        args += ["--sync-freq", str(rng.choice([0, 16, 64, 300, 1024, 4095]))]
    if rng.random() < 0.5:
        args += ["--irq-random", str(rng.choice([7, 30, 200])), "--seed", str(n)]
        t["irq"] = True
    if rng.random() < 0.5:
        args += ["--cycles", "other=%d,branch=%d,load=%d,failed=%d,exception=%d" % (
            rng.randint(1, 3), rng.randint(1, 12), rng.randint(1, 20), rng.randint(1, 2),
            rng.randint(1, 40))]
    return prog, args, t


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    if not os.path.isdir(EX) or not shutil.which("trc_pkt_lister"):
        print("SKIP: example programs or trc_pkt_lister missing")
        return 77
    progs = sorted(f for f in os.listdir(EX) if f.endswith(".elf"))
    if not progs:
        print("SKIP: example programs not built")
        return 77
    rng = random.Random(seed)
    runs = fixed_configs(progs) + [random_config(rng, progs, i) for i in range(n)]
    tmp = tempfile.mkdtemp()
    fails = 0
    tot = [0, 0, 0, 0]
    try:
        for prog, args, t in runs:
            name = "%s %s" % (prog, " ".join(args))
            bad, st = check(name, prog, args, t, tmp)
            if bad:
                fails += 1
                print("FAIL %s: %s" % (name, "; ".join(bad)))
                continue
            tot = [a + b for a, b in zip(tot, st)]
            print("ok   %s" % name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d recordings, %d failures; %d exceptions traced (%d cancelling), %d timestamp "
          "packets" % (len(runs), fails, tot[0], tot[1], tot[3]))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
