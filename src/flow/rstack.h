/* SPDX-License-Identifier: BSD-3-Clause */
/* The decoder's copy of the PTM return stack (spec 4.13): entries of
 * {return address, ISA, security state}; pushing onto a full stack drops the
 * oldest entry.  The PTM's depth is IMPLEMENTATION DEFINED (0-15) and cannot
 * be discovered; the decoder keeps 16, so it never runs out before the PTM
 * does (and only pops when the trace says the PTM matched). */
#ifndef PFT_FLOW_RSTACK_H
#define PFT_FLOW_RSTACK_H

#include <stdint.h>

#define PFT_RSTACK_DEPTH 16

struct pft_rstack_entry {
	uint64_t addr;
	uint8_t isa;
	uint8_t ns;
};

struct pft_rstack {
	struct pft_rstack_entry e[PFT_RSTACK_DEPTH];
	unsigned top;   /* index of the next free slot (ring) */
	unsigned n;     /* valid entries, <= PFT_RSTACK_DEPTH */
};

void pft_rstack_clear(struct pft_rstack *rs);
void pft_rstack_push(struct pft_rstack *rs, uint64_t addr, uint8_t isa, uint8_t ns);
/* 0 and *out filled, or -1 if empty. */
int pft_rstack_pop(struct pft_rstack *rs, struct pft_rstack_entry *out);

#endif
