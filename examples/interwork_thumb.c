/* SPDX-License-Identifier: BSD-3-Clause */
/* Example: ARM/Thumb interworking, the Thumb half (main). */
#include "examples.h"
#include "interwork.h"

__attribute__((noinline)) unsigned thumb_square(unsigned x)
{
	return x * x;
}

int main(void)
{
	unsigned i, r = example_arg(3);
	unsigned (*volatile fp)(unsigned) = arm_mix;

	for (i = 0; i < example_arg(10); i++) {
		r += arm_mix(r + i);
		r ^= arm_calls_thumb(r & 0xff);
		r += arm_via_pointer(thumb_square, i);
		r += fp(i);
	}
	return (int)r;
}
