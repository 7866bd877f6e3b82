/* SPDX-License-Identifier: BSD-3-Clause */
/* Coverage: the hash tables (64-bit key -> vector index) and the distinct
 * range and edge vectors they index. */
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_int.h"

int cov_grow(void **v, size_t *cap, size_t n, size_t elsize)
{
	void *nv;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 256;
	nv = realloc(*v, nc * elsize);
	if (!nv)
		return -PFT_E_NOMEM;
	*v = nv;
	*cap = nc;
	return 0;
}

static size_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

long cov_hash_get(const struct cov_hash *h, uint64_t key)
{
	size_t i;

	if (!h->cap)
		return -1;
	for (i = mix(key) & (h->cap - 1); h->slot[i]; i = (i + 1) & (h->cap - 1))
		if (h->key[i] == key)
			return (long)h->slot[i] - 1;
	return -1;
}

static int rehash(struct cov_hash *h, size_t cap)
{
	uint32_t *slot = calloc(cap, sizeof(*slot));
	uint64_t *key = malloc(cap * sizeof(*key));
	size_t i, j;

	if (!slot || !key) {
		free(slot);
		free(key);
		return -PFT_E_NOMEM;
	}
	for (i = 0; i < h->cap; i++) {
		if (!h->slot[i])
			continue;
		for (j = mix(h->key[i]) & (cap - 1); slot[j]; j = (j + 1) & (cap - 1))
			;
		slot[j] = h->slot[i];
		key[j] = h->key[i];
	}
	free(h->slot);
	free(h->key);
	h->slot = slot;
	h->key = key;
	h->cap = cap;
	return 0;
}

int cov_hash_put(struct cov_hash *h, uint64_t key, size_t index)
{
	size_t i;

	if (index >= UINT32_MAX)
		return -PFT_E_NOMEM;
	if ((h->n + 1) * 2 > h->cap && rehash(h, h->cap ? h->cap * 2 : 1024) < 0)
		return -PFT_E_NOMEM;
	for (i = mix(key) & (h->cap - 1); h->slot[i]; i = (i + 1) & (h->cap - 1))
		;
	h->slot[i] = (uint32_t)index + 1;
	h->key[i] = key;
	h->n++;
	return 0;
}

void cov_hash_clear(struct cov_hash *h)
{
	if (h->cap)
		memset(h->slot, 0, h->cap * sizeof(*h->slot));
	h->n = 0;
}

void cov_hash_free(struct cov_hash *h)
{
	free(h->slot);
	free(h->key);
	memset(h, 0, sizeof(*h));
}

uint64_t cov_range_key(uint64_t addr, uint64_t end, unsigned isa)
{
	return addr ^ ((end - addr) << 40) ^ ((uint64_t)isa << 62) ^ (end >> 24);
}

uint64_t cov_edge_key(uint64_t from, uint64_t to)
{
	return from ^ (to << 29) ^ (to >> 35);
}

long cov_range_get(struct pft_cov *c, uint64_t addr, uint64_t end, unsigned isa,
		   const struct pft_insn *insns, uint32_t ninsns)
{
	uint64_t key = cov_range_key(addr, end, isa);
	long i = cov_hash_get(&c->range_hash, key);
	struct cov_range *r;

	/* two ranges may share a key: on a mismatch the key is perturbed and
	 * looked up again, the same sequence an insert follows */
	while (i >= 0) {
		r = &c->ranges[i];
		if (r->addr == addr && r->end == end && r->isa == isa)
			return i;
		key = key * 0x9E3779B97F4A7C15ull + 1;
		i = cov_hash_get(&c->range_hash, key);
	}
	if (cov_grow((void **)&c->ranges, &c->cap_ranges, c->nranges, sizeof(*c->ranges)) < 0)
		return -PFT_E_NOMEM;
	while (c->ninsns + ninsns > c->cap_insns)
		if (cov_grow((void **)&c->insns, &c->cap_insns, c->cap_insns, sizeof(*c->insns)) < 0)
			return -PFT_E_NOMEM;
	if (cov_hash_put(&c->range_hash, key, c->nranges) < 0)
		return -PFT_E_NOMEM;
	memcpy(c->insns + c->ninsns, insns, ninsns * sizeof(*insns));
	r = &c->ranges[c->nranges];
	memset(r, 0, sizeof(*r));
	r->addr = addr;
	r->end = end;
	r->isa = (uint8_t)isa;
	r->insn = c->ninsns;
	r->ninsns = ninsns;
	c->ninsns += ninsns;
	return (long)c->nranges++;
}

long cov_edge_get(struct pft_cov *c, uint64_t from, uint64_t to, unsigned fisa, unsigned tisa)
{
	uint64_t key = cov_edge_key(from, to);
	long i = cov_hash_get(&c->edge_hash, key);
	struct cov_edge *e;

	while (i >= 0) {
		e = &c->edges[i];
		if (e->from == from && e->to == to && e->from_isa == fisa && e->to_isa == tisa)
			return i;
		key = key * 0x9E3779B97F4A7C15ull + 1;
		i = cov_hash_get(&c->edge_hash, key);
	}
	if (cov_grow((void **)&c->edges, &c->cap_edges, c->nedges, sizeof(*c->edges)) < 0 ||
	    cov_hash_put(&c->edge_hash, key, c->nedges) < 0)
		return -PFT_E_NOMEM;
	e = &c->edges[c->nedges];
	memset(e, 0, sizeof(*e));
	e->from = from;
	e->to = to;
	e->from_isa = (uint8_t)fisa;
	e->to_isa = (uint8_t)tisa;
	return (long)c->nedges++;
}
