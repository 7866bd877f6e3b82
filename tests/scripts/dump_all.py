#!/usr/bin/env python3
"""pft dump --id all on a capture with several PFT and ETMv3 sources.

Two PFT streams (TC2's trace ID 0x13 stream whole, and from its first A-sync
on with one byte corrupted) are framed together by libpft's frame encoder
(through ctypes, in interleaved runs of random lengths, seeded) as trace IDs
0x13 and 0x24, beside 0x10 bytes of TC2's ETMv3 source, into a snapshot with
two PTM sources and one ETMv3 source.  Checks:
  - every line of `pft dump SNAP --id all --json` carries its trace_id, and
    capture offsets never go down (the merge follows the capture);
  - the lines of each ID, without trace_id, equal `pft dump SNAP --source X
    --json` (one source at a time), the ETMv3 source's too;
  - the text listing has the ID on every packet line and the same lines;
  - without --id, a snapshot with several PFT/ETMv3 sources gives the output
    of --id all (text, JSON, --stats), and one with a single PFT source the
    output of that source alone;
  - a bare capture file (clean streams, probed) gives per ID the lines of
    --id ID with the registers given;
  - a capture of several MiB (the streams 300 times over), read once for
    both sources: per ID the lines of --id ID alone.
usage: dump_all.py PFT LIBPFT_SO DATA_DIR"""
import json
import os
import sys
import tempfile

from support import extract, fail, failures, interleave, load_libpft, runner, write_snapshot

PFT, LIB, DATA = sys.argv[1:4]
lib = load_libpft(LIB)
run = runner(PFT)


tc2 = open(os.path.join(DATA, "TC2", "cstrace.bin"), "rb").read()
a = extract(lib, tc2, 0x13)
b = bytearray(a[a.index(b"\0\0\0\0\0\x80"):])
b[700:700] = b"\x02\x02\x02\x02"  # reserved headers: errors in one source only
b = bytes(b)
e = extract(lib, tc2, 0x10)


cap = interleave(lib, {0x13: a, 0x24: b, 0x10: e}, 13, 300)
# clean streams for the probed bare capture (a corrupt stream can probe as
# another protocol)
cap2 = interleave(lib, {0x13: a, 0x24: a[a.index(b"\0\0\0\0\0\x80"):], 0x10: e}, 13, 300)

REGS = ("ETMCR(0x000)=0x10001000\nETMIDR(0x079)=0x411CF312\nETMCCER(0x07A)=0x34C01AC2\n"
        "ETMTRACEIDR(0x080)=0x%08X\n")
with tempfile.TemporaryDirectory() as t:
    snap = os.path.join(t, "snap")
    os.mkdir(snap)
    open(os.path.join(snap, "cstrace.bin"), "wb").write(cap)
    devs = [("PTM_0", "PTM1.1", REGS % 0x13), ("PTM_1", "PTM1.1", REGS % 0x24),
            ("ETM_0", "ETM3.5", "ETMCR(0x000)=0x00000000\nETMIDR(0x079)=0x410CF250\n"
             "ETMTRACEIDR(0x080)=0x00000010\n")]
    write_snapshot(snap, [d[0] + ".ini" for d in devs], "cstrace.bin", [d[0] for d in devs])
    for name, typ, regs in devs:
        with open(os.path.join(snap, name + ".ini"), "w") as f:
            f.write("[device]\nname=%s\nclass=trace_source\ntype=%s\n\n[regs]\n%s" % (name, typ, regs))
    rc, out, err = run("dump", snap, "--id", "all", "--json")
    if rc not in (0, 1):
        fail("--id all --json exit %d: %s" % (rc, err))
    lines = [json.loads(x) for x in out.splitlines()]
    last = -1
    per = {}
    for o in lines:
        if "trace_id" not in o:
            fail("a line without trace_id: %r" % o)
            break
        if o["capture_offset"] < last:
            fail("capture offset goes down at %r" % o)
            break
        last = o["capture_offset"]
        tid = o.pop("trace_id")
        if o.pop("source", None) != {0x13: "PTM_0", 0x24: "PTM_1", 0x10: "ETM_0"}.get(tid):
            fail("source name missing or wrong on %r" % o)
            break
        per.setdefault(tid, []).append(o)
    if sorted(per) != [0x10, 0x13, 0x24]:
        fail("IDs listed: %s" % sorted(per))
    n_err = sum(1 for o in per.get(0x24, []) if o["type"] == "error")
    if not n_err:
        fail("the corrupt source shows no error line")
    for name, tid in (("PTM_0", 0x13), ("PTM_1", 0x24), ("ETM_0", 0x10)):
        rc1, out1, err1 = run("dump", snap, "--source", name, "--json")
        one = [json.loads(x) for x in out1.splitlines()]
        if one != per.get(tid):
            fail("--id all lines of 0x%02x differ from --source %s (%d vs %d lines)" %
                 (tid, name, len(per.get(tid, [])), len(one)))
    rc, text, err = run("dump", snap, "--id", "all")
    body = [x for x in text.splitlines() if not x.startswith("#")]
    if len(body) != len(lines) or not all(x.startswith(("0x13 PTM_0 ", "0x24 PTM_1 ", "0x10 ETM_0 "))
                                          for x in body):
        fail("text listing: %d lines, or a line without its ID" % len(body))
    # the default with several PFT sources: --id all (text, JSON, --stats)
    for args in ([], ["--json"], ["--stats"]):
        rc0, out0, err0 = run("dump", snap, *args)
        rc1, out1, err1 = run("dump", snap, "--id", "all", *args)
        if (rc0, out0, err0) != (rc1, out1, err1) or not out0:
            fail("without --id %s: not the output of --id all" % " ".join(args))
    # one PFT source (PTM_1 and ETM_0 left out): the default reads it alone
    one = os.path.join(t, "one")
    os.mkdir(one)
    for f in os.listdir(snap):
        if not f.endswith(".ini"):
            open(os.path.join(one, f), "wb").write(open(os.path.join(snap, f), "rb").read())
            continue
        data = open(os.path.join(snap, f)).read()
        if f not in ("PTM_1.ini", "ETM_0.ini"):
            open(os.path.join(one, f), "w").write(
                data.replace("device1=PTM_1.ini\n", "").replace("PTM_1=ETB_0\n", "")
                .replace("device2=ETM_0.ini\n", "").replace("ETM_0=ETB_0\n", ""))
    rc0, out0, err0 = run("dump", one, "--json")
    rc1, out1, err1 = run("dump", one, "--source", "PTM_0", "--json")
    if out0 != out1 or not out0 or "trace_id" in out0.splitlines()[0]:
        fail("one PFT source: the default is not that source alone (%s)" % err0.strip())
    # the bare capture: IDs and registers from the probe
    bare = os.path.join(t, "bare.bin")
    open(bare, "wb").write(cap2)
    rc, out2, err2 = run("dump", bare, "--id", "all", "--json")
    per2 = {}
    for x in out2.splitlines():
        o = json.loads(x)
        per2.setdefault(o.pop("trace_id", None), []).append(o)
    if sorted(per2) != [0x13, 0x24]:
        fail("bare capture: IDs %s (%s)" % (sorted(per2), err2.strip()))
    for tid in (0x13, 0x24):
        rc1, out1, err1 = run("dump", bare, "--id", "0x%02x" % tid, "--format", "frames",
                              "--cycle-accurate", "--timestamps", "--json")
        if [json.loads(x) for x in out1.splitlines()] != per2.get(tid):
            fail("bare capture: --id all lines of 0x%02x differ from --id 0x%02x" % (tid, tid))
    # a capture of several chunks, read once for both sources (a source
    # group): each source's lines those of --id alone
    big = os.path.join(t, "big.bin")
    a_clean = a[a.index(b"\0\0\0\0\0\x80"):]
    open(big, "wb").write(interleave(lib, {0x13: a * 300, 0x24: a_clean * 300}, 13, 300))
    rc, outb, errb = run("dump", big, "--id", "all", "--json")
    perb = {}
    for x in outb.splitlines():
        tid = int(x[len('{"trace_id":'):x.index(",")])
        perb.setdefault(tid, []).append("{" + x[x.index(",") + 1:])
    for tid in (0x13, 0x24):
        rc1, out1, err1 = run("dump", big, "--id", "0x%02x" % tid, "--format", "frames",
                              "--cycle-accurate", "--timestamps", "--json")
        if out1.splitlines() != perb.get(tid) or len(out1) < 1000000:
            fail("%d-byte capture: --id all lines of 0x%02x differ from --id 0x%02x alone "
                 "(%d vs %d)" % (os.path.getsize(big), tid, tid, len(perb.get(tid, [])),
                                 len(out1.splitlines())))
    print("dump --id all: %d packets of 2 PFT sources and 1 ETMv3 (%d errors in the corrupt one), "
          "%d capture bytes" % (len(lines), n_err, len(cap)))
sys.exit(1 if failures() else 0)
