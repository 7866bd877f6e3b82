/* SPDX-License-Identifier: BSD-3-Clause */
/* The trace decompressor of spec appendix B: input (bytes through an owned
 * packet decoder, or packets), the output queue, and one handler per packet
 * type.  Walking the image lives in flow_walk.c. */
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "flow/flow_int.h"
#include "pft/isa.h"

/* Decoded blocks kept per decoder; each takes sizeof(struct pft_block)
 * (image/block_cache.h), so the cache is FLOW_CACHE_BLOCKS times that. */
#define FLOW_CACHE_BLOCKS 8192u

struct pft_flow_decoder *pft_flow_decoder_alloc(const struct pft_config *cfg, struct pft_image *img)
{
	return pft_flow_alloc_cache(cfg, img, FLOW_CACHE_BLOCKS);
}

struct pft_flow_decoder *pft_flow_alloc_cache(const struct pft_config *cfg,
					      struct pft_image *img, unsigned cache_blocks)
{
	struct pft_flow_decoder *d;

	if (!cfg)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	if (pft_config_features(cfg, &d->feat) != 0)
		goto fail;
	(void)pft_config_copy(&d->cfg, cfg);
	d->img = img;
	d->bc = pft_blkcache_alloc(img, d->feat.dmb_waypoint ? PFT_ISA_OPT_DMB_WAYPOINT : 0,
				   cache_blocks);
	if (!d->bc)
		goto fail;
	d->pkt = pft_pkt_decoder_alloc(cfg);
	if (!d->pkt)
		goto fail;
	return d;
fail:
	pft_flow_decoder_free(d);
	return NULL;
}

void pft_flow_decoder_free(struct pft_flow_decoder *d)
{
	if (!d)
		return;
	pft_blkcache_free(d->bc);
	pft_pkt_decoder_free(d->pkt);
	free(d);
}

static int busy(const struct pft_flow_decoder *d)
{
	return d->qn || d->have_pkt || d->slot_full;
}

int pft_flow_decoder_feed(struct pft_flow_decoder *d, const uint8_t *buf, size_t len)
{
	int err;

	if (!d || (!buf && len) || d->ended || d->input == INPUT_PACKETS || busy(d) ||
	    (d->input == INPUT_BYTES && !d->need_input))
		return -PFT_E_INVAL;
	err = pft_pkt_decoder_feed(d->pkt, buf, len);
	if (err)
		return err;
	d->input = INPUT_BYTES;
	d->need_input = 0;
	return 0;
}

int pft_flow_decoder_put_packet(struct pft_flow_decoder *d, const struct pft_packet *pkt)
{
	if (!d || !pkt || d->ended || d->input == INPUT_BYTES || busy(d))
		return -PFT_E_INVAL;
	d->input = INPUT_PACKETS;
	d->slot = *pkt;
	d->slot_full = 1;
	d->need_input = 0;
	return 0;
}

int pft_flow_decoder_end(struct pft_flow_decoder *d)
{
	if (!d)
		return -PFT_E_INVAL;
	if (!d->ended && d->input != INPUT_PACKETS)
		pft_pkt_decoder_end(d->pkt);
	d->ended = 1;
	return 0;
}

int pft_flow_decoder_set_isync_resync(struct pft_flow_decoder *d, enum pft_isync_resync mode)
{
	if (!d)
		return -PFT_E_INVAL;
	return pft_pkt_decoder_set_isync_resync(d->pkt, mode);
}

void pft_flow_decoder_resync(struct pft_flow_decoder *d)
{
	if (!d)
		return;
	pft_pkt_decoder_resync(d->pkt);
	if (!d->q_overflow)
		d->qn = 0;
	d->have_pkt = 0;
	d->walk.mode = WALK_NONE;
	d->synced = 0;
	d->cs.addr_valid = 0;
	pft_rstack_clear(&d->rs);
}

uint64_t pft_flow_decoder_get_offset(const struct pft_flow_decoder *d)
{
	return d ? pft_pkt_decoder_get_offset(d->pkt) : 0;
}

static struct pft_flow_item *event(struct pft_flow_decoder *d, enum pft_flow_event type)
{
	return pft_flow_emit(d, PFT_FLOW_EVENT, type);
}

static void lose_sync(struct pft_flow_decoder *d)
{
	d->synced = 0;
	d->cs.addr_valid = 0;
	pft_rstack_clear(&d->rs);
}

/* Stage 3 of B.3.1. */
static void isync(struct pft_flow_decoder *d)
{
	const struct pft_packet *p = &d->cur;
	struct flow_state *ls = &d->ls, *cs = &d->cs;
	struct pft_flow_item *it;
	int periodic = p->reason == PFT_ISYNC_PERIODIC;

	ls->addr = p->address;
	ls->isa = p->isa;
	ls->ns = (p->flags & PFT_PKT_F_NS) ? 1 : 0;
	ls->hyp = (p->flags & PFT_PKT_F_HYP) ? 1 : 0;
	ls->addr_valid = 1;
	if (p->flags & PFT_PKT_F_CID) {
		ls->cid = p->context_id;
		ls->cid_valid = 1;
	} else {
		ls->cid = cs->cid;
		ls->cid_valid = cs->cid_valid;
	}
	ls->vmid = cs->vmid;
	ls->vmid_valid = cs->vmid_valid;

	if (periodic && d->synced && cs->addr_valid) {
		/* B.3.1 3c: a periodic I-sync must agree with CurrentState */
		if (cs->addr != ls->addr || cs->isa != ls->isa || cs->ns != ls->ns ||
		    cs->hyp != ls->hyp ||
		    (cs->cid_valid && (p->flags & PFT_PKT_F_CID) && cs->cid != ls->cid)) {
			it = event(d, PFT_EV_SYNC_MISMATCH);
			it->reason = p->reason;
			it->flags |= PFT_FLOW_F_ADDR | PFT_FLOW_F_NEXT;
			it->addr = ls->addr;
			it->isa = ls->isa;
			it->next = cs->addr;
			it->next_isa = cs->isa;
		}
		*cs = *ls;
		pft_rstack_clear(&d->rs);
		return;
	}
	*cs = *ls;
	d->synced = 1;
	pft_rstack_clear(&d->rs);
	it = event(d, PFT_EV_TRACE_ON);
	it->reason = p->reason;
	it->flags |= PFT_FLOW_F_ADDR;
	it->addr = ls->addr;
	it->isa = ls->isa;
	if (p->flags & PFT_PKT_F_CC) {
		it->flags |= PFT_FLOW_F_CC;
		it->cycles = p->cycles;
	}
}

/* branch_with_excp() */
static void exception(struct pft_flow_decoder *d)
{
	const struct pft_packet *p = &d->cur;
	struct pft_flow_item *it = event(d, PFT_EV_EXCEPTION);

	it->value = p->exception;
	it->flags |= PFT_FLOW_F_ADDR;
	it->addr = p->address;
	it->isa = p->isa;
	if (p->flags & PFT_PKT_F_CC) {
		it->flags |= PFT_FLOW_F_CC;
		it->cycles = p->cycles;
	}
	if (d->cs.addr_valid) {
		it->flags |= PFT_FLOW_F_NEXT;
		it->next = d->cs.addr;
		it->next_isa = d->cs.isa;
	}
	if (!d->synced)
		return;
	if (p->exception == PFT_EXC_DEBUG_HALT) {
		/* Target 0; ISA, NS and Hyp are not valid (5.3.8).  Nothing is
		 * executed until the debug-exit I-sync. */
		d->cs.addr_valid = 0;
		return;
	}
	pft_flow_take_branch_target(d, 0);
	if (d->cs.ns)
		it->flags |= PFT_FLOW_F_NS;
	else
		it->flags &= ~PFT_FLOW_F_NS;
	if (d->cs.hyp)
		it->flags |= PFT_FLOW_F_HYP;
	else
		it->flags &= ~PFT_FLOW_F_HYP;
}

static void unsynced_atom(struct pft_flow_decoder *d, int taken, int branch)
{
	struct pft_flow_item *it = event(d, PFT_EV_NO_ADDRESS);

	d->last_wp_valid = 0;
	it->flags |= PFT_FLOW_F_ATOM | (taken ? PFT_FLOW_F_TAKEN : 0) |
		     (branch ? PFT_FLOW_F_BRANCH : 0);
	if (d->cur.flags & PFT_PKT_F_CC) {
		it->flags |= PFT_FLOW_F_CC;
		it->cycles = d->cur.cycles;
	}
}

/* One step on the current packet: emits some items or finishes it. */
static void step(struct pft_flow_decoder *d)
{
	const struct pft_packet *p = &d->cur;
	struct pft_flow_item *it;

	if (d->walk.mode != WALK_NONE) {
		pft_flow_walk_step(d);
		if (d->walk.mode == WALK_NONE &&
		    !(p->type == PFT_PKT_ATOM && d->atom_i < p->atom_count))
			d->have_pkt = 0;
		return;
	}
	switch (p->type) {
	case PFT_PKT_ATOM:
		if (d->atom_i >= p->atom_count) {
			d->have_pkt = 0;
			return;
		}
		{
			int taken = (p->atoms >> d->atom_i) & 1;

			d->atom_i++;
			if (!d->synced) {
				unsynced_atom(d, taken, 0);
				return;
			}
			pft_flow_walk_start(d, WALK_ATOM, taken, (p->flags & PFT_PKT_F_CC) != 0,
					    p->cycles);
		}
		break;
	case PFT_PKT_BRANCH:
		if (p->exception != PFT_EXC_NONE) {
			exception(d);
			d->have_pkt = 0;
			return;
		}
		if (!d->synced) {
			unsynced_atom(d, 1, 1);
			d->have_pkt = 0;
			return;
		}
		pft_flow_walk_start(d, WALK_BRANCH, 1, (p->flags & PFT_PKT_F_CC) != 0, p->cycles);
		break;
	case PFT_PKT_WAYPOINT_UPDATE:
		if (!d->synced) {
			it = event(d, PFT_EV_NO_ADDRESS);
			it->flags |= PFT_FLOW_F_WPU;
			d->have_pkt = 0;
			return;
		}
		pft_flow_walk_start(d, WALK_WPU, 0, 0, 0);
		break;
	case PFT_PKT_ISYNC:
		isync(d);
		break;
	case PFT_PKT_CONTEXT_ID:
		d->cs.cid = d->ls.cid = p->context_id;
		d->cs.cid_valid = d->ls.cid_valid = 1;
		it = event(d, PFT_EV_CONTEXT_ID);
		it->value = p->context_id;
		break;
	case PFT_PKT_VMID:
		d->cs.vmid = d->ls.vmid = p->vmid;
		d->cs.vmid_valid = d->ls.vmid_valid = 1;
		it = event(d, PFT_EV_VMID);
		it->value = p->vmid;
		break;
	case PFT_PKT_TIMESTAMP:
		it = event(d, PFT_EV_TIMESTAMP);
		it->value = p->timestamp;
		if (p->flags & PFT_PKT_F_CC) {
			it->flags |= PFT_FLOW_F_CC;
			it->cycles = p->cycles;
		}
		if (p->flags & PFT_PKT_F_TS_R)
			it->flags |= PFT_FLOW_F_TS_R;
		if (d->last_wp_valid) {
			it->flags |= PFT_FLOW_F_ADDR;
			it->addr = d->last_wp_addr;
			it->isa = d->last_wp_isa;
		}
		break;
	case PFT_PKT_EXCEPTION_RETURN:
		event(d, PFT_EV_EXCEPTION_RETURN);
		break;
	case PFT_PKT_TRIGGER:
		event(d, PFT_EV_TRIGGER);
		break;
	case PFT_PKT_UNSYNCED:
		it = event(d, PFT_EV_UNSYNCED);
		it->value = p->size;
		break;
	case PFT_PKT_ERROR:
		it = event(d, PFT_EV_PACKET_ERROR);
		it->value = p->size;
		it->reason = p->reason;
		lose_sync(d);
		break;
	default: /* A-sync, ignore: nothing to do (B.3.1 5b, 5c) */
		break;
	}
	if (d->walk.mode != WALK_NONE) {
		/* a walk started: its first step now */
		pft_flow_walk_step(d);
		if (d->walk.mode == WALK_NONE &&
		    !(p->type == PFT_PKT_ATOM && d->atom_i < p->atom_count))
			d->have_pkt = 0;
		return;
	}
	d->have_pkt = 0;
}

/* Get the next packet into cur.  0, -PFT_E_AGAIN or -PFT_E_EOS. */
static int fetch(struct pft_flow_decoder *d)
{
	int err;

	if (d->input == INPUT_PACKETS) {
		if (!d->slot_full)
			return d->ended ? -PFT_E_EOS : -PFT_E_AGAIN;
		d->cur = d->slot;
		d->slot_full = 0;
	} else {
		if (d->input == INPUT_NONE)
			return d->ended ? -PFT_E_EOS : -PFT_E_AGAIN;
		err = pft_pkt_decoder_next(d->pkt, &d->cur, sizeof(d->cur));
		if (err < 0)
			return err;
	}
	d->st.bytes += d->cur.size;
	if (d->cur.type != PFT_PKT_UNSYNCED && d->cur.type != PFT_PKT_ERROR)
		d->st.packets++;
	d->have_pkt = 1;
	d->atom_i = 0;
	d->walk.mode = WALK_NONE;
	return 0;
}

#if defined(__GNUC__)
#define FLOW_NOINLINE __attribute__((noinline))
#else
#define FLOW_NOINLINE
#endif

static FLOW_NOINLINE int next_sized(struct pft_flow_decoder *d, struct pft_flow_item *item,
				    size_t size);

/* The loop is here, not in a helper that both sizes share: as a separate
 * function it was not inlined and cost 15 M instructions on bench_flow 2
 * (4.5%).  A caller's struct of another size goes through next_sized(). */
int pft_flow_decoder_next(struct pft_flow_decoder *d, struct pft_flow_item *item, size_t size)
{
	if (!d || !item || size != sizeof(*item))
		return next_sized(d, item, size);
	for (;;) {
		if (d->qn) {
			/* an overflow leaves the queue full (even across a
			 * resync): every later call comes here and fails */
			if (d->q_overflow)
				return -PFT_E_INTERNAL;
			*item = d->q[d->qhead];
			d->qhead = (d->qhead + 1) % FLOW_QCAP;
			d->qn--;
			return 0;
		}
		if (!d->have_pkt) {
			int err = fetch(d);

			if (err == -PFT_E_AGAIN)
				d->need_input = 1;
			if (err < 0)
				return err;
		}
		d->direct = item;
		step(d);
		if (!d->direct)
			return 0;
		d->direct = NULL;
	}
}

/* A caller's struct pft_flow_item of another (older or newer) size: the
 * item goes through a full one and the smaller size is copied. */
static int next_sized(struct pft_flow_decoder *d, struct pft_flow_item *item, size_t size)
{
	struct pft_flow_item tmp;
	int r;

	if (!d || !item || !size)
		return -PFT_E_INVAL;
	memset(&tmp, 0, sizeof(tmp));
	r = pft_flow_decoder_next(d, &tmp, sizeof(tmp));
	pft_copy_out(item, size, &tmp, sizeof(tmp));
	return r;
}

int pft_flow_decoder_get_stats(const struct pft_flow_decoder *d, struct pft_flow_stats *st, size_t size)
{
	struct pft_flow_stats s;

	if (!d || !st || !size)
		return -PFT_E_INVAL;
	s = d->st;
	pft_blkcache_stats(d->bc, &s.cache_hits, &s.cache_misses);
	pft_copy_out(st, size, &s, sizeof(s));
	return 0;
}
