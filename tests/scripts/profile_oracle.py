#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent check of pft profile and pft timeline on a recorded example.

From the emulator's executed-instruction log (pft record --log), the ELF's
symbols (nm) and disassembly (objdump), and nothing of libpft, compute per
function the calls and the exclusive instruction count, and the call-stack
depth before every instruction, with the rules of doc/profile.md written
again here in a few lines.  Compare with pft profile --format callgrind and
pft timeline --clock insns.

usage: profile_oracle.py ELF LOG CALLGRIND TIMELINE.json [N]

LOG may also be qemu-user's log (qemu-arm -singlestep -d exec,nochain) of
a Linux program: its "Trace" lines are the instructions; the kernel is not
in it, so every SVC, and every signal qemu stopped for ("Stopped execution
... before ADDR": that line did not run), is an untraced exception after
the instruction before, with its preferred return address (after the SVC;
ADDR).  After it, execution resumes at the return address of an exception
frame on the stack (the system call returned; sigreturn went back to the
interrupted code): that frame and those above it end.  Resuming elsewhere
(the kernel entered a signal handler, whose entry nothing branched to), the
handler runs above the exception frame.

N: compare the first N instructions of the log only (a trace cannot show
the instructions after its last waypoint when the run stops; the caller
checks that the decode is that prefix of the log).
"""
import json
import re
import subprocess
import sys
from bisect import bisect_right

CONDS = {"eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls",
         "ge", "lt", "gt", "le", "al"}
TOOL = "arm-none-eabi-"


def symbols(elf):
    out = subprocess.run([TOOL + "nm", "-S", "--defined-only", elf], check=True,
                         capture_output=True, text=True).stdout
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4:
            addr, size, typ, name = int(f[0], 16), int(f[1], 16), f[2], f[3]
        elif len(f) == 3:
            addr, size, typ, name = int(f[0], 16), 0, f[1], f[2]
        else:
            continue
        if typ in "aAUN" or name.startswith("$") or name.startswith("."):
            continue
        if typ in "tTwW":
            addr &= ~1
        syms.append((addr, -size, name, size))
    syms.sort()
    return syms


class Funcs:
    def __init__(self, syms):
        self.syms = syms
        self.addrs = [s[0] for s in syms]
        self.starts = set(self.addrs)

    def of(self, a):
        """start of the symbol holding a: the sized one around it, else the nearest below"""
        i = bisect_right(self.addrs, a)
        if i == 0:
            return None
        j = i - 1
        while j > 0 and self.addrs[j - 1] == self.addrs[j]:
            j -= 1
        k = j
        while k < i and self.addrs[k] == self.addrs[j]:
            if self.syms[k][3] and a - self.syms[k][0] < self.syms[k][3]:
                return self.syms[k][0]
            k += 1
        return self.addrs[j]

    def name(self, start):
        i = bisect_right(self.addrs, start) - 1
        while i > 0 and self.addrs[i - 1] == start:
            i -= 1
        return self.syms[i][2]


def disassembly(elf):
    out = subprocess.run([TOOL + "objdump", "-d", elf], check=True, capture_output=True,
                         text=True).stdout
    dis = {}
    pat = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{4,8} )+)\s*(\S+)\s*(.*)$")
    for line in out.splitlines():
        m = pat.match(line)
        if m:
            hexs = m.group(2).replace(" ", "")
            mn = m.group(3).split(".")[0]
            dis[int(m.group(1), 16)] = (len(hexs) // 2, mn, m.group(4).split(";")[0].strip())
    return dis


def is_call(mn):
    return mn in ("bl", "blx") or (mn[:3] == "blx" and mn[3:] in CONDS) or \
        (mn[:2] == "bl" and mn[2:] in CONDS)


def is_cond(mn):
    return mn not in ("bl", "blx")


def writes_pc_list(ops):
    m = re.search(r"\{([^}]*)\}", ops)
    return bool(m) and "pc" in [r.strip() for r in m.group(1).split(",")]


def exc_return(mn, ops):
    if (mn.startswith("movs") or mn.startswith("subs")) and ops.startswith("pc"):
        return True
    if (mn.startswith("ldm") or mn.startswith("pop")) and ops.endswith("^") and writes_pc_list(ops):
        return True
    return mn.startswith("rfe") or mn == "eret"


def direct(mn):
    return mn == "b" or (mn[0] == "b" and mn[1:] in CONDS) or mn in ("cbz", "cbnz")


def indirect(mn, ops):
    if mn.startswith("bx") or mn.startswith("tbb") or mn.startswith("tbh"):
        return True
    if mn.startswith("ldm") or mn.startswith("pop"):
        return writes_pc_list(ops)
    return ops.startswith("pc,") and not mn.startswith("str") and not mn.startswith("cmp")


def return_form(mn, ops):
    if mn.startswith("bx") and ops == "lr":
        return True
    if (mn.startswith("pop") or mn.startswith("ldm")) and writes_pc_list(ops) and not ops.endswith("^"):
        return True
    if mn.startswith("ldr") and re.match(r"pc, \[sp\], #\d+", ops):
        return True
    return mn.startswith("mov") and not mn.startswith("movs") and ops == "pc, lr"


def read_qemu(path):
    """qemu-user's exec log: the instructions, and {i: preferred return
    address} of the signals qemu stopped for after instruction i"""
    full, stops = [], {}
    for line in open(path):
        if line.startswith("Trace "):
            f = line.split("[", 1)[1].split("/")
            full.append(int(f[1], 16))
        elif line.startswith("Stopped execution"):
            at = int(line.split("[", 1)[1].split("]")[0], 16)
            assert full and full[-1] == at, line
            full.pop()           # did not run: logged again after sigreturn
            stops[len(full) - 1] = at
    return full, stops


def model(elf, log, full, stops=None):
    funcs = Funcs(symbols(elf))
    dis = disassembly(elf)
    vecs = [s[0] for s in funcs.syms if s[2] == "_vectors"]
    vec = vecs[0] if vecs else -0x100   # a Linux program: no vectors
    # qemu: untraced exceptions after instruction i, {i: [preferred
    # return, ...]}: an SVC, then a signal qemu stopped for
    untraced = {}
    if stops is not None:
        for i, a in enumerate(full):
            if dis.get(a, (4, "?", ""))[1].startswith("svc"):
                untraced[i] = [a + dis[a][0]]
        for i, at in stops.items():
            untraced.setdefault(i, []).append(at)
    calls, self_ = {}, {}
    depth = []
    # frames: [kind, ret] with kind C (call), U (unknown), E (exception)
    st = [["U", None]]

    def base():
        for k in range(len(st) - 1, -1, -1):
            if st[k][0] == "E":
                return k + 1
        return 0

    def match(t):
        for k in range(len(st) - 1, base() - 1, -1):
            if st[k][0] == "C" and st[k][1] == t:
                return k
        return -1

    def count_call(t):
        f = funcs.of(t)
        if f is not None and f == t or f is not None and t in funcs.starts:
            calls[f] = calls.get(f, 0) + 1

    # where execution resumes after the exception that follows instruction i
    # (the target of a branch whose effect the log hides behind the vector)
    resume, pend = {}, []
    for i, a in enumerate(full[:-1]):
        size, mn, ops = dis.get(a, (4, "?", ""))
        if exc_return(mn, ops) and pend:
            resume[pend.pop()] = full[i + 1]
        if vec <= full[i + 1] < vec + 0x20 and not (vec <= a < vec + 0x20):
            pend.append(i)

    for i, a in enumerate(log):
        depth.append(len(st))
        f = funcs.of(a)
        self_[f] = self_.get(f, 0) + 1
        if i + 1 == len(full):
            break
        nxt = full[i + 1]     # the run went on after the trace's end
        size, mn, ops = dis.get(a, (4, "?", ""))
        seq = a + size
        link = is_call(mn) and (not is_cond(mn) or nxt != seq)
        # an exception right after instruction i: the vector is next
        exc_next = vec <= nxt < vec + 0x20 and not (vec <= a < vec + 0x20)
        pabt = exc_next and nxt == vec + 0x0C
        if i in untraced:
            nxt = untraced[i][0]     # a branch went there; the kernel ran
            link = is_call(mn) and (not is_cond(mn) or nxt != seq)
            push_exc = False
        elif exc_next and i in resume and not pabt:
            nxt = resume[i]          # the branch's target
            exc_next = False
            link = is_call(mn) and (not is_cond(mn) or nxt != seq)
            push_exc = True
        else:
            push_exc = exc_next
        if exc_return(mn, ops):
            e = None
            while st:
                fr = st.pop()
                if fr[0] == "E":
                    e = fr
                    break
            if e is not None and st and not exc_next and e[1] != nxt:
                k = match(nxt)
                if k >= 0:
                    del st[k:]
        elif link:
            st.append(["C", seq])
            tgt = nxt
            if exc_next:    # the target never ran: a direct call names it
                m = re.match(r"([0-9a-f]+) <", ops)
                tgt = int(m.group(1), 16) if m else None
            if tgt is not None and funcs.of(tgt) is not None:
                calls[funcs.of(tgt)] = calls.get(funcs.of(tgt), 0) + 1
        elif nxt != seq and not exc_next and (direct(mn) or indirect(mn, ops)):
            ind = indirect(mn, ops)
            k = match(nxt) if ind else -1
            ft, fa = funcs.of(nxt), funcs.of(a)
            if k >= 0:
                del st[k:]
            elif ft is not None and ft == nxt and ft != fa:       # tail call
                calls[ft] = calls.get(ft, 0) + 1
                if st and st[-1][0] == "E":
                    st.append(["C", None])
                else:
                    st[-1] = ["C", st[-1][1]]
            else:
                done = False
                if ind and ft is not None and ft != fa:          # longjmp
                    for j in range(len(st) - 1, base() - 1, -1):
                        if st[j][0] == "C" and st[j][1] is not None and funcs.of(st[j][1]) == ft:
                            b = base()
                            del st[j:]
                            if len(st) == b:
                                st.append(["U", None])
                            done = True
                            break
                if not done and ind and return_form(mn, ops):
                    b = base()
                    if len(st) == b:
                        pass
                    elif len(st) - b == 1 and st[b][0] != "E":
                        st[b] = ["U", None]
                    else:
                        st[:] = [["U", None]]
        if not st and not exc_next:
            st.append(["U", None])
        if push_exc:
            # its preferred return address: where the handler goes back to,
            # unless it is a prefetch abort (the call's target never ran)
            st.append(["E", None if pabt else resume.get(i)])
        if i in untraced:
            for r in untraced[i]:
                st.append(["E", r])
            back = full[i + 1]
            for k in range(len(st) - 1, -1, -1):
                if st[k][0] == "E" and st[k][1] == back:
                    del st[k:]       # the handler returned there
                    break
            if not st:
                st.append(["U", None])
    return funcs, calls, self_, depth


def read_callgrind(path):
    names, self_, calls = {}, {}, {}
    fn = cfn = None
    pend_calls = None
    total = None
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
        if m:
            if m.group(3) is not None:
                names[m.group(2)] = m.group(3)
            if m.group(1) == "fn":
                fn = m.group(2)
            else:
                cfn = m.group(2)
            continue
        m = re.match(r"^calls=(\d+)", line)
        if m:
            pend_calls = int(m.group(1))
            continue
        m = re.match(r"^0 (\d+)", line)
        if m:
            if pend_calls is not None:
                calls[cfn] = calls.get(cfn, 0) + pend_calls
                pend_calls = None
            else:
                self_[fn] = self_.get(fn, 0) + int(m.group(1))
            continue
        m = re.match(r"^totals: (\d+)", line)
        if m:
            total = int(m.group(1))
    by = lambda d: {names[k]: v for k, v in d.items()}
    return by(self_), by(calls), total


def timeline_depth(path, n):
    d = json.load(open(path))
    assert d["otherData"]["clock"] == "insns"
    delta = [0] * (n + 1)
    for e in d["traceEvents"]:
        if e["ph"] == "B":
            delta[int(e["ts"])] += 1
        elif e["ph"] == "E":
            delta[int(e["ts"])] -= 1
    out, cur = [], 0
    for i in range(n):
        cur += delta[i]
        out.append(cur)
    return out


def main():
    elf, logp, cg, tl = sys.argv[1:5]
    with open(logp) as f:
        qemu = f.readline().startswith("Trace ")
    stops = None
    if qemu:
        full, stops = read_qemu(logp)
    else:
        full = [int(line.split()[0], 16) for line in open(logp) if line.strip()]
    log = full[:int(sys.argv[5])] if len(sys.argv) > 5 else full
    funcs, calls, self_, depth = model(elf, log, full, stops)
    ps, pc, total = read_callgrind(cg)
    bad = 0
    if total != len(log):
        print(f"FAIL callgrind total {total} != {len(log)} logged instructions")
        bad += 1
    # compare by address: aliases (weak symbols at one address) are one function
    addr_of = {sy[2]: sy[0] for sy in funcs.syms}
    prof = lambda d: {addr_of[k]: d[k] for k in d if k in addr_of}
    ps_a, pc_a = prof(ps), prof(pc)
    named_self = {k: v for k, v in self_.items() if k is not None}
    named_calls = {k: v for k, v in calls.items() if k is not None}
    for a in sorted(set(named_self) | set(ps_a)):
        if named_self.get(a, 0) != ps_a.get(a, 0):
            print(f"FAIL {funcs.name(a)}: exclusive {ps_a.get(a, 0)} in the profile, {named_self.get(a, 0)} in the log")
            bad += 1
    for a in sorted(set(named_calls) | set(pc_a)):
        if named_calls.get(a, 0) != pc_a.get(a, 0):
            print(f"FAIL {funcs.name(a)}: {pc_a.get(a, 0)} calls in the profile, {named_calls.get(a, 0)} in the log")
            bad += 1
    td = timeline_depth(tl, len(log))
    diff = [i for i in range(len(log)) if td[i] != depth[i]]
    if diff:
        i = diff[0]
        print(f"FAIL depth differs before {len(diff)} of {len(log)} instructions; first at "
              f"instruction {i} ({log[i]:08x}): timeline {td[i]}, log {depth[i]}")
        bad += 1
    print(f"{'ok  ' if not bad else 'FAIL'} {len(log)} instructions, {len(named_self)} functions, "
          f"{sum(named_calls.values())} calls, depth agrees before {len(log) - len(diff)} of {len(log)} "
          f"instructions (max {max(depth)})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
