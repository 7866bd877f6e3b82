/* SPDX-License-Identifier: BSD-3-Clause */
/* pft profile --format callgrind: the callgrind profile format (KCacheGrind,
 * callgrind_annotate).  One "fn=" block per function with its self cost
 * and a "cfn=/calls=" pair per callee with the inclusive cost of those
 * calls.  Events: Instructions, and Cycles for cycle-accurate trace. */
#include <inttypes.h>
#include <stdlib.h>

#include "prof_model.h"

int prof_write_callgrind(struct prof_model *m, FILE *f, const char *title);

static void costs(FILE *f, const struct prof_model *m, const uint64_t *c)
{
	fprintf(f, "0 %" PRIu64, c[PROF_W_INSNS]);
	if (m->has_cc)
		fprintf(f, " %" PRIu64, c[PROF_W_CYCLES]);
	fputc('\n', f);
}

static void name(FILE *f, const struct prof_model *m, const char *tag, uint32_t fid, uint8_t *named)
{
	char nb[64];

	if (named[fid]) {
		fprintf(f, "%s=(%u)\n", tag, fid + 1);
		return;
	}
	named[fid] = 1;
	fprintf(f, "%s=(%u) %s\n", tag, fid + 1, prof_func_name(m->s, m->f[fid].key, nb, sizeof(nb)));
}

int prof_write_callgrind(struct prof_model *m, FILE *f, const char *title)
{
	uint8_t *named = calloc(m->nf ? m->nf : 1, 1);
	size_t i, e;

	if (!named)
		return -1;
	fprintf(f, "# callgrind format\nversion: 1\ncreator: pft profile\n");
	fprintf(f, "cmd: %s\n", title);
	for (i = 0; i < m->nsrc; i++) /* --id all: each source's part */
		fprintf(f, "desc: Source 0x%02X%s%s: %" PRIu64 " instructions\n", m->src[i].trace_id,
			*m->src[i].name ? " " : "", m->src[i].name, m->src[i].total[PROF_W_INSNS]);
	fprintf(f, "positions: line\n");
	fprintf(f, "events: Instructions%s\n", m->has_cc ? " Cycles" : "");
	fprintf(f, "summary: %" PRIu64, m->total[PROF_W_INSNS]);
	if (m->has_cc)
		fprintf(f, " %" PRIu64, m->total[PROF_W_CYCLES]);
	fprintf(f, "\n\nfl=(1) [trace]\n");
	for (i = 0; i < m->nf; i++) {
		const struct prof_func *p = &m->f[i];
		int any = p->self[PROF_W_INSNS] || p->self[PROF_W_CYCLES];

		for (e = 0; !any && e < m->ne; e++)
			any = m->edge[e].caller == i;
		if (!any)
			continue;
		fputc('\n', f);
		name(f, m, "fn", (uint32_t)i, named);
		costs(f, m, p->self);
		for (e = 0; e < m->ne; e++) {
			const struct prof_edge *g = &m->edge[e];

			if (g->caller != i)
				continue;
			name(f, m, "cfn", g->callee, named);
			fprintf(f, "calls=%" PRIu64 " 0\n", g->calls);
			costs(f, m, g->incl);
		}
	}
	fprintf(f, "\ntotals: %" PRIu64, m->total[PROF_W_INSNS]);
	if (m->has_cc)
		fprintf(f, " %" PRIu64, m->total[PROF_W_CYCLES]);
	fputc('\n', f);
	free(named);
	return ferror(f) ? -1 : 0;
}
