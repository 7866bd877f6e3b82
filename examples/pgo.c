/* SPDX-License-Identifier: BSD-3-Clause */
/* Example for coverage and profile-guided optimisation (tests/scripts/
 * coverage_autofdo.sh, README): a hot loop with a rarely taken branch, a
 * table of handlers, and a function that never runs.  Bare metal, built
 * with clang or arm-none-eabi-gcc like the other examples. */
#include "examples.h"

static volatile unsigned seed = 12345;
static unsigned hist[8];

/* noinline: each shows as a function of its own in the profile */
__attribute__((noinline)) static unsigned next_rand(unsigned x)
{
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

__attribute__((noinline)) static unsigned score(unsigned v)
{
	if ((v & 0xFF) == 0) /* rare: 1 in 256 */
		return v >> 3;
	if (v & 1)
		return v * 3;
	return v + 7;
}

__attribute__((noinline)) static unsigned never_called(unsigned v)
{
	return v * v + 1;
}

int main(void)
{
	unsigned x = seed, acc = 0, i;

	for (i = 0; i < 2000; i++) {
		x = next_rand(x);
		acc += score(x);
		hist[x & 7]++;
	}
	if (acc == 0x12345678)
		acc = never_called(acc);
	return (int)(acc & 0x7F) + (int)hist[3];
}
