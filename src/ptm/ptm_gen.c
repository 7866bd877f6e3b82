/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM trace generation (spec chapter 4 and 5): blocks of
 * instructions between waypoints, TraceEnable per block (3.3.2), atoms,
 * branch address packets, the return stack, branch broadcast, waypoint
 * updates (exceptions, 4096-byte blocks), exceptions of every case of
 * chapter 5, exception return packets, context ID and VMID changes,
 * prohibited regions, Jazelle, Debug state, FIFO overflow. */
#include <stdlib.h>
#include <string.h>

#include "ptm/ptm_internal.h"

/* Return stack (4.13): an indirect branch whose target matches the top
 * entry (address, instruction set and security state) is traced as an E
 * atom and pops it. */
static int rs_match_pop(struct pft_ptm *p, uint64_t addr, uint8_t isa, uint8_t ns)
{
	const struct pft_rstack_entry *e = pft_rstack_top(&p->rs);
	if (!e || e->addr != addr || e->isa != isa || e->ns != ns)
		return 0;
	(void)pft_rstack_pop(&p->rs, NULL);
	return 1;
}

/* A branch with link pushes its return address, unless its security state
 * differs from the last one traced: then the stack is cleared (4.13). */
static void rs_push(struct pft_ptm *p, uint64_t addr, uint8_t isa, uint8_t ns)
{
	if (!p->par.return_stack_depth)
		return;
	if (ns != p->out_ns) {
		pft_rstack_clear(&p->rs);
		return;
	}
	pft_rstack_push(&p->rs, addr, isa, ns);
}

static void emit_atom(struct pft_ptm *p, int e, uint64_t cycle)
{
	if (p->f.cycle_accurate) {
		struct pft_packet k;
		memset(&k, 0, sizeof(k));
		k.type = PFT_PKT_ATOM;
		k.atoms = e ? 1u : 0u;
		k.atom_count = 1;
		k.flags = PFT_PKT_F_CC;
		k.cycles = ptm_cc(p, cycle);
		(void)ptm_emit(p, &k);
		return;
	}
	if (e)
		p->atom_bits |= 1u << p->atom_n;
	if (++p->atom_n == 5)
		ptm_flush_atoms(p);
}

static void emit_simple(struct pft_ptm *p, unsigned type)
{
	struct pft_packet k;
	memset(&k, 0, sizeof(k));
	k.type = (uint16_t)type;
	(void)ptm_emit(p, &k);
}

/* A packet of TYPE that carries an address (branch or waypoint update),
 * after the atoms so far: the target aligned to its instruction set, and
 * AltISA for ThumbEE. */
static void addr_packet(struct pft_ptm *p, struct pft_packet *k, unsigned type, uint64_t addr,
			uint8_t isa)
{
	ptm_flush_atoms(p);
	memset(k, 0, sizeof(*k));
	k->type = (uint16_t)type;
	k->address = ptm_align(addr, isa);
	k->isa = isa;
	if (isa == PFT_ISA_THUMBEE)
		k->flags |= PFT_PKT_F_ALTIS;
}

static void emit_branch(struct pft_ptm *p, uint64_t addr, uint8_t isa, uint8_t ns,
			uint8_t hyp, unsigned exc, uint64_t cycle)
{
	struct pft_packet k;
	addr_packet(p, &k, PFT_PKT_BRANCH, addr, isa);
	k.exception = (uint16_t)exc;
	if (p->f.minor < 1)
		hyp = 0;
	if (ns && p->f.security_ext)
		k.flags |= PFT_PKT_F_NS;
	else
		ns = 0;
	if (hyp)
		k.flags |= PFT_PKT_F_HYP;
	if (p->f.cycle_accurate) {
		k.flags |= PFT_PKT_F_CC;
		k.cycles = ptm_cc(p, cycle);
	}
	if (ptm_emit(p, &k) == 0) {
		p->out_ns = ns;
		p->out_hyp = hyp;
	}
}

static void emit_wpu(struct pft_ptm *p, uint64_t addr, uint8_t isa)
{
	struct pft_packet k;
	addr_packet(p, &k, PFT_PKT_WAYPOINT_UPDATE, addr, isa);
	(void)ptm_emit(p, &k);
}

static uint32_t cidm(const struct pft_ptm *p, uint32_t cid)
{
	static const uint32_t m[5] = { 0, 0xFF, 0xFFFF, 0, 0xFFFFFFFFu };
	return cid & m[p->f.contextid_bytes];
}

/* Context ID and VMID packets for a change since they were last traced. */
static void emit_context(struct pft_ptm *p, uint32_t cid, uint8_t vmid)
{
	struct pft_packet k;
	if (p->f.contextid_bytes && cidm(p, cid) != p->out_cid) {
		ptm_flush_atoms(p);
		memset(&k, 0, sizeof(k));
		k.type = PFT_PKT_CONTEXT_ID;
		k.context_id = cidm(p, cid);
		if (ptm_emit(p, &k) == 0)
			p->out_cid = cidm(p, cid);
	}
	if (p->f.vmid && vmid != p->out_vmid) {
		ptm_flush_atoms(p);
		memset(&k, 0, sizeof(k));
		k.type = PFT_PKT_VMID;
		k.vmid = vmid;
		if (ptm_emit(p, &k) == 0)
			p->out_vmid = vmid;
	}
}

static unsigned isync_reason(const struct pft_ptm *p)
{
	return p->isync_reason ? p->isync_reason : PFT_ISYNC_TRACE_ON;
}

/* Trace turns on for the current block: [A-sync], I-sync at its start. */
static void start_trace(struct pft_ptm *p)
{
	if (p->sync_pending) {
		/* a periodic request while TraceEnable was low (4.11.1) */
		p->need_async = 1;
		p->sync_pending = 0;
		p->ext_sync_pending = 0;
		p->ts_full = 1;
		ptm_ts_request(p, 1);
	}
	if (p->need_async) {
		struct pft_packet k;
		memset(&k, 0, sizeof(k));
		k.type = PFT_PKT_ASYNC;
		if (ptm_emit(p, &k) < 0)
			return;
		p->need_async = 0;
	}
	p->atom_n = 0;
	p->atom_bits = 0;
	ptm_emit_isync(p, isync_reason(p), p->blk.start, p->blk.isa, p->blk.ns, p->blk.hyp,
		       p->blk.cid, p->prev_wp_cycle);
	if (p->overflowed)
		return;
	p->tracing = 1;
	p->isync_reason = 0;
	p->ovf_unreported = 0;
	p->out_cid = cidm(p, p->blk.cid);
}

static void stop_trace(struct pft_ptm *p)
{
	if (!p->tracing)
		return;
	ptm_flush_atoms(p);
	p->tracing = 0;
}

static int can_trace(const struct pft_ptm *p)
{
	return p->enabled && !p->overflowed && !p->prohibited && !p->jazelle && !p->debug &&
	       p->blk.known;
}

/* A block end (waypoint or exception): resources, TraceEnable, trigger. */
static int block_end(struct pft_ptm *p, int has_block, uint64_t end, uint64_t cycle,
		     int *trigger)
{
	int ts_ev = 0;
	int te = ptm_res_step(p, has_block, p->blk.start, end, cycle, trigger, &ts_ev);
	if (ts_ev)
		ptm_ts_request(p, 0);
	if (!te || !can_trace(p)) {
		stop_trace(p);
		/* the debug-exit reason only applies to the first block */
		if (p->isync_reason == PFT_ISYNC_DEBUG_EXIT)
			p->isync_reason = p->ovf_unreported ? PFT_ISYNC_OVERFLOW : 0;
		return 0;
	}
	if (!p->tracing)
		start_trace(p);
	else
		emit_context(p, p->cur_cid, p->cur_vmid);
	return p->tracing;
}

static void after_block(struct pft_ptm *p, int traced, int trigger)
{
	if (trigger && p->enabled) {
		ptm_flush_atoms(p);
		emit_simple(p, PFT_PKT_TRIGGER);
		p->st.triggers++;
	}
	if (!traced)
		return;
	if (p->sync_pending)
		ptm_sync_service(p);
	ptm_ts_service(p);
}

static void new_block(struct pft_ptm *p, uint64_t addr, uint8_t isa, uint8_t ns, uint8_t hyp,
		      uint64_t cycle)
{
	p->blk.start = addr;
	p->blk.isa = isa;
	p->blk.ns = ns;
	p->blk.hyp = hyp;
	p->blk.cid = p->cur_cid;
	p->blk.vmid = p->cur_vmid;
	p->blk.n_insn = 0;
	p->blk.known = 1;
	p->prev_wp_cycle = cycle;
}

/* The address that stands for an instruction as a waypoint or block end:
 * with ETMIDR[18] = 0 a 32-bit Thumb instruction is traced as two halves
 * and that is its upper halfword (4.16.1, Table 4-9 allows either). */
static uint64_t ptm_insn_point(const struct pft_ptm *p, const struct pft_ptm_insn *in)
{
	if (!p->f.thumb32_single && in->size == 4 && in->isa != PFT_ISA_ARM)
		return in->addr + 2;
	return in->addr;
}

static void waypoint(struct pft_ptm *p, const struct pft_ptm_insn *in, unsigned cls,
		     int link, int exc_ret)
{
	int passed = !(in->flags & PFT_PTM_I_COND_FAILED);
	uint8_t nns = (in->flags & PFT_PTM_I_NEXT_NS) ? 1 : 0;
	uint8_t nhyp = (in->flags & PFT_PTM_I_NEXT_HYP) && p->f.minor >= 1 ? 1 : 0;
	int trigger = 0, traced = 0;
	uint64_t next = ptm_align(in->next_addr, in->next_isa);

	if (!p->f.security_ext)
		nns = 0;
	if (p->enabled)
		traced = block_end(p, 1, ptm_insn_point(p, in), in->cycle, &trigger);
	if (traced) {
		int bb = p->f.branch_broadcast;
		int rs = p->f.return_stack && !bb;
		int state_change = nns != p->out_ns || nhyp != p->out_hyp;

		/* 4.10: a waypoint more than 4096 bytes from the block start */
		if (p->blk.n_insn && in->addr - p->blk.start > 4096)
			emit_wpu(p, p->blk.last_addr, p->blk.last_isa);
		if (passed && (in->flags & PFT_PTM_I_NEXT_PROHIBITED)) {
			/* 4.7: entry to a prohibited region: a branch to 0,
			 * Secure, ARM, Hyp 0 */
			emit_branch(p, 0, PFT_ISA_ARM, 0, 0, 0, in->cycle);
		} else if (!passed) {
			emit_atom(p, 0, in->cycle);
		} else if (cls == PFT_WP_INDIRECT || cls == PFT_WP_ISA_CHANGE || state_change ||
			   in->next_isa == PFT_ISA_JAZELLE ||
			   (bb && cls != PFT_WP_NONE)) {
			int hit = 0;
			if (rs && cls == PFT_WP_INDIRECT && !state_change &&
			    !(exc_ret && p->f.minor >= 1))
				hit = rs_match_pop(p, next, in->next_isa, nns);
			if (hit)
				emit_atom(p, 1, in->cycle);
			else
				emit_branch(p, next, in->next_isa, nns, nhyp, 0, in->cycle);
		} else {
			emit_atom(p, 1, in->cycle);
		}
		if (passed && link && rs)
			rs_push(p, in->addr + in->size, in->isa,
				(in->flags & PFT_PTM_I_NS) ? 1 : 0);
		if (passed && exc_ret && p->f.minor >= 1) {
			ptm_flush_atoms(p);
			emit_simple(p, PFT_PKT_EXCEPTION_RETURN);
			ptm_ts_request(p, 0);
		}
		if (cls == PFT_WP_ISB || (cls == PFT_WP_BARRIER && p->f.ts_on_dmb))
			ptm_ts_request(p, 0);
		p->st.traced_insns += p->blk.n_insn + 1u;
		p->traced_since_ts = 1;
		p->ts_last_wp = p->ts_now;
	}
	new_block(p, next, in->next_isa, nns, nhyp, in->cycle);
	if (passed && (in->flags & PFT_PTM_I_NEXT_PROHIBITED)) {
		/* no periodic I-sync into the region */
		after_block(p, 0, trigger);
		ptm_ts_service(p);
		stop_trace(p);
		p->prohibited = 1;
		p->blk.known = 0;
		return;
	}
	if (in->next_isa == PFT_ISA_JAZELLE) {
		/* 4.17: nothing more until Jazelle state is left */
		stop_trace(p);
		p->jazelle = 1;
		p->blk.known = 0;
	}
	after_block(p, traced, trigger);
}

static int classify(struct pft_ptm *p, const struct pft_ptm_insn *in, unsigned *cls,
		    int *link, int *exc_ret)
{
	if (!(in->flags & PFT_PTM_I_CLASSIFY)) {
		*cls = in->wp_class;
		*link = (in->flags & PFT_PTM_I_LINK) != 0;
		*exc_ret = (in->flags & PFT_PTM_I_EXC_RETURN) != 0;
		return 0;
	}
	uint8_t b[4];
	struct pft_insn_info info;
	uint32_t op = in->opcode;
	if (in->size == 4 && in->isa != PFT_ISA_ARM)
		op = (op >> 16) | (op << 16); /* hw1 first in memory */
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(op >> (8 * i));
	int rc = pft_isa_decode((enum pft_isa)in->isa, in->addr, b, in->size, p->isa_opts, &info);
	if (rc < 0)
		return rc;
	*cls = info.wp_class;
	*link = (info.flags & PFT_INSN_F_LINK) != 0;
	*exc_ret = (info.flags & PFT_INSN_F_EXC_RETURN) != 0;
	return 0;
}

static void advance(struct pft_ptm *p, uint64_t cycle)
{
	if (cycle > p->cycle)
		p->cycle = cycle;
	if (p->fifo.fifo_bytes)
		ptm_fifo_drain(&p->fifo, p->cycle);
	if (p->overflowed && ptm_fifo_level(&p->fifo) == 0) {
		/* 4.8: trace restarts once the FIFO has emptied */
		p->overflowed = 0;
		if (p->isync_reason != PFT_ISYNC_DEBUG_EXIT)
			p->isync_reason = PFT_ISYNC_OVERFLOW;
		p->ts_full = 1;
	}
}

int pft_ptm_insn(struct pft_ptm *p, const struct pft_ptm_insn *in)
{
	if (!p || !in || (in->size != 2 && in->size != 4) || in->isa > PFT_ISA_JAZELLE)
		return -PFT_E_INVAL;
	advance(p, in->cycle);
	p->st.insns++;
	if (p->debug)
		return 0;
	if (in->addr & (in->isa == PFT_ISA_ARM ? 3u : 1u))
		return -PFT_E_INVAL;
	if (in->isa == PFT_ISA_JAZELLE) {
		p->jazelle = 1;
		p->blk.known = 0;
		return 0;
	}
	p->cur_cid = in->context_id;
	p->cur_vmid = in->vmid;
	if (p->jazelle || !p->blk.known) {
		/* first instruction after Jazelle / a prohibited region: the
		 * target of a waypoint (4.7, 4.17) */
		p->jazelle = 0;
		new_block(p, in->addr, in->isa, (in->flags & PFT_PTM_I_NS) ? 1 : 0,
			  (in->flags & PFT_PTM_I_HYP) ? 1 : 0, in->cycle);
	}
	if (p->prohibited) {
		/* 4.7.1: nothing traced, comparators never match, the other
		 * resources keep running (clocked at waypoints) */
		unsigned pc;
		int pl, pe, trig = 0, tsev = 0;
		if (classify(p, in, &pc, &pl, &pe) == 0 && pc != PFT_WP_NONE && pc < PFT_WP_NR &&
		    (pc != PFT_WP_BARRIER || p->f.dmb_waypoint) && p->enabled) {
			(void)ptm_res_step(p, 0, p->blk.start, p->blk.start, in->cycle, &trig,
					   &tsev);
			after_block(p, 0, trig);
		}
		return 0;
	}
	if (p->blk.n_insn == 0) {
		/* the state of the block is that of its first instruction */
		p->blk.ns = (in->flags & PFT_PTM_I_NS) && p->f.security_ext ? 1 : 0;
		p->blk.hyp = (in->flags & PFT_PTM_I_HYP) && p->f.minor >= 1 ? 1 : 0;
		p->blk.cid = in->context_id;
		p->blk.vmid = in->vmid;
		p->blk.user = (in->flags & PFT_PTM_I_USER) ? 1 : 0;
	}
	unsigned cls;
	int link, exc_ret;
	int rc = classify(p, in, &cls, &link, &exc_ret);
	if (rc < 0)
		return rc;
	if (cls == PFT_WP_NONE || (cls == PFT_WP_BARRIER && !p->f.dmb_waypoint) ||
	    cls >= PFT_WP_NR) {
		p->blk.last_addr = ptm_insn_point(p, in);
		p->blk.last_isa = in->isa;
		p->blk.n_insn++;
		return 0;
	}
	p->st.waypoints++;
	waypoint(p, in, cls, link, exc_ret);
	return ptm_take_err(p);
}

static int do_exception(struct pft_ptm *p, unsigned type, uint64_t vector, uint8_t isa,
			uint8_t ns, uint8_t hyp, uint32_t cid, uint8_t vmid, int prohibited,
			uint64_t cycle)
{
	int trigger = 0, traced = 0;
	int has_block = p->blk.known && p->blk.n_insn > 0;

	advance(p, cycle);
	if (!p->f.security_ext)
		ns = 0;
	if (p->f.minor < 1)
		hyp = 0;
	if (p->debug)
		return 0;
	if (p->prohibited) {
		if (!prohibited) {
			/* leaving the prohibited region through an exception:
			 * the vector is the first traced instruction */
			p->prohibited = 0;
			p->cur_cid = cid;
			p->cur_vmid = vmid;
			new_block(p, vector, isa, ns, hyp, cycle);
		}
		return 0;
	}
	if (p->enabled)
		traced = block_end(p, has_block, has_block ? p->blk.last_addr : p->blk.start,
				   cycle, &trigger);
	if (traced) {
		/* 5.2.1: the last nonwaypoint instruction becomes a waypoint;
		 * never for a reset (5.3.1) */
		if (has_block && type != PFT_EXC_RESET)
			emit_wpu(p, p->blk.last_addr, p->blk.last_isa);
		if (prohibited)
			emit_branch(p, 0, PFT_ISA_ARM, 0, 0, type, cycle);
		else if (type == PFT_EXC_DEBUG_HALT)
			emit_branch(p, 0, PFT_ISA_ARM, p->out_ns, p->out_hyp, type, cycle);
		else
			emit_branch(p, vector, isa, ns, hyp, type, cycle);
		if (!prohibited && type != PFT_EXC_DEBUG_HALT)
			emit_context(p, cid, vmid);
		if (p->f.minor >= 1)
			ptm_ts_request(p, 0);
		p->st.traced_insns += p->blk.n_insn;
		p->traced_since_ts = 1;
		p->ts_last_wp = p->ts_now;
	}
	p->cur_cid = cid;
	p->cur_vmid = vmid;
	new_block(p, vector, isa, ns, hyp, cycle);
	if (prohibited) {
		after_block(p, 0, trigger);
		ptm_ts_service(p);
		stop_trace(p);
		p->prohibited = 1;
		p->blk.known = 0;
		return 0;
	}
	if (type == PFT_EXC_DEBUG_HALT) {
		after_block(p, 0, trigger);
		ptm_ts_service(p);
		stop_trace(p);
		p->debug = 1;
		return 0;
	}
	after_block(p, traced, trigger);
	return 0;
}

int pft_ptm_exception(struct pft_ptm *p, const struct pft_ptm_exception *e)
{
	if (!p || !e || e->type == 0 || e->type == PFT_EXC_DEBUG_HALT || e->type > 15 ||
	    e->isa > PFT_ISA_JAZELLE)
		return -PFT_E_INVAL;
	do_exception(p, e->type, e->vector, e->isa, (e->flags & PFT_PTM_E_NS) ? 1 : 0,
		     (e->flags & PFT_PTM_E_HYP) ? 1 : 0, e->context_id, e->vmid,
		     (e->flags & PFT_PTM_E_PROHIBITED) != 0, e->cycle);
	return ptm_take_err(p);
}

int pft_ptm_debug_entry(struct pft_ptm *p, uint64_t cycle)
{
	if (!p)
		return -PFT_E_INVAL;
	if (p->debug)
		return 0;
	do_exception(p, PFT_EXC_DEBUG_HALT, 0, PFT_ISA_ARM, p->blk.ns, p->blk.hyp, p->cur_cid,
		     p->cur_vmid, 0, cycle);
	p->debug = 1;
	p->isync_reason = PFT_ISYNC_DEBUG_EXIT;
	return 0;
}

int pft_ptm_debug_exit(struct pft_ptm *p, uint64_t addr, enum pft_isa isa, unsigned fl,
		       uint64_t cycle)
{
	if (!p || (unsigned)isa > PFT_ISA_JAZELLE)
		return -PFT_E_INVAL;
	advance(p, cycle);
	if (!p->debug)
		return 0;
	p->debug = 0;
	p->isync_reason = PFT_ISYNC_DEBUG_EXIT;
	new_block(p, addr, (uint8_t)isa, (fl & PFT_PTM_E_NS) && p->f.security_ext ? 1 : 0,
		  (fl & PFT_PTM_E_HYP) && p->f.minor >= 1 ? 1 : 0, cycle);
	return 0;
}

int pft_ptm_prohibited(struct pft_ptm *p, int enter, uint64_t cycle)
{
	if (!p)
		return -PFT_E_INVAL;
	advance(p, cycle);
	if (enter) {
		if (!p->prohibited) {
			stop_trace(p);
			p->prohibited = 1;
		}
	} else if (p->prohibited) {
		p->prohibited = 0;
		p->blk.known = 0; /* the next instruction starts a block */
	}
	return 0;
}

int pft_ptm_wfi(struct pft_ptm *p, uint64_t cycle)
{
	if (!p)
		return -PFT_E_INVAL;
	advance(p, cycle);
	if (p->enabled)
		ptm_flush_atoms(p);
	ptm_fifo_drain_all(&p->fifo);
	return 0;
}

int pft_ptm_set_inputs(struct pft_ptm *p, uint32_t inputs, const uint64_t ext[4],
		       uint64_t cycle)
{
	int trigger = 0, ts_ev = 0;
	if (!p)
		return -PFT_E_INVAL;
	advance(p, cycle);
	if (p->enabled) {
		/* the cycles before the change see the old inputs */
		int t0 = 0, s0 = 0;
		ptm_res_advance(p, p->cycle, &t0, &s0);
		if (s0)
			ptm_ts_request(p, 0);
		if (t0)
			after_block(p, 0, 1);
		p->res_cycle = p->cycle - (p->cycle > 0);
	}
	p->ext_in = inputs & 0xF;
	if (ext)
		memcpy(p->ext_bus, ext, sizeof(p->ext_bus));
	if (!p->enabled)
		return 0;
	/* A resource step without a block: comparators are not affected. */
	(void)ptm_res_step(p, 0, p->blk.start, p->blk.start, p->cycle, &trigger, &ts_ev);
	if (ts_ev)
		ptm_ts_request(p, 0);
	after_block(p, 0, trigger);
	return 0;
}

uint32_t pft_ptm_get_outputs(const struct pft_ptm *p)
{
	return p ? p->ext_out : 0;
}

void pft_ptm_timestamp(struct pft_ptm *p, uint64_t value, int clock_changed)
{
	if (!p)
		return;
	p->ts_now = value;
	if (clock_changed && p->f.timestamps) {
		p->ts_r = 1;
		ptm_ts_request(p, 1);
	}
}

void pft_ptm_sync_request(struct pft_ptm *p)
{
	if (!p || !p->enabled)
		return;
	if (p->ext_sync_pending) {
		/* 4.11.1 forced overflow: stop, drain, restart with full sync */
		p->ext_sync_pending = 0;
		p->sync_pending = 1;
		p->atom_n = 0;
		p->atom_bits = 0;
		p->tracing = 0;
		p->isync_reason = p->isync_reason == PFT_ISYNC_DEBUG_EXIT ? PFT_ISYNC_DEBUG_EXIT
									: PFT_ISYNC_OVERFLOW;
		p->ovf_unreported = 1;
		p->st.overflows++;
		ptm_fifo_drain_all(&p->fifo);
		return;
	}
	p->ext_sync_pending = 1;
	p->sync_pending = 1;
}

int pft_ptm_flush(struct pft_ptm *p)
{
	if (!p)
		return -PFT_E_INVAL;
	if (p->enabled) {
		ptm_flush_atoms(p);
		ptm_ts_request(p, 0);
		ptm_ts_service(p);
	}
	ptm_fifo_drain_all(&p->fifo);
	advance(p, p->cycle);
	return 0;
}
