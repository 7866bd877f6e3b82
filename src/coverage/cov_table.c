/* SPDX-License-Identifier: BSD-3-Clause */
/* Coverage: the per-address table, built from the distinct ranges (each
 * instruction gets the range's count; the last one its outcomes), and the
 * sorted edge table.  Thumb IT blocks that start inside a range make the
 * branches they cover conditional. */
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_int.h"

static int cmp_insn(const void *a, const void *b)
{
	const struct pft_cov_insn *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct cov_edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/* The IT state after the IT instruction in (16-bit T32). */
static void it_begin(struct pft_it_state *st, const struct pft_insn *in)
{
	struct pft_insn_info info;
	uint8_t b[2] = { (uint8_t)in->opcode, (uint8_t)(in->opcode >> 8) };

	st->itstate = 0;
	if (pft_isa_decode(PFT_ISA_THUMB, in->addr, b, 2, 0, &info) == 0)
		pft_isa_it_start(st, &info);
}

static long table_entry(struct pft_cov *c, const struct pft_insn *in, unsigned isa)
{
	long i = cov_hash_get(&c->table_hash, in->addr);
	struct pft_cov_insn *t;

	if (i >= 0)
		return i;
	if (cov_grow((void **)&c->table, &c->cap_table, c->ntable, sizeof(*c->table)) < 0 ||
	    cov_hash_put(&c->table_hash, in->addr, c->ntable) < 0)
		return -PFT_E_NOMEM;
	t = &c->table[c->ntable];
	memset(t, 0, sizeof(*t));
	t->addr = in->addr;
	t->opcode = in->opcode;
	t->size = in->size;
	t->isa = (uint8_t)isa;
	t->wp_class = in->wp_class;
	return (long)c->ntable++;
}

static int build(struct pft_cov *c)
{
	size_t r, k;

	c->ntable = 0;
	cov_hash_clear(&c->table_hash);
	for (r = 0; r < c->nranges; r++) {
		const struct cov_range *rg = &c->ranges[r];
		struct pft_it_state it = { 0 };

		for (k = 0; k < rg->ninsns; k++) {
			const struct pft_insn *in = &c->insns[rg->insn + k];
			long e = table_entry(c, in, rg->isa);
			struct pft_cov_insn *t;
			unsigned cond = pft_isa_it_cond(&it);

			if (e < 0)
				return (int)e;
			t = &c->table[e];
			t->count += rg->count;
			if (in->wp_class != PFT_WP_NONE && in->wp_class != PFT_WP_BARRIER)
				t->flags |= PFT_COV_F_WAYPOINT;
			if (in->flags & PFT_INSN_F_LINK)
				t->flags |= PFT_COV_F_LINK;
			if (in->wp_class == PFT_WP_INDIRECT)
				t->flags |= PFT_COV_F_INDIRECT;
			if ((t->flags & PFT_COV_F_WAYPOINT) &&
			    ((in->flags & PFT_INSN_F_COND) || cond < 14))
				t->flags |= PFT_COV_F_COND;
			if (k + 1 == rg->ninsns) {
				t->taken += rg->taken;
				t->not_taken += rg->not_taken;
				if (rg->taken || rg->not_taken)
					t->flags |= PFT_COV_F_WAYPOINT;
				if (rg->not_taken)
					t->flags |= PFT_COV_F_COND;
			}
			if (pft_isa_it_active(&it))
				pft_isa_it_advance(&it);
			if (rg->isa == PFT_ISA_THUMB && (in->flags & PFT_INSN_F_IT))
				it_begin(&it, in);
		}
	}
	if (c->ntable) /* qsort(NULL, 0, ...) is undefined */
		if (c->ntable) /* qsort(NULL, 0, ...) is undefined */
		qsort(c->table, c->ntable, sizeof(*c->table), cmp_insn);
	cov_hash_clear(&c->table_hash);
	for (k = 0; k < c->ntable; k++)
		if (cov_hash_put(&c->table_hash, c->table[k].addr, k) < 0)
			return -PFT_E_NOMEM;
	free(c->sorted_edges);
	c->sorted_edges = NULL;
	if (c->nedges) {
		c->sorted_edges = malloc(c->nedges * sizeof(*c->sorted_edges));
		if (!c->sorted_edges)
			return -PFT_E_NOMEM;
		memcpy(c->sorted_edges, c->edges, c->nedges * sizeof(*c->edges));
		if (c->nedges) /* qsort(NULL, 0, ...) is undefined */
			qsort(c->sorted_edges, c->nedges, sizeof(*c->sorted_edges), cmp_edge);
	}
	c->table_ok = 1;
	return 0;
}

long pft_cov_insn_count(struct pft_cov *c)
{
	int err;

	if (!c)
		return -PFT_E_INVAL;
	if (!c->table_ok) {
		err = build(c);
		if (err < 0)
			return err;
	}
	return (long)c->ntable;
}

int pft_cov_insn_at(const struct pft_cov *c, size_t i, struct pft_cov_insn *out, size_t size)
{
	if (!c || !c->table_ok || i >= c->ntable || !out || size < sizeof(*out))
		return -PFT_E_INVAL;
	memset(out, 0, size);
	*out = c->table[i];
	return 0;
}

long pft_cov_insn_find(const struct pft_cov *c, uint64_t addr)
{
	long i;

	if (!c || !c->table_ok)
		return -PFT_E_INVAL;
	i = cov_hash_get(&c->table_hash, addr);
	return i < 0 ? -PFT_E_NOTFOUND : i;
}

long pft_cov_edge_count(struct pft_cov *c)
{
	long n = pft_cov_insn_count(c);

	return n < 0 ? n : (long)c->nedges;
}

int pft_cov_edge_at(const struct pft_cov *c, size_t i, struct pft_cov_edge *out, size_t size)
{
	const struct cov_edge *e;

	if (!c || !c->table_ok || i >= c->nedges || !out || size < sizeof(*out))
		return -PFT_E_INVAL;
	e = &c->sorted_edges[i];
	memset(out, 0, size);
	out->from = e->from;
	out->to = e->to;
	out->count = e->count;
	out->from_isa = e->from_isa;
	out->to_isa = e->to_isa;
	return 0;
}
