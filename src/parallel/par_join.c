/* SPDX-License-Identifier: BSD-3-Clause */
/* The serial decoder and the joins (pft/parallel.h, par_int.h). */
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "parallel/par_int.h"

enum { J_IDLE, J_RUN, J_ENDED, J_EOS };

struct pft_par {
	struct par_cfg c;
	struct par_dec dec;          /* the serial decoder */
	int state;
	int fed;                     /* bytes were given */
	uint64_t next_off;           /* where the next stretch must start */
	/* the stretch being joined */
	struct pft_par_seg *seg;     /* NULL once taken or given up */
	unsigned snap_i;             /* next snapshot to compare */
	/* a taken segment's items still to give: [q_i, q_n), then its held item */
	struct pft_par_seg *q;
	size_t q_i, q_n;
	int q_held;
	uint64_t q_delta;            /* FLOW: instruction index shift of q's items */
	int pkt_in_flow;             /* FLOW: a packet was put, its items not all pulled */
	uint64_t pkt_end;            /* offset after that packet */
	struct par_counts counts;
	struct pft_par_join_stats js;
};

struct pft_par *pft_par_alloc(enum pft_par_kind kind, const struct pft_config *cfg,
			      struct pft_image *img, enum pft_isync_resync mode)
{
	struct pft_par *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	if (par_cfg_init(&p->c, kind, cfg, img, mode) || par_dec_open(&p->dec, &p->c, 0)) {
		pft_par_free(p);
		return NULL;
	}
	return p;
}

void pft_par_free(struct pft_par *p)
{
	if (!p)
		return;
	par_dec_close(&p->dec);
	free(p);
}

static int busy(const struct pft_par *p)
{
	return p->state == J_RUN;
}

/* The serial decoder takes over segment s at snapshot sn (NULL: the whole
 * segment, which started where the stream starts). */
static void take(struct pft_par *p, struct pft_par_seg *s, const struct par_snap *sn)
{
	struct par_snap start;
	struct par_dec old;
	unsigned t, j;

	if (!sn) {
		memset(&start, 0, sizeof start);
		sn = &start;
		p->counts.first_error = s->counts.first_error;
	} else {
		p->js.joined++;
	}
	if (p->c.kind == PFT_PAR_FLOW) {
		struct pft_flow_stats st, segst;

		par_dec_get_stats(&p->dec, &st);
		par_dec_get_stats(&s->dec, &segst);
		par_stats_add_delta(&st, &segst, &sn->st);
		p->q_delta = par_dec_index(&p->dec) - sn->insn_index;
		par_dec_rebase(&s->dec, p->q_delta, &st);
	} else {
		uint64_t before = p->counts.errors;

		for (t = 0; t < PAR_NTYPES; t++) {
			p->counts.count[t] += s->counts.count[t] - sn->counts.count[t];
			p->counts.bytes[t] += s->counts.bytes[t] - sn->counts.bytes[t];
		}
		p->counts.errors += s->counts.errors - sn->counts.errors;
		if (!before && p->counts.errors && sn != &start) {
			/* the first error after sn: noted at sn or a later snapshot */
			j = (unsigned)(sn - s->snaps);
			while (j < s->nsnap && s->snaps[j].first_error == UINT64_MAX)
				j++;
			p->counts.first_error = j < s->nsnap ? s->snaps[j].first_error : 0;
		}
	}
	/* the segment's decoders become the serial ones; the old serial
	   ones go to the segment, to be made fresh for its next stretch */
	old = p->dec;
	p->dec = s->dec;
	s->dec = old;
	p->q = s;
	p->q_i = sn->nitems;
	p->q_n = s->n;
	p->q_held = s->held;
	p->pkt_in_flow = 0;
	p->seg = NULL;
	s->decoded = 0;
}

int pft_par_join(struct pft_par *p, struct pft_par_seg *s, const uint8_t *buf, size_t len,
		 uint64_t off)
{
	int r;

	if (!p || (!buf && len) || busy(p) || p->state >= J_ENDED || off != p->next_off)
		return -PFT_E_INVAL;
	if (s && (!s->decoded || s->buf != buf || s->len != len || s->off != off ||
		  s->c.kind != p->c.kind || s->c.e3 != p->c.e3))
		return -PFT_E_INVAL;
	p->next_off = off + len;
	p->state = J_RUN;
	p->q = NULL;
	p->seg = NULL;
	p->snap_i = 0;
	if (s && !p->fed && off == 0) {
		/* the stream's start: the segment is the serial decoder */
		p->fed = 1;
		take(p, s, NULL);
		return 0;
	}
	p->fed = 1;
	if (s && s->nsnap && s->status == -PFT_E_AGAIN) {
		/* packet by packet, to compare at the boundaries */
		p->seg = s;
		par_dec_to_packets(&p->dec);
	} else {
		p->js.serial++;
		par_dec_to_bytes(&p->dec);
	}
	r = par_dec_feed(&p->dec, buf, len);
	return r;
}

int pft_par_resync(struct pft_par *p)
{
	if (!p || busy(p) || p->state >= J_ENDED)
		return -PFT_E_INVAL;
	par_dec_resync(&p->dec);
	p->pkt_in_flow = 0;
	p->q = NULL;
	p->seg = NULL;
	p->state = J_RUN;
	return 0;
}

int pft_par_end(struct pft_par *p)
{
	if (!p || busy(p) || p->state >= J_ENDED)
		return -PFT_E_INVAL;
	par_dec_end(&p->dec);
	p->q = NULL;
	p->seg = NULL;
	p->state = J_ENDED;
	return 0;
}

/* A packet boundary of the serial decoder at off: compare with the
 * segment's snapshot there; take the segment if the states agree. */
static void boundary(struct pft_par *p, uint64_t off)
{
	struct pft_par_seg *s = p->seg;
	struct par_state st;

	p->js.overlap_packets++;
	while (p->snap_i < s->nsnap && s->snaps[p->snap_i].off < off)
		p->snap_i++;
	if (p->snap_i == s->nsnap) {
		p->seg = NULL; /* past the last snapshot: serial to the end */
		p->js.serial++;
		return;
	}
	if (s->snaps[p->snap_i].off != off || !par_dec_state(&p->dec, &st) ||
	    memcmp(&st, &s->snaps[p->snap_i].s, sizeof st))
		return;
	take(p, s, &s->snaps[p->snap_i]);
}

/* The end of a stretch (or of the stream). */
static int stop(struct pft_par *p, int r)
{
	if (r == -PFT_E_AGAIN) {
		if (p->seg) {
			p->seg = NULL;
			p->js.serial++;
		}
		p->state = J_IDLE;
	} else if (r == -PFT_E_EOS) {
		p->state = J_EOS;
	}
	return r;
}

/* The next packet of either protocol (PACKETS). */
static int next_pkt(struct pft_par *p, union par_pkt *u)
{
	int r;

	if (p->state == J_IDLE)
		return -PFT_E_AGAIN;
	if (p->state == J_EOS)
		return -PFT_E_EOS;
	if (p->q) {
		if (p->q_i < p->q_n) {
			if (p->dec.e3)
				u->e = p->q->out.etm3_pkts[p->q_i++];
			else
				u->p = p->q->out.pkts[p->q_i++];
			return 0;
		}
		p->q = NULL;
	}
	r = par_dec_next_pkt(&p->dec, u);
	if (r)
		return stop(p, r);
	par_counts_add(&p->counts, &p->dec, u);
	if (p->seg)
		boundary(p, par_pkt_end(&p->dec, u));
	return 0;
}

int pft_par_next_packet(struct pft_par *p, struct pft_packet *pkt, size_t size)
{
	union par_pkt u;
	int r;

	if (!p || !pkt || size != sizeof *pkt || p->c.kind != PFT_PAR_PACKETS || p->c.e3)
		return -PFT_E_INVAL;
	r = next_pkt(p, &u);
	if (!r)
		*pkt = u.p;
	return r;
}

int pft_par_next_etm3_packet(struct pft_par *p, struct pft_etm3_packet *pkt, size_t size)
{
	union par_pkt u;
	int r;

	if (!p || !pkt || size != sizeof *pkt || p->c.kind != PFT_PAR_PACKETS || !p->c.e3)
		return -PFT_E_INVAL;
	r = next_pkt(p, &u);
	if (!r)
		*pkt = u.e;
	return r;
}

int pft_par_next_item(struct pft_par *p, struct pft_flow_item *it, size_t size)
{
	union par_pkt u;
	int r;

	if (!p || !it || size != sizeof *it || p->c.kind != PFT_PAR_FLOW)
		return -PFT_E_INVAL;
	if (p->state == J_IDLE)
		return -PFT_E_AGAIN;
	if (p->state == J_EOS)
		return -PFT_E_EOS;
	for (;;) {
		if (p->q) {
			if (p->q_i < p->q_n) {
				*it = p->q->out.items[p->q_i++];
				it->index += p->q_delta;
				return 0;
			}
			if (p->q_held) {
				p->q_held = 0;
				*it = p->q->hold;
				it->index += p->q_delta;
				return 0;
			}
			p->q = NULL;
		}
		r = par_dec_next_item(&p->dec, it);
		if (p->dec.bytes && r == -PFT_E_AGAIN)
			return stop(p, r);
		if (r != -PFT_E_AGAIN)
			return r == -PFT_E_EOS ? stop(p, r) : r;
		if (p->pkt_in_flow) {
			p->pkt_in_flow = 0;
			if (p->seg) {
				boundary(p, p->pkt_end);
				continue;
			}
		}
		r = par_dec_next_pkt(&p->dec, &u);
		if (r == -PFT_E_EOS && !p->dec.flow_ended) {
			par_dec_flow_end(&p->dec);
			continue;
		}
		if (r)
			return stop(p, r);
		par_dec_put(&p->dec, &u);
		p->pkt_in_flow = 1;
		p->pkt_end = par_pkt_end(&p->dec, &u);
	}
}

int pft_par_drain(struct pft_par *p)
{
	union par_pkt u;
	struct pft_flow_item it;
	struct par_counts k;
	int r;

	if (!p)
		return -PFT_E_INVAL;
	if (p->c.kind == PFT_PAR_FLOW) {
		while ((r = pft_par_next_item(p, &it, sizeof it)) == 0)
			;
		return r;
	}
	for (;;) {
		if (p->state == J_IDLE)
			return -PFT_E_AGAIN;
		if (p->state == J_EOS)
			return -PFT_E_EOS;
		if (p->q || p->seg) {
			/* a taken segment's items, or a join still looking for
			   its boundary: one at a time */
			r = next_pkt(p, &u);
			if (r)
				return r;
			continue;
		}
		memset(&k, 0, sizeof k);
		r = par_dec_count(&p->dec, &k);
		par_counts_merge(&p->counts, &k);
		return stop(p, r);
	}
}

int pft_par_get_counts(const struct pft_par *p, struct pft_par_counts *c, size_t size)
{
	struct pft_par_counts out;

	if (!p || !c || !size || p->c.e3)
		return -PFT_E_INVAL;
	memset(&out, 0, sizeof out);
	memcpy(out.count, p->counts.count, sizeof out.count);
	memcpy(out.bytes, p->counts.bytes, sizeof out.bytes);
	out.errors = p->counts.errors;
	out.first_error = p->counts.first_error;
	pft_copy_out(c, size, &out, sizeof out);
	return 0;
}

int pft_par_get_etm3_counts(const struct pft_par *p, struct pft_etm3_counts *c, size_t size)
{
	struct pft_etm3_counts out;

	if (!p || !c || !size || !p->c.e3)
		return -PFT_E_INVAL;
	memset(&out, 0, sizeof out);
	memcpy(out.items, p->counts.count, sizeof out.items);
	memcpy(out.bytes, p->counts.bytes, sizeof out.bytes);
	out.first_error = p->counts.first_error;
	pft_copy_out(c, size, &out, sizeof out);
	return 0;
}

int pft_par_get_stats(const struct pft_par *p, struct pft_flow_stats *st, size_t size)
{
	struct pft_flow_stats out;

	if (!p || !st || !size || p->c.kind != PFT_PAR_FLOW || (!p->dec.flow && !p->dec.e3flow))
		return -PFT_E_INVAL;
	par_dec_get_stats(&p->dec, &out);
	pft_copy_out(st, size, &out, sizeof out);
	return 0;
}

int pft_par_get_join_stats(const struct pft_par *p, struct pft_par_join_stats *js, size_t size)
{
	if (!p || !js || !size)
		return -PFT_E_INVAL;
	pft_copy_out(js, size, &p->js, sizeof p->js);
	return 0;
}
