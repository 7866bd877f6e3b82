/* SPDX-License-Identifier: BSD-3-Clause */
/* What the parallel decode (src/parallel/, pft/parallel.h) needs of the
 * ETMv3 stream decoder beyond its public API: stream offsets from a segment's
 * start, and the decoder's whole state at a packet boundary, to compare a
 * segment's decoder with the serial one (doc/parallel.md).  Defined at the
 * end of etm3_decoder.c, which holds the decoder's struct. */
#ifndef PFT_ETM3_PAR_H
#define PFT_ETM3_PAR_H

#include <stdint.h>

#include "pft/etm3.h"

/* Everything a packet boundary carries to the next packet (field by field,
 * padding zero, so that two states compare with memcmp). */
struct etm3_dec_state {
	uint64_t ts;     /* running timestamp */
	uint32_t addr;   /* last instruction address */
	uint32_t daddr;  /* last data address */
	uint8_t isa;     /* ISA of the last I-sync / branch */
	uint8_t altis;   /* AltISA state */
	uint8_t pad[6];
};

/* A fresh decoder (nothing fed) whose offsets start at off. */
void etm3_decoder_set_base(struct pft_etm3_decoder *d, uint64_t off);

/* At a packet boundary where the decoder is synchronised with nothing held
 * (no partial packet, no item pending, no zeros counted, not ended): 1 and
 * *s filled; else 0. */
int etm3_decoder_state(const struct pft_etm3_decoder *d, struct etm3_dec_state *s);

#endif
