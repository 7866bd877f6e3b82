/* SPDX-License-Identifier: BSD-3-Clause */
/* Debug information tables: storage, file-name interning, sorting and the
 * address lookups every query uses. */
#include <stdlib.h>
#include <string.h>

#include "debuginfo/dbg_int.h"

int dbg_grow(void **v, size_t *cap, size_t n, size_t elsize)
{
	void *nv;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 64;
	nv = realloc(*v, nc * elsize);
	if (!nv)
		return -PFT_E_NOMEM;
	*v = nv;
	*cap = nc;
	return 0;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int fhash_rebuild(struct pft_dbg *d, size_t cap)
{
	uint32_t *t = calloc(cap, sizeof(*t));
	size_t i;

	if (!t)
		return -PFT_E_NOMEM;
	for (i = 0; i < d->n_files; i++) {
		size_t k = hash_str(d->files[i]) & (cap - 1);

		while (t[k])
			k = (k + 1) & (cap - 1);
		t[k] = (uint32_t)i + 1;
	}
	free(d->fhash);
	d->fhash = t;
	d->fhash_cap = cap;
	return 0;
}

long dbg_file_id(struct pft_dbg *d, const char *path)
{
	size_t k;
	char *copy;

	if ((d->n_files + 1) * 2 > d->fhash_cap &&
	    fhash_rebuild(d, d->fhash_cap ? d->fhash_cap * 2 : 64) < 0)
		return -PFT_E_NOMEM;
	k = hash_str(path) & (d->fhash_cap - 1);
	while (d->fhash[k]) {
		uint32_t id = d->fhash[k] - 1;

		if (!strcmp(d->files[id], path))
			return id;
		k = (k + 1) & (d->fhash_cap - 1);
	}
	if (DBG_PUSH(d, files) < 0)
		return -PFT_E_NOMEM;
	copy = malloc(strlen(path) + 1);
	if (!copy)
		return -PFT_E_NOMEM;
	strcpy(copy, path);
	d->files[d->n_files] = copy;
	d->fhash[k] = (uint32_t)d->n_files + 1;
	return (long)d->n_files++;
}

const char *dbg_strdup(struct pft_dbg *d, const char *s)
{
	char *c;

	if (DBG_PUSH(d, strs) < 0)
		return NULL;
	c = malloc(strlen(s) + 1);
	if (!c)
		return NULL;
	strcpy(c, s);
	d->strs[d->n_strs++] = c;
	return c;
}

int dbg_add_sym(struct pft_dbg *d, const struct dbg_sym *s)
{
	if (DBG_PUSH(d, syms) < 0)
		return -PFT_E_NOMEM;
	d->syms[d->n_syms++] = *s;
	d->dirty = 1;
	return 0;
}

int dbg_add_map(struct pft_dbg *d, uint64_t addr, uint32_t image, enum pft_dbg_map kind)
{
	if (DBG_PUSH(d, maps) < 0)
		return -PFT_E_NOMEM;
	d->maps[d->n_maps].addr = addr;
	d->maps[d->n_maps].image = image;
	d->maps[d->n_maps].kind = (uint8_t)kind;
	d->n_maps++;
	d->dirty = 1;
	return 0;
}

enum pft_dbg_map dbg_map_kind(const char *name)
{
	if (name[0] != '$' || !name[1] || (name[2] && name[2] != '.'))
		return PFT_DBG_MAP_NONE;
	switch (name[1]) {
	case 'a':
		return PFT_DBG_MAP_ARM;
	case 't':
		return PFT_DBG_MAP_THUMB;
	case 'd':
		return PFT_DBG_MAP_DATA;
	default:
		return PFT_DBG_MAP_NONE;
	}
}

/* ---- sorting ---- */

static int cmp_sym(const void *a, const void *b)
{
	const struct dbg_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* at one address: functions first, then sized, then by name */
	if (x->is_func != y->is_func)
		return x->is_func ? -1 : 1;
	if ((x->size != 0) != (y->size != 0))
		return x->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_map(const void *a, const void *b)
{
	const struct dbg_mapsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

static int cmp_row(const void *a, const void *b)
{
	const struct dbg_row *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	return 0;
}

static int cmp_func(const void *a, const void *b)
{
	const struct dbg_func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return strcmp(x->name, y->name);
}

void dbg_sort(struct pft_dbg *d)
{
	if (!d->dirty)
		return;
	if (d->n_syms) /* qsort(NULL, 0, ...) is undefined */
		qsort(d->syms, d->n_syms, sizeof(*d->syms), cmp_sym);
	if (d->n_maps) /* qsort(NULL, 0, ...) is undefined */
		qsort(d->maps, d->n_maps, sizeof(*d->maps), cmp_map);
	if (d->n_rows) /* qsort(NULL, 0, ...) is undefined */
		qsort(d->rows, d->n_rows, sizeof(*d->rows), cmp_row);
	if (d->n_funcs) /* qsort(NULL, 0, ...) is undefined */
		qsort(d->funcs, d->n_funcs, sizeof(*d->funcs), cmp_func);
	d->dirty = 0;
}

/* ---- lookups in sorted tables ---- */

#define BELOW(arr, n, a)                                         \
	do {                                                     \
		size_t lo = 0, hi = (n);                         \
		while (lo < hi) {                                \
			size_t mid = lo + (hi - lo) / 2;         \
			if ((arr)[mid].addr <= (a))              \
				lo = mid + 1;                    \
			else                                     \
				hi = mid;                        \
		}                                                \
		return (long)lo - 1;                             \
	} while (0)

static long sym_last_below(const struct pft_dbg *d, uint64_t a)
{
	BELOW(d->syms, d->n_syms, a);
}

static uint64_t sym_end(const struct dbg_sym *s)
{
	return s->addr + s->size < s->addr ? UINT64_MAX : s->addr + s->size;
}

long dbg_sym_below_range(const struct pft_dbg *d, uint64_t a, uint64_t *lo, uint64_t *hi)
{
	long i = sym_last_below(d, a), first, k;
	uint64_t l, h;

	/* the answer depends on a only through the last symbol at or below
	   it and the ends of sized symbols: [lo, hi) holds none of those */
	h = (size_t)(i + 1) < d->n_syms ? d->syms[i + 1].addr : UINT64_MAX;
	if (i < 0) {
		*lo = 0;
		*hi = h;
		return -1;
	}
	l = d->syms[i].addr;
	/* the sized symbol around a wins over unsized ones after it */
	first = i;
	while (first > 0 && d->syms[first - 1].addr == d->syms[i].addr)
		first--;
	if (d->syms[first].size && a - d->syms[first].addr < d->syms[first].size) {
		*lo = l;
		*hi = h < sym_end(&d->syms[first]) ? h : sym_end(&d->syms[first]);
		return first;
	}
	if (d->syms[first].size && sym_end(&d->syms[first]) > l)
		l = sym_end(&d->syms[first]);
	/* a sized symbol below may still contain a (nested labels) */
	for (k = first - 1; k >= 0 && k >= first - 16; k--) {
		if (!d->syms[k].size)
			continue;
		if (a - d->syms[k].addr < d->syms[k].size) {
			*lo = l;
			*hi = h < sym_end(&d->syms[k]) ? h : sym_end(&d->syms[k]);
			return k;
		}
		if (sym_end(&d->syms[k]) > l)
			l = sym_end(&d->syms[k]);
	}
	/* past the end of every sized symbol: the nearest one below, as
	 * binutils names alignment padding after a function */
	*lo = l;
	*hi = h;
	return first;
}

long dbg_sym_below(const struct pft_dbg *d, uint64_t a)
{
	uint64_t lo, hi;

	return dbg_sym_below_range(d, a, &lo, &hi);
}

static long row_last_below(const struct pft_dbg *d, uint64_t a)
{
	BELOW(d->rows, d->n_rows, a);
}

long dbg_row_find(const struct pft_dbg *d, uint64_t a)
{
	long i = row_last_below(d, a);

	if (i < 0 || a >= d->rows[i].end)
		return -1;
	return i;
}

static long func_last_below(const struct pft_dbg *d, uint64_t a)
{
	BELOW(d->funcs, d->n_funcs, a);
}

long dbg_func_find(const struct pft_dbg *d, uint64_t a)
{
	long i = func_last_below(d, a), k;

	for (k = i; k >= 0 && k >= i - 8; k--)
		if (a < d->funcs[k].end)
			return k;
	return -1;
}

static long map_last_below(const struct pft_dbg *d, uint64_t a)
{
	BELOW(d->maps, d->n_maps, a);
}

enum pft_dbg_map dbg_map_find(const struct pft_dbg *d, uint64_t a)
{
	long i = map_last_below(d, a);

	return i < 0 ? PFT_DBG_MAP_NONE : (enum pft_dbg_map)d->maps[i].kind;
}
