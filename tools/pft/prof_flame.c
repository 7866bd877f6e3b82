/* SPDX-License-Identifier: BSD-3-Clause */
/* pft profile --format folded|speedscope: the calling-context tree as
 * flame-graph input.  folded: one line per distinct stack, "root;...;leaf
 * WEIGHT" (flamegraph.pl, inferno, speedscope); speedscope: a "sampled"
 * profile of speedscope's file format, one sample per distinct stack. */
#include <inttypes.h>
#include <stdlib.h>

#include "prof_model.h"

int prof_write_folded(struct prof_model *m, FILE *f, enum prof_weight w);
int prof_write_speedscope(struct prof_model *m, FILE *f, enum prof_weight w, const char *title);

/* Functions on the path root..node (root excluded) into path[]; count. */
static size_t path_of(const struct prof_model *m, uint32_t node, uint32_t **path, size_t *cap)
{
	size_t n = 0, i;
	uint32_t k;

	for (k = node; k != 0 && k != UINT32_MAX; k = m->node[k].parent) {
		if (n == *cap) {
			size_t nc = *cap ? *cap * 2 : 64;
			uint32_t *np = realloc(*path, nc * sizeof(*np));

			if (!np)
				return SIZE_MAX;
			*path = np;
			*cap = nc;
		}
		(*path)[n++] = m->node[k].fid;
	}
	for (i = 0; i < n / 2; i++) {
		uint32_t t = (*path)[i];

		(*path)[i] = (*path)[n - 1 - i];
		(*path)[n - 1 - i] = t;
	}
	return n;
}

int prof_write_folded(struct prof_model *m, FILE *f, enum prof_weight w)
{
	uint32_t *path = NULL;
	size_t cap = 0, i, n, k;
	char nb[64];

	for (i = 0; i < m->nn; i++) {
		if (!m->node[i].self[w])
			continue;
		n = path_of(m, (uint32_t)i, &path, &cap);
		if (n == SIZE_MAX) {
			free(path);
			return -1;
		}
		if (n == 0)
			fputs(prof_func_name(m->s, PROF_KEY_NONE, nb, sizeof(nb)), f);
		for (k = 0; k < n; k++)
			fprintf(f, "%s%s", k ? ";" : "",
				prof_func_name(m->s, m->f[path[k]].key, nb, sizeof(nb)));
		fprintf(f, " %" PRIu64 "\n", m->node[i].self[w]);
	}
	free(path);
	return ferror(f) ? -1 : 0;
}

int prof_write_speedscope(struct prof_model *m, FILE *f, enum prof_weight w, const char *title)
{
	uint32_t *path = NULL;
	size_t cap = 0, i, n, k;
	int first = 1;
	char nb[64];

	fprintf(f, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
		   "\"exporter\":\"pft profile\",\"name\":\"");
	prof_json_str(f, title);
	fprintf(f, "\",\"activeProfileIndex\":0,\n");
	if (m->nsrc) { /* --id all: each source's part (not speedscope's) */
		fputs("\"pft_sources\":[", f);
		for (i = 0; i < m->nsrc; i++) {
			fprintf(f, "%s{\"trace_id\":%u,\"source\":\"", i ? "," : "", m->src[i].trace_id);
			prof_json_str(f, m->src[i].name);
			fprintf(f, "\",\"weight\":%" PRIu64 ",\"instructions\":%" PRIu64 ",\"calls\":%" PRIu64
				",\"gaps\":%" PRIu64 "}", m->src[i].total[w], m->src[i].total[PROF_W_INSNS],
				m->src[i].calls, m->src[i].gaps);
		}
		fputs("],\n", f);
	}
	fprintf(f, "\"shared\":{\"frames\":[");
	for (i = 0; i < m->nf; i++) {
		fprintf(f, "%s\n{\"name\":\"", i ? "," : "");
		prof_json_str(f, prof_func_name(m->s, m->f[i].key, nb, sizeof(nb)));
		fputs("\"}", f);
	}
	fprintf(f, "]},\n\"profiles\":[{\"type\":\"sampled\",\"name\":\"");
	prof_json_str(f, title);
	fprintf(f, "\",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64 ",\n\"samples\":[",
		w == PROF_W_TIME ? "nanoseconds" : "none", m->total[w]);
	for (i = 0; i < m->nn; i++) {
		if (!m->node[i].self[w])
			continue;
		n = path_of(m, (uint32_t)i, &path, &cap);
		if (n == SIZE_MAX) {
			free(path);
			return -1;
		}
		fprintf(f, "%s\n[", first ? "" : ",");
		first = 0;
		if (n == 0)
			fputc('0', f);       /* function 0 is "[no frame]" */
		for (k = 0; k < n; k++)
			fprintf(f, "%s%u", k ? "," : "", path[k]);
		fputc(']', f);
	}
	fprintf(f, "],\n\"weights\":[");
	first = 1;
	for (i = 0; i < m->nn; i++) {
		if (!m->node[i].self[w])
			continue;
		fprintf(f, "%s%" PRIu64, first ? "" : ",", m->node[i].self[w]);
		first = 0;
	}
	fprintf(f, "]}]}\n");
	free(path);
	return ferror(f) ? -1 : 0;
}
