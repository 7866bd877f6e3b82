/* SPDX-License-Identifier: BSD-3-Clause */
/* Program image: regions from buffers and files, flattened into a sorted map
 * of non-overlapping segments (the region added last wins), plus an optional
 * read callback for the bytes no region covers. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
		if (img->regions[i].mapped)
			munmap(img->regions[i].mapped, img->regions[i].mapped_len);
		free(img->regions[i].desc);
	}
	free(img->regions);
	free(img->segs);
	free(img);
}

int pft_image_add_region(struct pft_image *img, uint64_t addr, const uint8_t *data,
			 uint64_t size, uint8_t *owned, const char *desc)
{
	struct image_region *r;

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
	r = &img->regions[img->nregions++];
	r->addr = addr;
	r->size = size;
	r->data = data;
	r->owned = owned;
	r->mapped = NULL;
	r->mapped_len = 0;
	r->desc = NULL;
	if (desc) {
		size_t l = strlen(desc);

		r->desc = malloc(l + 1);
		if (r->desc)
			memcpy(r->desc, desc, l + 1);
	}
	img->stale = 1;
	img->generation++;
	return 0;
}

int pft_image_add_buffer(struct pft_image *img, uint64_t addr, const void *buf, size_t len)
{
	return pft_image_add_region(img, addr, buf, len, NULL, "buffer");
}

/* The bytes [offset, offset + length) of the open file fd: mapped (pages are
 * read when the decoder first touches them, so a large sparse dump costs
 * no memory), or read when the file cannot be mapped. */
static int add_fd(struct pft_image *img, int fd, const char *path, uint64_t addr,
		  uint64_t offset, uint64_t length)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t skip = offset % (uint64_t)(pg > 0 ? pg : 4096);
	void *m;
	uint8_t *data;
	size_t got = 0;
	int err;

	if (length + skip > SIZE_MAX)
		return -PFT_E_NOMEM;
	m = mmap(NULL, (size_t)(length + skip), PROT_READ, MAP_PRIVATE, fd, (off_t)(offset - skip));
	if (m != MAP_FAILED) {
		err = pft_image_add_region(img, addr, (const uint8_t *)m + skip, length, NULL, path);
		if (err) {
			munmap(m, (size_t)(length + skip));
			return err;
		}
		img->regions[img->nregions - 1].mapped = m;
		img->regions[img->nregions - 1].mapped_len = (size_t)(length + skip);
		return 0;
	}
	data = malloc((size_t)length);
	if (!data)
		return -PFT_E_NOMEM;
	while (got < length) {
		ssize_t n = pread(fd, data + got, (size_t)length - got, (off_t)(offset + got));

		if (n <= 0) {
			if (n == 0)
				errno = EIO; /* the file shrank */
			free(data);
			return -PFT_E_IO;
		}
		got += (size_t)n;
	}
	return pft_image_add_region(img, addr, data, length, data, path);
}

int pft_image_add_file(struct pft_image *img, const char *path, uint64_t addr,
		       uint64_t offset, uint64_t length)
{
	struct stat sb;
	uint64_t fsize;
	int fd, err, saved;

	if (!img || !path)
		return -PFT_E_INVAL;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -PFT_E_IO;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		if (S_ISDIR(sb.st_mode))
			errno = EISDIR;
		else if (!S_ISREG(sb.st_mode))
			errno = EINVAL; /* a pipe or device has no size to map */
		saved = errno;
		close(fd);
		errno = saved;
		return -PFT_E_IO;
	}
	fsize = (uint64_t)sb.st_size;
	if (offset >= fsize || (length && length > fsize - offset) ||
	    offset > (uint64_t)INT64_MAX) {
		close(fd);
		return -PFT_E_FORMAT;
	}
	if (!length)
		length = fsize - offset;
	if (addr + (length - 1) < addr) {
		close(fd);
		return -PFT_E_INVAL;
	}
	err = add_fd(img, fd, path, addr, offset, length);
	saved = errno;
	close(fd);
	errno = saved;
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

int pft_image_prepare(struct pft_image *img)
{
	if (!img)
		return -PFT_E_INVAL;
	return img->stale ? pft_image_build_map(img) : 0;
}

/* Index of the first segment that starts above addr (nsegs if none): the
 * segment before it is the only one that may hold addr.  The map is built
 * here when regions were added since (the image is not thread-safe). */
static size_t seg_above(const struct pft_image *cimg, uint64_t addr)
{
	struct pft_image *img = (struct pft_image *)(uintptr_t)cimg;
	size_t lo = 0, hi;

	if (img->stale && pft_image_build_map(img))
		return 0; /* out of memory: nothing readable */
	hi = img->nsegs;

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
