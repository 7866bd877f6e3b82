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
       [--min-recovered PCT] [--no-realign] [--isync-resync M] [--oracle] [--verbose]
The test fails if the mean recovery is below --min-recovered.

--oracle also decodes, for each seed, the capture a perfect and immediate
realignment would leave: the original frames the damage did not touch, and
in place of each damaged run one frame that opens a gap (an ID 0x00 change,
then an ID 0x7F: a frame error) and leaves the ID in force unknown, decoded
with --no-realign.  That is the ceiling of frame realignment.  The loss is
then split: (a) instructions whose packets lay in the damaged frames (from
the clean decode's event offsets and the capture offsets of its packets),
(c+d) the rest of the oracle's loss (waiting for the next I-sync after the
gap), (b+e) what the real decoder loses beyond the oracle (late or wrong
realignment)."""
import argparse
import bisect
import difflib
import json
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


def corrupt(data, rng, runs, mode, orig=None):
    """orig, if a list, receives the original offset of every byte of the
    result (-1 for inserted bytes)."""
    b = bytearray(data)
    o = list(range(len(data)))
    for _ in range(runs):
        n = rng.randint(1, 40)
        at = rng.randrange(len(b) // 8, len(b) - 64)
        op = mode if mode != "both" else rng.choice(["delete", "insert"])
        if op == "delete":
            del b[at:at + n]
            del o[at:at + n]
        else:
            b[at:at] = bytes(rng.randrange(256) for _ in range(n))
            o[at:at] = [-1] * n
    if orig is not None:
        orig[:] = o
    return bytes(b)


GAP_FRAME = bytes([0x01, 0x00, 0xFF] + [0] * 13)  # ID 0x00, then ID 0x7F: a frame error


def oracle_capture(cap, orig):
    """The original frames that survive whole and in order in the damaged
    capture, a gap frame where anything was lost or added; the damaged
    original frames (their offsets) as a set."""
    nfr = len(cap) // 16
    pos = {}
    for i, o in enumerate(orig):
        if o >= 0:
            pos[o] = i
    whole = []
    for k in range(nfr):
        p = [pos.get(16 * k + j) for j in range(16)]
        if None not in p and p[15] - p[0] == 15:
            whole.append(k)
    out = bytearray()
    prev = None
    for k in whole:
        if prev is not None and (k != prev + 1 or pos[16 * k] != pos[16 * prev] + 16):
            out += GAP_FRAME
        out += cap[16 * k:16 * k + 16]
        prev = k
    damaged = set(range(nfr)) - set(whole)
    return bytes(out), damaged


def json_lines(pft, args):
    p = subprocess.run([pft] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    return [json.loads(l) for l in p.stdout.decode().split("\n") if l]


class CleanMap:
    """Instruction index of the clean decode at each capture offset of the
    trace ID's bytes (by the events' stream offsets and the packets' capture
    offsets): enough to count the instructions of the damaged frames."""

    def __init__(self, pft, snap):
        ev = [(e["offset"], e["index"]) for e in
              json_lines(pft, ["decode", snap, "--id", "0x13", "--json", "--ranges"]) if "event" in e]
        pk = [(p["capture_offset"], p["offset"]) for p in
              json_lines(pft, ["dump", snap, "--id", "0x13", "--json"])]
        self.ev_off = [o for o, _ in ev]
        self.ev_idx = [i for _, i in ev]
        self.pk_cap = [c for c, _ in pk]
        self.pk_off = [o for _, o in pk]

    def index_at_capture(self, c):
        k = bisect.bisect_left(self.pk_cap, c)
        if k >= len(self.pk_off):
            return self.ev_idx[-1] if self.ev_idx else 0
        j = bisect.bisect_left(self.ev_off, self.pk_off[k])
        return self.ev_idx[j] if j < len(self.ev_idx) else self.ev_idx[-1]

    def in_frames(self, frames):
        n = 0
        for k in sorted(frames):
            n += self.index_at_capture(16 * k + 16) - self.index_at_capture(16 * k)
        return n


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
    ap.add_argument("--oracle", action="store_true")
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
        cmap = CleanMap(a.pft, snap) if a.oracle else None
        osum = [0.0, 0.0, 0.0, 0.0]  # oracle recovered, (a), (c+d), (b+e)
        for seed in range(a.seeds):
            rng = random.Random(seed)
            orig = []
            bad = corrupt(cap, rng, a.runs, a.mode, orig)
            with open(os.path.join(snap, "cstrace.bin"), "wb") as f:
                f.write(bad)
            got = decode(a.pft, snap, extra)
            c = common(clean, got)
            rec = 100.0 * c / len(clean)
            wrong = 100.0 * (len(got) - c) / max(len(got), 1)
            line = "seed %d: recovered %.1f%%, wrong %.2f%%" % (seed, rec, wrong)
            if cmap:
                ocap, damaged = oracle_capture(cap, orig)
                with open(os.path.join(snap, "cstrace.bin"), "wb") as f:
                    f.write(ocap)
                orec = 100.0 * common(clean, decode(a.pft, snap, ["--no-realign"])) / len(clean)
                lost_a = 100.0 * cmap.in_frames(damaged) / len(clean)
                parts = [orec, lost_a, 100.0 - orec - lost_a, orec - rec]
                osum = [x + y for x, y in zip(osum, parts)]
                line += "; oracle %.1f%%: (a) %.1f%% in damaged frames, (c+d) %.1f%% resync, " \
                        "(b+e) %.1f%% beyond the oracle" % tuple(parts)
            if a.verbose:
                print(line)
            rec_sum += rec
            wrong_sum += wrong
            worst = min(worst, rec)
        mean = rec_sum / a.seeds
        if cmap:
            print("frame_recovery: oracle (perfect immediate realignment) %.1f%%; lost: (a) %.1f%% "
                  "in damaged frames, (c+d) %.1f%% waiting for an I-sync after the gap, "
                  "(b+e) %.1f%% late or wrong realignment" % tuple(x / a.seeds for x in osum))
        print("frame_recovery: mode %s, %d runs, %d seeds: recovered %.1f%% of %d instructions "
              "(worst seed %.1f%%), wrong %.2f%%" % (a.mode, a.runs, a.seeds, mean, len(clean),
                                                     worst, wrong_sum / a.seeds))
        if mean < a.min_recovered:
            sys.exit("frame_recovery: mean recovery %.1f%% below %.1f%%" % (mean, a.min_recovered))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
