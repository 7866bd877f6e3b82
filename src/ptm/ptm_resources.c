/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM resources and events (spec 3.3-3.13, appendix A): address
 * comparators (single and range, with context ID, VMID, security and mode
 * filters), context ID and VMID comparators, the TraceEnable start/stop
 * block and include/exclude control, event functions, counters, the
 * three-state sequencer, external inputs and outputs, trigger and
 * timestamp events.  Clocked once per step (waypoint, exception, input
 * change); see ptm.h. */
#include "ptm/ptm_internal.h"

static int cidc_match(const struct pft_ptm *p, unsigned n)
{
	uint32_t mask = p->regs[PFT_PTM_ETMCIDCMR];
	if (n >= p->n_cidc || p->prohibited)
		return 0;
	return ((p->cur_cid ^ p->regs[PFT_PTM_ETMCIDCVR(n + 1)]) & ~mask) == 0;
}

static int vmidc_match(const struct pft_ptm *p)
{
	return p->f.minor >= 1 && (p->cfg.etmccer & PFT_ETMCCER_VIRTUALIZATION) &&
	       p->cur_vmid == (uint8_t)p->regs[PFT_PTM_ETMVMIDCVR];
}

/* Access-type filters of comparator i (0-based) for the current block
 * (Table 3-27, 3-28). */
static int ac_filter(const struct pft_ptm *p, unsigned i)
{
	uint32_t t = p->regs[PFT_PTM_ETMACTR(i + 1)];
	unsigned cs = (t >> 8) & 3;
	const struct ptm_block *b = &p->blk;

	if (cs && !cidc_match(p, cs - 1))
		return 0;
	if (p->f.minor >= 1) {
		if ((t >> 15) & 1) {
			if (!vmidc_match(p))
				return 0;
		}
		if (((t >> 14) & 1) && b->hyp)
			return 1;
		/* bits [12,10] filter Secure, [13,11] Non-secure:
		 * 00 all modes, 01 none, 10 privileged only, 11 User only */
		unsigned sel = b->ns ? (((t >> 13) & 1) << 1 | ((t >> 11) & 1))
				     : (((t >> 12) & 1) << 1 | ((t >> 10) & 1));
		switch (sel) {
		case 1: return 0;
		case 2: return !b->user;
		case 3: return b->user;
		default: return 1;
		}
	}
	switch ((t >> 10) & 3) {
	case 1: return b->ns;
	case 2: return !b->ns;
	default: return 1;
	}
}

static uint64_t acv(const struct pft_ptm *p, unsigned i)
{
	return p->regs[PFT_PTM_ETMACVR(i + 1)] & ~1ull;
}

static int res(const struct pft_ptm *p, unsigned r)
{
	unsigned type = r >> 4, idx = r & 15;
	switch (type) {
	case 0: /* SAC */
		return idx < p->n_ac && ((p->sac_hit >> idx) & 1);
	case 1: /* ARC; 8-11 instrumentation (not modelled: inactive) */
		return idx < 8 && idx < p->n_ac / 2u && ((p->arc_held >> idx) & 1);
	case 4:
		return idx < p->n_cnt && p->cnt[idx] == 0;
	case 5:
		if (idx <= 2)
			return p->has_seq && p->seq == idx;
		if (idx >= 8 && idx <= 10)
			return cidc_match(p, idx - 8);
		if (idx == 11)
			return vmidc_match(p);
		if (idx == 15)
			return p->ss_state;
		return 0;
	case 6:
		if (idx <= 3)
			return (p->ext_in >> idx) & 1;
		if (idx >= 8 && idx <= 11) {
			unsigned sel = (p->regs[PFT_PTM_ETMEXTINSEL] >> (8 * (idx - 8))) & 0xFF;
			return (p->ext_bus[sel >> 6] >> (sel & 63)) & 1;
		}
		if (idx == 13)
			return p->f.security_ext && p->blk.ns && !p->prohibited;
		if (idx == 14)
			return p->prohibited;
		if (idx == 15)
			return 1;
		return 0;
	default:
		return 0;
	}
}

int ptm_res_event(const struct pft_ptm *p, uint32_t ev)
{
	int a = res(p, ev & 0x7F), b = res(p, (ev >> 7) & 0x7F);
	switch ((ev >> 14) & 7) {
	case 0: return a;
	case 1: return !a;
	case 2: return a && b;
	case 3: return !a && b;
	case 4: return !a && !b;
	case 5: return a || b;
	case 6: return !a || b;
	default: return !a || !b;
	}
}

/* What one cycle does to the counters and the sequencer, seen with the
 * resources as they are (3.9, 3.10).  Returns whether anything changes. */
struct cyc_plan {
	int reload[4], en[4];
	uint8_t seq;
};

static int plan_cycle(const struct pft_ptm *p, struct cyc_plan *c)
{
	int change = 0;
	for (unsigned n = 0; n < p->n_cnt; n++) {
		c->reload[n] = ptm_res_event(p, p->regs[PFT_PTM_ETMCNTRLDEVR(n + 1)]);
		c->en[n] = ptm_res_event(p, p->regs[PFT_PTM_ETMCNTENR(n + 1)]);
		if (c->reload[n] ? p->cnt[n] != (uint16_t)p->regs[PFT_PTM_ETMCNTRLDVR(n + 1)]
				 : c->en[n] && p->cnt[n])
			change = 1;
	}
	c->seq = p->seq;
	if (p->has_seq && p->seq <= 2) {
		/* from state s: the two transition events (Table 3-9) */
		static const uint8_t tr[3][2][2] = {
			{ { 0x60, 1 }, { 0x65, 2 } }, /* 1->2, 1->3 */
			{ { 0x61, 0 }, { 0x62, 2 } }, /* 2->1, 2->3 */
			{ { 0x63, 0 }, { 0x64, 1 } }, /* 3->1, 3->2 */
		};
		int e0 = ptm_res_event(p, p->regs[tr[p->seq][0][0]]);
		int e1 = ptm_res_event(p, p->regs[tr[p->seq][1][0]]);
		if (e0 && !e1)
			c->seq = tr[p->seq][0][1];
		else if (e1 && !e0)
			c->seq = tr[p->seq][1][1];
		change |= c->seq != p->seq;
	}
	return change;
}

/* Outputs, trigger and timestamp event of the current cycle. */
static void cycle_outputs(struct pft_ptm *p, int *trigger, int *ts_event)
{
	uint32_t outs = 0;
	unsigned n_out = (p->cfg.etmccr >> PFT_ETMCCR_EXT_OUTPUTS_SHIFT) & PFT_ETMCCR_EXT_OUTPUTS_MASK;
	for (unsigned n = 0; n < n_out && n < 4; n++)
		if (ptm_res_event(p, p->regs[PFT_PTM_ETMEXTOUTEVR(n + 1)]))
			outs |= 1u << n;
	p->ext_out = outs;
	if ((p->cfg.etmccer & PFT_ETMCCER_TIMESTAMP) && ptm_res_event(p, p->regs[PFT_PTM_ETMTSEVR]))
		*ts_event = 1;
	if (!p->trig_done && ptm_res_event(p, p->regs[PFT_PTM_ETMTRIGGER])) {
		p->trig_done = 1;
		*trigger = 1;
	}
}

/* One cycle of the resources: outputs and events see the state before the
 * cycle's updates; counters reload (priority) or count down; the sequencer
 * moves. */
void ptm_res_cycle(struct pft_ptm *p, int *trigger, int *ts_event)
{
	struct cyc_plan c;
	cycle_outputs(p, trigger, ts_event);
	plan_cycle(p, &c);
	for (unsigned n = 0; n < p->n_cnt; n++) {
		if (c.reload[n])
			p->cnt[n] = (uint16_t)p->regs[PFT_PTM_ETMCNTRLDVR(n + 1)];
		else if (c.en[n] && p->cnt[n])
			p->cnt[n]--;
	}
	p->seq = c.seq;
}

/* The n cycles between two steps, in which no single address comparator
 * matches and the other resources hold (ARCs until the next waypoint):
 * counters count every cycle their enable event is TRUE (3.9).  Runs of
 * pure counting are skipped in one go, up to the next counter reaching 0. */
static void idle_cycles(struct pft_ptm *p, uint64_t n, int *trigger, int *ts_event)
{
	struct cyc_plan c;
	p->sac_hit = 0;
	for (unsigned guard = 0; n && guard < 256; guard++) {
		cycle_outputs(p, trigger, ts_event);
		if (!plan_cycle(p, &c))
			return; /* nothing changes any more */
		int only_count = c.seq == p->seq;
		uint64_t k = n;
		for (unsigned i = 0; i < p->n_cnt && only_count; i++) {
			if (c.reload[i])
				only_count = 0;
			else if (c.en[i] && p->cnt[i] && p->cnt[i] < k)
				k = p->cnt[i];
		}
		if (!only_count)
			k = 1;
		for (unsigned i = 0; i < p->n_cnt; i++) {
			if (c.reload[i])
				p->cnt[i] = (uint16_t)p->regs[PFT_PTM_ETMCNTRLDVR(i + 1)];
			else if (c.en[i] && p->cnt[i])
				p->cnt[i] = (uint16_t)(p->cnt[i] - (k < p->cnt[i] ? k : p->cnt[i]));
		}
		p->seq = c.seq;
		n -= k;
	}
}

void ptm_res_advance(struct pft_ptm *p, uint64_t cycle, int *trigger, int *ts_event)
{
	if (cycle > p->res_cycle + 1 && !p->res_idle)
		idle_cycles(p, cycle - p->res_cycle - 1, trigger, ts_event);
	if (cycle > p->res_cycle)
		p->res_cycle = cycle;
}

/* Recomputed on every register write: TraceEnable is "always" and no event
 * can ever fire, so a step changes nothing (the fast path of the common
 * trace-everything configuration). */
void ptm_res_update_idle(struct pft_ptm *p)
{
	static const uint16_t never[] = {
		PFT_PTM_ETMTRIGGER, PFT_PTM_ETMTSEVR, PFT_PTM_ETMSQ12EVR, PFT_PTM_ETMSQ21EVR,
		PFT_PTM_ETMSQ23EVR, PFT_PTM_ETMSQ31EVR, PFT_PTM_ETMSQ32EVR, PFT_PTM_ETMSQ13EVR,
		PFT_PTM_ETMCNTENR(1), PFT_PTM_ETMCNTENR(2), PFT_PTM_ETMCNTENR(3), PFT_PTM_ETMCNTENR(4),
		PFT_PTM_ETMCNTRLDEVR(1), PFT_PTM_ETMCNTRLDEVR(2), PFT_PTM_ETMCNTRLDEVR(3),
		PFT_PTM_ETMCNTRLDEVR(4), PFT_PTM_ETMEXTOUTEVR(1), PFT_PTM_ETMEXTOUTEVR(2),
		PFT_PTM_ETMEXTOUTEVR(3), PFT_PTM_ETMEXTOUTEVR(4),
	};
	int idle = (p->regs[PFT_PTM_ETMTEEVR] & 0x1FFFF) == PFT_PTM_EVENT_ALWAYS &&
		   (p->regs[PFT_PTM_ETMTECR1] & 0x030000FFu) == 0x01000000u;
	for (size_t i = 0; idle && i < sizeof(never) / sizeof(never[0]); i++)
		idle = (p->regs[never[i]] & 0x1FFFF) == PFT_PTM_EVENT_NEVER;
	p->res_idle = (uint8_t)idle;
}

int ptm_res_step(struct pft_ptm *p, int has_block, uint64_t start, uint64_t end,
		 uint64_t cycle, int *trigger, int *ts_event)
{
	*trigger = 0;
	*ts_event = 0;
	if (p->res_idle) {
		p->sac_hit = 0;
		p->ext_out = 0;
		p->res_cycle = cycle;
		return 1;
	}
	/* the cycles since the last step, then this one */
	ptm_res_advance(p, cycle, trigger, ts_event);
	uint16_t sac = 0;
	uint8_t arc_in = 0, arc_ex = 0;
	int matchable = has_block && !p->prohibited && !p->jazelle;

	start &= ~1ull;
	end &= ~1ull;
	if (matchable) {
		for (unsigned i = 0; i < p->n_ac; i++) {
			uint64_t a = acv(p, i);
			if (a >= start && a <= end && ac_filter(p, i))
				sac |= (uint16_t)(1u << i);
		}
		for (unsigned k = 0; k < p->n_ac / 2u; k++) {
			uint64_t lo = acv(p, 2 * k), hi = acv(p, 2 * k + 1);
			if (!ac_filter(p, 2 * k))
				continue;
			if (lo <= end && hi > start)
				arc_in |= (uint8_t)(1u << k);
			if (lo <= start && hi > end)
				arc_ex |= (uint8_t)(1u << k);
		}
		p->arc_held = arc_in;
	} else if (has_block) {
		p->arc_held = 0;
	}
	/* Back-to-back exceptions: no SAC matches, ARCs keep their value. */
	p->sac_hit = sac;

	uint32_t tssc = p->regs[PFT_PTM_ETMTSSCR];
	int start_hit = (sac & tssc & 0xFFFF) != 0;
	int stop_hit = (sac & (tssc >> 16)) != 0;
	int ss_block = p->ss_state || start_hit;

	uint32_t tecr = p->regs[PFT_PTM_ETMTECR1];
	unsigned sel = tecr & 0xFF;
	int te_ev = ptm_res_event(p, p->regs[PFT_PTM_ETMTEEVR]);
	int region;
	if ((tecr >> 24) & 1)
		region = !(arc_ex & sel) || !matchable;
	else
		region = (p->arc_held & sel) != 0;
	int te = te_ev && (!((tecr >> 25) & 1) || ss_block) && region;

	ptm_res_cycle(p, trigger, ts_event);
	p->ss_state = stop_hit ? 0 : (uint8_t)ss_block;
	return te;
}
