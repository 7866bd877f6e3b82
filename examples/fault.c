/* SPDX-License-Identifier: BSD-3-Clause */
/* Example: a program that ends in a fault (Thumb-2).  main calls through
 * two functions into a load from an unmapped address; the data abort
 * handler stops the run there (BKPT), as a crash leaves an ETB: pft tail
 * shows how it got there. */
#include "examples.h"

static volatile unsigned seen;

void abort_handler(unsigned addr)
{
	seen = addr;
	/* ISB: a waypoint, so that the trace holds every instruction up to the
	   breakpoint that ends the run */
	__asm__ volatile("isb\n\tbkpt #1");
}

__attribute__((noinline)) static unsigned leaf(const volatile unsigned *p)
{
	return *p + 1;
}

__attribute__((noinline)) static unsigned middle(const volatile unsigned *p)
{
	return leaf(p) * 3;
}

int main(void)
{
	static volatile unsigned good = 5;
	unsigned i, s = 0;

	for (i = 0; i < example_arg(4); i++)
		s += middle(&good);
	s += middle((const volatile unsigned *)example_arg(0x80000000u));
	return (int)s;
}
