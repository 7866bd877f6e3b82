#!/bin/sh
# pft coverage against gcov: armhf Linux programs (loops, switch, function
# pointers, recursion), each built in ARM and in Thumb with --coverage -O0,
# run under qemu-arm with its executed-instruction log (the program writes
# its .gcda as it exits), recorded with pft record --qemu-log and measured
# with pft coverage; coverage_gcov.py compares every line with gcov's.
set -eu
: "${PFT_BIN:?}" "${PFT_SOURCE:?}"
CC=arm-linux-gnueabihf-gcc GCOV=arm-linux-gnueabihf-gcov
for t in $CC $GCOV qemu-arm python3; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: needs $t"; exit 77; }
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/loops.c" <<'C'
#include <stdio.h>
static int table[64];
static int collatz(unsigned n)
{
	int steps = 0;
	while (n != 1) {
		if (n & 1)
			n = 3 * n + 1;
		else
			n /= 2;
		steps++;
	}
	return steps;
}
int main(void)
{
	int i, sum = 0;
	for (i = 1; i < 64; i++)
		table[i] = collatz((unsigned)i);
	for (i = 0; i < 64; i++) {
		if (table[i] > 100)
			sum += table[i];
		else if (table[i] == 0)
			continue;
		else
			sum -= 1;
	}
	do
		sum >>= 1;
	while (sum > 1000);
	printf("%d\n", sum);
	return 0;
}
C
cat > "$T/switch.c" <<'C'
#include <stdio.h>
static int classify(int c)
{
	switch (c % 9) {
	case 0:
		return 10;
	case 1:
	case 2:
		return c * 2;
	case 3:
		return c - 7;
	case 5:
		return -c;
	case 6:
		if (c > 40)
			return 1;
		return 2;
	case 7:
		return c ^ 0x55;
	default:
		return 0;
	}
}
int main(void)
{
	int i, acc = 0;
	for (i = 0; i < 100; i++)
		acc += classify(i);
	printf("%d\n", acc);
	return 0;
}
C
cat > "$T/funcptr.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b)
{
	return a * b;
}
static int never(int a, int b)
{
	return a / (b + 1);
}
static int cmp(const void *x, const void *y)
{
	const int *a = x, *b = y;
	return *a < *b ? -1 : *a > *b;
}
int main(void)
{
	int (*ops[3])(int, int) = { add, sub, mul };
	int v[32], i, acc = 1;
	for (i = 0; i < 32; i++)
		v[i] = (i * 37) % 32;
	qsort(v, 32, sizeof v[0], cmp);
	for (i = 0; i < 30; i++)
		acc = ops[i % 3](acc, v[i]) & 0xffff;
	if (acc < 0)
		acc = never(acc, 2);
	printf("%d\n", acc);
	return 0;
}
C
cat > "$T/recursion.c" <<'C'
#include <stdio.h>
static int fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}
static int ackermann(int m, int n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ackermann(m - 1, 1);
	return ackermann(m - 1, ackermann(m, n - 1));
}
static void hanoi(int n, int *moves)
{
	if (n == 0)
		return;
	hanoi(n - 1, moves);
	(*moves)++;
	hanoi(n - 1, moves);
}
int main(void)
{
	int moves = 0;
	hanoi(6, &moves);
	printf("%d %d %d\n", fib(12), ackermann(2, 3), moves);
	return 0;
}
C
fail=0
for p in loops switch funcptr recursion; do
	for isa in arm thumb; do
		d="$T/$p-$isa"
		mkdir -p "$d"
		cp "$T/$p.c" "$d/"
		(cd "$d" && $CC -static --coverage -O0 -g -m$isa "$p.c" -o "$p" &&
		 qemu-arm -singlestep -d exec,nochain -D q.log "./$p" > out &&
		 $GCOV -a -t "$p.c" > gcov.txt 2>/dev/null) || { echo "FAIL: cannot build or run $p ($isa)"; fail=1; continue; }
		"$PFT_BIN" record --qemu-log "$d/q.log" --elf "$d/$p" -o "$d/snap" -q
		"$PFT_BIN" coverage "$d/snap" --elf "$d/$p" -o "$d/pft.info" -q
		printf '%-6s ' "$isa"
		python3 "$PFT_SOURCE/tests/scripts/coverage_gcov.py" "$d/gcov.txt" "$d/pft.info" "$p.c" || fail=1
		if command -v genhtml >/dev/null 2>&1; then
			genhtml --branch-coverage --function-coverage -q "$d/pft.info" -o "$d/html" > "$d/gh" 2>&1 ||
				echo "error: exit status $?" >> "$d/gh"
			if grep -qi "warn\|error" "$d/gh"; then echo "FAIL genhtml $p ($isa):"; cat "$d/gh"; fail=1; fi
		fi
	done
done
# dynamically linked: the program (position independent, at qemu's base),
# ld.so and libc each with its load offset (several images at once)
ROOT=/usr/arm-linux-gnueabihf
if [ -e "$ROOT/lib/libc.so.6" ]; then
	d="$T/dyn"
	mkdir -p "$d"
	cp "$T/funcptr.c" "$d/"
	(cd "$d" && $CC --coverage -O0 -g -fPIE -pie funcptr.c -o funcptr &&
	 qemu-arm -L "$ROOT" -singlestep -d exec,nochain,page -strace -D q.log ./funcptr > out 2>&1 &&
	 $GCOV -a -t funcptr.c > gcov.txt 2>/dev/null) || { echo "FAIL: dynamic funcptr"; fail=1; }
	args=$(sh "$PFT_SOURCE/scripts/qemu_elf_args.sh" "$d/q.log" "$d/funcptr" "$ROOT")
	# shellcheck disable=SC2086
	"$PFT_BIN" record --qemu-log "$d/q.log" $args -o "$d/snap" -q
	# shellcheck disable=SC2086
	"$PFT_BIN" coverage "$d/snap" $args -o "$d/pft.info" -q
	printf 'pie    '
	python3 "$PFT_SOURCE/tests/scripts/coverage_gcov.py" "$d/gcov.txt" "$d/pft.info" funcptr.c || fail=1
fi
exit $fail
