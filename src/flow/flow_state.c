/* SPDX-License-Identifier: BSD-3-Clause */
/* The flow decoder's lowest floor: the CurrentState/LastState update of a
 * branch target (spec B.3.1), shared by the walk (flow_walk.c, a branch
 * packet's implied E atom) and the packet handlers (flow.c, exceptions). */
#include "flow/flow_int.h"

void pft_flow_take_branch_target(struct pft_flow_decoder *d, int report)
{
	const struct pft_packet *p = &d->cur;
	uint8_t ns = d->cs.ns, hyp = d->cs.hyp;

	d->cs.addr = p->address;
	d->cs.isa = p->isa;
	d->cs.addr_valid = 1;
	if (p->flags & PFT_PKT_F_E0)
		d->cs.ns = (p->flags & PFT_PKT_F_NS) ? 1 : 0;
	if (p->flags & PFT_PKT_F_E1)
		d->cs.hyp = (p->flags & PFT_PKT_F_HYP) ? 1 : 0;
	d->ls.addr = d->cs.addr;
	d->ls.isa = d->cs.isa;
	d->ls.ns = d->cs.ns;
	d->ls.hyp = d->cs.hyp;
	if (report && (ns != d->cs.ns || hyp != d->cs.hyp))
		pft_flow_emit(d, PFT_FLOW_EVENT, PFT_EV_SECURITY);
	if (report && p->isa == PFT_ISA_JAZELLE) {
		struct pft_flow_item *it = pft_flow_emit(d, PFT_FLOW_EVENT, PFT_EV_JAZELLE);

		it->flags |= PFT_FLOW_F_ADDR;
		it->addr = p->address;
		it->isa = PFT_ISA_JAZELLE;
	}
}
