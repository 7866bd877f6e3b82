/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM return stack (spec 4.13, Table 4-13): branch-with-link
 * return addresses; an indirect branch whose target matches the top entry
 * (address, instruction set and security state) is traced as an E atom. */
#include "ptm/ptm_internal.h"

void ptm_rs_clear(struct pft_ptm *p)
{
	p->rs_n = 0;
	p->rs_top = 0;
}

int ptm_rs_match_pop(struct pft_ptm *p, uint64_t addr, uint8_t isa, uint8_t ns)
{
	if (!p->rs_n)
		return 0;
	const struct ptm_rs_entry *e = &p->rs[p->rs_top];
	if (e->addr != addr || e->isa != isa || e->ns != ns)
		return 0;
	p->rs_n--;
	p->rs_top = (uint8_t)((p->rs_top + PTM_RSTACK_MAX - 1) % PTM_RSTACK_MAX);
	return 1;
}

void ptm_rs_push(struct pft_ptm *p, uint64_t addr, uint8_t isa, uint8_t ns)
{
	unsigned depth = p->par.return_stack_depth;
	if (!depth)
		return;
	/* An entry whose security state differs from the last one traced is
	 * not pushed, and the stack is cleared (4.13). */
	if (ns != p->out_ns) {
		ptm_rs_clear(p);
		return;
	}
	p->rs_top = (uint8_t)((p->rs_top + 1) % PTM_RSTACK_MAX);
	p->rs[p->rs_top].addr = addr;
	p->rs[p->rs_top].isa = isa;
	p->rs[p->rs_top].ns = ns;
	if (p->rs_n < depth)
		p->rs_n++;
	/* when full the oldest entry is dropped: rs_n stays at depth */
}
