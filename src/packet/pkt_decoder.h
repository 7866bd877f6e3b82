/* SPDX-License-Identifier: BSD-3-Clause */
/* Packet decoder internals shared with the encoder: the configuration bits
 * the byte layouts depend on, and the compression state both sides keep. */
#ifndef PFT_PACKET_PKT_DECODER_H
#define PFT_PACKET_PKT_DECODER_H

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

void pkt_dec_cfg_init(struct pkt_dec_cfg *c, const struct pft_features *f);
void pkt_dec_state_reset(struct pkt_dec_state *st);

#endif
