/* SPDX-License-Identifier: BSD-3-Clause */
/* Example: recursion (ARM state).  Deep call chains give the return stack
 * (ETMCR[29]) matched BL/BX LR pairs and the return stack overflow. */
#include "examples.h"

static volatile unsigned sink;

static unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static unsigned ackermann(unsigned m, unsigned n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ackermann(m - 1, 1);
	return ackermann(m - 1, ackermann(m, n - 1));
}

static void hanoi(unsigned n, unsigned from, unsigned to, unsigned via)
{
	if (n == 0)
		return;
	hanoi(n - 1, from, via, to);
	sink += from * 4 + to;
	hanoi(n - 1, via, to, from);
}

int main(void)
{
	sink = fib(example_arg(11));
	sink += ackermann(2, example_arg(2));
	hanoi(example_arg(5), 1, 3, 2);
	return (int)sink;
}
