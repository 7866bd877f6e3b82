/* SPDX-License-Identifier: BSD-3-Clause */
/* pft profile: the table sorted by cost (the default format), and the
 * choice of writer. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "prof_model.h"

int prof_write_callgrind(struct prof_model *m, FILE *f, const char *title);
int prof_write_folded(struct prof_model *m, FILE *f, enum prof_weight w);
int prof_write_speedscope(struct prof_model *m, FILE *f, enum prof_weight w, const char *title);

static const char *const wname[PROF_W_NR] = { "instructions", "cycles", "ns" };

struct row {
	uint64_t self, incl, key;
	uint32_t fid;
};

static int by_cost(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->incl != y->incl)
		return x->incl > y->incl ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static int write_table(struct prof_model *m, FILE *f, enum prof_weight w)
{
	struct row *ord = malloc((m->nf ? m->nf : 1) * sizeof(*ord));
	uint64_t exc = 0;
	size_t i, n = 0;
	char nb[64];

	if (!ord)
		return -1;
	for (i = 0; i < m->nf; i++) {
		exc += m->f[i].exc[w];
		if (m->f[i].self[w] || m->f[i].calls || m->f[i].incl[w]) {
			ord[n].self = m->f[i].self[w];
			ord[n].incl = m->f[i].incl[w];
			ord[n].key = m->f[i].key;
			ord[n++].fid = (uint32_t)i;
		}
	}
	if (n) /* qsort(NULL, 0, ...) is undefined */
		qsort(ord, n, sizeof(*ord), by_cost);
	fprintf(f, "# pft profile: %" PRIu64 " instructions", m->total[PROF_W_INSNS]);
	if (m->has_cc)
		fprintf(f, ", %" PRIu64 " cycles", m->total[PROF_W_CYCLES]);
	if (m->has_time)
		fprintf(f, ", %" PRIu64 " ns", m->total[PROF_W_TIME]);
	fprintf(f, "; %" PRIu64 " calls, %" PRIu64 " trace gaps; weight: %s\n", m->calls, m->gaps,
		wname[w]);
	for (i = 0; i < m->nsrc; i++) { /* --id all: each source's part */
		const struct prof_source *p = &m->src[i];

		fprintf(f, "# source 0x%02X%s%s: %" PRIu64 " instructions", p->trace_id,
			*p->name ? " " : "", p->name, p->total[PROF_W_INSNS]);
		if (m->has_cc)
			fprintf(f, ", %" PRIu64 " cycles", p->total[PROF_W_CYCLES]);
		if (m->has_time)
			fprintf(f, ", %" PRIu64 " ns", p->total[PROF_W_TIME]);
		fprintf(f, "; %" PRIu64 " calls, %" PRIu64 " trace gaps\n", p->calls, p->gaps);
	}
	fprintf(f, "# in exception handlers: %" PRIu64 " %s (%.2f%%)\n", exc, wname[w],
		m->total[w] ? 100.0 * (double)exc / (double)m->total[w] : 0.0);
	fprintf(f, "# self, incl in %s; per call: inclusive instructions; self-exc: the part of "
		"self run in exception handlers; incl-exc: the part of incl spent in exceptions "
		"taken while the function was on the stack\n", wname[w]);
	fprintf(f, "%7s %12s %12s %9s %9s %11s %9s %12s %12s  %s\n", "self%", "self", "incl", "calls",
		"min/call", "mean/call", "max/call", "self-exc", "incl-exc", "function");
	for (i = 0; i < n; i++) {
		const struct prof_func *p = &m->f[ord[i].fid];
		double pct = m->total[w] ? 100.0 * (double)p->self[w] / (double)m->total[w] : 0.0;

		fprintf(f, "%7.2f %12" PRIu64 " %12" PRIu64 " %9" PRIu64, pct, p->self[w],
			p->incl[w], p->calls);
		if (p->ncalls_done)
			fprintf(f, " %9" PRIu64 " %11.1f %9" PRIu64, p->min_incl,
				(double)p->incl[PROF_W_INSNS] / (double)p->ncalls_done, p->max_incl);
		else
			fprintf(f, " %9s %11s %9s", "-", "-", "-");
		fprintf(f, " %12" PRIu64 " %12" PRIu64 "  %s\n", p->exc[w], p->irq[w],
			prof_func_name(m->s, p->key, nb, sizeof(nb)));
	}
	free(ord);
	return ferror(f) ? -1 : 0;
}

int prof_write(struct prof_model *m, FILE *f, enum prof_format fmt, enum prof_weight w,
               const char *title)
{
	switch (fmt) {
	case PROF_CALLGRIND:
		return prof_write_callgrind(m, f, title);
	case PROF_FOLDED:
		return prof_write_folded(m, f, w);
	case PROF_SPEEDSCOPE:
		return prof_write_speedscope(m, f, w, title);
	default:
		return write_table(m, f, w);
	}
}
