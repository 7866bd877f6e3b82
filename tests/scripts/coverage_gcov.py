#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compare pft's lcov tracefile with gcov's own counts of the same run.

    coverage_gcov.py GCOV_OUTPUT TRACEFILE SOURCE_NAME

GCOV_OUTPUT: `gcov -a -t SOURCE` (count:line:text, then "count:line-block
n" rows).  For every line both give code for: gcov says it ran iff pft says
it ran, and on lines of a single basic block the counts are equal.  gcov
puts a function's entry on its declaration line, pft on the line of the
prologue (as DWARF does): a declaration line is checked against pft's FNDA
of the function declared there; lines that hold only a brace have code for
pft (prologue, epilogue) but not for gcov, and `case N:` / `default:` labels
have a block for gcov but no instruction in the line table: both are
skipped (and counted).  Prints the
agreement figures; exit 1 on any difference."""
import re
import sys


def main():
    gcov_out, info, src = sys.argv[1:4]
    gc, blocks, text = {}, {}, {}
    with open(gcov_out) as f:
        for line in f:
            m = re.match(r"^\s*([^:]+):\s*(\d+)-block\s+\d+", line)
            if m:
                n = int(m.group(2))
                blocks[n] = blocks.get(n, 0) + 1
                continue
            m = re.match(r"^\s*([^:]+):\s*(\d+):(.*)$", line)
            if not m or int(m.group(2)) == 0:
                continue
            c, n = m.group(1).strip().rstrip("*"), int(m.group(2))
            text[n] = m.group(3)
            if c == "-":
                continue
            gc[n] = 0 if c in ("#####", "=====") else int(c)
    da, fn, fnda, cur = {}, {}, {}, None
    with open(info) as f:
        for line in f:
            line = line.strip()
            if line.startswith("SF:"):
                cur = line[3:].rsplit("/", 1)[-1] == src
            elif cur and line.startswith("DA:"):
                n, c = line[3:].split(",")[:2]
                da[int(n)] = int(c)
            elif cur and line.startswith("FN:"):
                n, name = line[3:].split(",", 1)
                fn[int(n)] = name
            elif cur and line.startswith("FNDA:"):
                c, name = line[5:].split(",", 1)
                fnda[name] = int(c)
    bad = both = counted = skipped = 0

    def report(msg):
        nonlocal bad
        bad += 1
        if bad <= 10:
            print(f"  {src}:{msg}")
    for n in sorted(set(gc) | set(da)):
        if n in fn:  # declaration line: gcov's function entry
            if (gc.get(n, 0) > 0) != (fnda.get(fn[n], 0) > 0):
                report(f"{n}: function {fn[n]}: gcov {gc.get(n)}, pft FNDA {fnda.get(fn[n])}")
            continue
        if n not in gc:
            if text.get(n, "").strip() in ("{", "}"):
                skipped += 1
                continue
            report(f"{n}: pft has code ({da[n]}), gcov none: {text.get(n, '').strip()}")
            continue
        if n not in da:
            if re.match(r"^\s*(case\b.*|default\s*):\s*$", text.get(n, "")):
                skipped += 1
                continue
            report(f"{n}: gcov has code ({gc[n]}), pft none: {text.get(n, '').strip()}")
            continue
        both += 1
        if (gc[n] > 0) != (da[n] > 0):
            report(f"{n}: ran: gcov {gc[n]}, pft {da[n]}")
        elif blocks.get(n, 0) <= 1:
            counted += 1
            if gc[n] != da[n]:
                report(f"{n}: single block: gcov {gc[n]}, pft {da[n]}")
    if bad:
        print(f"FAIL {src}: {bad} differences")
        return 1
    print(f"ok   {src}: {both} lines ran/not ran alike, {counted} single-block line counts "
          f"equal, {len(fn)} functions ({skipped} brace or case-label lines skipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
