/* SPDX-License-Identifier: BSD-3-Clause */
/* Example: exceptions.  An interrupt handler (IRQs come from the recorder:
 * --irq-every / --irq-at / --irq-random), SVC calls from Thumb and ARM code,
 * an undefined instruction, a data abort and a prefetch abort (a call to
 * unmapped memory), each taken through the vector table in start.S and
 * returned from; and CONTEXTIDR changes (context ID packets). */
#include "examples.h"

static volatile unsigned irq_count, svc_sum, undef_count, abort_count;
static volatile unsigned work[16];

void irq_handler(void)
{
	irq_count++;
	work[irq_count & 15] += irq_count;
}

unsigned svc_handler(unsigned arg, unsigned number)
{
	svc_sum += arg * number;
	return arg + number;
}

void undef_handler(unsigned addr)
{
	undef_count += addr & 0xff;
}

void abort_handler(unsigned addr)
{
	abort_count += addr & 0xff;
}

__attribute__((target("arm"), noinline)) static unsigned arm_side(unsigned x)
{
	register unsigned r0 __asm__("r0") = x;

	__asm__ volatile("svc #0x12\n\t"
			 ".inst 0xe7f000f0\n\t" /* permanently undefined (UDF #0) */
			 : "+r"(r0) : : "memory");
	return r0;
}

int main(void)
{
	unsigned i, x = example_arg(1);

	for (i = 0; i < example_arg(300); i++) {
		x = x * 1103515245u + 12345u;
		work[i & 15] ^= x;
		if ((i & 63) == 5) {
			register unsigned r0 __asm__("r0") = i;
			__asm__ volatile("svc #7" : "+r"(r0) : : "memory");
			x += r0;
		}
		if ((i & 127) == 9)
			x += arm_side(i);
		if ((i & 127) == 77)
			x += *(volatile unsigned *)example_arg(0x80000000u); /* data abort */
		if ((i & 63) == 33) /* a new context ID (traced with --contextid-bytes) */
			__asm__ volatile("mcr p15, 0, %0, c13, c0, 1" : : "r"(i + 0x100u));
		if ((i & 127) == 101) /* prefetch abort; the handler returns r0 = i */
			x += ((unsigned (*)(unsigned))example_arg(0x90000000u))(i);
	}
	/* The result does not depend on where interrupts hit: a test compares
	 * it with and without them. */
	return (int)x;
}
