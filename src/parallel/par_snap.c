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
	struct pft_etm3_features f3;
	int e3;

	if (!c || !cfg || (kind != PFT_PAR_PACKETS && kind != PFT_PAR_FLOW) ||
	    (unsigned)mode > PFT_ISYNC_RESYNC_ALWAYS)
		return -PFT_E_INVAL;
	/* the protocol: ETMv3 when the registers describe one */
	e3 = pft_etm3_config_features(cfg, &f3, NULL, 0) == 0;
	if (!e3 && pft_config_features(cfg, &f) < 0)
		return -PFT_E_INVAL;
	/* segments read the image on several threads: its map is built here,
	   on the allocating thread, not on a first read */
	if (img && pft_image_prepare(img))
		return -PFT_E_NOMEM;
	memset(c, 0, sizeof *c);
	c->kind = kind;
	c->e3 = e3;
	(void)pft_config_copy(&c->cfg, cfg);
	c->img = img;
	c->mode = mode;
	return 0;
}

int par_dec_open(struct par_dec *d, const struct par_cfg *c, uint64_t base)
{
	struct pft_flow_decoder *f;

	if (c->e3)
		return par_e3_open(d, c, base);
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
	if (d->e3) {
		d->bytes = d->e3flow != NULL; /* the flow reads the packet decoder */
		return;
	}
	if (!d->flow || d->bytes)
		return;
	swap_pkt(d);
	d->flow->input = INPUT_BYTES;
}

void par_dec_to_packets(struct par_dec *d)
{
	if (d->e3) {
		/* between stretches put_from has returned (the items were
		   pulled until -PFT_E_AGAIN): no packet is half given */
		d->bytes = 0;
		return;
	}
	if (!d->flow || !d->bytes)
		return;
	swap_pkt(d);
	d->flow->input = INPUT_PACKETS;
}

void par_dec_close(struct par_dec *d)
{
	if (d->e3) {
		par_e3_close(d);
		return;
	}
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

	if (d->e3)
		return par_e3_state(d, s);
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
	if (d->e3)
		return d->e3flow ? etm3_flow_index(d->e3flow) : 0;
	return d->flow ? d->flow->insn_index : 0;
}

void par_dec_get_stats(const struct par_dec *d, struct pft_flow_stats *st)
{
	if (d->e3)
		par_e3_get_stats(d, st);
	else
		pft_flow_decoder_get_stats(d->flow, st, sizeof *st);
}

void par_dec_rebase(struct par_dec *d, uint64_t delta, const struct pft_flow_stats *st)
{
	struct pft_flow_decoder *f = d->flow;
	uint64_t hits, misses;
	unsigned i;

	if (d->e3) {
		etm3_flow_rebase(d->e3flow, delta);
		par_e3_set_stats(d, st);
		return;
	}
	hits = f->st.cache_hits;
	misses = f->st.cache_misses;

	f->insn_index += delta;
	/* items of the current step already queued carry the old index */
	for (i = 0; i < f->qn; i++)
		f->q[(f->qhead + i) % FLOW_QCAP].index += delta;
	f->st = *st;
	f->st.cache_hits = hits;
	f->st.cache_misses = misses;
}

void par_counts_add(struct par_counts *c, const struct par_dec *d, const union par_pkt *u)
{
	unsigned t, err;
	uint32_t size;
	uint64_t off;

	if (d->e3) {
		t = u->e.type < PFT_ETM3_NR_TYPES ? u->e.type : PFT_ETM3_ERROR;
		err = PFT_ETM3_ERROR;
		size = u->e.size;
		off = u->e.offset;
	} else {
		t = u->p.type < PFT_PKT_NR_TYPES ? u->p.type : PFT_PKT_ERROR;
		err = PFT_PKT_ERROR;
		size = u->p.size;
		off = u->p.offset;
	}
	c->count[t]++;
	c->bytes[t] += size;
	if (t == err && !c->errors++)
		c->first_error = off;
}

_Static_assert(PFT_PKT_NR_TYPES <= PAR_NTYPES && PFT_PKT_COUNT_TYPES <= PAR_NTYPES &&
		       PFT_ETM3_NR_TYPES <= PAR_NTYPES && PFT_ETM3_COUNT_TYPES <= PAR_NTYPES,
	       "struct par_counts too small");

int par_dec_count(struct par_dec *d, struct par_counts *c)
{
	unsigned t, err;
	uint64_t nerr, first;
	int r;

	if (d->e3) {
		struct pft_etm3_counts k;

		memset(&k, 0, sizeof k);
		r = pft_etm3_decoder_count(d->e3pkt, &k, sizeof k);
		for (t = 0; t < PFT_ETM3_NR_TYPES; t++) {
			c->count[t] += k.items[t];
			c->bytes[t] += k.bytes[t];
		}
		err = PFT_ETM3_ERROR;
		nerr = k.items[err];
		first = k.first_error;
	} else {
		struct pft_pkt_counts k;

		memset(&k, 0, sizeof k);
		r = pft_pkt_decoder_count(d->pkt, &k, sizeof k);
		for (t = 0; t < PFT_PKT_NR_TYPES && t < PFT_PKT_COUNT_TYPES; t++) {
			c->count[t] += k.items[t];
			c->bytes[t] += k.bytes[t];
		}
		err = PFT_PKT_ERROR;
		nerr = k.items[err];
		first = k.first_error;
	}
	if (nerr && !c->errors)
		c->first_error = first;
	c->errors += nerr;
	return r;
}

int par_dec_feed(struct par_dec *d, const uint8_t *buf, size_t len)
{
	if (d->e3)
		return pft_etm3_decoder_feed(d->e3pkt, buf, len);
	if (d->bytes)
		return pft_flow_decoder_feed(d->flow, buf, len);
	return pft_pkt_decoder_feed(d->pkt, buf, len);
}

int par_dec_next_pkt(struct par_dec *d, union par_pkt *u)
{
	if (d->e3)
		return pft_etm3_decoder_next(d->e3pkt, &u->e, sizeof u->e);
	return pft_pkt_decoder_next(d->pkt, &u->p, sizeof u->p);
}

uint64_t par_pkt_offset(const struct par_dec *d, const union par_pkt *u)
{
	return d->e3 ? u->e.offset : u->p.offset;
}

uint64_t par_pkt_end(const struct par_dec *d, const union par_pkt *u)
{
	return d->e3 ? u->e.offset + u->e.size : u->p.offset + u->p.size;
}

void par_dec_put(struct par_dec *d, const union par_pkt *u)
{
	if (d->e3)
		par_e3_put(d, &u->e);
	else
		pft_flow_decoder_put_packet(d->flow, &u->p);
}

int par_dec_next_item(struct par_dec *d, struct pft_flow_item *it)
{
	if (d->e3)
		return par_e3_next_item(d, it);
	return pft_flow_decoder_next(d->flow, it, sizeof *it);
}

int par_dec_skip_items(struct par_dec *d)
{
	struct pft_flow_item it;
	int r;

	if (d->e3) {
		while ((r = par_e3_next_item(d, &it)) == 0)
			;
		return r;
	}
	while ((r = pft_flow_decoder_next(d->flow, &it, sizeof it)) == 0)
		;
	return r;
}

void par_dec_end(struct par_dec *d)
{
	if (d->e3) {
		pft_etm3_decoder_end(d->e3pkt);
	} else if (d->bytes) {
		pft_flow_decoder_end(d->flow);
		d->flow_ended = 1;
	} else {
		pft_pkt_decoder_end(d->pkt);
	}
}

void par_dec_flow_end(struct par_dec *d)
{
	if (d->flow_ended)
		return;
	d->flow_ended = 1;
	if (d->e3)
		pft_etm3_flow_decoder_end(d->e3flow);
	else
		pft_flow_decoder_end(d->flow);
}

void par_dec_resync(struct par_dec *d)
{
	if (d->e3) {
		/* as the CLI's serial path: the packet decoder searches for an
		   A-sync; the flow goes on (the unsynced run is its event) */
		pft_etm3_decoder_resync(d->e3pkt);
		return;
	}
	if (!d->bytes)
		pft_pkt_decoder_resync(d->pkt);
	if (d->flow) /* in bytes mode, its packet decoder too */
		pft_flow_decoder_resync(d->flow);
}

void par_counts_merge(struct par_counts *a, const struct par_counts *b)
{
	unsigned t;

	for (t = 0; t < PAR_NTYPES; t++) {
		a->count[t] += b->count[t];
		a->bytes[t] += b->bytes[t];
	}
	if (b->errors && !a->errors)
		a->first_error = b->first_error;
	a->errors += b->errors;
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
