/* SPDX-License-Identifier: BSD-3-Clause */
/* Example: setjmp/longjmp (Thumb-2 calling A32).  A recursion several calls
 * deep leaves through longjmp straight back into the function that called
 * setjmp: the frames in between never return.  The jump buffer functions
 * are small A32 routines of our own (the examples have no C library). */
#include "examples.h"

typedef unsigned ex_jmp_buf[10];
int ex_setjmp(ex_jmp_buf b);
void ex_longjmp(ex_jmp_buf b, int v); /* does not return */

__asm__("	.text\n"
	"	.arm\n"
	"	.global ex_setjmp\n"
	"	.type ex_setjmp, %function\n"
	"ex_setjmp:\n"
	"	mov	ip, sp\n"
	"	stmia	r0, {r4-r11, ip, lr}\n"
	"	mov	r0, #0\n"
	"	bx	lr\n"
	"	.size ex_setjmp, .-ex_setjmp\n"
	"	.global ex_longjmp\n"
	"	.type ex_longjmp, %function\n"
	"ex_longjmp:\n"
	"	ldmia	r0, {r4-r11, ip, lr}\n"
	"	mov	sp, ip\n"
	"	movs	r0, r1\n"
	"	moveq	r0, #1\n"
	"	bx	lr\n"
	"	.size ex_longjmp, .-ex_longjmp\n"
	"	.thumb\n");

static ex_jmp_buf env;
static volatile unsigned sink;

__attribute__((noinline)) static void deep(unsigned n)
{
	if (n == 0) {
		ex_longjmp(env, 7);
		return;
	}
	sink += n;
	deep(n - 1);
	sink ^= n;
}

__attribute__((noinline)) static unsigned work(unsigned n)
{
	volatile unsigned keep = n;
	int r = ex_setjmp(env);

	if (r)
		return (unsigned)r + keep;
	deep(n);
	return 0;
}

int main(void)
{
	unsigned i, s = 0;

	for (i = 0; i < example_arg(5); i++)
		s += work(example_arg(3 + i));
	return (int)(s + sink);
}
