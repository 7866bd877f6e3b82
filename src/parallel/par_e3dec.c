/* SPDX-License-Identifier: BSD-3-Clause */
/* The ETMv3 decoder pair of a segment or of the serial decoder: the ETMv3
 * packet decoder and (FLOW) the ETMv3 flow, with the flow totals the CLI's
 * serial path keeps (tools/pft/flow_any.c), and the snapshot of their state
 * at a packet boundary (par_int.h, etm3/etm3_par.h,
 * etm3flow/etm3_flow_par.h). */
#include <string.h>

#include "parallel/par_int.h"

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
	struct pft_flow_stats before, after;
	int r;

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
		/* bytes mode: the flow reads the packet decoder in place
		   (put_from, as flow_any.c), the packets it took counted */
		pft_etm3_flow_decoder_get_stats(d->e3flow, &before, sizeof before);
		r = pft_etm3_flow_decoder_put_from(d->e3flow, d->e3pkt);
		pft_etm3_flow_decoder_get_stats(d->e3flow, &after, sizeof after);
		d->e3st.packets += after.packets - before.packets;
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
	*st = d->e3st;
	st->bytes = pft_etm3_decoder_get_offset(d->e3pkt);
}
