/* SPDX-License-Identifier: BSD-3-Clause */
/* What the differential fuzz targets of the parallel decode share
 * (fuzz_parallel for PFT, fuzz_parallel_etm3 for ETMv3): the flow items a
 * decoder gave, and pft_par_* driven over the input in windows cut into
 * segments.  Any failed check traps (ASSERT). */
#ifndef PFT_FUZZ_PAR_H
#define PFT_FUZZ_PAR_H

#include <stdint.h>
#include <string.h>

#include "pft/pft.h"

#include "fuzz_util.h"

/* Items (and packets) the targets keep at the most. */
#define FUZZ_PAR_MAXI 4096

/* Flow items in order, kept with insns and insn_cycles NULL; a range's
 * instructions and cycle counts (0xFFFFFFFF where it has none) follow each
 * other in in[] and cyc[].  Beyond the room, items and instructions are
 * dropped (on both sides alike). */
struct fuzz_items {
	struct pft_flow_item it[FUZZ_PAR_MAXI];
	struct pft_insn in[FUZZ_PAR_MAXI * 4];
	uint32_t cyc[FUZZ_PAR_MAXI * 4];
	size_t n, nin;
};

static inline void fuzz_items_put(struct fuzz_items *o, const struct pft_flow_item *it)
{
	uint32_t j;

	if (o->n == FUZZ_PAR_MAXI)
		return;
	o->it[o->n] = *it;
	o->it[o->n].insns = NULL;
	o->it[o->n].insn_cycles = NULL;
	if (it->insns && o->nin + it->ninsns <= FUZZ_PAR_MAXI * 4) {
		memcpy(o->in + o->nin, it->insns, it->ninsns * sizeof *it->insns);
		for (j = 0; j < it->ninsns; j++)
			o->cyc[o->nin + j] = it->insn_cycles ? it->insn_cycles[j] : 0xFFFFFFFFu;
		o->nin += it->ninsns;
	}
	o->n++;
}

/* The same items, every field, every instruction and cycle count. */
static inline int fuzz_items_same(const struct fuzz_items *a, const struct fuzz_items *b)
{
	return a->n == b->n && a->nin == b->nin && !memcmp(a->it, b->it, a->n * sizeof a->it[0]) &&
	       !memcmp(a->in, b->in, a->nin * sizeof a->in[0]) &&
	       !memcmp(a->cyc, b->cyc, a->nin * sizeof a->cyc[0]);
}

/* A take function (below) for FLOW: the items into arg, a struct
 * fuzz_items. */
static inline int fuzz_par_take_items(struct pft_par *par, void *arg)
{
	struct pft_flow_item it;
	int r;

	while ((r = pft_par_next_item(par, &it, sizeof it)) == 0)
		fuzz_items_put(arg, &it);
	return r;
}

/* How a target drives pft_par_*. */
struct fuzz_par {
	const struct pft_config *cfg;
	struct pft_image *img; /* FLOW */
	enum pft_isync_resync mode;
	unsigned jobs;         /* segments per window, 1-8 */
	size_t window;         /* bytes per window */
};

/* pft_par_* of KIND over s[0..len): windows of f->window bytes, each split
 * into at most f->jobs segments (into the buffers pb[0..jobs)), decoded
 * one after another and joined in order; after each join and after the
 * end, take(par, arg) pulls what is ready and returns the status that
 * ended the pull (-PFT_E_AGAIN, at the end -PFT_E_EOS).  Returns the
 * pft_par object, ended, for its totals: the caller frees it. */
static inline struct pft_par *fuzz_par_run(const struct fuzz_par *f, enum pft_par_kind kind,
					   const struct pft_par_buf *pb, const uint8_t *s,
					   size_t len, int (*take)(struct pft_par *, void *),
					   void *arg)
{
	struct pft_image *img = kind == PFT_PAR_FLOW ? f->img : NULL;
	struct pft_par *par = pft_par_alloc(kind, f->cfg, img, f->mode);
	struct pft_par_seg *seg[8];
	size_t cuts[9], off;
	unsigned i, n;

	ASSERT(par && f->jobs >= 1 && f->jobs <= 8);
	for (i = 0; i < f->jobs; i++) {
		seg[i] = pft_par_seg_alloc(kind, f->cfg, img, f->mode);
		ASSERT(seg[i]);
	}
	for (off = 0; off < len; off += f->window) {
		size_t w = len - off < f->window ? len - off : f->window;

		n = pft_par_split(s + off, w, f->jobs, cuts);
		ASSERT(n >= 1 && n <= f->jobs);
		for (i = 0; i < n; i++)
			ASSERT(pft_par_seg_decode(seg[i], s + off + cuts[i], cuts[i + 1] - cuts[i],
						  off + cuts[i], &pb[i]) == 0);
		for (i = 0; i < n; i++) {
			ASSERT(pft_par_join(par, seg[i], s + off + cuts[i], cuts[i + 1] - cuts[i],
					    off + cuts[i]) == 0);
			ASSERT(take(par, arg) == -PFT_E_AGAIN);
		}
	}
	ASSERT(pft_par_end(par) == 0);
	ASSERT(take(par, arg) == -PFT_E_EOS);
	for (i = 0; i < f->jobs; i++)
		pft_par_seg_free(seg[i]);
	return par;
}

#endif
