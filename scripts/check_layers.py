#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check that dependencies in libpft run one way.

Two rules (doc/architecture.md):
  1. Between layers: a file of one layer uses (calls, or reads the data of)
     only its own layer and the layers below it in LAYERS, and includes only
     their headers.
  2. Inside a layer: no two files use each other, directly or round a
     longer loop.  The files stand on floors: a file uses only files of a
     lower floor.

Which file defines what comes from `nm` on the library's object files (so
inline functions and macros, which make no call, do not count).  Includes
come from the `#include "..."` lines of src/<layer>/*.[ch].

Every layer is checked and reported; only the layers in CLEAN fail the
check.  A layer joins CLEAN once it passes.

Usage: check_layers.py [--src DIR] (--objects A.o|B.o|... | --build DIR)
       [--floors]
       check_layers.py --self-test
"""
import argparse
import glob
import os
import re
import subprocess
import sys

# The layers from the bottom up: a layer may use the ones before it.
LAYERS = [
    "common",
    "frame",
    "tfo",
    "packet",
    "etm3",
    "state",
    "isa",
    "image",
    "flow",
    "etm3flow",  # the ETMv3 instruction flow: etm3 packets against the image, flow items
    "parallel",  # one stream's segments decoded apart and joined (packet and flow internals)
    "snapshot",  # below ptm: the one ini reader and register table
    "ptm",
    "probe",
    "source",
    "debuginfo",
    "callstack",
    "coverage",
    "record",
]

# Layers whose violations fail the check (the others are only reported).
CLEAN = {"common", "frame", "tfo", "packet", "etm3", "state", "isa", "image", "flow",
         "etm3flow", "parallel", "snapshot", "ptm", "probe", "source", "debuginfo", "callstack",
         "coverage", "record"}

# Public headers that belong to no single layer.
UMBRELLA_HEADERS = {"pft.h"}

OBJ_RE = re.compile(r"(?:^|/)src/([^/]+)/([^/]+\.c)\.o(?:bj)?$")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def rank(layer):
    return LAYERS.index(layer) if layer in LAYERS else None


def nm_symbols(obj):
    """(defined global symbols, undefined symbols) of one object file."""
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper() and kind not in ("N", "W", "V"):
            defined.add(name)
        elif kind in ("W", "V"):
            defined.add(name)
    return defined, undefined


def find_objects(build, src):
    """The library's objects in a build folder (its own, not those of a
    build folder nested inside it), without those whose source is gone."""
    objs = glob.glob(os.path.join(build, "CMakeFiles", "*.dir", "src", "*", "*.c.o"))
    if not objs:
        found = glob.glob(os.path.join(build, "**", "*.dir", "src", "*", "*.c.o"),
                          recursive=True)
        top = min((o.count(os.sep) for o in found), default=0)
        objs = [o for o in found if o.count(os.sep) == top]
    keep = []
    for o in objs:
        m = OBJ_RE.search(o.replace(os.sep, "/"))
        if m and os.path.exists(os.path.join(src, m.group(1), m.group(2))):
            keep.append(o)
    return sorted(keep)


def sccs(nodes, edges):
    """Strongly connected components (Tarjan), as lists."""
    index, low, onstack, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        onstack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in onstack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                onstack.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def floors(nodes, edges):
    """Floor of each file: 0 for a file that uses no other file of its
    layer, else one above the highest file it uses (cycles collapsed)."""
    memo = {}

    def floor(v, seen):
        if v in memo:
            return memo[v]
        if v in seen:
            return 0
        seen.add(v)
        f = 0
        for w in edges.get(v, ()):
            f = max(f, floor(w, seen) + 1)
        seen.discard(v)
        memo[v] = f
        return f

    return {v: floor(v, set()) for v in nodes}


def check(objs, src):
    """Returns (files, edges, layers, problems) for the given objects."""
    files = {}  # "layer/file.c" -> object
    for o in objs:
        m = OBJ_RE.search(o.replace(os.sep, "/"))
        if m:
            files[m.group(1) + "/" + m.group(2)] = o

    defined_by, uses = {}, {}
    for f, o in files.items():
        d, u = nm_symbols(o)
        uses[f] = u
        for s in d:
            defined_by.setdefault(s, f)

    problems = {}  # layer -> [messages]

    def problem(layer, msg):
        problems.setdefault(layer, []).append(msg)

    layers = sorted({f.split("/")[0] for f in files}, key=lambda l: (rank(l) is None, rank(l) or 0, l))
    for layer in layers:
        if rank(layer) is None:
            problem(layer, f"layer {layer} is not in LAYERS (scripts/check_layers.py): give it a place")

    # Uses between files and layers.
    edges = {}  # file -> {file of the same layer}
    why = {}    # (file, file) -> symbols
    for f in sorted(files):
        layer = f.split("/")[0]
        for s in sorted(uses[f]):
            g = defined_by.get(s)
            if not g or g == f:
                continue
            other = g.split("/")[0]
            if other == layer:
                edges.setdefault(f, set()).add(g)
                why.setdefault((f, g), []).append(s)
            elif rank(layer) is not None and rank(other) is not None and rank(other) > rank(layer):
                problem(layer, f"{f} uses {s} of {g}: layer {layer} is below {other}")

    # Includes between layers.
    for path in sorted(glob.glob(os.path.join(src, "*", "*.[ch]"))):
        rel = os.path.relpath(path, src).replace(os.sep, "/")
        layer = rel.split("/")[0]
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for inc in INCLUDE_RE.findall(text):
            parts = inc.split("/")
            if len(parts) != 2:
                continue
            if parts[0] == "pft":
                name = parts[1][:-2] if parts[1].endswith(".h") else parts[1]
                if parts[1] in UMBRELLA_HEADERS:
                    problem(layer, f"{rel} includes pft/{parts[1]}, the umbrella header of every layer")
                    continue
                other = name
            else:
                other = parts[0]
            if other == layer or rank(other) is None or rank(layer) is None:
                continue
            if rank(other) > rank(layer):
                problem(layer, f"{rel} includes {inc}: layer {layer} is below {other}")

    # Cycles inside each layer.
    for layer in layers:
        nodes = [f for f in files if f.split("/")[0] == layer]
        for comp in sccs(nodes, edges):
            if len(comp) < 2:
                continue
            inside = []
            for a in comp:
                for b in comp:
                    if b in edges.get(a, ()):
                        inside.append(f"{a} -> {b} ({', '.join(why[(a, b)][:4])})")
            problem(layer, "files use each other: " + "; ".join(inside))

    return files, edges, layers, problems


SELF_TEST = {
    # a cycle inside a clean layer, and a clean layer using a higher one
    "packet/a.c": "int b(void); int a(void) { return b(); }",
    "packet/b.c": "int a(void); int b(void) { return a() + 1; }",
    "common/c.c": "int f(void); int c(void) { return f(); }",
    "flow/f.c": "int f(void) { return 0; }",
    "flow/g.c": '#include "ptm/x.h"\nint g(void) { return 0; }',
}


def self_test():
    """The check must fail on a cycle and on a use of a higher layer."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        objs = []
        for rel, text in SELF_TEST.items():
            path = os.path.join(tmp, "src", rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as fh:
                fh.write(text + "\n")
            if "#include" in text:
                continue
            subprocess.run([os.environ.get("CC", "cc"), "-c", path, "-o", path + ".o"], check=True)
            objs.append(path + ".o")
        _, _, _, problems = check(objs, os.path.join(tmp, "src"))
    want = {"packet": "files use each other", "common": "uses f of flow/f.c",
            "flow": "includes ptm/x.h"}
    ok = True
    for layer, text in want.items():
        if not any(text in m for m in problems.get(layer, [])):
            print(f"check_layers self-test: missed in {layer}: {text}; got {problems}")
            ok = False
    print("check_layers self-test: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", default=os.path.join(os.path.dirname(__file__), "..", "src"),
                    help="the library's src/ folder")
    ap.add_argument("--objects", help="object files of the library, separated by '|'")
    ap.add_argument("--build", help="a build folder to search for the object files")
    ap.add_argument("--floors", action="store_true", help="print every layer's floors")
    ap.add_argument("--self-test", action="store_true",
                    help="check that a cycle and an upward use are caught, on tiny files")
    args = ap.parse_args()
    if args.self_test:
        return self_test()

    if args.objects:
        objs = [o for o in args.objects.split("|") if o]
    else:
        objs = find_objects(args.build or "build", args.src)
    files, edges, layers, problems = check(objs, args.src)
    if not files:
        print("check_layers: no library object files found (build first, or give --objects)",
              file=sys.stderr)
        return 2
    failed = False
    for layer in layers:
        msgs = problems.get(layer, [])
        state = "clean" if layer in CLEAN else "reported only"
        if args.floors or msgs:
            nodes = [f for f in files if f.split("/")[0] == layer]
            fl = floors(nodes, edges)
            by = {}
            for f, n in fl.items():
                by.setdefault(n, []).append(f.split("/")[1])
            print(f"{layer} ({state}): " +
                  " | ".join(" ".join(sorted(by[n])) for n in sorted(by)))
        for m in msgs:
            print(f"  {'FAIL' if layer in CLEAN else 'note'}: {m}")
        if msgs and layer in CLEAN:
            failed = True
    if failed:
        print("check_layers: dependencies run both ways in a clean layer (see FAIL above)")
        return 1
    print(f"check_layers: {len(files)} files, layers {', '.join(sorted(CLEAN & set(layers)))} clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
