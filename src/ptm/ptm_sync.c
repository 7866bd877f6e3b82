/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM synchronisation and timestamps: I-sync packets (4.5.2,
 * 4.11.3), cycle counts (4.4), periodic A-sync/I-sync/T-sync (4.11.1) and
 * the timestamp request rules of 4.14 and ETM 7.7.1 (timestamp of the last
 * traced waypoint on v1.1, full after enable and overflow, close requests
 * coalesced). */
#include <string.h>

#include "ptm/ptm_internal.h"

/* Cycle count for a packet describing an event at `cycle`: cycles since the
 * last cycle count output (4.4).  0xFFFFFFFF reports a counter overflow,
 * which also requests a timestamp (4.14). */
uint32_t ptm_cc(struct pft_ptm *p, uint64_t cycle)
{
	uint64_t d = 0;
	if (cycle > p->last_cc_cycle) {
		d = cycle - p->last_cc_cycle;
		p->last_cc_cycle = cycle;
	}
	if (d > 0xFFFFFFFEull) {
		ptm_ts_request(p, 0);
		return 0xFFFFFFFFu;
	}
	return (uint32_t)d;
}

static uint32_t cid_mask(const struct pft_ptm *p)
{
	switch (p->f.contextid_bytes) {
	case 1: return 0xFFu;
	case 2: return 0xFFFFu;
	case 4: return 0xFFFFFFFFu;
	default: return 0;
	}
}

void ptm_emit_isync(struct pft_ptm *p, unsigned reason, uint64_t addr, uint8_t isa,
		    uint8_t ns, uint8_t hyp, uint32_t cid, uint64_t cc_cycle)
{
	struct pft_packet k;
	memset(&k, 0, sizeof(k));
	k.type = PFT_PKT_ISYNC;
	k.address = ptm_align(addr, isa);
	k.isa = isa;
	k.reason = (uint8_t)reason;
	if (ns)
		k.flags |= PFT_PKT_F_NS;
	if (hyp && p->f.minor >= 1)
		k.flags |= PFT_PKT_F_HYP;
	if (isa == PFT_ISA_THUMBEE)
		k.flags |= PFT_PKT_F_ALTIS;
	if (p->f.cycle_accurate && reason != PFT_ISYNC_PERIODIC) {
		k.flags |= PFT_PKT_F_CC;
		k.cycles = ptm_cc(p, cc_cycle);
	}
	if (p->f.contextid_bytes) {
		k.flags |= PFT_PKT_F_CID;
		k.context_id = cid & cid_mask(p);
	}
	if (ptm_emit(p, &k) < 0)
		return;
	p->out_ns = ns;
	p->out_hyp = p->f.minor >= 1 ? hyp : 0;
	p->out_cid = cid & cid_mask(p);
	pft_rstack_clear(&p->rs);
	/* 4.5.8: a VMID packet before the next atom, branch or WPU */
	if (p->f.vmid) {
		memset(&k, 0, sizeof(k));
		k.type = PFT_PKT_VMID;
		k.vmid = p->cur_vmid;
		if (ptm_emit(p, &k) == 0)
			p->out_vmid = p->cur_vmid;
	}
}

void ptm_ts_request(struct pft_ptm *p, int forced)
{
	if (!p->f.timestamps)
		return;
	p->ts_req = 1;
	if (forced)
		p->ts_forced = 1;
}

/* Emit the requested timestamp if the rules allow it now.  A request with
 * nothing traced since the last timestamp is dropped unless it must be kept
 * (periodic sync, clock change, first after enable/overflow), which then
 * waits for the next traced instruction. */
void ptm_ts_service(struct pft_ptm *p)
{
	struct pft_packet k;
	if (!p->ts_req || !p->f.timestamps)
		return;
	if (!p->tracing || !p->enabled || p->overflowed)
		return;
	if (!p->traced_since_ts) {
		if (!p->ts_forced)
			p->ts_req = 0;
		return;
	}
	ptm_flush_atoms(p);
	memset(&k, 0, sizeof(k));
	k.type = PFT_PKT_TIMESTAMP;
	k.timestamp = p->f.minor >= 1 ? p->ts_last_wp : p->ts_now;
	if (p->ts_r)
		k.flags |= PFT_PKT_F_TS_R;
	if (p->ts_full)
		k.ts_bytes = p->f.ts_bits == 64 ? 9 : 7;
	if (p->f.cycle_accurate) {
		k.flags |= PFT_PKT_F_CC;
		/* v1.1: the value is that of the last traced waypoint, so the
		 * count is always 0 (4.4); v1.0: cycles since the last count */
		k.cycles = p->f.minor >= 1 ? 0 : ptm_cc(p, p->cycle);
	}
	if (ptm_emit(p, &k) < 0)
		return;
	p->ts_req = p->ts_forced = p->ts_r = p->ts_full = 0;
	p->traced_since_ts = 0;
}

/* Periodic synchronisation at a traced waypoint boundary: A-sync, I-sync
 * (reason periodic, the target of the waypoint just traced), T-sync. */
void ptm_sync_service(struct pft_ptm *p)
{
	if (!p->sync_pending || !p->tracing || p->overflowed || !p->blk.known)
		return;
	p->sync_pending = 0;
	p->ext_sync_pending = 0;
	ptm_flush_atoms(p);
	struct pft_packet k;
	memset(&k, 0, sizeof(k));
	k.type = PFT_PKT_ASYNC;
	if (ptm_emit(p, &k) < 0)
		return;
	ptm_emit_isync(p, PFT_ISYNC_PERIODIC, p->blk.start, p->blk.isa, p->blk.ns,
		       p->blk.hyp, p->cur_cid, 0);
	p->ts_full = 1;
	ptm_ts_request(p, 1);
	ptm_ts_service(p);
}
