/* SPDX-License-Identifier: BSD-3-Clause */
/* The PFT return stack (spec 4.13), shared by the software PTM (src/ptm)
 * and the decoder (src/flow), below both: entries of {return address,
 * instruction set, security state}; pushing onto a full stack drops the
 * oldest entry.
 *
 * The depth is IMPLEMENTATION DEFINED (0-15) in a PTM.  The PTM model keeps
 * the depth its parameters give; the decoder cannot discover it and keeps
 * PFT_RSTACK_MAX, so it never runs out before the PTM does (and only pops
 * when the trace says the PTM matched).  The rules of when to push, pop or
 * clear belong to the callers. */
#ifndef PFT_STATE_RSTACK_H
#define PFT_STATE_RSTACK_H

#include <stdint.h>

#define PFT_RSTACK_MAX 16

struct pft_rstack_entry {
	uint64_t addr;
	uint8_t isa;
	uint8_t ns;
};

struct pft_rstack {
	struct pft_rstack_entry e[PFT_RSTACK_MAX];
	unsigned top;   /* index of the next free slot (ring) */
	unsigned n;     /* valid entries, <= depth */
	unsigned depth; /* entries kept; 0 (a zeroed struct) means PFT_RSTACK_MAX */
};

/* Empty the stack and keep depth entries (1..PFT_RSTACK_MAX; 0 = the maximum). */
void pft_rstack_init(struct pft_rstack *rs, unsigned depth);
/* Empty the stack (the depth stays). */
void pft_rstack_clear(struct pft_rstack *rs);
void pft_rstack_push(struct pft_rstack *rs, uint64_t addr, uint8_t isa, uint8_t ns);
/* The top entry, or NULL if empty. */
const struct pft_rstack_entry *pft_rstack_top(const struct pft_rstack *rs);
/* 0 and *out filled (out may be NULL), or -1 if empty. */
int pft_rstack_pop(struct pft_rstack *rs, struct pft_rstack_entry *out);

#endif
