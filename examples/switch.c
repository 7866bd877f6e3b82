/* SPDX-License-Identifier: BSD-3-Clause */
/* Example: switch tables (Thumb-2).  A dense switch compiles to TBB; the
 * second one has case bodies too far apart for byte offsets and compiles to
 * TBH.  Both are indirect branches whose target the trace must carry. */
#include "examples.h"

static volatile unsigned acc;

__attribute__((noinline)) static unsigned small_switch(unsigned op, unsigned x)
{
	switch (op) {
	case 0: return x + 1;
	case 1: return x * 3;
	case 2: return x ^ 0x55;
	case 3: return x << 2;
	case 4: return x >> 1;
	case 5: return x - 7;
	case 6: return ~x;
	case 7: return x | 0x100;
	default: return x;
	}
}

#define BIG(n) case n: acc += (n) * 0x1234567u ^ (acc >> 3); acc *= (n) + 3; \
	acc ^= acc >> 7; acc += x; break;

__attribute__((noinline)) static void big_switch(unsigned op, unsigned x)
{
	switch (op) {
	BIG(0) BIG(1) BIG(2) BIG(3) BIG(4) BIG(5) BIG(6) BIG(7)
	BIG(8) BIG(9) BIG(10) BIG(11) BIG(12) BIG(13) BIG(14) BIG(15)
	BIG(16) BIG(17) BIG(18) BIG(19) BIG(20) BIG(21) BIG(22) BIG(23)
	default: acc = 0; break;
	}
}

int main(void)
{
	unsigned i, x = example_arg(1);

	for (i = 0; i < example_arg(40); i++) {
		x = small_switch((x + i) % 9, x);
		big_switch((x ^ i) % 25, i);
	}
	return (int)(x + acc);
}
