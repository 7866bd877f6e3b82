#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""pft record refuses executions that cannot happen (issue 14, defect 1).

Real execution logs are damaged the way a broken tool or a careless edit
would: two lines swapped, a PC garbled (into text, or into another address),
the Thumb bit of one line flipped, an address inserted that nothing branches
to, an exception's return address or vector moved.  Each damaged log must be
refused (exit 1) at the right line with the reason, and write no snapshot.
The undamaged logs must still be accepted, and the snapshot must decode to
exactly the instructions the log says executed.

Logs: the plain executed-instruction log of the bare-metal examples with
IRQs (pft record --log --log-exceptions, read back by --import), and a qemu
-d exec,nochain log of a Linux program that takes asynchronous signals
(SIGVTALRM from setitimer: qemu logs the instruction it was about to run,
then "Stopped execution of TB chain", then the handler; that instruction did
not run).  The timer counts the process's own CPU time, not the wall clock,
so the signals come while the program loops, however loaded the machine:
a real-time timer could fire while qemu sat descheduled inside a system
call, where a signal is taken with no "Stopped" line.  Needs $PFT_BIN and $PFT_BUILD; the qemu part needs qemu-arm and
arm-linux-gnueabihf-gcc (skipped without them)."""
import os
import random
import shutil
import subprocess
import sys
import tempfile

PFT = os.environ["PFT_BIN"]
EX = os.path.join(os.environ["PFT_BUILD"], "examples")
fails = 0
cases = 0


def run(args):
    return subprocess.run([PFT] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, errors="replace")


def report(ok, what, detail=""):
    global fails, cases
    cases += 1
    if ok:
        print("ok   " + what)
    else:
        fails += 1
        print("FAIL " + what + (": " + detail if detail else ""))


def expect_refused(tmp, mode, lines, elf, what, words):
    """Record the damaged log; it must exit 1 naming the words, with no
    snapshot written."""
    log = os.path.join(tmp, "damaged.log")
    with open(log, "w") as f:
        f.writelines(lines)
    snap = os.path.join(tmp, "snap_bad")
    shutil.rmtree(snap, ignore_errors=True)
    r = run(["record", "-q", mode, log, "--elf", elf, "-o", snap])
    err = r.stderr.strip()
    ok = r.returncode == 1 and all(w in err for w in words) and \
        not os.path.exists(os.path.join(snap, "snapshot.ini"))
    report(ok, "%s: exit %d: %s" % (what, r.returncode, err.splitlines()[0] if err else ""),
           "want exit 1 and %r" % (words,))


def expect_exact(tmp, mode, log, elf_args, what, expected=None):
    """Record the log; exit 0, and the decode of the snapshot equals the
    recorded --log (and `expected` when given)."""
    snap = os.path.join(tmp, "snap_ok")
    shutil.rmtree(snap, ignore_errors=True)
    rec = os.path.join(tmp, "rec.log")
    r = run(["record", "-q", mode, log] + elf_args + ["-o", snap, "--log", rec])
    if r.returncode != 0:
        report(False, what, "exit %d: %s" % (r.returncode, r.stderr.strip()))
        return
    d = run(["decode", snap, "--format", "addrs"])
    got = open(rec).read()
    same = d.returncode == 0 and d.stdout == got and (expected is None or expected == got)
    report(same, "%s: %d instructions recorded, decoded the same" % (what, got.count("\n")),
           "decode exit %d, %d lines; recorded %d; expected %s" %
           (d.returncode, d.stdout.count("\n"), got.count("\n"),
            "-" if expected is None else str(expected.count("\n"))))


def straight(insns, i, step):
    """insns[i-1], insns[i], insns[i+1] are consecutive addresses in one
    instruction set (a straight run), so moving insns[i] breaks it."""
    a, b, c = insns[i - 1], insns[i], insns[i + 1]
    return b[1] == a[1] + step(a) and c[1] == b[1] + step(b) and a[2] == b[2] == c[2]


def plain_cases(tmp):
    elf = os.path.join(EX, "irq.elf")
    full = os.path.join(tmp, "irq.log")
    r = run(["record", "-q", elf, "--log", full, "--log-exceptions", "--irq-every", "37"])
    if r.returncode != 0:
        report(False, "record irq.elf", r.stderr)
        return
    lines = open(full).readlines()
    expect_exact(tmp, "--import", full, ["--elf", elf], "irq.elf plain log with exceptions",
                 "".join(l for l in lines if not l.startswith("!")))
    # instruction lines: (line index, address, isa)
    insns = [(k, int(l.split()[0], 16), l.split()[1]) for k, l in enumerate(lines)
             if not l.startswith("!")]
    # the size of each instruction: the distance to the next in a straight
    # run is all the test needs; T32 sizes are read from the log itself
    sizes = {}
    for a, b in zip(insns, insns[1:]):
        if b[0] == a[0] + 1 and a[2] == b[2] and 0 < b[1] - a[1] <= 4:
            sizes.setdefault(a[1], b[1] - a[1])

    def step(x):
        return sizes.get(x[1], 0)

    rng = random.Random(14)
    runs = [i for i in range(1, len(insns) - 2)
            if straight(insns, i, step) and straight(insns, i + 1, step) and
            insns[i + 1][0] == insns[i][0] + 1 and insns[i][0] == insns[i - 1][0] + 1]
    rng.shuffle(runs)
    for n, i in enumerate(runs[:4]):
        # swap lines i and i+1: the line now at i cannot follow i-1
        k = insns[i][0]
        bad = list(lines)
        bad[k], bad[k + 1] = bad[k + 1], bad[k]
        expect_refused(tmp, "--import", bad, elf, "plain: lines %d and %d swapped" % (k + 1, k + 2),
                       ["line %d:" % (k + 1), "cannot follow 0x%08x" % insns[i - 1][1]])
    i = runs[4]
    k = insns[i][0]
    bad = list(lines)
    bad[k] = bad[k].replace(bad[k][5], "z" if bad[k][5] != "z" else "y", 1)
    expect_refused(tmp, "--import", bad, elf, "plain: PC on line %d garbled into text" % (k + 1),
                   ["line %d: expected 'ADDR ISA'" % (k + 1)])
    i = runs[5]
    k = insns[i][0]
    bad = list(lines)
    bad[k] = "%08x %s\n" % (insns[i][1] ^ 0x40, insns[i][2])
    expect_refused(tmp, "--import", bad, elf, "plain: PC on line %d changed by 0x40" % (k + 1),
                   ["line %d: 0x%08x" % (k + 1, insns[i][1] ^ 0x40), "cannot follow"])
    i = [j for j in runs[6:] if insns[j][1] % 4 == 0][0]
    k = insns[i][0]
    bad = list(lines)
    flip = "A32" if insns[i][2] == "T32" else "T32"
    bad[k] = "%08x %s\n" % (insns[i][1], flip)
    expect_refused(tmp, "--import", bad, elf, "plain: instruction set of line %d flipped" % (k + 1),
                   ["line %d: 0x%08x %s cannot follow" % (k + 1, insns[i][1], flip)])
    i = runs[7]
    k = insns[i][0]
    far = max(insns, key=lambda x: abs(x[1] - insns[i][1]) if x[2] == insns[i][2] else -1)
    bad = list(lines[:k]) + ["%08x %s\n" % (far[1], far[2])] + list(lines[k:])
    expect_refused(tmp, "--import", bad, elf, "plain: 0x%08x inserted at line %d" % (far[1], k + 1),
                   ["line %d: 0x%08x" % (k + 1, far[1]), "cannot follow"])
    # exception lines: the return address moved, the vector moved
    exc = [k for k, l in enumerate(lines) if l.startswith("! irq")]
    if len(exc) < 2:
        report(False, "irq.elf log has IRQs", "%d" % len(exc))
        return
    k = exc[len(exc) // 2]
    f = lines[k].split()
    bad = list(lines)
    bad[k] = "! irq %08x %s\n" % (int(f[2], 16) + 0x20, f[3] if len(f) > 3 else "")
    expect_refused(tmp, "--import", bad, elf, "plain: IRQ return address on line %d moved" % (k + 1),
                   ["line %d: irq return address 0x%08x" % (k + 1, int(f[2], 16) + 0x20),
                    "cannot follow"])
    bad = list(lines)
    v = bad[k + 1].split()
    bad[k + 1] = "%08x %s\n" % (int(v[0], 16) + 8, v[1])
    expect_refused(tmp, "--import", bad, elf, "plain: IRQ vector on line %d moved" % (k + 2),
                   ["line %d: 0x%08x cannot be the irq vector" % (k + 2, int(v[0], 16) + 8)])
    bad = list(lines)
    del bad[k]
    expect_refused(tmp, "--import", bad, elf, "plain: IRQ line %d deleted" % (k + 1),
                   ["line %d: 0x%s" % (k + 1, v[0]), "cannot follow"])


SIG_C = r"""
#include <signal.h>
#include <sys/time.h>
static volatile int n;
static void h(int s)
{
	static const struct itimerval off;
	(void)s;
	if (++n == 3) /* no fourth signal on the way out */
		setitimer(ITIMER_VIRTUAL, &off, 0);
}
int main(void)
{
	/* every 2 ms of the process's user CPU time, not of the wall clock */
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	volatile unsigned long x = 0;
	signal(SIGVTALRM, h);
	setitimer(ITIMER_VIRTUAL, &it, 0);
	while (n < 3) x++;
	return 0;
}
"""


def qemu_lines(lines):
    """Instructions of a qemu log as "ADDR ISA" lines: every Trace line but
    one that a 'Stopped execution' line takes back (it did not run)."""
    out = []
    for l in lines:
        if l.startswith("Stopped execution"):
            out.pop()
        elif l.startswith("Trace "):
            f = l[l.index("[") + 1:].split("/")
            out.append("%s %s\n" % (f[1], "T32" if int(f[0], 16) & (1 << 23) else "A32"))
    return "".join(out)


def qemu_cases(tmp):
    gcc = shutil.which("arm-linux-gnueabihf-gcc")
    if not gcc or not shutil.which("qemu-arm"):
        print("skip qemu cases: needs qemu-arm and arm-linux-gnueabihf-gcc")
        return
    src = os.path.join(tmp, "sig.c")
    prog = os.path.join(tmp, "sig")
    with open(src, "w") as f:
        f.write(SIG_C)
    subprocess.run([gcc, "-O1", "-static", "-o", prog, src], check=True)
    log = os.path.join(tmp, "q.log")
    subprocess.run(["qemu-arm", "-cpu", "cortex-a15", "-singlestep", "-d", "exec,nochain",
                    "-D", log, prog], check=True)
    lines = open(log).readlines()
    stops = [k for k, l in enumerate(lines) if l.startswith("Stopped execution")]
    # 3 signals, then the timer is off; each comes 2 ms of CPU time after
    # the last, in the loop (the handler and the system calls around it
    # take microseconds), so each leaves a 'Stopped' line
    report(len(stops) == 3, "qemu log of a program with 3 SIGVTALRMs has %d 'Stopped' lines" %
           len(stops))
    expect_exact(tmp, "--qemu-log", log, ["--elf", prog], "qemu: asynchronous signals",
                 qemu_lines(lines))
    # the plain log with exceptions that pft writes from it (system calls and
    # signals as "untraced" exceptions) is accepted back, to the same trace
    plain = os.path.join(tmp, "q.plain")
    a = os.path.join(tmp, "snap_q")
    b = os.path.join(tmp, "snap_plain")
    r1 = run(["record", "-q", "--qemu-log", log, "--elf", prog, "-o", a, "--log", plain,
              "--log-exceptions"])
    r2 = run(["record", "-q", "--import", plain, "--elf", prog, "-o", b])
    same = r1.returncode == 0 and r2.returncode == 0 and \
        open(os.path.join(a, "cstrace.bin"), "rb").read() == \
        open(os.path.join(b, "cstrace.bin"), "rb").read()
    report(same, "qemu log -> --log --log-exceptions (%d untraced exceptions) -> --import: "
           "the same trace bytes" % sum(1 for l in open(plain) if l.endswith(" untraced\n")),
           r1.stderr + r2.stderr)
    trace = [k for k, l in enumerate(lines) if l.startswith("Trace ")]

    def pc(k):
        return int(lines[k][lines[k].index("[") + 1:].split("/")[1], 16)

    # a straight run of Trace lines in the middle of main's loop
    mid = [k for k in trace[len(trace) // 2:] if k + 2 < len(lines) and
           lines[k + 1].startswith("Trace ") and lines[k + 2].startswith("Trace ") and
           lines[k - 1].startswith("Trace ") and 0 < pc(k) - pc(k - 1) <= 4 and
           0 < pc(k + 1) - pc(k) <= 4 and 0 < pc(k + 2) - pc(k + 1) <= 4]
    k = mid[0]
    bad = list(lines)
    bad[k], bad[k + 1] = bad[k + 1], bad[k]
    expect_refused(tmp, "--qemu-log", bad, prog, "qemu: lines %d and %d swapped" % (k + 1, k + 2),
                   ["line %d: 0x%08x" % (k + 1, pc(k + 1)), "cannot follow 0x%08x" % pc(k - 1)])
    k = mid[10]
    bad = list(lines)
    bad[k] = bad[k].replace("/%08x/" % pc(k), "/%07xg/" % (pc(k) >> 4), 1)
    expect_refused(tmp, "--qemu-log", bad, prog, "qemu: PC on line %d garbled" % (k + 1),
                   ["line %d: unreadable 'Trace' line" % (k + 1)])
    k = [m for m in mid[20:] if pc(m) % 4 == 0][0]
    bad = list(lines)
    b = bad[k].index("[") + 1
    cs = int(bad[k][b:b + 8], 16) ^ (1 << 23)
    bad[k] = bad[k][:b] + "%08x" % cs + bad[k][b + 8:]
    expect_refused(tmp, "--qemu-log", bad, prog, "qemu: Thumb bit of line %d flipped" % (k + 1),
                   ["line %d: 0x%08x %s cannot follow" % (k + 1, pc(k), "T32" if cs & (1 << 23) else "A32")])
    k = mid[30]
    bad = list(lines[:k]) + [lines[trace[100]]] + list(lines[k:])
    expect_refused(tmp, "--qemu-log", bad, prog, "qemu: 0x%08x inserted at line %d" %
                   (pc(trace[100]), k + 1),
                   ["line %d: 0x%08x" % (k + 1, pc(trace[100])), "cannot follow"])
    k = stops[0]
    bad = list(lines)
    bad[k] = bad[k].replace("[%08x]" % pc(k - 1), "[%08x]" % (pc(k - 1) + 2))
    expect_refused(tmp, "--qemu-log", bad, prog, "qemu: 'Stopped' line %d names another PC" % (k + 1),
                   ["line %d: qemu stopped before" % (k + 1)])
    bad = list(lines)
    del bad[k]
    expect_refused(tmp, "--qemu-log", bad, prog, "qemu: 'Stopped' line %d deleted" % (k + 1),
                   ["line %d: 0x%08x" % (k + 1, pc(k + 1)), "cannot follow 0x%08x" % pc(k - 1)])


def main():
    tmp = tempfile.mkdtemp(prefix="pft_hostile_record.")
    try:
        plain_cases(tmp)
        qemu_cases(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (cases - fails, fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
