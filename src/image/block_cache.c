/* SPDX-License-Identifier: BSD-3-Clause */
/* Decoded-block cache (see block_cache.h). */
#include <stdlib.h>
#include <string.h>

#include "image/block_cache.h"
#include "image/image_int.h"


struct pft_blkcache *pft_blkcache_alloc(const struct pft_image *img, unsigned isa_opts,
					unsigned nentries)
{
	struct pft_blkcache *bc;
	unsigned n = 1;

	while (n < nentries && n < (1u << 20))
		n <<= 1;
	if (n < 2)
		n = 2;
	bc = calloc(1, sizeof(*bc));
	if (!bc)
		return NULL;
	/* 64-byte aligned, so that a block header is one cache line */
	bc->slots = aligned_alloc(64, n * sizeof(*bc->slots));
	if (bc->slots)
		memset(bc->slots, 0, n * sizeof(*bc->slots));
	bc->victim = calloc(n / 2, 1);
	if (!bc->slots || !bc->victim) {
		free(bc->slots);
		free(bc->victim);
		free(bc);
		return NULL;
	}
	bc->img = img;
	bc->opts = isa_opts;
	n /= 2; /* sets */
	bc->mask = n - 1;
	bc->shift = 64;
	while (n > 1) {
		n >>= 1;
		bc->shift--;
	}
	return bc;
}

void pft_blkcache_free(struct pft_blkcache *bc)
{
	if (!bc)
		return;
	free(bc->slots);
	free(bc->victim);
	free(bc);
}

/* Bytes of the instruction at addr: a direct pointer into the image when the
 * region holds 4 bytes, else a copy through pft_image_read (region edges,
 * callback memory). */
static const uint8_t *fetch(const struct pft_image *img, uint64_t addr, uint8_t *tmp,
			    size_t *avail)
{
	uint64_t n;
	const uint8_t *p;
	int got;

	if (!img) {
		*avail = 0;
		return tmp;
	}
	p = pft_image_map(img, addr, &n);
	if (p && n >= 4) {
		*avail = 4;
		return p;
	}
	got = pft_image_read(img, addr, tmp, 4);
	*avail = got > 0 ? (size_t)got : 0;
	return tmp;
}

static __attribute__((noinline)) void build(struct pft_blkcache *bc, struct pft_block *b, uint64_t addr,
		  enum pft_isa isa, int hyp)
{
	uint64_t a = addr;
	unsigned n = 0;
	unsigned opts = bc->opts | (hyp ? PFT_ISA_OPT_HYP : 0);

	b->start = addr;
	b->isa = (uint8_t)isa;
	b->hyp = (uint8_t)(hyp != 0);
	b->target = 0;
	b->target_isa = (uint8_t)isa;
	for (;;) {
		struct pft_insn_info info;
		uint8_t tmp[4];
		size_t avail;
		const uint8_t *bytes;
		struct pft_insn *in;
		int err;

		if (n == PFT_BLK_MAX_INSNS) {
			b->end = PFT_BLK_LIMIT;
			break;
		}
		bytes = fetch(bc->img, a, tmp, &avail);
		err = pft_isa_decode(isa, a, bytes, avail, opts, &info);
		if (err == -PFT_E_UNSUPPORTED) {
			b->end = PFT_BLK_UNSUPPORTED;
			break;
		}
		if (err < 0 || info.size == 0) {
			b->end = PFT_BLK_NOMAP;
			break;
		}
		in = &b->insns[n++];
		in->addr = a;
		in->opcode = info.opcode;
		in->size = info.size;
		in->wp_class = info.wp_class;
		in->flags = info.flags;
		a += info.size;
		if (pft_isa_is_waypoint(&info, opts)) {
			b->end = PFT_BLK_WAYPOINT;
			if (info.flags & PFT_INSN_F_TARGET) {
				b->target = info.target;
				b->target_isa = info.target_isa;
			}
			break;
		}
	}
	b->n = (uint8_t)n;
	b->next = a;
	if (n) {
		b->last_size = b->insns[n - 1].size;
		b->last_class = b->insns[n - 1].wp_class;
		b->last_flags = b->insns[n - 1].flags;
	}
}

const struct pft_block *pft_blkcache_fill(struct pft_blkcache *bc, uint64_t set, uint64_t addr,
					  enum pft_isa isa, int hyp)
{
	struct pft_block *b;
	unsigned i;

	bc->misses++;
	i = bc->victim[set];
	bc->victim[set] = (uint8_t)(1 - i);
	b = &bc->slots[2 * set + i];
	b->tag = (bc->img ? bc->img->generation : 0) + 1;
	build(bc, b, addr, isa, hyp);
	return b;
}

void pft_blkcache_stats(const struct pft_blkcache *bc, uint64_t *hits, uint64_t *misses)
{
	*hits = bc->hits;
	*misses = bc->misses;
}
