/* SPDX-License-Identifier: BSD-3-Clause */
/* The decoder's return stack: LIFO order, a full stack drops its oldest
 * entry (spec 4.13), clear, and entries keep ISA and security state. */
#include "check.h"
#include "flow/rstack.h"

int main(void)
{
	struct pft_rstack rs;
	struct pft_rstack_entry e;
	unsigned i;

	pft_rstack_clear(&rs);
	CHECK_EQ(pft_rstack_pop(&rs, &e), -1);
	pft_rstack_push(&rs, 0x1004, 0, 0);
	pft_rstack_push(&rs, 0x2002, 1, 1);
	CHECK_EQ(pft_rstack_pop(&rs, &e), 0);
	CHECK_EQ(e.addr, 0x2002);
	CHECK_EQ(e.isa, 1);
	CHECK_EQ(e.ns, 1);
	CHECK_EQ(pft_rstack_pop(&rs, &e), 0);
	CHECK_EQ(e.addr, 0x1004);
	CHECK_EQ(e.isa, 0);
	CHECK_EQ(pft_rstack_pop(&rs, &e), -1);

	/* 20 pushes onto a 16-entry stack: the 4 oldest are gone */
	for (i = 0; i < 20; i++)
		pft_rstack_push(&rs, 0x1000 + 4 * i, 0, 0);
	for (i = 0; i < PFT_RSTACK_DEPTH; i++) {
		CHECK_EQ(pft_rstack_pop(&rs, &e), 0);
		CHECK_EQ(e.addr, 0x1000 + 4 * (19 - i));
	}
	CHECK_EQ(pft_rstack_pop(&rs, &e), -1);

	/* clear */
	pft_rstack_push(&rs, 0x10, 0, 0);
	pft_rstack_clear(&rs);
	CHECK_EQ(pft_rstack_pop(&rs, &e), -1);
	return check_report();
}
