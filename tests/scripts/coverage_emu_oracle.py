#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Per-address execution counts and per-branch taken / not-taken counts of a
program run, computed from the emulator's executed-instruction log and the
disassembly alone (objdump; nothing of libpft), compared with
`pft coverage --format insns`.

    coverage_emu_oracle.py PROGRAM.elf LOG INSNS [--lcov-summary FILE]

With --lcov-summary, also the totals `lcov --summary` printed for pft's
tracefile of the same run (FILE) must equal the ones this script expects:
lines with code = every line addr2line gives for an instruction of the
disassembly, lines hit = the lines of the executed instructions, branches =
two per conditional branch on a line, branches hit = outcomes that happened.

LOG: '%08x A32|T32' per executed instruction, '! TYPE PREF_RETURN' before an
exception (pft record --log --log-exceptions).  A conditional branch (a
branch mnemonic with a condition, CBZ/CBNZ, or a conditional instruction
that writes the PC) is taken when the next instruction executed is not the
one after it; before an exception, when the preferred return address is not
the one after it."""
import re
import subprocess
import sys

CONDS = {"eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls",
         "ge", "lt", "gt", "le"}
BRANCHES = {"b", "bl", "blx", "bx", "bxj"}
# instructions that may write the PC, without their condition suffix
PC_WRITERS = {"mov", "movs", "ldr", "pop", "ldm", "ldmia", "ldmfd", "ldmib", "ldmda",
              "ldmdb", "add", "adds", "sub", "subs"}


def disassemble(elf, objdump):
    """address -> (size, conditional waypoint?)"""
    out = subprocess.run([objdump, "-d", elf], check=True, capture_output=True,
                         text=True).stdout
    code = {}
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(\S+)\s*(.*)$", line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        words = m.group(2).split()
        size = sum(len(w) // 2 for w in words)
        mn = m.group(3).split(".")[0]
        ops = m.group(4)
        cond = False
        if mn in ("cbz", "cbnz"):
            cond = True
        elif mn[:-2] in BRANCHES and mn[-2:] in CONDS:
            cond = True
        elif mn[-2:] in CONDS and mn[:-2] in PC_WRITERS:
            writes_pc = (re.match(r"pc\b", ops) is not None or
                         (re.match(r"(pop|ldm)", mn) and re.search(r"\bpc\b", ops)))
            cond = bool(writes_pc)
        code[addr] = (size, cond)
    return code


def lines_of(elf, addrs):
    """address -> 'file:line' (None for no line), from addr2line"""
    inp = "".join(f"{a:x}\n" for a in addrs)
    out = subprocess.run(["arm-none-eabi-addr2line", "-e", elf], input=inp, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    res = {}
    for a, l in zip(addrs, out):
        l = l.split(" (discriminator")[0]
        res[a] = None if l.startswith("??") or l.endswith(":?") or l.endswith(":0") else l
    return res


def lcov_totals(summary):
    tot = {}
    with open(summary) as f:
        for line in f:
            m = re.search(r"(lines|functions|branches)\.*: .*\((\d+) of (\d+)", line)
            if m:
                tot[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return tot


def main():
    elf, log, insns = sys.argv[1:4]
    summary = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--lcov-summary" else None
    objdump = "arm-none-eabi-objdump"
    code = disassemble(elf, objdump)
    seq = []  # (addr, isa) or ('!', pref_return)
    with open(log) as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            if p[0] == "!":
                seq.append(("!", int(p[2], 16)))
            else:
                seq.append((int(p[0], 16), p[1]))
    count, taken, not_taken = {}, {}, {}
    for i, (a, isa) in enumerate(seq):
        if a == "!":
            continue
        count[a] = count.get(a, 0) + 1
        size, cond = code.get(a, (4 if isa == "A32" else 2, False))
        if not cond:
            continue
        if i + 1 >= len(seq):
            continue  # the last instruction: its outcome is not in the log
        nxt = seq[i + 1][1] if seq[i + 1][0] == "!" else seq[i + 1][0]
        if nxt == a + size:
            not_taken[a] = not_taken.get(a, 0) + 1
        else:
            taken[a] = taken.get(a, 0) + 1
    conds = {a for a in count if code.get(a, (0, False))[1]}
    ours = {}
    with open(insns) as f:
        for line in f:
            p = line.split()
            ours[int(p[0], 16)] = (int(p[2]), int(p[3]), int(p[4]), len(p) > 5 and p[5] == "c")
    bad = 0

    def report(msg):
        nonlocal bad
        bad += 1
        if bad <= 10:
            print("  " + msg)
    for a in sorted(set(count) | set(ours)):
        if a not in ours:
            report(f"{a:08x}: executed {count[a]} times, not in pft's counts")
            continue
        if a not in count:
            report(f"{a:08x}: pft counts {ours[a][0]}, never executed")
            continue
        if ours[a][0] != count[a]:
            report(f"{a:08x}: executed {count[a]} times, pft counts {ours[a][0]}")
        if (a in conds) != ours[a][3]:
            report(f"{a:08x}: conditional branch: disassembly {a in conds}, pft {ours[a][3]}")
        if a in conds and (ours[a][1], ours[a][2]) != (taken.get(a, 0), not_taken.get(a, 0)):
            report(f"{a:08x}: taken/not taken {taken.get(a, 0)}/{not_taken.get(a, 0)}, "
                   f"pft {ours[a][1]}/{ours[a][2]}")
    nbr = sum(taken.get(a, 0) + not_taken.get(a, 0) for a in conds)
    name = elf.rsplit("/", 1)[-1]
    if summary:
        where = lines_of(elf, sorted(code))
        lf = {l for l in where.values() if l}
        lh = {where[a] for a in count if where.get(a)}
        brf = 2 * sum(1 for a, (sz, c) in code.items() if c and where.get(a))
        brh = sum((taken.get(a, 0) > 0) + (not_taken.get(a, 0) > 0) for a in conds if where.get(a))
        want = {"lines": (len(lh), len(lf)), "branches": (brh, brf)}
        got = lcov_totals(summary)
        for k in want:
            if got.get(k) != want[k]:
                report(f"lcov --summary {k}: {got.get(k)}, expected {want[k]} (hit, total)")
            elif bad == 0:
                print(f"     lcov --summary {k} {got[k][0]} of {got[k][1]}: as expected")
    if bad:
        print(f"FAIL {name}: {bad} differences")
        return 1
    print(f"ok   {name}: {len(count)} addresses, {sum(count.values())} executions, "
          f"{len(conds)} conditional branches with {nbr} outcomes: equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
