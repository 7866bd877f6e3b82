#!/usr/bin/env python3
"""Recovery of a CoreSight-framed capture that lost or gained bytes.

For each seed, a few runs of bytes are deleted from, or inserted into, TC2's
ETB capture (data/TC2/cstrace.bin); the corrupted snapshot is decoded with
`pft decode --format addrs` (trace ID 0x13) and compared with the clean
decode by longest common subsequence:
  recovered  instructions of the clean decode found, in order, in the
             corrupted one (share of the clean decode)
  wrong      instructions of the corrupted decode that are not in that common
             subsequence (share of the corrupted decode): what the decoder
             reported as executed although the clean decode has it nowhere
             there (mostly right after a corruption, before the PTM stream
             resynchronises)
Usage: frame_recovery.py PFT DATA_DIR [--seeds N] [--runs R] [--mode delete|insert|both]
       [--min-recovered PCT] [--no-realign]
The test fails if the mean recovery is below --min-recovered."""
import argparse
import difflib
import os
import random
import shutil
import subprocess
import sys
import tempfile


def decode(pft, snap, extra):
    p = subprocess.run([pft, "decode", snap, "--id", "0x13", "--format", "addrs"] + extra,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if p.returncode not in (0, 1):
        sys.exit("pft decode failed (%d): %s" % (p.returncode, p.stderr.decode()[-400:]))
    return p.stdout.decode().split("\n")[:-1]


def corrupt(data, rng, runs, mode):
    b = bytearray(data)
    for _ in range(runs):
        n = rng.randint(1, 40)
        at = rng.randrange(len(b) // 8, len(b) - 64)
        op = mode if mode != "both" else rng.choice(["delete", "insert"])
        if op == "delete":
            del b[at:at + n]
        else:
            b[at:at] = bytes(rng.randrange(256) for _ in range(n))
    return bytes(b)


def common(a, b):
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return sum(m.size for m in sm.get_matching_blocks())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pft")
    ap.add_argument("data")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--mode", default="both")
    ap.add_argument("--min-recovered", type=float, default=0)
    ap.add_argument("--no-realign", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--isync-resync", default=None)
    a = ap.parse_args()
    extra = ["--no-realign"] if a.no_realign else []
    if a.isync_resync:
        extra += ["--isync-resync", a.isync_resync]
    src = os.path.join(a.data, "TC2")
    tmp = tempfile.mkdtemp()
    try:
        snap = os.path.join(tmp, "TC2")
        shutil.copytree(src, snap, ignore=shutil.ignore_patterns("ds5-dumps", "pkt_proc_logs"))
        os.chmod(os.path.join(snap, "cstrace.bin"), 0o644)
        clean = decode(a.pft, snap, extra)
        with open(os.path.join(src, "cstrace.bin"), "rb") as f:
            cap = f.read()
        rec_sum = wrong_sum = 0.0
        worst = 100.0
        for seed in range(a.seeds):
            rng = random.Random(seed)
            with open(os.path.join(snap, "cstrace.bin"), "wb") as f:
                f.write(corrupt(cap, rng, a.runs, a.mode))
            got = decode(a.pft, snap, extra)
            c = common(clean, got)
            rec = 100.0 * c / len(clean)
            wrong = 100.0 * (len(got) - c) / max(len(got), 1)
            if a.verbose:
                print("seed %d: recovered %.1f%%, wrong %.2f%%" % (seed, rec, wrong))
            rec_sum += rec
            wrong_sum += wrong
            worst = min(worst, rec)
        mean = rec_sum / a.seeds
        print("frame_recovery: mode %s, %d runs, %d seeds: recovered %.1f%% of %d instructions "
              "(worst seed %.1f%%), wrong %.2f%%" % (a.mode, a.runs, a.seeds, mean, len(clean),
                                                     worst, wrong_sum / a.seeds))
        if mean < a.min_recovered:
            sys.exit("frame_recovery: mean recovery %.1f%% below %.1f%%" % (mean, a.min_recovered))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
