/* SPDX-License-Identifier: BSD-3-Clause */
/* Walking the program image (spec B.3.2 analyze_atomheader, branch_no_excp,
 * analyze_waypoint_update, decode_instr) one decoded block at a time: each
 * step emits one range of executed instructions (and the events that go
 * with it), so the caller pulls output without any buffering. */
#include <string.h>

#include "flow/flow_int.h"
#include "pft/isa.h"

void pft_flow_walk_start(struct pft_flow_decoder *d, enum walk_mode mode, int taken,
			 int has_cc, uint32_t cycles)
{
	d->walk.mode = (uint8_t)mode;
	d->walk.taken = (uint8_t)(taken != 0);
	d->walk.has_cc = (uint8_t)(has_cc != 0);
	d->walk.cycles = cycles;
	d->walk.bytes = 0;
	d->walk.wpu = d->cur.address;
}

/* An INCONSISTENT event for REASON: the trace's address ADDR (in the
 * instruction set it gives) against what the program image says comes
 * next (NEXT in NEXT_ISA). */
static void inconsistent(struct pft_flow_decoder *d, unsigned reason, uint64_t addr,
			 uint64_t next, unsigned next_isa)
{
	struct pft_flow_item *ev = pft_flow_emit(d, PFT_FLOW_EVENT, PFT_EV_INCONSISTENT);

	ev->reason = (uint8_t)reason;
	ev->flags |= PFT_FLOW_F_ADDR | PFT_FLOW_F_NEXT;
	ev->addr = addr;
	ev->isa = d->cur.isa;
	ev->next = next;
	ev->next_isa = (uint8_t)next_isa;
}

/* The atom a walk consumes, on an event.  The waypoint it traced lies where
 * the decoder cannot see, so a timestamp after it has no known address. */
static void atom_info(struct pft_flow_decoder *d, struct pft_flow_item *it)
{
	d->last_wp_valid = 0;
	if (d->walk.mode == WALK_WPU) {
		it->flags |= PFT_FLOW_F_WPU;
		return;
	}
	it->flags |= PFT_FLOW_F_ATOM;
	if (d->walk.taken)
		it->flags |= PFT_FLOW_F_TAKEN;
	if (d->walk.mode == WALK_BRANCH)
		it->flags |= PFT_FLOW_F_BRANCH;
	if (d->walk.has_cc) {
		it->flags |= PFT_FLOW_F_CC;
		it->cycles = d->walk.cycles;
	}
}

static void lost(struct pft_flow_decoder *d, enum pft_flow_lost why, int with_atom)
{
	struct pft_flow_item *it = pft_flow_emit(d, PFT_FLOW_EVENT, PFT_EV_LOST);

	it->reason = (uint8_t)why;
	if (d->cs.addr_valid) {
		it->flags |= PFT_FLOW_F_ADDR;
		it->addr = d->cs.addr;
		it->isa = d->cs.isa;
	}
	if (with_atom)
		atom_info(d, it);
	d->cs.addr_valid = 0;
}

/* The walk ends.  A branch packet's target replaces CurrentState whatever
 * happened on the way (the packet is explicit), so it is taken here. */
static void finish(struct pft_flow_decoder *d)
{
	if (d->walk.mode == WALK_BRANCH)
		pft_flow_take_branch_target(d, 1);
	d->walk.mode = WALK_NONE;
}

static struct pft_flow_item *range(struct pft_flow_decoder *d, const struct pft_block *b,
				   unsigned n, enum pft_range_end end)
{
	struct pft_flow_item *it = pft_flow_emit(d, PFT_FLOW_RANGE, PFT_EV_NONE);
	uint64_t last_addr, stop;

	/* the whole block: from the header alone (one cache line) */
	if (n == b->n) {
		stop = b->next;
		last_addr = b->next - b->last_size;
	} else {
		last_addr = b->insns[n - 1].addr;
		stop = last_addr + b->insns[n - 1].size;
	}
	it->addr = b->start;
	it->end = stop;
	it->insns = b->insns;
	it->ninsns = n;
	it->isa = b->isa;
	it->end_kind = (uint8_t)end;
	d->insn_index += n;
	d->st.insns += n;
	d->st.ranges++;
	if (end != PFT_RANGE_MORE) {
		d->last_wp_valid = 1;
		d->last_wp_addr = last_addr;
		d->last_wp_isa = b->isa;
	}
	return it;
}

/* The waypoint at the end of block b executed under the walk's atom. */
static void waypoint(struct pft_flow_decoder *d, const struct pft_block *b)
{
	const uint16_t wflags = b->last_flags;
	const uint8_t wclass = b->last_class;
	const uint64_t waddr = b->next - b->last_size;
	uint64_t ret = b->next;
	int rstack = d->feat.return_stack;
	struct pft_flow_item *it;
	enum pft_flow_lost why = PFT_LOST_NONE;
	struct pft_rstack_entry e;

	it = range(d, b, b->n, d->walk.taken ? PFT_RANGE_TAKEN : PFT_RANGE_NOT_TAKEN);
	if (d->walk.has_cc) {
		it->flags |= PFT_FLOW_F_CC;
		it->cycles = d->walk.cycles;
	}
	if (d->walk.mode == WALK_BRANCH) {
		/* branch_no_excp(): the packet gives the target; a direct branch
		 * must agree with it.  Push for a branch with link (6b); never pop. */
		it->flags |= PFT_FLOW_F_NEXT;
		it->next = d->cur.address;
		it->next_isa = d->cur.isa;
		if (rstack && (wflags & PFT_INSN_F_LINK))
			pft_rstack_push(&d->rs, ret, b->isa, d->cs.ns);
		if ((wflags & PFT_INSN_F_TARGET) && wclass == PFT_WP_DIRECT &&
		    (b->target != d->cur.address || b->target_isa != d->cur.isa))
			inconsistent(d, PFT_INCONS_BRANCH_TARGET, d->cur.address, b->target,
				     b->target_isa);
		return;
	}
	/* analyze_atomheader() */
	if (!d->walk.taken) {
		d->cs.addr = ret;
	} else {
		switch (wclass) {
		case PFT_WP_DIRECT:
		case PFT_WP_ISA_CHANGE:
			if (wflags & PFT_INSN_F_TARGET) {
				d->cs.addr = b->target;
				d->cs.isa = b->target_isa;
			} else if (wclass == PFT_WP_ISA_CHANGE) {
				/* ENTERX / LEAVEX: on to the next instruction in the other
				 * Thumb flavour. */
				d->cs.addr = ret;
				d->cs.isa = d->cs.isa == PFT_ISA_THUMBEE ? PFT_ISA_THUMB
									 : PFT_ISA_THUMBEE;
			} else {
				why = PFT_LOST_NO_TARGET;
			}
			break;
		case PFT_WP_INDIRECT:
			if (!rstack)
				why = PFT_LOST_INDIRECT_ATOM;
			else if (pft_rstack_pop(&d->rs, &e) != 0)
				why = PFT_LOST_RSTACK_EMPTY;
			else {
				d->cs.addr = e.addr;
				d->cs.isa = e.isa;
				d->cs.ns = e.ns;
				it->flags |= PFT_FLOW_F_RSTACK;
			}
			break;
		default: /* ISB, DMB/DSB as waypoints: execution goes on */
			d->cs.addr = ret;
			break;
		}
		if (rstack && (wflags & PFT_INSN_F_LINK))
			pft_rstack_push(&d->rs, ret, b->isa, d->cs.ns);
	}
	if (why != PFT_LOST_NONE) {
		d->cs.addr = waddr;
		lost(d, why, 0);
		return;
	}
	it->flags |= PFT_FLOW_F_NEXT;
	it->next = d->cs.addr;
	it->next_isa = d->cs.isa;
}

/* WPU walk inside block b: instructions up to the one whose end passes the
 * WPU address (spec B analyze_waypoint_update). */
static void wpu_block(struct pft_flow_decoder *d, const struct pft_block *b)
{
	uint64_t wpu = d->walk.wpu;
	unsigned i;

	for (i = 0; i < b->n; i++) {
		const struct pft_insn *in = &b->insns[i];

		if (in->addr + in->size > wpu) {
			/* reached: the instruction at (or spanning) the WPU address is
			 * the last one executed.  Unlike B, move past it, so that the
			 * atom of a following waypoint (the >4096-byte case) starts at
			 * the next instruction rather than repeating this one. */
			struct pft_flow_item *it = range(d, b, i + 1, PFT_RANGE_WPU);

			d->cs.addr = in->addr + in->size;
			it->flags |= PFT_FLOW_F_NEXT;
			it->next = d->cs.addr;
			it->next_isa = d->cs.isa;
			finish(d);
			return;
		}
		if (i + 1 == (unsigned)b->n && b->end == PFT_BLK_WAYPOINT) {
			/* A waypoint before the WPU address: the PTM would have traced
			 * it.  Stop in front of it; its own atom may still come. */
			if (i > 0)
				range(d, b, i, PFT_RANGE_STOPPED);
			d->cs.addr = in->addr;
			inconsistent(d, PFT_INCONS_WPU_WAYPOINT, wpu, in->addr, b->isa);
			finish(d);
			return;
		}
	}
	/* all of the block executed; go on */
	range(d, b, b->n, PFT_RANGE_MORE);
	d->walk.bytes += b->next - b->start;
	d->cs.addr = b->next;
}

void pft_flow_walk_step(struct pft_flow_decoder *d)
{
	const struct pft_block *b;
	struct pft_flow_item *it;
	uint64_t limit = d->walk.mode == WALK_WPU ? PFT_FLOW_MAX_WPU_WALK : PFT_FLOW_MAX_WALK;

	if (!d->cs.addr_valid) {
		it = pft_flow_emit(d, PFT_FLOW_EVENT, PFT_EV_NO_ADDRESS);
		atom_info(d, it);
		finish(d);
		return;
	}
	if (d->walk.mode == WALK_WPU && d->walk.bytes == 0) {
		/* first step of a WPU: sanity of address and instruction set */
		if ((d->cur.isa == PFT_ISA_ARM) != (d->cs.isa == PFT_ISA_ARM))
			inconsistent(d, PFT_INCONS_WPU_ISA, d->cur.address, d->cs.addr, d->cs.isa);
		if (d->walk.wpu < d->cs.addr) {
			inconsistent(d, PFT_INCONS_WPU_BEHIND, d->walk.wpu, d->cs.addr, d->cs.isa);
			finish(d);
			return;
		}
	}
	if (d->walk.bytes >= limit) {
		lost(d, PFT_LOST_WALK_LIMIT, 1);
		finish(d);
		return;
	}
	b = pft_blkcache_get(d->bc, d->cs.addr, (enum pft_isa)d->cs.isa, d->cs.hyp);
	if (b->n == 0) {
		if (b->end == PFT_BLK_UNSUPPORTED) {
			lost(d, PFT_LOST_JAZELLE, 1);
		} else {
			it = pft_flow_emit(d, PFT_FLOW_EVENT, PFT_EV_MEM_NACC);
			it->flags |= PFT_FLOW_F_ADDR;
			it->addr = d->cs.addr;
			it->isa = d->cs.isa;
			atom_info(d, it);
			d->cs.addr_valid = 0;
		}
		finish(d);
		return;
	}
	if (d->walk.mode == WALK_WPU) {
		wpu_block(d, b);
		return;
	}
	if (b->end == PFT_BLK_WAYPOINT) {
		waypoint(d, b);
		finish(d);
		return;
	}
	/* no waypoint in this block (limit, or memory ends after it) */
	range(d, b, b->n, PFT_RANGE_MORE);
	d->walk.bytes += b->next - b->start;
	d->cs.addr = b->next;
}
