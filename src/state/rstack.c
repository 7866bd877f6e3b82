/* SPDX-License-Identifier: BSD-3-Clause */
/* Return stack (see rstack.h). */
#include "state/rstack.h"

void pft_rstack_init(struct pft_rstack *rs, unsigned depth)
{
	rs->depth = depth > PFT_RSTACK_MAX ? PFT_RSTACK_MAX : depth;
	pft_rstack_clear(rs);
}

void pft_rstack_clear(struct pft_rstack *rs)
{
	rs->top = 0;
	rs->n = 0;
}

void pft_rstack_push(struct pft_rstack *rs, uint64_t addr, uint8_t isa, uint8_t ns)
{
	unsigned depth = rs->depth ? rs->depth : PFT_RSTACK_MAX;
	struct pft_rstack_entry *e = &rs->e[rs->top];

	e->addr = addr;
	e->isa = isa;
	e->ns = ns;
	rs->top = (rs->top + 1) % PFT_RSTACK_MAX;
	if (rs->n < depth)
		rs->n++;
	/* when full the oldest entry is dropped: n stays at depth */
}

const struct pft_rstack_entry *pft_rstack_top(const struct pft_rstack *rs)
{
	if (rs->n == 0)
		return 0;
	return &rs->e[(rs->top + PFT_RSTACK_MAX - 1) % PFT_RSTACK_MAX];
}

int pft_rstack_pop(struct pft_rstack *rs, struct pft_rstack_entry *out)
{
	if (rs->n == 0)
		return -1;
	rs->top = (rs->top + PFT_RSTACK_MAX - 1) % PFT_RSTACK_MAX;
	rs->n--;
	if (out)
		*out = rs->e[rs->top];
	return 0;
}
