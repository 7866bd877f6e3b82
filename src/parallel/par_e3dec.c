/* SPDX-License-Identifier: BSD-3-Clause */
/* The ETMv3 decoder pair of a segment or of the serial decoder: the ETMv3
 * packet decoder and (FLOW) the ETMv3 flow, with the flow totals the CLI's
 * serial path keeps (tools/pft/flow_any.c), and the snapshot of their state
 * at a packet boundary (par_int.h, etm3/etm3_par.h,
 * etm3flow/etm3_flow_par.h). */
#include <string.h>

#include "parallel/par_int.h"

/* The flow's own totals of the items output (as the serial path's: the
 * packets but unsynced runs and errors, instructions, ranges, events). */
static void flow_totals(const struct par_dec *d, struct pft_flow_stats *st)
{
	memset(st, 0, sizeof *st);
	if (d->e3flow)
		pft_etm3_flow_decoder_get_stats(d->e3flow, st, sizeof *st);
}

void par_e3_set_stats(struct par_dec *d, const struct pft_flow_stats *st)
{
	d->e3st = *st;
	d->e3st.bytes = 0; /* the packet decoder's offset */
	flow_totals(d, &d->e3base);
}

int par_e3_open(struct par_dec *d, const struct par_cfg *c, uint64_t base)
{
	struct pft_etm3_flow_decoder *f = d->e3flow;

	pft_etm3_decoder_free(d->e3pkt);
	memset(d, 0, sizeof *d);
	d->e3 = 1;
	d->e3flow = f;
	d->e3pkt = pft_etm3_decoder_alloc(&c->cfg);
	if (!d->e3pkt) {
		par_e3_close(d);
		return -PFT_E_NOMEM;
	}
	/* its offsets from base on: the stream's */
	etm3_decoder_set_base(d->e3pkt, base);
	if (c->kind != PFT_PAR_FLOW)
		return 0;
	if (f)
		etm3_flow_reset(f); /* fresh, its block cache kept */
	else
		d->e3flow = pft_etm3_flow_decoder_alloc(&c->cfg, c->img);
	if (!d->e3flow) {
		par_e3_close(d);
		return -PFT_E_NOMEM;
	}
	flow_totals(d, &d->e3base);
	return 0;
}

void par_e3_close(struct par_dec *d)
{
	pft_etm3_flow_decoder_free(d->e3flow);
	pft_etm3_decoder_free(d->e3pkt);
	d->e3flow = NULL;
	d->e3pkt = NULL;
}

int par_e3_state(const struct par_dec *d, struct par_state *s)
{
	if (d->bytes || d->flow_ended)
		return 0;
	memset(s, 0, sizeof *s);
	if (!etm3_decoder_state(d->e3pkt, &s->e3d))
		return 0;
	return !d->e3flow || etm3_flow_state(d->e3flow, &s->e3f);
}

void par_e3_put(struct par_dec *d, const struct pft_etm3_packet *p)
{
	pft_etm3_flow_decoder_put_packet(d->e3flow, p);
}

int par_e3_next_item(struct par_dec *d, struct pft_flow_item *it)
{
	int r;

	for (;;) {
		r = pft_etm3_flow_decoder_next(d->e3flow, it, sizeof *it);
		if (r != -PFT_E_AGAIN || !d->bytes)
			return r;
		/* bytes mode: the flow reads the packet decoder in place
		   (put_from, as flow_any.c) */
		r = pft_etm3_flow_decoder_put_from(d->e3flow, d->e3pkt);
		if (r == 0)
			continue;
		if (r == -PFT_E_EOS && !d->flow_ended) {
			d->flow_ended = 1;
			pft_etm3_flow_decoder_end(d->e3flow);
			continue;
		}
		return r;
	}
}

void par_e3_get_stats(const struct par_dec *d, struct pft_flow_stats *st)
{
	struct pft_flow_stats now;
	unsigned k;

	flow_totals(d, &now);
	*st = d->e3st;
	st->packets += now.packets - d->e3base.packets;
	st->insns += now.insns - d->e3base.insns;
	st->ranges += now.ranges - d->e3base.ranges;
	for (k = 0; k < PFT_EV_NR; k++)
		st->events[k] += now.events[k] - d->e3base.events[k];
	st->bytes = pft_etm3_decoder_get_offset(d->e3pkt);
}
