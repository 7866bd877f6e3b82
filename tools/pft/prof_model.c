/* SPDX-License-Identifier: BSD-3-Clause */
/* pft profile: the model built from call-stack events: per function
 * (self, inclusive, calls, per-call min/max, cost in exception handlers),
 * caller -> callee edges, and the calling-context tree (one node per
 * distinct stack) that the flame-graph formats need. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof_model.h"

/* ---- (a, b) -> index hash ---- */

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));

	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	return h ^ (h >> 29);
}

/* Look (a, b) up; when absent and add, insert with index *next (then ++). */
static int map_find(struct prof_map *mp, uint64_t a, uint64_t b, uint32_t add_index, int add,
                    uint32_t *out)
{
	size_t i;

	if (add && (mp->n + 1) * 2 > mp->cap) {
		size_t nc = mp->cap ? mp->cap * 2 : 1024, k;
		struct prof_slot *ns = calloc(nc, sizeof(*ns));

		if (!ns)
			return -1;
		for (k = 0; k < mp->cap; k++) {
			if (!mp->s[k].used)
				continue;
			i = mix(mp->s[k].a, mp->s[k].b) & (nc - 1);
			while (ns[i].used)
				i = (i + 1) & (nc - 1);
			ns[i] = mp->s[k];
		}
		free(mp->s);
		mp->s = ns;
		mp->cap = nc;
	}
	if (!mp->cap)
		return 0;
	i = mix(a, b) & (mp->cap - 1);
	while (mp->s[i].used) {
		if (mp->s[i].a == a && mp->s[i].b == b) {
			*out = mp->s[i].v;
			return 1;
		}
		i = (i + 1) & (mp->cap - 1);
	}
	if (!add)
		return 0;
	mp->s[i].used = 1;
	mp->s[i].a = a;
	mp->s[i].b = b;
	mp->s[i].v = add_index;
	mp->n++;
	*out = add_index;
	return 2;
}

#define GROW(arr, n, cap)                                                         \
	do {                                                                      \
		if ((n) == (cap)) {                                               \
			size_t nc_ = (cap) ? (cap) * 2 : 256;                     \
			void *np_ = realloc((arr), nc_ * sizeof(*(arr)));         \
			if (!np_)                                                 \
				return -1;                                        \
			(arr) = np_;                                              \
			(cap) = nc_;                                              \
		}                                                                 \
	} while (0)

static int func_index(struct prof_model *m, uint64_t key, uint32_t *out)
{
	int r = map_find(&m->fmap, key, 0, (uint32_t)m->nf, 1, out);

	if (r < 0)
		return -1;
	if (r == 2) {
		struct prof_func *f;

		GROW(m->f, m->nf, m->capf);
		f = &m->f[m->nf++];
		memset(f, 0, sizeof(*f));
		f->key = key;
		f->min_incl = UINT64_MAX;
	}
	return 0;
}

static int node_index(struct prof_model *m, uint32_t parent, uint32_t fid, uint32_t *out)
{
	int r = map_find(&m->nmap, parent, fid, (uint32_t)m->nn, 1, out);

	if (r < 0)
		return -1;
	if (r == 2) {
		struct prof_node *n;

		GROW(m->node, m->nn, m->capn);
		n = &m->node[m->nn++];
		memset(n, 0, sizeof(*n));
		n->parent = parent;
		n->fid = fid;
		n->edge = UINT32_MAX;
	}
	return 0;
}

static int edge_index(struct prof_model *m, uint32_t caller, uint32_t callee, uint32_t *out)
{
	int r = map_find(&m->emap, (uint64_t)caller + 1, callee, (uint32_t)m->ne, 1, out);

	if (r < 0)
		return -1;
	if (r == 2) {
		struct prof_edge *e;

		GROW(m->edge, m->ne, m->cape);
		e = &m->edge[m->ne++];
		memset(e, 0, sizeof(*e));
		e->caller = caller;
		e->callee = callee;
	}
	return 0;
}

struct prof_model *prof_model_new(const struct prof_session *s, int runs)
{
	struct prof_model *m = calloc(1, sizeof(*m));
	uint32_t root;

	if (!m)
		return NULL;
	m->s = s;
	m->no_runs = !runs;
	/* function 0 = "[no frame]", node 0 = the root */
	if (func_index(m, PROF_KEY_NONE, &root) || node_index(m, UINT32_MAX, 0, &root)) {
		prof_model_free(m);
		return NULL;
	}
	m->pend_node = 0;
	return m;
}

void prof_model_free(struct prof_model *m)
{
	uint32_t i;

	if (!m)
		return;
	for (i = 0; i < m->nctx; i++)
		free(m->ctx[i].st);
	free(m->ctx);
	free(m->f);
	free(m->node);
	free(m->edge);
	free(m->fmap.s);
	free(m->nmap.s);
	free(m->emap.s);
	free(m);
}

int prof_model_has(const struct prof_model *m, enum prof_weight w)
{
	return w == PROF_W_INSNS || (w == PROF_W_CYCLES ? m->has_cc : m->has_time);
}

static struct prof_ctx *ctx_find(struct prof_model *m, uint32_t cid);

static inline struct prof_ctx *ctx_of(struct prof_model *m, uint32_t cid)
{
	if (m->cur < m->nctx && m->ctx[m->cur].cid == cid)
		return &m->ctx[m->cur];
	return ctx_find(m, cid);
}

static struct prof_ctx *ctx_find(struct prof_model *m, uint32_t cid)
{
	uint32_t i;

	for (i = 0; i < m->nctx; i++)
		if (m->ctx[i].cid == cid) {
			m->cur = i;
			return &m->ctx[i];
		}
	if (m->nctx == m->capctx) {
		size_t nc = m->capctx ? m->capctx * 2 : 8;
		struct prof_ctx *n = realloc(m->ctx, nc * sizeof(*n));

		if (!n)
			return NULL;
		m->ctx = n;
		m->capctx = nc;
	}
	memset(&m->ctx[m->nctx], 0, sizeof(m->ctx[0]));
	m->ctx[m->nctx].cid = cid;
	m->cur = m->nctx;
	return &m->ctx[m->nctx++];
}

static uint64_t frame_key(const struct prof_model *m, const struct pft_cs_frame *fr)
{
	uint64_t key;

	if (fr->kind == PFT_CS_FRAME_EXCEPTION)
		return PROF_KEY_EXC(fr->exception);
	if (prof_func_at(m->s, fr->entry, &key))
		return key;
	return fr->entry;
}

/* Charge cost to function fid under the stack of c. */
static int charge(struct prof_model *m, struct prof_ctx *c, uint32_t fid, const uint64_t cost[PROF_W_NR],
                  int in_exc)
{
	uint32_t node = c->n ? c->st[c->n - 1].node : 0, w;
	uint32_t topf = c->n ? c->st[c->n - 1].fid : 0;

	if (fid != topf && node_index(m, node, fid, &node))
		return -1;
	for (w = 0; w < PROF_W_NR; w++) {
		m->f[fid].self[w] += cost[w];
		if (in_exc)
			m->f[fid].exc[w] += cost[w];
		m->node[node].self[w] += cost[w];
		m->total[w] += cost[w];
	}
	m->pend_node = node;
	m->pend_fid = fid;
	m->pend_exc = in_exc;
	return 0;
}

static int run(struct prof_model *m, struct prof_ctx *c, const struct pft_cs_event *ev)
{
	uint64_t cost[PROF_W_NR] = { 0, 0, 0 };
	uint64_t k1, k2;
	uint32_t fid, topf = c->n ? c->st[c->n - 1].fid : 0, i, j;
	int in_exc = ev->level > 0;

	if (!ev->ninsns) {                  /* cycles alone: the top frame */
		cost[PROF_W_CYCLES] = ev->ncycles;
		return charge(m, c, topf, cost, in_exc);
	}
	/* by the function of each instruction (symbols), else the frame's */
	if (!prof_func_at(m->s, ev->insns[0].addr, &k1)) {
		cost[PROF_W_INSNS] = ev->ninsns;
		cost[PROF_W_CYCLES] = ev->ncycles;
		return charge(m, c, topf, cost, in_exc);
	}
	if (prof_func_at(m->s, ev->insns[ev->ninsns - 1].addr, &k2) && k1 == k2) {
		if (func_index(m, k1, &fid))
			return -1;
		cost[PROF_W_INSNS] = ev->ninsns;
		cost[PROF_W_CYCLES] = ev->ncycles;
		return charge(m, c, fid, cost, in_exc);
	}
	for (i = 0; i < ev->ninsns; i = j) {
		int have = prof_func_at(m->s, ev->insns[i].addr, &k1);

		for (j = i + 1; j < ev->ninsns; j++) {
			uint64_t kj;
			int hj = prof_func_at(m->s, ev->insns[j].addr, &kj);

			if (hj != have || (have && kj != k1))
				break;
		}
		if (have) {
			if (func_index(m, k1, &fid))
				return -1;
		} else {
			fid = topf;
		}
		cost[PROF_W_INSNS] = j - i;
		cost[PROF_W_CYCLES] = j == ev->ninsns ? ev->ncycles : 0; /* the waypoint's */
		if (charge(m, c, fid, cost, in_exc))
			return -1;
	}
	return 0;
}

static int push(struct prof_model *m, struct prof_ctx *c, const struct pft_cs_event *ev)
{
	struct prof_frame *fr;
	uint32_t fid, e, caller = c->n ? c->st[c->n - 1].fid : 0;
	uint32_t parent = c->n ? c->st[c->n - 1].node : 0;

	uint64_t key = frame_key(m, &ev->frame);
	struct prof_memo *mo = &m->memo[(mix(parent, key) >> 7) & (PROF_MEMO - 1)];

	GROW(c->st, c->n, c->cap);
	if (mo->valid && mo->parent == parent && mo->key == key) {
		/* the same call from the same place as last time: no lookups */
		fid = mo->fid;
		fr = &c->st[c->n++];
		fr->fid = fid;
		fr->node = mo->node;
		e = mo->edge;
		goto found;
	}
	if (func_index(m, key, &fid))
		return -1;
	fr = &c->st[c->n++];
	fr->fid = fid;
	if (node_index(m, parent, fid, &fr->node))
		return -1;
	/* the node (caller's node, callee) knows its edge (caller, callee) */
	if (m->node[fr->node].edge == UINT32_MAX) {
		if (edge_index(m, caller, fid, &e))
			return -1;
		m->node[fr->node].edge = e;
	}
	e = m->node[fr->node].edge;
	mo->valid = 1;
	mo->parent = parent;
	mo->key = key;
	mo->fid = fid;
	mo->node = fr->node;
	mo->edge = e;
found:
	fr->start[PROF_W_INSNS] = ev->index;
	fr->start[PROF_W_CYCLES] = ev->cycles;
	fr->start[PROF_W_TIME] = ev->time_ns;
	fr->counted = ev->frame.kind != PFT_CS_FRAME_UNKNOWN;
	fr->exc = ev->frame.kind == PFT_CS_FRAME_EXCEPTION;
	c->nexc += fr->exc;
	fr->edge = UINT32_MAX;
	if (fr->counted) {
		m->f[fid].calls++;
		if (!fr->exc)
			m->calls++;        /* the header's calls: not exceptions */
		m->edge[e].calls++;
		fr->edge = e;
	}
	if (m->f[fid].active++ == 0)
		fr->outer = 1;
	else
		fr->outer = 0;
	return 0;
}

static void pop(struct prof_model *m, struct prof_ctx *c, const struct pft_cs_event *ev)
{
	struct prof_frame *fr;
	struct prof_func *f;
	uint64_t now[PROF_W_NR], incl;
	uint32_t w;

	if (!c->n)
		return;
	fr = &c->st[--c->n];
	f = &m->f[fr->fid];
	now[PROF_W_INSNS] = ev->index;
	now[PROF_W_CYCLES] = ev->cycles;
	now[PROF_W_TIME] = ev->time_ns;
	for (w = 0; w < PROF_W_NR; w++) {
		incl = now[w] - fr->start[w];
		if (fr->outer)
			f->incl[w] += incl;
		if (fr->edge != UINT32_MAX)
			m->edge[fr->edge].incl[w] += incl;
	}
	f->active--;
	c->nexc -= fr->exc;
	if (fr->exc) {
		/* an outermost exception: its cost is part of the inclusive cost
		   of every function it interrupted; say how much */
		size_t k;
		int nested = 0;

		for (k = 0; k < c->n; k++)
			nested |= c->st[k].exc;
		for (k = 0; k < c->n && !nested; k++)
			if (c->st[k].outer)
				for (w = 0; w < PROF_W_NR; w++)
					m->f[c->st[k].fid].irq[w] += now[w] - fr->start[w];
	}
	if (fr->counted) {
		incl = now[PROF_W_INSNS] - fr->start[PROF_W_INSNS];
		f->ncalls_done++;
		if (incl < f->min_incl)
			f->min_incl = incl;
		if (incl > f->max_incl)
			f->max_incl = incl;
	}
}

/* Without RUN events: the instructions and cycles since the last event ran
   in the top frame of the running context. */
static int charge_delta(struct prof_model *m, const struct pft_cs_event *ev)
{
	uint64_t cost[PROF_W_NR] = { ev->index - m->last_index, ev->cycles - m->last_cycles, 0 };
	struct prof_ctx *c;

	m->last_index = ev->index;
	m->last_cycles = ev->cycles;
	if (!cost[PROF_W_INSNS] && !cost[PROF_W_CYCLES])
		return 0;
	c = ctx_of(m, m->running);
	if (!c)
		return -1;
	return charge(m, c, c->n ? c->st[c->n - 1].fid : 0, cost, c->nexc > 0);
}

int prof_model_event(struct prof_model *m, const struct pft_cs_event *ev)
{
	struct prof_ctx *c;

	if (m->no_runs && charge_delta(m, ev))
		return -1;
	if (ev->kind == PFT_CS_CONTEXT)
		m->running = ev->context_id;
	c = ctx_of(m, ev->context_id);
	if (!c)
		return -1;
	if (ev->flags & PFT_CS_F_CC)
		m->has_cc = 1;
	if (ev->flags & PFT_CS_F_TIME) {
		/* time passes on the code that ran last */
		if (m->time_base && ev->time_ns > m->last_time) {
			uint64_t d = ev->time_ns - m->last_time;

			m->f[m->pend_fid].self[PROF_W_TIME] += d;
			if (m->pend_exc)
				m->f[m->pend_fid].exc[PROF_W_TIME] += d;
			m->node[m->pend_node].self[PROF_W_TIME] += d;
			m->total[PROF_W_TIME] += d;
		}
		m->has_time = 1;
		m->time_base = 1;
		m->last_time = ev->time_ns;
	}
	switch (ev->kind) {
	case PFT_CS_RUN:
		return run(m, c, ev);
	case PFT_CS_CALL:
	case PFT_CS_EXC_ENTRY:
		return push(m, c, ev);
	case PFT_CS_RETURN:
	case PFT_CS_EXC_RETURN:
		pop(m, c, ev);
		return 0;
	case PFT_CS_GAP:
		m->gaps++;
		return 0;
	default:
		return 0;
	}
}

/* The part of the totals since the source began: close it. */
static void source_close(struct prof_model *m)
{
	struct prof_source *p;
	unsigned w, i;

	if (!m->nsrc)
		return;
	p = &m->src[m->nsrc - 1];
	for (w = 0; w < PROF_W_NR; w++) {
		uint64_t before = 0;

		for (i = 0; i + 1 < m->nsrc; i++)
			before += m->src[i].total[w];
		p->total[w] = m->total[w] - before;
	}
	p->calls = m->calls;
	p->gaps = m->gaps;
	for (i = 0; i + 1 < m->nsrc; i++) {
		p->calls -= m->src[i].calls;
		p->gaps -= m->src[i].gaps;
	}
}

void prof_model_source(struct prof_model *m, const struct prof_session *s, unsigned trace_id,
		       const char *name)
{
	uint32_t i;
	size_t k;

	source_close(m);
	m->s = s;
	/* the stacks the last source left, as a model of its own would drop them */
	for (i = 0; i < m->nctx; i++) {
		for (k = 0; k < m->ctx[i].n; k++)
			m->f[m->ctx[i].st[k].fid].active--;
		m->ctx[i].n = 0;
		m->ctx[i].nexc = 0;
	}
	m->cur = 0;
	m->running = 0;
	m->last_index = m->last_cycles = 0;
	m->last_time = 0;
	m->time_base = 0;
	m->pend_node = m->pend_fid = 0;
	m->pend_exc = 0;
	if (m->nsrc < PROF_MAX_SOURCES) {
		struct prof_source *p = &m->src[m->nsrc++];

		memset(p, 0, sizeof(*p));
		p->trace_id = trace_id;
		snprintf(p->name, sizeof(p->name), "%s", name ? name : "");
	}
}

void prof_model_sources_done(struct prof_model *m, const struct prof_session *s)
{
	source_close(m);
	m->s = s;
}
