/* SPDX-License-Identifier: BSD-3-Clause */
/* Program image internals shared by image.c, image_elf.c and the block
 * cache. */
#ifndef PFT_IMAGE_INT_H
#define PFT_IMAGE_INT_H

#include "pft/image.h"

/* A region as added (kept for listing and ownership). */
struct image_region {
	uint64_t addr;
	uint64_t size;
	const uint8_t *data;
	uint8_t *owned;   /* freed with the image (NULL for borrowed buffers) */
	void *mapped;     /* munmap'd with the image (a file mapping), or NULL */
	size_t mapped_len;
	char *desc;
};

/* The flattened map: sorted, non-overlapping, covering the visible bytes. */
struct image_seg {
	uint64_t first;   /* first address */
	uint64_t last;    /* last address (inclusive, so a segment may end at 2^64-1) */
	const uint8_t *data; /* byte at `first` */
};

struct pft_image {
	struct image_region *regions;
	size_t nregions, cap_regions;
	struct image_seg *segs;   /* built from the regions when first needed */
	size_t nsegs;
	int stale;                /* regions were added since segs was built */
	pft_image_read_fn cb;
	void *cb_arg;
	uint64_t generation;
};

/* Add a region whose bytes are data[0..size) (size > 0); takes ownership
 * of `owned` (which may be NULL, or equal data) even on failure; copies
 * desc. */
int pft_image_add_region(struct pft_image *img, uint64_t addr, const uint8_t *data,
                         uint64_t size, uint8_t *owned, const char *desc);

/* Build the segment map from the regions (n log n): a sweep over their
 * boundaries, the region added last winning.  0 or -PFT_E_NOMEM.  Done
 * when the map is first read after regions were added (image_map.c). */
int pft_image_build_map(struct pft_image *img);

/* Direct pointer to the bytes at addr inside one region, and how many are
 * contiguous there (*avail, capped at SIZE_MAX); NULL if no region covers
 * addr (the callback is not consulted). */
const uint8_t *pft_image_map(const struct pft_image *img, uint64_t addr, uint64_t *avail);

#endif
