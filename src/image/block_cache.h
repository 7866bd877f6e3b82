/* SPDX-License-Identifier: BSD-3-Clause */
/* Decoded-block cache over a program image: (address, ISA) -> the run of
 * instructions from there up to and including the next waypoint (or
 * PFT_BLK_MAX_INSNS instructions, or the end of readable memory), each with
 * its size and waypoint class.  Fixed size: bounded memory and
 * no allocation after creation (two ways per set, the one not hit last is
 * refilled).  Entries are tagged with the image
 * generation, so a changed image refills them. */
#ifndef PFT_BLOCK_CACHE_H
#define PFT_BLOCK_CACHE_H

#include "pft/flow.h"
#include "pft/image.h"
#include "pft/isa.h"

#define PFT_BLK_MAX_INSNS 32

enum pft_blk_end {
	PFT_BLK_WAYPOINT = 0, /* insns[n-1] is a waypoint */
	PFT_BLK_LIMIT,        /* PFT_BLK_MAX_INSNS instructions, no waypoint: go on at `next` */
	PFT_BLK_NOMAP,        /* memory not readable at `next` (n may be 0) */
	PFT_BLK_UNSUPPORTED   /* ISA not decodable (Jazelle) at `next` */
};

struct pft_block {
	uint64_t start;
	uint64_t tag;         /* image generation + 1; 0 = empty slot */
	uint64_t next;        /* address after the last instruction */
	uint64_t target;      /* WAYPOINT with PFT_INSN_F_TARGET: direct target */
	uint8_t isa;
	uint8_t end;          /* enum pft_blk_end */
	uint8_t n;            /* instructions */
	uint8_t target_isa;
	uint8_t hyp;          /* decoded for Hyp mode (PFT_ISA_OPT_HYP) */
	struct pft_insn insns[PFT_BLK_MAX_INSNS];
};

struct pft_blkcache;

/* Two-way set associative.  nentries is rounded up to a power of two
 * (minimum 2).  isa_opts are
 * PFT_ISA_OPT_* for the classifier.  img may be NULL (nothing readable). */
struct pft_blkcache *pft_blkcache_alloc(const struct pft_image *img, unsigned isa_opts,
                                        unsigned nentries);
void pft_blkcache_free(struct pft_blkcache *bc);

/* The block at (addr, isa), decoded for Hyp mode if hyp (spec 2.2: some
 * exception returns are UNDEFINED there).  Never NULL.  Valid until the next
 * get. */
const struct pft_block *pft_blkcache_get(struct pft_blkcache *bc, uint64_t addr,
                                         enum pft_isa isa, int hyp);

void pft_blkcache_stats(const struct pft_blkcache *bc, uint64_t *hits, uint64_t *misses);

#endif
