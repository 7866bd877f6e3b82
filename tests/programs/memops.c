/* SPDX-License-Identifier: BSD-3-Clause */
/* Loads and stores of every size for the ETMv3 data trace test
 * (tests/scripts/record_etm3_data.py): byte, halfword (signed and
 * unsigned), word and doubleword transfers, LDM/STM in both directions,
 * PUSH/POP (with and without the PC), a load to the PC, SWP (ARM), values that need
 * 0, 1, 2 and 4 bytes, and addresses near and far apart (the stack and
 * .data).  Built bare-metal for ARM and for Thumb-2 with the examples'
 * start.S and link.ld; main returns a checksum. */
#include "examples.h"

#define N 24

static volatile unsigned char bytes[N];
static volatile unsigned short halves[N];
static volatile unsigned words[N];
static unsigned long long dwords[N / 2];
static unsigned block[16];

static unsigned value_of(unsigned i)
{
	/* 0, one byte, two bytes, four bytes, in turn */
	static const unsigned v[4] = { 0, 0x5a, 0xbeef, 0xdeadbeef };

	return v[i & 3] ^ (i << ((i & 3) * 8));
}

__attribute__((noinline)) static unsigned narrow(unsigned seed)
{
	unsigned i, sum = 0;

	for (i = 0; i < N; i++) {
		bytes[i] = (unsigned char)value_of(seed + i);
		halves[i] = (unsigned short)value_of(seed + 3 * i);
		words[i] = value_of(seed + 5 * i);
	}
	for (i = 0; i < N; i++) {
		sum += (unsigned)(signed char)bytes[i];            /* LDRSB */
		sum += bytes[i];                                   /* LDRB */
		sum += (unsigned)(short)halves[N - 1 - i];         /* LDRSH */
		sum += halves[i];                                  /* LDRH */
		sum ^= words[(i * 7) % N];                         /* LDR */
	}
	return sum;
}

__attribute__((noinline)) static unsigned doubles(unsigned seed)
{
	unsigned i, sum = 0;
	unsigned long long v;

	for (i = 0; i < N / 2; i++) {
		v = (unsigned long long)value_of(seed + 2 * i + 1) << 32 | value_of(seed + i);
		__asm__ volatile("strd %Q0, %R0, [%1]" : : "r"(v), "r"(&dwords[i]) : "memory");
	}
	for (i = 0; i < N / 2; i++) {
		__asm__ volatile("ldrd %Q0, %R0, [%1]" : "=r"(v) : "r"(&dwords[N / 2 - 1 - i])
		                 : "memory");
		sum += (unsigned)v ^ (unsigned)(v >> 32);
	}
	return sum;
}

__attribute__((noinline)) static unsigned multiple(unsigned seed)
{
	unsigned sum, *p = block;

	block[0] = value_of(seed);
	block[1] = value_of(seed + 1);
	/* LDMIA / STMIA, then STMDB with writeback and LDMDB (fixed registers,
	 * ascending lists) */
	__asm__ volatile("ldmia %1, {r4, r5}\n\t"
	                 "add r6, r4, r5\n\t"
	                 "eor r7, r4, r5\n\t"
	                 "stmia %1, {r4, r5, r6, r7}\n\t"
	                 "add %1, %1, #48\n\t"
	                 "stmdb %1!, {r4, r5, r6, r7}\n\t"
	                 "ldmdb %1, {r4, r5, r6}\n\t"
	                 "add %0, r4, r6"
	                 : "=r"(sum), "+r"(p) : : "r4", "r5", "r6", "r7", "memory");
	return sum + block[3] + (unsigned)(p - block);
}

/* SWP (ARM state only): a load and a store at one address, so the second
 * transfer does not follow on from the first and carries its address. */
__attribute__((noinline)) static unsigned swap(unsigned v)
{
#ifndef __thumb__
	unsigned old;

	__asm__ volatile("swp %0, %1, [%2]" : "=&r"(old) : "r"(v), "r"(&block[5]) : "memory");
	return old;
#else
	unsigned old = block[5];

	block[5] = v;
	return old;
#endif
}

/* Many callee-saved registers: PUSH/POP of long lists, POP {..., pc}. */
__attribute__((noinline)) static unsigned deep(unsigned n, unsigned x)
{
	unsigned r1 = x * 3, r2 = x ^ 0x55, r3 = x + 0x1000, r4 = x << 3, r5 = x >> 1, r6 = ~x;

	if (n == 0)
		return x;
	x = deep(n - 1, example_arg(x + r1));
	return x + r1 + r2 + r3 + r4 + r5 + r6;
}

/* A load straight into the PC (LDR PC, [Rn]) through a table. */
typedef unsigned (*fn)(unsigned);
static unsigned inc(unsigned v) { return v + 1; }
static unsigned twice(unsigned v) { return v * 2; }
static fn table[2] = { inc, twice };

__attribute__((noinline)) static unsigned indirect(unsigned v)
{
	unsigned i;

	for (i = 0; i < 6; i++)
		v = table[example_arg(i) & 1](v);
	return v;
}

int main(void)
{
	unsigned seed = example_arg(1), sum = 0, round;

	for (round = 0; round < 3; round++) {
		sum += narrow(seed + round);
		sum ^= doubles(seed + round * 5);
		sum += multiple(seed + round * 11);
		sum += deep(6, seed + round);
		sum = indirect(sum);
		sum += swap(sum);
	}
	return (int)(sum & 0x7f);
}
