/* SPDX-License-Identifier: BSD-3-Clause */
/* What the parallel decode (src/parallel/, pft/parallel.h) needs of the
 * ETMv3 flow decoder beyond its public API: its whole state at a packet
 * boundary (to compare a segment's decoder with the serial one), the
 * instruction index shifted, and a decoder made fresh again without losing
 * its block cache (doc/parallel.md).  Defined at the end of etm3_flow.c,
 * which holds the decoder's struct. */
#ifndef PFT_ETM3_FLOW_PAR_H
#define PFT_ETM3_FLOW_PAR_H

#include <stdint.h>

#include "pft/etm3flow.h"
#include "pft/isa.h"

/* Instructions of the held range a state can carry; a longer one makes the
 * boundary not comparable. */
#define ETM3_FLOW_STATE_INSNS 32

/* Everything a packet boundary carries to the next packet, field by field
 * (padding zero, so that two states compare with memcmp).  The instruction
 * index is not in it: two decoders in equal states differ by a shift of it. */
struct etm3_flow_state {
	/* the held range (the last item, a range that may still grow or lose
	   its last instruction), its fields but index, insns and insn_cycles,
	   which are given by value */
	uint64_t h_offset, h_addr, h_end, h_next, h_value;
	uint32_t h_flags, h_ninsns, h_cycles, h_context_id;
	uint16_t h_kind, h_type;
	uint8_t h_isa, h_next_isa, h_end_kind, h_reason, h_vmid, h_has_cycles;
	uint8_t held, open;          /* a held range; it is still growing */
	uint32_t index_after;        /* the decoder's index minus the held range's */
	/* the decoder */
	uint32_t addr, cid, ctx_flags, last_insn, wcycles;
	uint32_t blk_start;          /* the walk's block (blk_n 0: none) and place */
	uint8_t blk_isa, blk_n, bi;
	uint8_t have_addr, isa, ns, hyp, vmid, direct_pending, have_last;
	uint8_t pad[6];
	struct pft_insn insns[ETM3_FLOW_STATE_INSNS];
	uint32_t cycles[ETM3_FLOW_STATE_INSNS];
};

/* Between packets, with every item but the held range pulled and before
 * pft_etm3_flow_decoder_end(): 1 and *s filled; else 0. */
int etm3_flow_state(const struct pft_etm3_flow_decoder *fl, struct etm3_flow_state *s);

/* Instructions output before the held range (all output, if none). */
uint64_t etm3_flow_index(const struct pft_etm3_flow_decoder *fl);

/* Shift the instruction index by delta (queued items too). */
void etm3_flow_rebase(struct pft_etm3_flow_decoder *fl, uint64_t delta);

/* As pft_etm3_flow_decoder_alloc() leaves it, the block cache kept (its
 * blocks depend on the image only). */
void etm3_flow_reset(struct pft_etm3_flow_decoder *fl);

#endif
