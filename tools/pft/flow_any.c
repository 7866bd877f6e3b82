/* SPDX-License-Identifier: BSD-3-Clause */
/* The instruction flow of either protocol (flow_any.h). */
#include <stdlib.h>
#include <string.h>

#include "pft/etm3.h"
#include "pft/etm3flow.h"
#include "flow_any.h"
#include "input.h"

struct flow_any {
	struct pft_flow_decoder *pft;      /* a PFT source */
	struct pft_etm3_decoder *pk;       /* an ETMv3 source: packets ... */
	struct pft_etm3_flow_decoder *fl;  /* ... and their flow */
	int flow_ended;                    /* pft_etm3_flow_decoder_end() called */
};

struct flow_any *flow_any_alloc(const struct pft_config *cfg, struct pft_image *img,
				int isync_resync)
{
	struct flow_any *fa = calloc(1, sizeof *fa);

	if (!fa)
		return NULL;
	if (input_is_etm3(cfg)) {
		fa->pk = pft_etm3_decoder_alloc(cfg);
		fa->fl = pft_etm3_flow_decoder_alloc(cfg, img);
		if (!fa->pk || !fa->fl) {
			flow_any_free(fa);
			return NULL;
		}
		return fa;
	}
	fa->pft = pft_flow_decoder_alloc(cfg, img);
	if (!fa->pft) {
		free(fa);
		return NULL;
	}
	pft_flow_decoder_set_isync_resync(fa->pft, (enum pft_isync_resync)isync_resync);
	return fa;
}

void flow_any_free(struct flow_any *fa)
{
	if (!fa)
		return;
	pft_flow_decoder_free(fa->pft);
	pft_etm3_flow_decoder_free(fa->fl);
	pft_etm3_decoder_free(fa->pk);
	free(fa);
}

int flow_any_is_etm3(const struct flow_any *fa)
{
	return fa->pk != NULL;
}

int flow_any_feed(struct flow_any *fa, const uint8_t *buf, size_t len)
{
	if (fa->pft)
		return pft_flow_decoder_feed(fa->pft, buf, len);
	return pft_etm3_decoder_feed(fa->pk, buf, len);
}

int flow_any_end(struct flow_any *fa)
{
	if (fa->pft)
		return pft_flow_decoder_end(fa->pft);
	return pft_etm3_decoder_end(fa->pk);
}

void flow_any_resync(struct flow_any *fa)
{
	if (fa->pft)
		pft_flow_decoder_resync(fa->pft);
	else
		pft_etm3_decoder_resync(fa->pk);
}

/* ETMv3: the flow's next item, the flow taking packets from the packet
 * decoder as it needs them; after the packets' end, the flow's end. */
static int next_etm3(struct flow_any *fa, struct pft_flow_item *it)
{
	int r;

	for (;;) {
		r = pft_etm3_flow_decoder_next(fa->fl, it, sizeof *it);
		if (r != -PFT_E_AGAIN)
			return r;
		r = pft_etm3_flow_decoder_put_from(fa->fl, fa->pk);
		if (r == -PFT_E_EOS && !fa->flow_ended) {
			fa->flow_ended = 1;
			r = pft_etm3_flow_decoder_end(fa->fl);
		}
		if (r)
			return r;
	}
}

int flow_any_next(struct flow_any *fa, struct pft_flow_item *it)
{
	if (fa->pft)
		return pft_flow_decoder_next(fa->pft, it, sizeof *it);
	return next_etm3(fa, it);
}

int flow_any_skip(struct flow_any *fa)
{
	struct pft_flow_item it;
	int r;

	if (fa->pft) {
		while ((r = pft_flow_decoder_next(fa->pft, &it, sizeof it)) == 0)
			;
		return r;
	}
	while ((r = next_etm3(fa, &it)) == 0)
		;
	return r;
}

void flow_any_get_stats(const struct flow_any *fa, struct pft_flow_stats *st)
{
	if (fa->pft) {
		pft_flow_decoder_get_stats(fa->pft, st, sizeof *st);
		return;
	}
	pft_etm3_flow_decoder_get_stats(fa->fl, st, sizeof *st);
	st->bytes = pft_etm3_decoder_get_offset(fa->pk);
}
