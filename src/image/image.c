/* SPDX-License-Identifier: BSD-3-Clause */
/* Program image: regions from buffers and files, flattened into a sorted map
 * of non-overlapping segments (the region added last wins), plus an optional
 * read callback for the bytes no region covers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/image_int.h"

struct pft_image *pft_image_alloc(void)
{
	return calloc(1, sizeof(struct pft_image));
}

void pft_image_free(struct pft_image *img)
{
	size_t i;

	if (!img)
		return;
	for (i = 0; i < img->nregions; i++) {
		free(img->regions[i].owned);
		free(img->regions[i].desc);
	}
	free(img->regions);
	free(img->segs);
	free(img);
}

static int seg_cmp(const void *a, const void *b)
{
	const struct image_seg *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/* Rebuild the segment map with [first, last] -> data on top. */
static int map_insert(struct pft_image *img, uint64_t first, uint64_t last,
		      const uint8_t *data)
{
	struct image_seg *out;
	size_t i, n = 0, cap = img->nsegs * 2 + 1;

	out = malloc(cap * sizeof(*out));
	if (!out)
		return -PFT_E_NOMEM;
	for (i = 0; i < img->nsegs; i++) {
		struct image_seg s = img->segs[i];

		if (s.last < first || s.first > last) {
			out[n++] = s;
			continue;
		}
		if (s.first < first) { /* left part survives */
			out[n].first = s.first;
			out[n].last = first - 1;
			out[n].data = s.data;
			n++;
		}
		if (s.last > last) { /* right part survives */
			out[n].first = last + 1;
			out[n].last = s.last;
			out[n].data = s.data + (last + 1 - s.first);
			n++;
		}
	}
	out[n].first = first;
	out[n].last = last;
	out[n].data = data;
	n++;
	if (n) /* qsort(NULL, 0, ...) is undefined */
		qsort(out, n, sizeof(*out), seg_cmp);
	free(img->segs);
	img->segs = out;
	img->nsegs = n;
	img->cap_segs = cap;
	return 0;
}

int pft_image_add_region(struct pft_image *img, uint64_t addr, const uint8_t *data,
			 uint64_t size, uint8_t *owned, const char *desc)
{
	struct image_region *r;
	int err;

	if (!img || !data || size == 0 || addr + (size - 1) < addr) {
		free(owned);
		return -PFT_E_INVAL;
	}
	if (img->nregions == img->cap_regions) {
		size_t cap = img->cap_regions ? img->cap_regions * 2 : 8;
		struct image_region *nr = realloc(img->regions, cap * sizeof(*nr));

		if (!nr) {
			free(owned);
			return -PFT_E_NOMEM;
		}
		img->regions = nr;
		img->cap_regions = cap;
	}
	err = map_insert(img, addr, addr + (size - 1), data);
	if (err) {
		free(owned);
		return err;
	}
	r = &img->regions[img->nregions++];
	r->addr = addr;
	r->size = size;
	r->data = data;
	r->owned = owned;
	r->desc = NULL;
	if (desc) {
		size_t l = strlen(desc);

		r->desc = malloc(l + 1);
		if (r->desc)
			memcpy(r->desc, desc, l + 1);
	}
	img->generation++;
	return 0;
}

int pft_image_add_buffer(struct pft_image *img, uint64_t addr, const void *buf, size_t len)
{
	return pft_image_add_region(img, addr, buf, len, NULL, "buffer");
}

int pft_image_add_file(struct pft_image *img, const char *path, uint64_t addr,
		       uint64_t offset, uint64_t length)
{
	FILE *f;
	long end;
	uint64_t fsize;
	uint8_t *data;
	int err;

	if (!img || !path)
		return -PFT_E_INVAL;
	f = fopen(path, "rb");
	if (!f)
		return -PFT_E_IO;
	if (fseek(f, 0, SEEK_END) != 0 || (end = ftell(f)) < 0) {
		fclose(f);
		return -PFT_E_IO;
	}
	fsize = (uint64_t)end;
	if (offset >= fsize || (length && length > fsize - offset)) {
		fclose(f);
		return -PFT_E_FORMAT;
	}
	if (!length)
		length = fsize - offset;
	if (length > SIZE_MAX || (long)offset < 0) {
		fclose(f);
		return -PFT_E_NOMEM;
	}
	data = malloc((size_t)length);
	if (!data) {
		fclose(f);
		return -PFT_E_NOMEM;
	}
	if (fseek(f, (long)offset, SEEK_SET) != 0 ||
	    fread(data, 1, (size_t)length, f) != (size_t)length) {
		free(data);
		fclose(f);
		return -PFT_E_IO;
	}
	fclose(f);
	err = pft_image_add_region(img, addr, data, length, data, path);
	if (err)
		return err;
	return length > 0x7FFFFFFF ? 0x7FFFFFFF : (int)length;
}

int pft_image_set_callback(struct pft_image *img, pft_image_read_fn cb, void *arg)
{
	if (!img)
		return -PFT_E_INVAL;
	img->cb = cb;
	img->cb_arg = arg;
	img->generation++;
	return 0;
}

/* Index of the first segment that starts above addr (nsegs if none): the
 * segment before it is the only one that may hold addr. */
static size_t seg_above(const struct pft_image *img, uint64_t addr)
{
	size_t lo = 0, hi = img->nsegs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->segs[mid].first <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of the segment holding addr, or -1. */
static long find_seg(const struct pft_image *img, uint64_t addr)
{
	size_t i = seg_above(img, addr);

	return i > 0 && addr <= img->segs[i - 1].last ? (long)(i - 1) : -1;
}

const uint8_t *pft_image_map(const struct pft_image *img, uint64_t addr, uint64_t *avail)
{
	long i = find_seg(img, addr);
	const struct image_seg *s;

	if (i < 0)
		return NULL;
	s = &img->segs[i];
	*avail = s->last - addr + 1; /* 0 only if the segment spans all 2^64 bytes */
	if (*avail == 0)
		*avail = UINT64_MAX;
	return s->data + (addr - s->first);
}

/* Start of the first segment above addr, or 0 if none (the callback may
 * serve bytes up to there). */
static uint64_t next_seg_start(const struct pft_image *img, uint64_t addr, int *found)
{
	size_t i = seg_above(img, addr);

	*found = i < img->nsegs;
	return *found ? img->segs[i].first : 0;
}

int pft_image_read(const struct pft_image *img, uint64_t addr, void *buf, size_t len)
{
	uint8_t *out = buf;
	size_t done = 0;

	if (!img || (!buf && len))
		return -PFT_E_INVAL;
	if (len > 0x7FFFFFFF)
		len = 0x7FFFFFFF;
	while (done < len) {
		uint64_t a = addr + done, avail;
		const uint8_t *p = pft_image_map(img, a, &avail);
		size_t want = len - done;

		if (p) {
			if (avail < want)
				want = (size_t)avail;
			memcpy(out + done, p, want);
		} else {
			int found, got;
			uint64_t nxt = next_seg_start(img, a, &found);

			if (!img->cb)
				break;
			if (found && nxt - a < want)
				want = (size_t)(nxt - a);
			got = img->cb(img->cb_arg, a, out + done, want);
			if (got <= 0)
				break;
			if ((size_t)got < want) {
				done += (size_t)got;
				break;
			}
		}
		done += want;
		if (addr + done < addr) /* wrapped past 2^64 */
			break;
	}
	if (done == 0 && len)
		return -PFT_E_NOMAP;
	return (int)done;
}

size_t pft_image_region_count(const struct pft_image *img)
{
	return img ? img->nregions : 0;
}

int pft_image_region(const struct pft_image *img, size_t index, uint64_t *addr,
		     uint64_t *size, const char **desc)
{
	if (!img || index >= img->nregions)
		return -PFT_E_INVAL;
	if (addr)
		*addr = img->regions[index].addr;
	if (size)
		*size = img->regions[index].size;
	if (desc)
		*desc = img->regions[index].desc ? img->regions[index].desc : "";
	return 0;
}

uint64_t pft_image_generation(const struct pft_image *img)
{
	return img ? img->generation : 0;
}

void pft_image_invalidate(struct pft_image *img)
{
	if (img)
		img->generation++;
}
