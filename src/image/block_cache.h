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

#include "pft/image.h"
#include "image/image_int.h"
#include "pft/isa.h"

#define PFT_BLK_MAX_INSNS 16

enum pft_blk_end {
	PFT_BLK_WAYPOINT = 0, /* insns[n-1] is a waypoint */
	PFT_BLK_LIMIT,        /* PFT_BLK_MAX_INSNS instructions, no waypoint: go on at `next` */
	PFT_BLK_NOMAP,        /* memory not readable at `next` (n may be 0) */
	PFT_BLK_UNSUPPORTED   /* ISA not decodable (Jazelle) at `next` */
};

/* The header holds everything a walk needs (start, end, the last
 * instruction's class, flags and size, the target), so that a walk through
 * a cached block reads one cache line; the instructions follow. */
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
	uint8_t last_size;    /* insns[n-1]: size, */
	uint8_t last_class;   /* waypoint class */
	uint8_t reserved;
	uint16_t last_flags;  /* and PFT_INSN_F_* (n > 0) */
	struct pft_insn insns[PFT_BLK_MAX_INSNS];
} __attribute__((aligned(64)));

struct pft_blkcache {
	const struct pft_image *img;
	unsigned opts;
	unsigned mask;
	unsigned shift;   /* 64 - log2(sets) */
	uint64_t hits, misses;
	struct pft_block *slots;  /* sets of 2 ways: slots[2*set], slots[2*set+1] */
	uint8_t *victim;          /* per set: the way to refill next (the one not hit last) */
};

/* Two-way set associative.  nentries is rounded up to a power of two
 * (minimum 2).  isa_opts are PFT_ISA_OPT_* for the classifier.  img may be
 * NULL (nothing readable). */
struct pft_blkcache *pft_blkcache_alloc(const struct pft_image *img, unsigned isa_opts,
                                        unsigned nentries);
void pft_blkcache_free(struct pft_blkcache *bc);

/* Decode the block into the set's victim way (the miss path of get). */
const struct pft_block *pft_blkcache_fill(struct pft_blkcache *bc, uint64_t set, uint64_t addr,
                                          enum pft_isa isa, int hyp);

/* The block at (addr, isa), decoded for Hyp mode if hyp (spec 2.2: some
 * exception returns are UNDEFINED there).  Never NULL.  Valid until the next
 * get.  Inline: the hit path runs once per range. */
static inline const struct pft_block *pft_blkcache_get(struct pft_blkcache *bc, uint64_t addr,
                                                       enum pft_isa isa, int hyp)
{
	/* Fibonacci hashing of (address, ISA, Hyp) onto a set of two ways */
	uint64_t key = addr ^ ((uint64_t)isa << 60) ^ ((uint64_t)(hyp != 0) << 59);
	uint64_t set = bc->shift < 64 ? ((key * 0x9E3779B97F4A7C15ull) >> bc->shift) & bc->mask : 0;
	const struct pft_block *w = &bc->slots[2 * set];
	uint64_t tag = (bc->img ? bc->img->generation : 0) + 1;
	uint8_t h8 = (uint8_t)(hyp != 0);
	unsigned i;

	for (i = 0; i < 2; i++) {
		const struct pft_block *b = &w[i];

		if (b->start == addr && b->tag == tag && b->isa == (uint8_t)isa && b->hyp == h8) {
			bc->victim[set] = (uint8_t)(1 - i);
			bc->hits++;
			return b;
		}
	}
	return pft_blkcache_fill(bc, set, addr, isa, hyp);
}

void pft_blkcache_stats(const struct pft_blkcache *bc, uint64_t *hits, uint64_t *misses);

#endif
