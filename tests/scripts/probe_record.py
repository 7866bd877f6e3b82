#!/usr/bin/env python3
# pft probe against the truth: captures written by pft record under random PTM
# configurations (program, cycle-accurate, timestamps, context ID size, VMID,
# return stack or branch broadcast, PFT version, raw or framed buffer, trace
# ID, IRQs).  The buffer file is copied alone (no ini) and probed:
#   - layout, trace ID and protocol must be right;
#   - every option the probe claims with confidence medium or high must equal
#     the recorded one; low-confidence misses and 'none' (the bytes cannot
#     tell) are counted and listed;
#   - pft decode of the copy with the probe's options (plus --return-stack
#     when recorded: the bytes cannot tell it) must equal the emulator's
#     executed-instruction log.
# Usage: probe_record.py N SEED    (PFT_BIN, PFT_BUILD in the environment)
import os, random, shutil, subprocess, sys, tempfile

N = int(sys.argv[1]) if len(sys.argv) > 1 else 40
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 1
from support import judge_options, probe_alone, probe_programs  # noqa: E402

PFT = os.environ["PFT_BIN"]
EX = os.path.join(os.environ["PFT_BUILD"], "examples")
progs = probe_programs(EX)

rng = random.Random(SEED)
tmp = tempfile.mkdtemp()
fails = 0
stats = {"none": {}, "low_miss": {}, "checked": 0, "pft_conf": {}}


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


try:
    for n in range(N):
        prog = rng.choice(progs)
        t = {"version": rng.choice(["1.0", "1.1"]), "cycle_accurate": rng.random() < 0.5,
             "timestamps": rng.random() < 0.5, "contextid_bytes": rng.choice([0, 0, 1, 2, 4])}
        t["vmid"] = t["version"] == "1.1" and rng.random() < 0.3
        k = rng.random()
        t["return_stack"] = k < 0.3
        t["branch_broadcast"] = 0.3 <= k < 0.5
        fmt = rng.choice(["raw", "frames", "frames"])
        tid = rng.randint(1, 0x6F)
        args = [PFT, "record", os.path.join(EX, prog), "-o", os.path.join(tmp, "s"), "-q",
                "--log", os.path.join(tmp, "log"), "--format", fmt, "--id", hex(tid),
                "--pft-version", t["version"], "--contextid-bytes", str(t["contextid_bytes"])]
        for o in ("cycle_accurate", "timestamps", "vmid", "return_stack", "branch_broadcast"):
            if t[o]:
                args.append("--" + o.replace("_", "-"))
        if rng.random() < 0.3:
            args += ["--irq-random", str(rng.choice([50, 200, 1000])), "--seed", str(n)]
        if rng.random() < 0.3:
            args += ["--sync-freq", str(rng.choice([64, 256, 1024]))]
        shutil.rmtree(os.path.join(tmp, "s"), ignore_errors=True)
        r = run(args)
        name = "%s %s" % (prog, " ".join(args[8:]))
        if r.returncode != 0:
            print("FAIL record %s: %s" % (name, r.stderr.strip()[:200]))
            fails += 1
            continue
        rep, err, cap = probe_alone(run, PFT, tmp, os.path.join(
            tmp, "s", "cstrace.bin" if fmt == "frames" else "PTM_0.bin"))
        if rep is None:
            print("FAIL %s: probe gave no JSON (%s)" % (name, err))
            fails += 1
            continue
        bad = []
        if rep["layout"] != fmt:
            bad.append("layout %s, recorded %s" % (rep["layout"], fmt))
        pft = [s for s in rep["streams"] if s["protocol"] == "pft"]
        if len(pft) != 1:
            bad.append("%d PFT streams" % len(pft))
        else:
            s = pft[0]
            stats["pft_conf"][s["confidence"]] = stats["pft_conf"].get(s["confidence"], 0) + 1
            if fmt == "frames" and s["id"] != tid:
                bad.append("ID 0x%02x, recorded 0x%02x" % (s["id"], tid))
            # decode with the probe's options; where it says the bytes cannot
            # tell, with the recorded value (return stack, and version /
            # context ID / CA when undetermined)
            val = judge_options(s["options"], t, stats, bad)
            opts = ["--format", rep["layout"]]
            if rep["layout"] != "raw":
                opts += ["--id", str(s["id"])]
            opts += ["--pft-version", val["version"], "--contextid-bytes", str(val["contextid_bytes"])]
            for o in ("cycle_accurate", "timestamps", "vmid", "return_stack", "branch_broadcast"):
                if val[o]:
                    opts.append("--" + o.replace("_", "-"))
            d = run([PFT, "decode", cap] + opts + ["--elf", os.path.join(EX, prog), "--format", "addrs"])
            with open(os.path.join(tmp, "log")) as f:
                log = f.read()
            if not bad and d.stdout != log:
                bad.append("decode with the probe's options differs from the log (%s)"
                           % d.stderr.strip()[:160])
        if bad:
            print("FAIL %s: %s" % (name, "; ".join(bad)))
            fails += 1
        else:
            print("ok   %s" % name)
    print("%d captures, %d failures; %d option claims checked; 'none' (bytes cannot tell): %s; "
          "low-confidence misses: %s; PFT called with confidence %s" % (N, fails, stats["checked"], stats["none"],
                                                                       stats["low_miss"], stats["pft_conf"]))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if fails else 0)
