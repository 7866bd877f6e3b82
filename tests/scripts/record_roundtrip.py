#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""pft record end to end, on every example program and a matrix of PTM
configurations (cycle-accurate on/off, return stack on/off, branch
broadcast, timestamps, raw/framed buffers, periodic sync, a cycle model,
address-range include/exclude filters, with and without injected
interrupts):
  1. pft decode --format addrs of the recorded snapshot equals the
     emulator's executed-instruction log (pft record --log), line for line;
     with a filter, the decode is checked against the full log by
     record_filter.py (only whole blocks near the ranges, nothing in range
     lost); with a small FIFO that overflows, an ordered selection of it;
     with cycle-accurate trace, the decoded cycle counts add up to the
     cycles the cycle model charged for the run; with timestamps, the last
     one is the cycle count scaled to the timestamp clock;
  2. OpenCSD's trc_pkt_lister -decode of the same snapshot, expanded to
     instructions from the snapshot's memory dumps (record_opencsd.py),
     equals it too;
and the irq example's CONTEXTIDR writes come out as context ID packets.

The cases are independent: they run $PFT_JOBS at once (default: the number
of processors), in one Python process per job, and their reports are
printed in case order.  Needs $PFT_BIN, $PFT_BUILD (examples/*.elf).

usage: record_roundtrip.py [--list] [CASE-NUMBER ...]
  --list        print the numbered cases and stop
  CASE-NUMBER   run only these cases (numbers as --list prints them)"""
import contextlib
import io
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import record_filter  # noqa: E402
import record_opencsd  # noqa: E402

PFT = os.environ.get("PFT_BIN", "")
EX = os.path.join(os.environ.get("PFT_BUILD", ""), "examples")
EXAMPLES = ["recursion", "switch", "funcptr", "interwork", "itblock", "irq"]
CONFIGS = [
    "",
    "--cycle-accurate",
    "--return-stack",
    "--return-stack --cycle-accurate",
    "--branch-broadcast",
    "--branch-broadcast --cycle-accurate --format raw",
    "--timestamps --cycle-accurate --cycles other=1,branch=3,load=2,store=2,mul=4,exception=7"
    " --cpu-freq 200000000 --ts-freq 50000000",
    "--contextid-bytes 4 --sync-freq 0x40 --timestamps",
    "--irq-every 53 --return-stack",
    "--irq-random 29 --seed 7 --cycle-accurate",
]
HAVE_OCSD = shutil.which("trc_pkt_lister") is not None


def sym(elf, name):
    """Address (Thumb bit cleared) and size of a symbol."""
    out = subprocess.run(["readelf", "-sW", elf], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 8 and f[7] == name:
            return int(f[1], 16) & ~1, int(f[2], 0)
    raise KeyError("%s: no symbol %s" % (elf, name))


def cases():
    """(example, pft record options, filter mode, ranges) for every case;
    mode is "" (the decode equals the log), include, exclude, overflow
    (record_filter.py) or cid (context ID changes)."""
    out = []
    for e in EXAMPLES:
        irq = " --irq-every 37" if e == "irq" else ""
        for cfg in CONFIGS:
            out.append((e, (cfg + irq).strip(), "", ""))
        lo, size = sym(os.path.join(EX, e + ".elf"), "main")
        rng = "0x%08x-0x%08x" % (lo, lo + size)
        out.append((e, "--range %s%s" % (rng, irq), "include", rng))
        out.append((e, "--range %s --return-stack --cycle-accurate --irq-every 41" % rng,
                    "include", rng))
        out.append((e, "--exclude-range 0x10000-0x%08x --irq-every 61" % lo, "exclude",
                    "0x10000-0x%08x" % lo))
        out.append((e, "--fifo 32 --drain 1/40 --cycle-accurate" + irq, "overflow", "-"))
    out.append(("irq", "--contextid-bytes 4", "cid", ""))
    return out


class Fail(Exception):
    pass


def pft(*args):
    r = subprocess.run([PFT] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        raise Fail("pft %s failed:\n%s" % (args[0], (r.stdout + r.stderr)[-2000:]))
    return r


def script(mod, argv):
    """Runs a checking script's main() here; returns (status, its output)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        st = mod.main(argv)
    return st, buf.getvalue()


def run_case(tmp, e, cfg, mode, rng):
    elf = os.path.join(EX, e + ".elf")
    snap = os.path.join(tmp, "s")
    if mode == "cid":
        # the irq example writes CONTEXTIDR: context ID packets carry the new values
        pft("record", "-q", elf, "-o", snap, *cfg.split())
        out = pft("decode", snap).stdout
        nc = len(re.findall(r"^-- context_id context_id=1[0-9a-f][0-9a-f] ", out, re.M))
        if nc < 4:
            raise Fail("expected context ID changes, got %d" % nc)
        return "ok   %s: %d context ID changes traced" % (e, nc)
    logf, decf = os.path.join(tmp, "log"), os.path.join(tmp, "dec")
    rec = pft("record", elf, "-o", snap, "--log", logf, *cfg.split()).stderr
    dec = pft("decode", snap, "--format", "addrs").stdout
    with open(decf, "w") as f:
        f.write(dec)
    if not mode:
        with open(logf) as f:
            log = f.read()
        if log != dec:
            a, b = log.splitlines(), dec.splitlines()
            i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            raise Fail("decode differs from the executed-instruction log at line %d:\n"
                       "  log:    %s\n  decode: %s" % (i + 1, a[i] if i < len(a) else "(end)",
                                                     b[i] if i < len(b) else "(end)"))
    else:
        st, text = script(record_filter, ["record_filter.py", mode, rng, logf, decf])
        if st:
            raise Fail(text.rstrip())
    extra = ""
    m = re.search(r" (\d+) cycles;", rec)
    model = int(m.group(1)) if m else None
    if "--cycle-accurate" in cfg and not mode:
        # every cycle of the cycle model is in the trace's cycle counts
        traced = sum(json.loads(l).get("cycles", 0)
                     for l in pft("decode", snap, "--json").stdout.splitlines())
        if model != traced:
            raise Fail("%s cycles executed, %d in the decoded trace" % (model, traced))
        extra = ", %d cycles" % traced
    if "--ts-freq" in cfg:
        # the timestamp clock runs at ts-freq/cpu-freq of the cycle counter:
        # the flush at the end carries the last value
        ts = re.findall(r"^-- timestamp timestamp=(\d+) ", pft("decode", snap).stdout, re.M)
        last = int(ts[-1]) if ts else None
        if model is None or last != model // 4:
            raise Fail("last timestamp %s, expected cycles %s / 4" % (last, model))
        extra += ", last timestamp %d" % last
    if HAVE_OCSD:
        st, text = script(record_opencsd, ["record_opencsd.py", snap, decf])
        if st:
            raise Fail("OpenCSD differs:\n" + text.rstrip())
    return "ok   %s %s %s %s (%d instructions%s)" % (e, cfg, mode, rng, dec.count("\n"), extra)


def worker(case):
    e, cfg, mode, rng = case
    tmp = tempfile.mkdtemp(prefix="pft-roundtrip-")
    try:
        return True, run_case(tmp, e, cfg, mode, rng)
    except Fail as x:
        return False, "FAIL %s %s: %s" % (e, cfg, x)
    except Exception as x:  # a crash of the checker is a failure too
        return False, "FAIL %s %s: %s: %s" % (e, cfg, type(x).__name__, x)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    if not os.path.isfile(os.path.join(EX, "recursion.elf")):
        print("SKIP: example programs not built (arm-none-eabi-gcc missing)")
        return 77
    if not PFT:
        sys.exit(__doc__)
    allc = cases()
    if argv[1:2] == ["--list"]:
        for i, c in enumerate(allc, 1):
            print("%3d %s | %s | %s | %s" % ((i,) + c))
        return 0
    pick = [allc[int(a) - 1] for a in argv[1:]] if len(argv) > 1 else allc
    jobs = int(os.environ.get("PFT_JOBS") or os.cpu_count() or 2)
    fails = 0
    with multiprocessing.Pool(min(jobs, len(pick))) as pool:
        for ok, text in pool.imap(worker, pick):
            print(text, flush=True)
            fails += not ok
    if not HAVE_OCSD:
        print("note: trc_pkt_lister missing: OpenCSD comparison skipped")
    print("%d cases, %d failed (%d at a time)" % (len(pick), fails, jobs))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
