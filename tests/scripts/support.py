"""What several test scripts share: running pft, counting failures, libpft's
frame layer through ctypes (one trace ID out of a capture; streams framed
together in interleaved runs), TC2's sources as raw streams and the options
that read them, corrupting a stream, recording an example program under a
random PTM configuration, and judging pft probe's claims about a
recording."""
import ctypes
import json
import os
import random
import shutil
import subprocess

# a sanitizer build preloads its runtime for this interpreter only; pft
# carries its own
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}

_fails = 0


def fail(msg):
    """Prints a failure and counts it."""
    global _fails
    _fails += 1
    print("FAIL: " + msg)


def failures():
    """The failures counted so far (the exit status: 1 if any)."""
    return _fails


def runner(pft, text=True):
    """A function that runs pft with its arguments: (exit code, stdout,
    stderr), as text or bytes."""
    def run(*args):
        p = subprocess.run([pft] + list(args), capture_output=True, text=text, env=CHILD_ENV)
        return p.returncode, p.stdout, p.stderr
    return run


def probe_alone(run, pft, tmp, buffer):
    """Copy a recording's buffer into a folder of its own (nothing beside it
    to name a configuration) and run `pft probe --json` on it with run(args)
    (a subprocess.CompletedProcess): (the report, None, the copy's path), or
    (None, stderr, the copy's path) when pft gave no JSON."""
    alone = os.path.join(tmp, "alone")
    shutil.rmtree(alone, ignore_errors=True)
    os.mkdir(alone)
    cap = os.path.join(alone, "trace.bin")
    shutil.copy(buffer, cap)
    r = run([pft, "probe", "--json", cap])
    try:
        return json.loads(r.stdout), None, cap
    except ValueError:
        return None, r.stderr.strip(), cap


# TC2's PTM source 0x13 and ETMv3 source 0x10 (data/TC2): ETMCR, ETMCCER
# and ETMIDR of the snapshot's device ini files.
TC2_REGS = {0x13: ("0x10001000", "0x34C01AC2", "0x411CF312"),
            0x10: ("0x10001860", "0x344008F2", "0x410CF250")}


def tc2_stream(lib, data, tid):
    """TC2's source tid out of its capture (DATA/TC2/cstrace.bin)."""
    with open(os.path.join(data, "TC2", "cstrace.bin"), "rb") as f:
        return extract(lib, f.read(), tid)


def tc2_raw_opts(tid, etmcr=None):
    """The pft options that read TC2's source tid (0x13 or 0x10) as a raw
    stream: its registers, ETMCR replaced by etmcr when given."""
    cr, ccer, idr = TC2_REGS[tid]
    return ["--format", "raw", "--etmcr", etmcr or cr, "--etmccer", ccer, "--etmidr", idr,
            "--etmtraceidr", "0x%02X" % tid]


def tc2_image(data):
    """The pft option that maps TC2's kernel image (DATA/TC2)."""
    return ["--image", os.path.join(data, "TC2", "kernel_dump.bin") + "@0xC0008000"]


def probe_programs(examples):
    """The example programs the pft probe tests record, those they were
    written with (a new example would shift every seeded configuration),
    sorted; exits with 77 (skipped) when they are not built."""
    names = ("funcptr.elf", "interwork.elf", "irq.elf", "itblock.elf", "pgo.elf",
             "recursion.elf", "switch.elf")
    progs = sorted(f for f in os.listdir(examples) if f in names) if os.path.isdir(examples) else []
    if not progs:
        print("SKIP: example programs not built (arm-none-eabi-gcc missing)")
        raise SystemExit(77)
    return progs


def judge_options(options, truth, stats, bad):
    """A probed stream's option claims (its "options" in pft probe --json)
    against the recorded configuration truth: a claim of confidence 'none'
    (the bytes cannot tell) is counted in stats["none"], the others in
    stats["checked"]; a wrong one is counted in stats["low_miss"] when its
    confidence is low, else described in bad.  Returns the options to
    decode with: the claims, and the truth where the probe says 'none'."""
    for o, v in options.items():
        if v["confidence"] == "none":
            stats["none"][o] = stats["none"].get(o, 0) + 1
            continue
        stats["checked"] += 1
        if v["value"] != truth.get(o):
            if v["confidence"] == "low":
                stats["low_miss"][o] = stats["low_miss"].get(o, 0) + 1
            else:
                bad.append("%s=%s (%s), recorded %s" % (o, v["value"], v["confidence"], truth.get(o)))
    return {o: (truth.get(o) if v["confidence"] == "none" else v["value"])
            for o, v in options.items()}


def load_libpft(path):
    """libpft through ctypes, with the frame layer's calls declared."""
    lib = ctypes.CDLL(path)
    lib.pft_frame_encoder_alloc.restype = ctypes.c_void_p
    lib.pft_frame_encoder_alloc.argtypes = [ctypes.c_int, ctypes.c_uint, ctypes.c_uint]
    lib.pft_frame_encoder_encode.argtypes = [ctypes.c_void_p, ctypes.c_uint8, ctypes.c_char_p,
                                             ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t,
                                             ctypes.POINTER(ctypes.c_size_t)]
    lib.pft_frame_encoder_flush.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.pft_frame_encoder_free.argtypes = [ctypes.c_void_p]
    lib.pft_frame_extract.restype = ctypes.c_int64
    lib.pft_frame_extract.argtypes = [ctypes.c_int, ctypes.c_uint8, ctypes.c_char_p,
                                      ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t,
                                      ctypes.c_void_p]
    return lib


def extract(lib, cap, tid):
    """The bytes of trace ID tid in the CoreSight-framed capture cap."""
    out = ctypes.create_string_buffer(len(cap))
    n = lib.pft_frame_extract(1, tid, cap, len(cap), out, len(cap), None)
    return out.raw[:n]


def frame(lib, runs):
    """CoreSight frames holding the (trace ID, bytes) runs in that order."""
    enc = lib.pft_frame_encoder_alloc(1, 0, 0)
    res = b""
    used = ctypes.c_size_t()
    for tid, data in runs:
        cap = 20 * (len(data) // 7 + 2)
        out = ctypes.create_string_buffer(cap)
        n = lib.pft_frame_encoder_encode(enc, tid, data, len(data), out, cap, ctypes.byref(used))
        assert n >= 0 and used.value == len(data)
        res += out.raw[:n]
    out = ctypes.create_string_buffer(64)
    n = lib.pft_frame_encoder_flush(enc, out, 64)
    res += out.raw[:n]
    lib.pft_frame_encoder_free(enc)
    return res


def interleave(lib, streams, seed, longest):
    """The streams ({trace ID: bytes}) framed together in runs of 1 to
    longest bytes, the ID of each run drawn at random (seeded) from those
    with bytes left."""
    rng = random.Random(seed)
    pos = {k: 0 for k in streams}
    runs = []
    while any(pos[k] < len(streams[k]) for k in streams):
        k = rng.choice([k for k in streams if pos[k] < len(streams[k])])
        n = rng.randint(1, longest)
        runs.append((k, streams[k][pos[k]:pos[k] + n]))
        pos[k] += n
    return frame(lib, runs)


def corrupt(b, rng):
    """b with 1 to 12 faults planted anywhere, even inside packets: a byte
    changed, bytes deleted or inserted, an A-sync pattern, a run of zeros or
    a stray I-sync header."""
    b = bytearray(b)
    for _ in range(rng.randint(1, 12)):
        if not b:
            break
        k = rng.randrange(6)
        i = rng.randrange(len(b))
        if k == 0:
            b[i] = rng.randrange(256)
        elif k == 1:
            del b[i:i + rng.randint(1, 20)]
        elif k == 2:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
        elif k == 3:
            b[i:i] = b"\0" * rng.randint(5, 12) + b"\x80"
        elif k == 4:
            b[i:i] = b"\0" * rng.randint(1, 40)
        else:
            b[i:i] = b"\x08" + bytes(rng.randrange(256) for _ in range(5))
    return bytes(b)


def write_snapshot(folder, device_files, buffer_file, sources, cores=()):
    """A snapshot's snapshot.ini, naming the device files, and its trace.ini:
    one CoreSight-framed buffer ETB_0 (buffer_file) that holds the trace of
    every source, and the (core, source) pairs."""
    with open(os.path.join(folder, "snapshot.ini"), "w") as f:
        f.write("[snapshot]\nversion=1.0\n\n[device_list]\n")
        for i, d in enumerate(device_files):
            f.write("device%d=%s\n" % (i, d))
        f.write("\n[trace]\nmetadata=trace.ini\n")
    with open(os.path.join(folder, "trace.ini"), "w") as f:
        f.write("[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=ETB_0\nfile=%s\n"
                "format=coresight\n\n[source_buffers]\n" % buffer_file)
        for s in sources:
            f.write("%s=ETB_0\n" % s)
        if cores:
            f.write("\n[core_trace_sources]\n")
            for core, s in cores:
                f.write("%s=%s\n" % (core, s))


def record_pft(pft, examples, rng, n, tmp):
    """`pft record` of a random example program (examples/*.elf) under a
    random PTM configuration (cycle accuracy, timestamps, context ID size,
    VMID, return stack or branch broadcast, PFT version, raw or framed,
    random IRQs, sync frequency) into tmp/sN: (snapshot folder, program ELF,
    description), or None (no programs, or a failure counted)."""
    progs = (sorted(f for f in os.listdir(examples) if f.endswith(".elf"))
             if os.path.isdir(examples) else [])
    if not progs:
        return None
    prog = rng.choice(progs)
    ver = rng.choice(["1.0", "1.1"])
    args = ["record", os.path.join(examples, prog), "-o", os.path.join(tmp, "s%d" % n), "-q",
            "--format", rng.choice(["raw", "frames"]), "--pft-version", ver,
            "--contextid-bytes", str(rng.choice([0, 0, 1, 2, 4]))]
    for o, p in (("--cycle-accurate", 0.5), ("--timestamps", 0.5)):
        if rng.random() < p:
            args.append(o)
    if ver == "1.1" and rng.random() < 0.3:
        args.append("--vmid")
    k = rng.random()
    if k < 0.3:
        args.append("--return-stack")
    elif k < 0.5:
        args.append("--branch-broadcast")
    if rng.random() < 0.5:
        args += ["--irq-random", str(rng.choice([50, 200, 1000])), "--seed", str(n)]
    if rng.random() < 0.5:
        args += ["--sync-freq", str(rng.choice([64, 256, 1024]))]
    rc, _, err = runner(pft, text=False)(*args)
    if rc:
        fail("record %s: %s" % (" ".join(args[1:]), err.decode()[:200]))
        return None
    return (os.path.join(tmp, "s%d" % n), os.path.join(examples, prog),
            " ".join([prog] + args[3:]))


# program, cycles per instruction and exception entry, trace ID, IRQ period
CORES = [("qsort", 1, 0x21, 97), ("recursion", 3, 0x22, 89), ("switch", 2, 0x23, 101)]


def true_times(log, n):
    """Cycle count at the end of each instruction of a --log-exceptions log."""
    t, times = 0, []
    for line in open(log):
        t += n
        if not line.startswith("!"):
            times.append(t)
    return times


def record_cores(run, lib, examples, t, name, timestamps, cores=CORES):
    """Record the cores (program, cycles, trace ID, IRQ period; with or
    without timestamps; run: a runner()) and frame them into the snapshot
    folder t/name, a core and a PTM each: (snap, streams, times, logs), or
    None after a failure counted."""
    streams, times, logs = {}, {}, {}
    snap = os.path.join(t, name)
    os.mkdir(snap)
    for k, (prog, n, tid, irq) in enumerate(cores):
        rec = os.path.join(t, "%s_rec%d" % (name, k))
        log = os.path.join(t, "%s_log%d" % (name, k))
        rc, out, err = run("record", os.path.join(examples, prog + ".elf"), "-o", rec, "-q",
                           "--cycles", str(n), "--id", "0x%02x" % tid,
                           "--format", "raw", "--sync-freq", "128", "--irq-every", str(irq),
                           "--log", log, "--log-exceptions",
                           *(["--timestamps"] if timestamps else []))
        if rc:
            fail("record %s: %s" % (prog, err))
            return None
        streams[tid] = open(os.path.join(rec, "PTM_0.bin"), "rb").read()
        times[tid] = true_times(log, n)
        logs[tid] = ["%s %s" % tuple(x.split()[:2]) for x in open(log) if not x.startswith("!")]
        os.rename(os.path.join(rec, "mem_0.bin"), os.path.join(snap, "mem_%d.bin" % k))
        with open(os.path.join(rec, "cpu_0.ini")) as f:
            cpu = f.read().replace("cpu_0", "cpu_%d" % k).replace("mem_0.bin", "mem_%d.bin" % k)
        open(os.path.join(snap, "cpu_%d.ini" % k), "w").write(cpu)
        with open(os.path.join(rec, "PTM_0.ini")) as f:
            ptm = f.read().replace("PTM_0", "PTM_%d" % k)
        open(os.path.join(snap, "PTM_%d.ini" % k), "w").write(ptm)
    open(os.path.join(snap, "etb.bin"), "wb").write(interleave(lib, streams, 7, 200))
    write_snapshot(snap, [f % k for k in range(len(cores)) for f in ("cpu_%d.ini", "PTM_%d.ini")],
                   "etb.bin", ["PTM_%d" % k for k in range(len(cores))],
                   [("cpu_%d" % k, "PTM_%d" % k) for k in range(len(cores))])
    return snap, streams, times, logs
