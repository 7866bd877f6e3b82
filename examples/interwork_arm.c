/* SPDX-License-Identifier: BSD-3-Clause */
/* Example: ARM/Thumb interworking, the ARM half.  main is Thumb (in
 * interwork_thumb.c); these ARM functions call back into Thumb code with BL
 * (BLX immediate after linking), BLX register and return with BX LR. */
#include "interwork.h"

unsigned arm_mix(unsigned x)
{
	return (x * 2654435761u) >> 3;
}

unsigned arm_calls_thumb(unsigned x)
{
	unsigned i, r = 0;

	for (i = 0; i < 4; i++)
		r += thumb_square(x + i);
	return r;
}

unsigned arm_via_pointer(unsigned (*fn)(unsigned), unsigned x)
{
	return fn(x) + fn(x + 1);
}
