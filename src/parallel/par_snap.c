/* SPDX-License-Identifier: BSD-3-Clause */
/* The decoder pair of a segment or of the serial decoder, and the snapshot
 * of its state at a packet boundary (par_int.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "flow/flow_int.h"
#include "packet/pkt_internal.h"
#include "parallel/par_int.h"
#include "pft/image.h"

int par_cfg_init(struct par_cfg *c, enum pft_par_kind kind, const struct pft_config *cfg,
		 struct pft_image *img, enum pft_isync_resync mode)
{
	struct pft_features f;

	if (!c || !cfg || (kind != PFT_PAR_PACKETS && kind != PFT_PAR_FLOW) ||
	    (unsigned)mode > PFT_ISYNC_RESYNC_ALWAYS || pft_config_features(cfg, &f) < 0)
		return -PFT_E_INVAL;
	/* segments read the image on several threads: its map is built here,
	   on the allocating thread, not on a first read */
	if (img && pft_image_prepare(img))
		return -PFT_E_NOMEM;
	memset(c, 0, sizeof *c);
	c->kind = kind;
	(void)pft_config_copy(&c->cfg, cfg);
	c->img = img;
	c->mode = mode;
	return 0;
}

int par_dec_open(struct par_dec *d, const struct par_cfg *c, uint64_t base)
{
	struct pft_flow_decoder *f;

	par_dec_to_packets(d);
	f = d->flow;
	pft_pkt_decoder_free(d->pkt);
	memset(d, 0, sizeof *d);
	d->pkt = pft_pkt_decoder_alloc(&c->cfg);
	if (!d->pkt) {
		pft_flow_decoder_free(f);
		return -PFT_E_NOMEM;
	}
	/* its offsets from base on: the stream's */
	d->pkt->buf_off = base;
	d->pkt->run_off = base;
	pft_pkt_decoder_set_isync_resync(d->pkt, c->mode);
	if (c->kind != PFT_PAR_FLOW)
		return 0;
	if (f) {
		/* a used flow decoder made fresh again: everything from its
		   input state on is as pft_flow_decoder_alloc leaves it (zero);
		   the configuration, image, block cache (whose blocks depend
		   on the image only) and inner packet decoder stay */
		memset(&f->input, 0,
		       sizeof *f - offsetof(struct pft_flow_decoder, input));
		d->flow = f;
	} else {
		d->flow = pft_flow_decoder_alloc(&c->cfg, c->img);
		if (!d->flow) {
			par_dec_close(d);
			return -PFT_E_NOMEM;
		}
	}
	pft_flow_decoder_set_isync_resync(d->flow, c->mode);
	return 0;
}

static void swap_pkt(struct par_dec *d)
{
	struct pft_pkt_decoder *t = d->flow->pkt;

	d->flow->pkt = d->pkt;
	d->pkt = t;
	/* bytes mode: feeding is allowed (pulling finds what is left) */
	d->flow->need_input = 1;
	d->bytes = !d->bytes;
}

void par_dec_to_bytes(struct par_dec *d)
{
	if (!d->flow || d->bytes)
		return;
	swap_pkt(d);
	d->flow->input = INPUT_BYTES;
}

void par_dec_to_packets(struct par_dec *d)
{
	if (!d->flow || !d->bytes)
		return;
	swap_pkt(d);
	d->flow->input = INPUT_PACKETS;
}

void par_dec_close(struct par_dec *d)
{
	par_dec_to_packets(d);
	pft_flow_decoder_free(d->flow);
	pft_pkt_decoder_free(d->pkt);
	d->flow = NULL;
	d->pkt = NULL;
}

static void flow_part(const struct pft_flow_decoder *f, struct par_state *s)
{
	const struct pft_rstack *rs = &f->rs;
	unsigned i;

	s->synced = f->synced;
	s->last_wp_valid = f->last_wp_valid;
	if (f->last_wp_valid) {
		s->last_wp_isa = f->last_wp_isa;
		s->last_wp_addr = f->last_wp_addr;
	}
	s->cs_isa = f->cs.isa;
	s->cs_ns = f->cs.ns;
	s->cs_hyp = f->cs.hyp;
	s->cs_vmid = f->cs.vmid;
	s->cs_addr_valid = f->cs.addr_valid;
	s->cs_cid_valid = f->cs.cid_valid;
	s->cs_vmid_valid = f->cs.vmid_valid;
	s->cs_cid = f->cs.cid;
	s->cs_addr = f->cs.addr;
	s->ls_isa = f->ls.isa;
	s->ls_ns = f->ls.ns;
	s->ls_hyp = f->ls.hyp;
	s->ls_vmid = f->ls.vmid;
	s->ls_addr_valid = f->ls.addr_valid;
	s->ls_cid_valid = f->ls.cid_valid;
	s->ls_vmid_valid = f->ls.vmid_valid;
	s->ls_cid = f->ls.cid;
	s->ls_addr = f->ls.addr;
	s->rs_n = rs->n;
	s->rs_depth = rs->depth;
	for (i = 0; i < rs->n && i < PFT_RSTACK_MAX; i++) {
		const struct pft_rstack_entry *e =
			&rs->e[(rs->top + 2u * PFT_RSTACK_MAX - 1u - i) % PFT_RSTACK_MAX];
		s->rs_addr[i] = e->addr;
		s->rs_isa[i] = e->isa;
		s->rs_ns[i] = e->ns;
	}
}

int par_dec_state(const struct par_dec *d, struct par_state *s)
{
	const struct pft_pkt_decoder *p = d->pkt;
	const struct pft_flow_decoder *f = d->flow;

	if (d->bytes || p->mode != M_SYNC || p->has_pend || p->part_len || p->ended)
		return 0;
	if (f && (f->qn || f->have_pkt || f->slot_full || f->walk.mode != WALK_NONE ||
		  f->q_overflow || f->ended))
		return 0;
	memset(s, 0, sizeof *s);
	s->ts = p->st.ts;
	s->base_addr = p->st.base_addr;
	s->base_isa = p->st.base_isa;
	s->ns = p->st.ns;
	s->hyp = p->st.hyp;
	s->mode = p->mode;
	s->synced_once = p->synced_once;
	s->isync_resync = p->isync_resync;
	s->win_n = p->win_n;
	s->win = p->win_n >= 8 ? p->win : p->win & ((1ull << (8 * p->win_n)) - 1);
	if (f)
		flow_part(f, s);
	return 1;
}

uint64_t par_dec_index(const struct par_dec *d)
{
	return d->flow ? d->flow->insn_index : 0;
}

void par_dec_rebase(struct par_dec *d, uint64_t delta, const struct pft_flow_stats *st)
{
	struct pft_flow_decoder *f = d->flow;
	uint64_t hits = f->st.cache_hits, misses = f->st.cache_misses;
	unsigned i;

	f->insn_index += delta;
	/* items of the current step already queued carry the old index */
	for (i = 0; i < f->qn; i++)
		f->q[(f->qhead + i) % FLOW_QCAP].index += delta;
	f->st = *st;
	f->st.cache_hits = hits;
	f->st.cache_misses = misses;
}

void par_counts_add(struct pft_par_counts *c, const struct pft_packet *p)
{
	unsigned t = p->type < PFT_PKT_NR_TYPES ? p->type : PFT_PKT_ERROR;

	c->count[t]++;
	c->bytes[t] += p->size;
	if (t == PFT_PKT_ERROR && !c->errors++)
		c->first_error = p->offset;
}

void par_counts_add_pkt(struct pft_par_counts *c, const struct pft_pkt_counts *k)
{
	unsigned t;

	for (t = 0; t < PFT_PKT_NR_TYPES && t < PFT_PKT_COUNT_TYPES; t++) {
		c->count[t] += k->items[t];
		c->bytes[t] += k->bytes[t];
	}
	if (k->items[PFT_PKT_ERROR] && !c->errors)
		c->first_error = k->first_error;
	c->errors += k->items[PFT_PKT_ERROR];
}

void par_stats_add_delta(struct pft_flow_stats *a, const struct pft_flow_stats *b,
			 const struct pft_flow_stats *since)
{
	unsigned i;

	a->bytes += b->bytes - since->bytes;
	a->packets += b->packets - since->packets;
	a->insns += b->insns - since->insns;
	a->ranges += b->ranges - since->ranges;
	for (i = 0; i < PFT_EV_NR; i++)
		a->events[i] += b->events[i] - since->events[i];
}
