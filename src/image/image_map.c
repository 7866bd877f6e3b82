/* SPDX-License-Identifier: BSD-3-Clause */
/* The program image's segment map: the regions flattened into sorted,
 * non-overlapping segments, the region added last winning where they
 * overlap.  Built in n log n by one sweep over the region boundaries with a
 * heap of the regions covering the current address (the newest on top),
 * so that 60,000 snapshot [dump] sections load in milliseconds. */
#include <stdlib.h>

#include "image/image_int.h"

struct edge {
	uint64_t at;      /* first address of the run that starts here */
	size_t region;
	int start;        /* 1: region starts at `at`; 0: it ended just before */
};

static int edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->start - y->start; /* ends before starts: no effect on the result */
}

/* Max-heap of region indices (the newest region on top). */
static void heap_push(size_t *h, size_t *n, size_t v)
{
	size_t i = (*n)++;

	while (i > 0 && h[(i - 1) / 2] < v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static void heap_pop(size_t *h, size_t *n)
{
	size_t i = 0, v = h[--(*n)];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1] > h[c])
			c++;
		if (h[c] <= v)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = v;
}

/* Append [first, last] of region r (merged with the previous segment when it
 * continues the same region: *prev is the region of out[*n - 1]). */
static void emit(struct pft_image *img, struct image_seg *out, size_t *n, size_t *prev,
		 size_t r, uint64_t first, uint64_t last)
{
	const struct image_region *reg = &img->regions[r];
	const uint8_t *data = reg->data + (first - reg->addr);

	if (*n && *prev == r && out[*n - 1].last + 1 == first) {
		out[*n - 1].last = last;
		return;
	}
	*prev = r;
	out[*n].first = first;
	out[*n].last = last;
	out[*n].data = data;
	(*n)++;
}

int pft_image_build_map(struct pft_image *img)
{
	size_t nr = img->nregions, ne = 0, nh = 0, ns = 0, prev = 0, i;
	struct edge *ev;
	size_t *heap;
	unsigned char *ended;
	struct image_seg *out;

	ev = malloc((2 * nr + 1) * sizeof(*ev));
	heap = malloc((nr + 1) * sizeof(*heap));
	ended = calloc(nr + 1, 1);
	out = malloc((2 * nr + 1) * sizeof(*out)); /* each boundary starts at most one segment */
	if (!ev || !heap || !ended || !out) {
		free(ev);
		free(heap);
		free(ended);
		free(out);
		return -PFT_E_NOMEM;
	}
	for (i = 0; i < nr; i++) {
		uint64_t last = img->regions[i].addr + (img->regions[i].size - 1);

		ev[ne++] = (struct edge){ img->regions[i].addr, i, 1 };
		if (last != UINT64_MAX) /* else it covers the rest of the space */
			ev[ne++] = (struct edge){ last + 1, i, 0 };
	}
	if (ne)
		qsort(ev, ne, sizeof(*ev), edge_cmp);
	for (i = 0; i < ne;) {
		uint64_t at = ev[i].at;

		for (; i < ne && ev[i].at == at; i++) {
			if (ev[i].start)
				heap_push(heap, &nh, ev[i].region);
			else
				ended[ev[i].region] = 1;
		}
		while (nh && ended[heap[0]])
			heap_pop(heap, &nh);
		if (nh)
			emit(img, out, &ns, &prev, heap[0], at, i < ne ? ev[i].at - 1 : UINT64_MAX);
	}
	free(ev);
	free(heap);
	free(ended);
	free(img->segs);
	img->segs = out;
	img->nsegs = ns;
	img->stale = 0;
	return 0;
}
