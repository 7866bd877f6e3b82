/* SPDX-License-Identifier: BSD-3-Clause */
/* PFT packet decoder, floor 4: the decoder object's life cycle (alloc,
 * feed, end, offset) and pft_pkt_decode_buffer() over pft_pkt_decoder_next().  See
 * pkt_internal.h for the floors. */
#include <stddef.h>
#include <stdlib.h>

#include "packet/pkt_internal.h"

struct pft_pkt_decoder *pft_pkt_decoder_alloc(const struct pft_config *cfg)
{
	struct pft_features f;
	struct pft_pkt_decoder *d;

	if (pft_config_features(cfg, &f) < 0)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	pkt_dec_cfg_init(&d->cfg, &f);
	pkt_dec_state_reset(&d->st);
	d->mode = M_SEARCH;
	d->drained = 1;
	d->isync_resync = PFT_ISYNC_RESYNC_LOST;
	return d;
}

int pft_pkt_decoder_set_isync_resync(struct pft_pkt_decoder *dec, enum pft_isync_resync mode)
{
	if (!dec || (unsigned)mode > PFT_ISYNC_RESYNC_ALWAYS)
		return -PFT_E_INVAL;
	dec->isync_resync = (uint8_t)mode;
	return 0;
}

void pft_pkt_decoder_free(struct pft_pkt_decoder *dec)
{
	free(dec);
}

int pft_pkt_decoder_feed(struct pft_pkt_decoder *dec, const uint8_t *buf, size_t len)
{
	if (!dec || (!buf && len))
		return -PFT_E_INVAL;
	if (dec->ended || !dec->drained || dec->has_pend)
		return -PFT_E_INVAL;
	dec->buf_off += dec->len;
	dec->buf = buf;
	dec->len = len;
	dec->pos = 0;
	dec->run_start = 0;
	dec->drained = 0;
	upd_fast(dec);
	return 0;
}

int pft_pkt_decoder_end(struct pft_pkt_decoder *dec)
{
	if (!dec)
		return -PFT_E_INVAL;
	dec->ended = 1;
	return 0;
}

uint64_t pft_pkt_decoder_get_offset(const struct pft_pkt_decoder *dec)
{
	if (!dec)
		return 0;
	if (dec->has_pend)
		return dec->pend.offset;
	if (dec->mode != M_SYNC)
		return dec->run_off;
	if (dec->part_len)
		return dec->part_off;
	return dec->buf_off + dec->pos;
}

int pft_pkt_decode_buffer(const struct pft_config *cfg, const uint8_t *buf, size_t len,
			  int (*cb)(const struct pft_packet *pkt, void *arg), void *arg)
{
	struct pft_features f;
	struct pft_pkt_decoder *d;
	struct pft_packet pkt;
	int r;

	if (!cb || (!buf && len))
		return -PFT_E_INVAL;
	r = pft_config_features(cfg, &f);
	if (r < 0)
		return r;
	d = pft_pkt_decoder_alloc(cfg);
	if (!d)
		return -PFT_E_NOMEM;
	r = pft_pkt_decoder_feed(d, buf, len);
	if (!r)
		r = pft_pkt_decoder_end(d);
	while (!r) {
		r = pft_pkt_decoder_next(d, &pkt, sizeof(pkt));
		if (r == -PFT_E_EOS) {
			r = 0;
			break;
		}
		if (r < 0)
			break;
		r = cb(&pkt, arg);
		if (r)
			break;
	}
	pft_pkt_decoder_free(d);
	return r;
}
