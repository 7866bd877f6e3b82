/* SPDX-License-Identifier: BSD-3-Clause */
/* Coverage: counting flow items (one hash lookup per range), taken edges,
 * trace gaps, merging. */
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "coverage/cov_int.h"

struct pft_cov *pft_cov_alloc(void)
{
	return calloc(1, sizeof(struct pft_cov));
}

void pft_cov_free(struct pft_cov *c)
{
	if (!c)
		return;
	free(c->ranges);
	free(c->insns);
	free(c->edges);
	free(c->gaps);
	free(c->table);
	free(c->sorted_edges);
	cov_hash_free(&c->range_hash);
	cov_hash_free(&c->edge_hash);
	cov_hash_free(&c->table_hash);
	free(c);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static int open_gap(struct pft_cov *c, const struct pft_flow_item *it)
{
	struct pft_cov_gap *g;

	if (cov_grow((void **)&c->gaps, &c->cap_gaps, c->ngaps, sizeof(*c->gaps)) < 0)
		return -PFT_E_NOMEM;
	g = &c->gaps[c->ngaps++];
	memset(g, 0, sizeof(*g));
	g->offset = it->offset;
	g->type = it->type;
	g->reason = it->reason;
	if (it->flags & PFT_FLOW_F_ADDR) {
		g->addr = it->addr;
		g->isa = it->isa;
	}
	c->tot.gaps++;
	c->gap_open = 1;
	return 0;
}

static void gap_add(struct pft_cov *c, uint64_t bytes, uint64_t atoms)
{
	struct pft_cov_gap *g = &c->gaps[c->ngaps - 1];
	uint64_t more = sat_add(sat_mul(sat_mul(bytes, 5), PFT_COV_MAX_RUN),
				sat_mul(atoms, PFT_COV_MAX_RUN));

	g->bytes += bytes;
	g->atoms += atoms;
	g->max_insns = sat_add(g->max_insns, more);
	c->tot.gap_bytes += bytes;
	c->tot.gap_atoms += atoms;
	c->tot.gap_max_insns = sat_add(c->tot.gap_max_insns, more);
}

static int add_range(struct pft_cov *c, const struct pft_flow_item *it)
{
	long i;
	struct cov_range *r;
	const struct pft_insn *last;

	if (!it->ninsns || !it->insns)
		return 0;
	i = cov_range_get(c, it->addr, it->end, it->isa, it->insns, it->ninsns);
	if (i < 0)
		return (int)i;
	r = &c->ranges[i];
	if (r->ninsns != it->ninsns)
		return -PFT_E_INVAL;
	r->count++;
	c->tot.ranges++;
	c->tot.insns += it->ninsns;
	c->table_ok = 0;
	/* the edge into this range from the taken waypoint before it */
	if (c->edge_from_valid) {
		long e = cov_edge_get(c, c->edge_from, it->addr, c->edge_from_isa, it->isa);

		if (e < 0)
			return (int)e;
		c->edges[e].count++;
	}
	c->edge_from_valid = 0;
	last = &it->insns[it->ninsns - 1];
	if (it->end_kind == PFT_RANGE_TAKEN) {
		r->taken++;
		c->tot.waypoints_taken++;
		c->edge_from_valid = 1;
		c->edge_from = last->addr;
		c->edge_from_isa = it->isa;
	} else if (it->end_kind == PFT_RANGE_NOT_TAKEN) {
		r->not_taken++;
		c->tot.waypoints_not_taken++;
	}
	c->gap_open = 0;
	return 0;
}

int pft_cov_put(struct pft_cov *c, const struct pft_flow_item *user, size_t size)
{
	struct pft_flow_item copy;
	const struct pft_flow_item *it = user;
	int err;

	if (!c || !user || !size)
		return -PFT_E_INVAL;
	if (size != sizeof(*it)) {
		/* an item of another pft/flow.h: the fields it lacks are 0 */
		memset(&copy, 0, sizeof(copy));
		pft_copy_in(&copy, sizeof(copy), user, size);
		it = &copy;
	}
	if (!c->tot.inputs)
		c->tot.inputs = 1; /* this object counts one input */
	if (it->kind == PFT_FLOW_RANGE)
		return add_range(c, it);
	if (it->kind != PFT_FLOW_EVENT)
		return 0;
	switch (it->type) {
	case PFT_EV_UNSYNCED:
	case PFT_EV_PACKET_ERROR:
		c->edge_from_valid = 0;
		err = open_gap(c, it);
		if (err < 0)
			return err;
		gap_add(c, it->value, 0);
		break;
	case PFT_EV_MEM_NACC:
	case PFT_EV_LOST:
		c->edge_from_valid = 0;
		err = open_gap(c, it);
		if (err < 0)
			return err;
		if (it->flags & PFT_FLOW_F_ATOM)
			gap_add(c, 0, 1);
		break;
	case PFT_EV_NO_ADDRESS:
		c->edge_from_valid = 0;
		if (!c->gap_open) {
			err = open_gap(c, it);
			if (err < 0)
				return err;
		}
		gap_add(c, 0, 1);
		break;
	case PFT_EV_TRACE_ON:
	case PFT_EV_SYNC_MISMATCH:
		c->gap_open = 0;
		c->edge_from_valid = 0;
		break;
	case PFT_EV_EXCEPTION:
	case PFT_EV_JAZELLE:
		/* execution continues at a vector, not at a branch target */
		c->edge_from_valid = 0;
		break;
	default:
		break;
	}
	return 0;
}

int pft_cov_merge(struct pft_cov *dst, const struct pft_cov *src)
{
	size_t i;

	if (!dst || !src || dst == src)
		return -PFT_E_INVAL;
	for (i = 0; i < src->nranges; i++) {
		const struct cov_range *s = &src->ranges[i];
		long k = cov_range_get(dst, s->addr, s->end, s->isa, src->insns + s->insn,
				       s->ninsns);

		if (k < 0)
			return (int)k;
		dst->ranges[k].count += s->count;
		dst->ranges[k].taken += s->taken;
		dst->ranges[k].not_taken += s->not_taken;
	}
	for (i = 0; i < src->nedges; i++) {
		const struct cov_edge *s = &src->edges[i];
		long k = cov_edge_get(dst, s->from, s->to, s->from_isa, s->to_isa);

		if (k < 0)
			return (int)k;
		dst->edges[k].count += s->count;
	}
	for (i = 0; i < src->ngaps; i++) {
		if (cov_grow((void **)&dst->gaps, &dst->cap_gaps, dst->ngaps, sizeof(*dst->gaps)) < 0)
			return -PFT_E_NOMEM;
		dst->gaps[dst->ngaps++] = src->gaps[i];
	}
	dst->gap_open = 0;
	dst->edge_from_valid = 0;
	dst->tot.insns += src->tot.insns;
	dst->tot.ranges += src->tot.ranges;
	dst->tot.waypoints_taken += src->tot.waypoints_taken;
	dst->tot.waypoints_not_taken += src->tot.waypoints_not_taken;
	dst->tot.gaps += src->tot.gaps;
	dst->tot.gap_bytes += src->tot.gap_bytes;
	dst->tot.gap_atoms += src->tot.gap_atoms;
	dst->tot.gap_max_insns = sat_add(dst->tot.gap_max_insns, src->tot.gap_max_insns);
	dst->tot.inputs += src->tot.inputs;
	dst->table_ok = 0;
	return 0;
}

size_t pft_cov_gap_count(const struct pft_cov *c)
{
	return c ? c->ngaps : 0;
}

int pft_cov_gap_at(const struct pft_cov *c, size_t i, struct pft_cov_gap *out, size_t size)
{
	if (!c || i >= c->ngaps || !out || size < sizeof(*out))
		return -PFT_E_INVAL;
	memset(out, 0, size);
	*out = c->gaps[i];
	return 0;
}

int pft_cov_get_totals(const struct pft_cov *c, struct pft_cov_totals *out, size_t size)
{
	if (!c || !out || size < sizeof(*out))
		return -PFT_E_INVAL;
	memset(out, 0, size);
	*out = c->tot;
	out->distinct_ranges = c->nranges;
	return 0;
}
