/* SPDX-License-Identifier: BSD-3-Clause */
/* A segment decoded speculatively by fresh decoders, recording the
 * snapshots a join compares against (pft/parallel.h, par_int.h). */
#include <stdlib.h>
#include <string.h>

#include "parallel/par_int.h"

struct pft_par_seg *pft_par_seg_alloc(enum pft_par_kind kind, const struct pft_config *cfg,
				      struct pft_image *img, enum pft_isync_resync mode)
{
	struct pft_par_seg *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->snaps = malloc(PFT_PAR_SNAPSHOTS * sizeof *s->snaps);
	if (!s->snaps || par_cfg_init(&s->c, kind, cfg, img, mode)) {
		pft_par_seg_free(s);
		return NULL;
	}
	return s;
}

void pft_par_seg_free(struct pft_par_seg *s)
{
	if (!s)
		return;
	par_dec_close(&s->dec);
	free(s->snaps);
	free(s);
}

/* A boundary after the item(s) of one packet: recorded if comparable. */
static void snapshot(struct pft_par_seg *s, uint64_t off)
{
	struct par_snap *sn;

	if (s->nsnap >= PFT_PAR_SNAPSHOTS)
		return;
	sn = &s->snaps[s->nsnap];
	if (!par_dec_state(&s->dec, &sn->s))
		return;
	sn->off = off;
	sn->first_error = UINT64_MAX;
	sn->nitems = s->n;
	sn->ninsns = s->ninsns;
	sn->counts = s->counts;
	if (s->c.kind == PFT_PAR_FLOW) {
		sn->insn_index = par_dec_index(&s->dec);
		par_dec_get_stats(&s->dec, &sn->st);
	}
	s->nsnap++;
}

/* An error item at off: the first after the last snapshot is noted there. */
static void note_error(struct pft_par_seg *s, uint64_t off)
{
	if (s->nsnap && s->snaps[s->nsnap - 1].first_error == UINT64_MAX)
		s->snaps[s->nsnap - 1].first_error = off;
}

/* Store one flow item (its instructions copied): 0, or 1 if there is no
 * room (the item is held and the segment stops). */
static int store_item(struct pft_par_seg *s, const struct pft_flow_item *it)
{
	const struct pft_par_buf *o = &s->out;
	struct pft_flow_item *d;

	size_t nc = it->insn_cycles ? it->ninsns : 0;

	if (!o->items)
		return 0;
	if (s->n == o->items_cap ||
	    (it->ninsns && o->insns && o->insns_cap - s->ninsns < it->ninsns) ||
	    (nc && (!o->cycles || o->cycles_cap - s->ncycles < nc))) {
		s->hold = *it;
		s->held = 1;
		s->full = 1;
		return 1;
	}
	d = &o->items[s->n++];
	*d = *it;
	if (it->ninsns && o->insns) {
		memcpy(o->insns + s->ninsns, it->insns, it->ninsns * sizeof *it->insns);
		d->insns = o->insns + s->ninsns;
		s->ninsns += it->ninsns;
	} else if (it->ninsns) {
		d->insns = NULL;
	}
	if (nc) {
		memcpy(o->cycles + s->ncycles, it->insn_cycles, nc * sizeof *it->insn_cycles);
		d->insn_cycles = o->cycles + s->ncycles;
		s->ncycles += nc;
	}
	return 0;
}

/* Packet boundaries are recorded one at a time until the snapshots are
 * taken (or after COUNT_AFTER packets); the rest of the segment is read
 * in bytes mode (par_int.h), or counted. */
#define COUNT_AFTER (4u * PFT_PAR_SNAPSHOTS)

static int decode_flow(struct pft_par_seg *s)
{
	union par_pkt u;
	struct pft_flow_item it;
	unsigned seen = 0;
	int r;

	while (s->nsnap < PFT_PAR_SNAPSHOTS && seen < COUNT_AFTER) {
		r = par_dec_next_pkt(&s->dec, &u);
		if (r)
			return r;
		seen++;
		par_dec_put(&s->dec, &u);
		while ((r = par_dec_next_item(&s->dec, &it)) == 0)
			if (store_item(s, &it))
				return -PFT_E_AGAIN;
		if (r != -PFT_E_AGAIN)
			return r;
		snapshot(s, par_pkt_end(&s->dec, &u));
	}
	par_dec_to_bytes(&s->dec);
	if (!s->out.items) /* totals only: the tight loop of a serial --stats run */
		return par_dec_skip_items(&s->dec);
	while ((r = par_dec_next_item(&s->dec, &it)) == 0)
		if (store_item(s, &it))
			return -PFT_E_AGAIN;
	return r;
}

/* Packets with no buffer: once the snapshots are taken (or after
 * COUNT_AFTER packets), the rest is counted without building packets. */
static int decode_packets(struct pft_par_seg *s)
{
	const struct pft_par_buf *o = &s->out;
	union par_pkt u;
	unsigned seen = 0;
	int keep = s->dec.e3 ? o->etm3_pkts != NULL : o->pkts != NULL;
	size_t cap = s->dec.e3 ? o->etm3_pkts_cap : o->pkts_cap;
	uint64_t errors;
	int r;

	for (;;) {
		if (keep && s->n == cap) {
			s->full = 1;
			return -PFT_E_AGAIN;
		}
		if (!keep && (s->nsnap == PFT_PAR_SNAPSHOTS || seen == COUNT_AFTER)) {
			struct par_counts k;

			memset(&k, 0, sizeof k);
			r = par_dec_count(&s->dec, &k);
			if (k.errors)
				note_error(s, k.first_error);
			par_counts_merge(&s->counts, &k);
			return r;
		}
		r = par_dec_next_pkt(&s->dec, &u);
		if (r)
			return r;
		seen++;
		errors = s->counts.errors;
		par_counts_add(&s->counts, &s->dec, &u);
		if (s->counts.errors != errors)
			note_error(s, par_pkt_offset(&s->dec, &u));
		if (keep) {
			if (s->dec.e3)
				o->etm3_pkts[s->n] = u.e;
			else
				o->pkts[s->n] = u.p;
			s->n++;
		}
		snapshot(s, par_pkt_end(&s->dec, &u));
	}
}

int pft_par_seg_decode(struct pft_par_seg *s, const uint8_t *buf, size_t len, uint64_t off,
		       const struct pft_par_buf *out)
{
	static const struct pft_par_buf none;
	int r;

	if (!s || (!buf && len))
		return -PFT_E_INVAL;
	s->decoded = 0;
	s->buf = buf;
	s->len = len;
	s->off = off;
	s->out = out ? *out : none;
	s->n = s->ninsns = s->ncycles = 0;
	s->full = s->held = 0;
	s->nsnap = 0;
	memset(&s->counts, 0, sizeof s->counts);
	r = par_dec_open(&s->dec, &s->c, off);
	if (r)
		return r;
	r = par_dec_feed(&s->dec, buf, len); /* packets mode */
	if (r)
		return r;
	s->status = s->c.kind == PFT_PAR_FLOW ? decode_flow(s) : decode_packets(s);
	s->decoded = 1;
	return s->status == -PFT_E_AGAIN ? 0 : s->status;
}
