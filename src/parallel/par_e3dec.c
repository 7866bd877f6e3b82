/* SPDX-License-Identifier: BSD-3-Clause */
/* The ETMv3 decoder pair of a segment or of the serial decoder: the ETMv3
 * packet decoder and (FLOW) the ETMv3 flow, with the flow totals the CLI's
 * serial path keeps (tools/pft/flow_any.c), and the snapshot of their state
 * at a packet boundary (par_int.h, etm3/etm3_par.h,
 * etm3flow/etm3_flow_par.h). */
#include <stdlib.h>
#include <string.h>

#include "parallel/par_int.h"

int par_e3_open(struct par_dec *d, const struct par_cfg *c, uint64_t base)
{
	struct pft_etm3_flow_decoder *f = d->e3flow;
	struct pft_etm3_packet *batch = d->batch;

	pft_etm3_decoder_free(d->e3pkt);
	memset(d, 0, sizeof *d);
	d->e3 = 1;
	d->e3flow = f;
	d->batch = batch;
	d->e3pkt = pft_etm3_decoder_alloc(&c->cfg);
	if (!d->e3pkt) {
		par_e3_close(d);
		return -PFT_E_NOMEM;
	}
	/* its offsets from base on: the stream's */
	etm3_decoder_set_base(d->e3pkt, base);
	if (c->kind != PFT_PAR_FLOW)
		return 0;
	if (!d->batch)
		d->batch = malloc(PAR_E3_BATCH * sizeof *d->batch);
	if (f)
		etm3_flow_reset(f); /* fresh, its block cache kept */
	else
		d->e3flow = pft_etm3_flow_decoder_alloc(&c->cfg, c->img);
	if (!d->batch || !d->e3flow) {
		par_e3_close(d);
		return -PFT_E_NOMEM;
	}
	return 0;
}

void par_e3_close(struct par_dec *d)
{
	pft_etm3_flow_decoder_free(d->e3flow);
	pft_etm3_decoder_free(d->e3pkt);
	free(d->batch);
	d->e3flow = NULL;
	d->e3pkt = NULL;
	d->batch = NULL;
	d->ib = d->nb = 0;
}

int par_e3_state(const struct par_dec *d, struct par_state *s)
{
	if (d->bytes || d->ib < d->nb || d->flow_ended)
		return 0;
	memset(s, 0, sizeof *s);
	if (!etm3_decoder_state(d->e3pkt, &s->e3d))
		return 0;
	return !d->e3flow || etm3_flow_state(d->e3flow, &s->e3f);
}

static int counted(const struct pft_etm3_packet *p)
{
	return p->type != PFT_ETM3_UNSYNCED && p->type != PFT_ETM3_ERROR;
}

void par_e3_put(struct par_dec *d, const struct pft_etm3_packet *p)
{
	d->e3st.packets += counted(p);
	pft_etm3_flow_decoder_put_packet(d->e3flow, p);
}

int par_e3_next_item(struct par_dec *d, struct pft_flow_item *it)
{
	int r, i;

	for (;;) {
		r = pft_etm3_flow_decoder_next(d->e3flow, it, sizeof *it);
		if (r == 0) {
			if (it->kind == PFT_FLOW_EVENT) {
				if (it->type < PFT_EV_NR)
					d->e3st.events[it->type]++;
			} else {
				d->e3st.ranges++;
				d->e3st.insns += it->ninsns;
			}
			return 0;
		}
		if (r != -PFT_E_AGAIN || !d->bytes)
			return r;
		/* bytes mode: the packets in batches, as flow_any.c */
		if (d->ib < d->nb) {
			r = pft_etm3_flow_decoder_put_packets(d->e3flow, d->batch + d->ib,
							      d->nb - d->ib, sizeof *d->batch);
			if (r < 0)
				return r;
			d->ib += (unsigned)r;
			continue;
		}
		r = pft_etm3_decoder_next_batch(d->e3pkt, d->batch, PAR_E3_BATCH, sizeof *d->batch);
		if (r > 0) {
			d->nb = (unsigned)r;
			d->ib = 0;
			for (i = 0; i < r; i++)
				d->e3st.packets += counted(&d->batch[i]);
			continue;
		}
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
	*st = d->e3st;
	st->bytes = pft_etm3_decoder_get_offset(d->e3pkt);
}
