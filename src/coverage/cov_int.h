/* SPDX-License-Identifier: BSD-3-Clause */
/* Coverage counts, internal.  Floors: cov_hash.c (the open-addressing hash
 * every table uses) <- cov.c (counting flow items, merging, gaps) and
 * cov_table.c (the per-address and edge tables built from the ranges). */
#ifndef PFT_COV_INT_H
#define PFT_COV_INT_H

#include <stddef.h>
#include <stdint.h>

#include "pft/coverage.h"
#include "pft/isa.h"

/* One distinct range of executed instructions and how often it ran. */
struct cov_range {
	uint64_t addr, end;
	uint64_t count, taken, not_taken;
	size_t insn;      /* first instruction in pft_cov.insns */
	uint32_t ninsns;
	uint8_t isa;
};

struct cov_edge {
	uint64_t from, to, count;
	uint8_t from_isa, to_isa;
};

/* Open addressing over 64-bit keys; values are indexes into a vector.
 * Slots hold index + 1 (0 = empty). */
struct cov_hash {
	uint32_t *slot;
	uint64_t *key;
	size_t cap, n;
};

/* Index stored under key, or -1. */
long cov_hash_get(const struct cov_hash *h, uint64_t key);
/* Store index under key (not yet present).  0 or -PFT_E_NOMEM. */
int cov_hash_put(struct cov_hash *h, uint64_t key, size_t index);
void cov_hash_free(struct cov_hash *h);
void cov_hash_clear(struct cov_hash *h);
/* Grow a vector to hold one more: 0 or -PFT_E_NOMEM. */
int cov_grow(void **v, size_t *cap, size_t n, size_t elsize);

struct pft_cov {
	struct cov_range *ranges;
	size_t nranges, cap_ranges;
	struct cov_hash range_hash;     /* key: mix of addr, end, isa */
	struct pft_insn *insns;         /* instructions of the distinct ranges */
	size_t ninsns, cap_insns;
	struct cov_edge *edges;
	size_t nedges, cap_edges;
	struct cov_hash edge_hash;
	struct pft_cov_gap *gaps;
	size_t ngaps, cap_gaps;
	int gap_open;                   /* NO_ADDRESS atoms join the last gap */
	int edge_from_valid;            /* last range ended with a taken waypoint */
	uint64_t edge_from;
	uint8_t edge_from_isa;
	struct pft_cov_totals tot;
	/* the per-address table (cov_table.c), valid while table_ok */
	struct pft_cov_insn *table;
	size_t ntable, cap_table;
	struct cov_hash table_hash;     /* key: address */
	struct cov_edge *sorted_edges;
	int table_ok;
};

/* Key of a range and of an edge. */
uint64_t cov_range_key(uint64_t addr, uint64_t end, unsigned isa);
uint64_t cov_edge_key(uint64_t from, uint64_t to);
/* Find or add a range / an edge: its index, or -PFT_E_NOMEM. */
long cov_range_get(struct pft_cov *c, uint64_t addr, uint64_t end, unsigned isa,
                   const struct pft_insn *insns, uint32_t ninsns);
long cov_edge_get(struct pft_cov *c, uint64_t from, uint64_t to, unsigned fisa, unsigned tisa);

#endif
