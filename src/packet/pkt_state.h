/* SPDX-License-Identifier: BSD-3-Clause */
/* What the packet decoder and the encoder share, below both: the
 * configuration bits the byte layouts depend on, and the compression state
 * both sides keep (so the encoder is the decoder's exact inverse). */
#ifndef PFT_PACKET_PKT_STATE_H
#define PFT_PACKET_PKT_STATE_H

#include <stdint.h>

#include "pft/packet.h"

struct pkt_dec_cfg {
	uint8_t ca;        /* cycle-accurate (ETMCR[12]) */
	uint8_t cid_bytes; /* 0, 1, 2, 4 */
	uint8_t v11;       /* PFTv1.1 */
	uint8_t ts_max;    /* timestamp value bytes at most: 7 (48-bit) or 9 (64-bit) */
	uint8_t ts_gray;   /* Gray-coded timestamps */
	uint8_t ts_bits;   /* 48 or 64 */
};

/* Compression state: the base of the next compressed address (the last
 * I-sync / branch / WPU address and ISA), the NS and Hyp bits last sent,
 * and the running timestamp in its coded (possibly Gray) form. */
struct pkt_dec_state {
	uint32_t base_addr;
	uint8_t base_isa;  /* PFT_ISA_UNKNOWN until an I-sync or full address */
	uint8_t ns;
	uint8_t hyp;
	uint64_t ts;
};

static inline void pkt_dec_cfg_init(struct pkt_dec_cfg *c, const struct pft_features *f)
{
	c->ca = f->cycle_accurate;
	c->cid_bytes = f->contextid_bytes;
	c->v11 = f->minor >= 1;
	c->ts_max = f->ts_bits == 64 ? 9 : 7;
	c->ts_gray = f->ts_gray;
	c->ts_bits = f->ts_bits;
}

static inline void pkt_dec_state_reset(struct pkt_dec_state *st)
{
	st->base_addr = 0;
	st->base_isa = PFT_ISA_UNKNOWN;
	st->ns = 0;
	st->hyp = 0;
	st->ts = 0;
}

#endif
