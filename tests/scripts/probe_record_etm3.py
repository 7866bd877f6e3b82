#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""pft probe against the truth on ETMv3: trace buffers written by
pft record --protocol etm3 under random configurations (program, ETMv3.0
to 3.5, original or alternative branch encoding, cycle-accurate,
timestamps, context ID size, branch broadcast, data trace of addresses,
values or both, ETMSYNCFR, raw or framed buffer, trace ID, IRQs).  The buffer file is copied alone (no ini) and
probed:
  - layout and protocol (etmv3) must be right, and the trace ID in frames;
  - every ETMv3 option the probe claims with confidence medium or high
    (cycle_accurate, contextid_bytes, alt_branch, timestamps, vmid,
    data_trace) must equal the recorded one; low-confidence misses and
    'none' (the bytes cannot tell) are counted and listed;
  - pft decode of the copy with the probe's options (the recorded value
    where the probe says 'none') must equal the emulator's log.
Usage: probe_record_etm3.py N SEED    (PFT_BIN, PFT_BUILD in the environment)"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

N = int(sys.argv[1]) if len(sys.argv) > 1 else 40
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 1
from support import judge_options, probe_alone, probe_programs  # noqa: E402

PFT = os.environ["PFT_BIN"]
EX = os.path.join(os.environ["PFT_BUILD"], "examples")
progs = probe_programs(EX)


def run(args):
    return subprocess.run(args, capture_output=True, text=True, check=False)


rng = random.Random(SEED)
tmp = tempfile.mkdtemp()
fails = 0
stats = {"none": {}, "low_miss": {}, "checked": 0, "conf": {}}
try:
    for n in range(N):
        prog = rng.choice(progs)
        minor = rng.choice([0, 3, 4, 5, 5, 5])
        t = {"cycle_accurate": rng.random() < 0.5, "contextid_bytes": rng.choice([0, 0, 1, 2, 4]),
             "alt_branch": minor >= 4 and rng.random() < 0.5,
             "timestamps": minor == 5 and rng.random() < 0.5, "vmid": False,
             "data_trace": "off"}
        fmt = rng.choice(["raw", "frames", "frames"])
        tid = rng.randint(1, 0x6F)
        etmidr = 0x410CF200 | (minor << 4) | ((1 << 20) if t["alt_branch"] else 0)
        args = [PFT, "record", "--protocol", "etm3", os.path.join(EX, prog), "-o",
                os.path.join(tmp, "s"), "-q", "--log", os.path.join(tmp, "log"), "--format", fmt,
                "--id", hex(tid), "--etmidr", hex(etmidr),
                "--contextid-bytes", str(t["contextid_bytes"])]
        for o in ("cycle_accurate", "timestamps"):
            if t[o]:
                args.append("--" + o.replace("_", "-"))
        if rng.random() < 0.3:
            args.append("--branch-broadcast")
        if rng.random() < 0.4:
            dt = rng.choice(["address", "value", "both"])
            args += ["--data-trace", dt]
            t["data_trace"] = {"address": "addresses", "value": "values",
                               "both": "values+addresses"}[dt]
        if rng.random() < 0.3:
            args += ["--irq-random", str(rng.choice([30, 200, 1000])), "--seed", str(n)]
        if rng.random() < 0.3:
            args += ["--sync-freq", str(rng.choice([64, 256, 1024]))]
        shutil.rmtree(os.path.join(tmp, "s"), ignore_errors=True)
        r = run(args)
        name = "%s %s" % (prog, " ".join(args[10:]))
        if r.returncode != 0:
            print("FAIL record %s: %s" % (name, r.stderr.strip()[:200]))
            fails += 1
            continue
        rep, err, cap = probe_alone(run, PFT, tmp, os.path.join(
            tmp, "s", "cstrace.bin" if fmt == "frames" else "ETM_0.bin"))
        if rep is None:
            print("FAIL %s: probe gave no JSON (%s)" % (name, err))
            fails += 1
            continue
        bad = []
        if rep["layout"] != fmt:
            bad.append("layout %s, recorded %s" % (rep["layout"], fmt))
        e3 = [s for s in rep["streams"] if s["protocol"] == "etmv3"]
        if len(e3) != 1 or len(rep["streams"]) != 1:
            bad.append("streams %s" % [(s["protocol"], s["confidence"]) for s in rep["streams"]])
        else:
            s = e3[0]
            stats["conf"][s["confidence"]] = stats["conf"].get(s["confidence"], 0) + 1
            if fmt == "frames" and s["id"] != tid:
                bad.append("ID 0x%02x, recorded 0x%02x" % (s["id"], tid))
            if sorted(s.get("options", {})) != sorted(t):
                bad.append("options %s" % sorted(s.get("options", {})))
            # decode with the probe's options line, where the probe says
            # 'none' with the recorded value
            val = judge_options(s.get("options", {}), t, stats, bad)
            if not bad:
                if all(v["confidence"] != "none" for v in s["options"].values()):
                    opts = s["options_line"].split()  # the probe's own line
                else:
                    opts = ["--format", rep["layout"]]
                    if rep["layout"] != "raw":
                        opts += ["--id", str(s["id"])]
                    opts += ["--etmidr", hex(0x410CF250 | ((1 << 20) if val["alt_branch"] else 0)),
                             "--contextid-bytes", str(val["contextid_bytes"])]
                    dbits = {"off": 0, "values": 4, "addresses": 8, "values+addresses": 12}[val["data_trace"]]
                    if dbits:
                        opts += ["--etmcr", hex(dbits)]
                    for o in ("cycle_accurate", "timestamps", "vmid"):
                        if val[o]:
                            opts.append("--" + o.replace("_", "-"))
                d = run([PFT, "decode", cap] + opts + ["--elf", os.path.join(EX, prog), "--format", "addrs"])
                with open(os.path.join(tmp, "log")) as f:
                    log = f.read()
                if d.stdout != log:
                    bad.append("decode with the probe's options differs from the log (%s)"
                               % d.stderr.strip()[:160])
        if bad:
            print("FAIL %s: %s" % (name, "; ".join(bad)))
            fails += 1
        else:
            print("ok   %s" % name)
    print("%d recordings, %d failures; %d option claims checked; 'none' (bytes cannot tell): %s; "
          "low-confidence misses: %s; ETMv3 called with confidence %s"
          % (N, fails, stats["checked"], stats["none"], stats["low_miss"], stats["conf"]))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if fails else 0)
