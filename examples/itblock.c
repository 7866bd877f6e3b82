/* SPDX-License-Identifier: BSD-3-Clause */
/* Example: Thumb-2 IT blocks.  Conditional instructions whose condition
 * fails still execute (as no-ops) and a conditional branch that fails in an
 * IT block is a not-taken waypoint, so the trace carries an N atom for it. */
#include "examples.h"

/* min/max/abs/clamp: GCC turns these into IT blocks. */
__attribute__((noinline)) static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

__attribute__((noinline)) static int iabs(int v)
{
	return v < 0 ? -v : v;
}

/* ITTEE with a conditional branch last; both outcomes occur. */
__attribute__((noinline)) static unsigned it_branch(unsigned a, unsigned b)
{
	unsigned r = 0;

	__asm__ volatile(
		"cmp	%1, %2\n\t"
		"ittee	hi\n\t"
		"addhi	%0, %0, #1\n\t"
		"addhi	%0, %0, #2\n\t"
		"addls	%0, %0, #4\n\t"
		"bls.w	1f\n\t"
		"add	%0, %0, #8\n"
		"1:\n\t"
		"cmp	%0, #3\n\t"
		"itt	eq\n\t"
		"moveq	%0, #16\n\t"
		"bxeq	lr\n\t"
		: "+r"(r) : "r"(a), "r"(b) : "cc");
	return r;
}

/* A four-instruction IT block with mixed conditions and 16/32-bit code. */
__attribute__((noinline)) static unsigned it_mixed(unsigned a)
{
	unsigned r = a;

	__asm__ volatile(
		"tst	%0, #1\n\t"
		"itete	ne\n\t"
		"addne	%0, %0, #3\n\t"
		"addeq.w %0, %0, #0x500\n\t"
		"lslne	%0, %0, #1\n\t"
		"eoreq.w %0, %0, #0x0f0f0f0f\n\t"
		: "+r"(r) : : "cc");
	return r;
}

int main(void)
{
	unsigned i, s = 0;

	for (i = 0; i < example_arg(24); i++) {
		int v = (int)(i * 37u % 50u) - 25;
		s += (unsigned)clamp(v, -10, 10) + (unsigned)iabs(v);
		s += it_branch(i & 7, 3);
		s += it_mixed(i + s);
	}
	return (int)s;
}
