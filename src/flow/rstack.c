/* SPDX-License-Identifier: BSD-3-Clause */
/* Return stack (see rstack.h). */
#include "flow/rstack.h"

void pft_rstack_clear(struct pft_rstack *rs)
{
	rs->top = 0;
	rs->n = 0;
}

void pft_rstack_push(struct pft_rstack *rs, uint64_t addr, uint8_t isa, uint8_t ns)
{
	struct pft_rstack_entry *e = &rs->e[rs->top];

	e->addr = addr;
	e->isa = isa;
	e->ns = ns;
	rs->top = (rs->top + 1) % PFT_RSTACK_DEPTH;
	if (rs->n < PFT_RSTACK_DEPTH)
		rs->n++;
}

int pft_rstack_pop(struct pft_rstack *rs, struct pft_rstack_entry *out)
{
	if (rs->n == 0)
		return -1;
	rs->top = (rs->top + PFT_RSTACK_DEPTH - 1) % PFT_RSTACK_DEPTH;
	rs->n--;
	*out = rs->e[rs->top];
	return 0;
}
