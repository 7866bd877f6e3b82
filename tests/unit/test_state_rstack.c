/* SPDX-License-Identifier: BSD-3-Clause */
/* The return stack of the PTM model and the decoder: LIFO order, a full
 * stack drops its oldest entry (spec 4.13) at its depth, clear, top, and
 * entries keep ISA and security state. */
#include "check.h"
#include "state/rstack.h"

int main(void)
{
	struct pft_rstack rs;
	struct pft_rstack_entry e;
	unsigned i;

	pft_rstack_init(&rs, 0);
	CHECK_EQ(pft_rstack_pop(&rs, &e), -1);
	CHECK(pft_rstack_top(&rs) == NULL);
	pft_rstack_push(&rs, 0x1004, 0, 0);
	pft_rstack_push(&rs, 0x2002, 1, 1);
	CHECK(pft_rstack_top(&rs) != NULL && pft_rstack_top(&rs)->addr == 0x2002);
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
	for (i = 0; i < PFT_RSTACK_MAX; i++) {
		CHECK_EQ(pft_rstack_pop(&rs, &e), 0);
		CHECK_EQ(e.addr, 0x1000 + 4 * (19 - i));
	}
	CHECK_EQ(pft_rstack_pop(&rs, &e), -1);

	/* a PTM with depth 3: the fourth push drops the first; a zeroed
	 * stack (the decoder's, inside a calloc'd object) keeps the maximum */
	pft_rstack_init(&rs, 3);
	for (i = 0; i < 4; i++)
		pft_rstack_push(&rs, 0x100 + i, 0, 0);
	for (i = 0; i < 3; i++) {
		CHECK_EQ(pft_rstack_pop(&rs, &e), 0);
		CHECK_EQ(e.addr, 0x103 - i);
	}
	CHECK_EQ(pft_rstack_pop(&rs, NULL), -1);
	{
		struct pft_rstack z = { .depth = 0 };
		for (i = 0; i < 17; i++)
			pft_rstack_push(&z, i, 0, 0);
		CHECK_EQ(z.n, PFT_RSTACK_MAX);
	}

	/* clear keeps the depth */
	pft_rstack_init(&rs, 1);
	pft_rstack_push(&rs, 0x20, 0, 0);
	pft_rstack_clear(&rs);
	pft_rstack_push(&rs, 0x30, 0, 0);
	pft_rstack_push(&rs, 0x40, 0, 0);
	CHECK_EQ(rs.n, 1);

	/* clear */
	pft_rstack_push(&rs, 0x10, 0, 0);
	pft_rstack_clear(&rs);
	CHECK_EQ(pft_rstack_pop(&rs, &e), -1);
	return check_report();
}
