/* SPDX-License-Identifier: BSD-3-Clause */
/* pft coverage --format lcov: the lcov tracefile (geninfo(1) "TRACEFILE
 * FORMAT"), read by lcov 1.16 and 2.x and genhtml.  Per source file: FN/FNDA
 * (entry counts), FNF/FNH, BRDA (every conditional waypoint: branch 2k =
 * taken, 2k+1 = not taken; '-' when never evaluated), BRF/BRH, DA (every
 * line with code; lines that never ran are 0), LF/LH. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cov_out.h"

static int cmp_func(const void *x, const void *y)
{
	const struct cov_func *a = x, *b = y;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void put_count(FILE *f, int evaluated, uint64_t n)
{
	if (evaluated)
		fprintf(f, "%" PRIu64 "\n", n);
	else
		fputs("-\n", f);
}

static void write_file(FILE *f, const struct cov_ctx *c, struct cov_file *cf)
{
	uint32_t i, k, lf = 0, lh = 0, brf = 0, brh = 0, fnh = 0;

	fprintf(f, "TN:%s\nSF:%s\n", c->test_name ? c->test_name : "", cf->path);
	if (cf->nfuncs) /* qsort(NULL, 0, ...) is undefined */
		if (cf->nfuncs) /* qsort(NULL, 0, ...) is undefined */
		qsort(cf->funcs, cf->nfuncs, sizeof(*cf->funcs), cmp_func);
	for (i = 0; i < cf->nfuncs; i++)
		fprintf(f, "FN:%u,%s\n", cf->funcs[i].line, cf->funcs[i].name);
	for (i = 0; i < cf->nfuncs; i++) {
		fprintf(f, "FNDA:%" PRIu64 ",%s\n", cf->funcs[i].count, cf->funcs[i].name);
		fnh += cf->funcs[i].count > 0;
	}
	fprintf(f, "FNF:%u\nFNH:%u\n", cf->nfuncs, fnh);
	for (i = 1; i < cf->nlines; i++) {
		const struct cov_line *ln = &cf->lines[i];

		for (k = 0; k < ln->nbr; k++) {
			const struct cov_branch *b = &cf->br[ln->br + k];

			fprintf(f, "BRDA:%u,0,%u,", i, 2 * k);
			put_count(f, b->evaluated, b->taken);
			fprintf(f, "BRDA:%u,0,%u,", i, 2 * k + 1);
			put_count(f, b->evaluated, b->not_taken);
			brf += 2;
			brh += (b->taken > 0) + (b->not_taken > 0);
		}
	}
	if (brf)
		fprintf(f, "BRF:%u\nBRH:%u\n", brf, brh);
	for (i = 1; i < cf->nlines; i++) {
		const struct cov_line *ln = &cf->lines[i];

		if (!ln->code)
			continue;
		fprintf(f, "DA:%u,%" PRIu64 "\n", i, ln->count);
		lf++;
		lh += ln->count > 0;
	}
	fprintf(f, "LF:%u\nLH:%u\nend_of_record\n", lf, lh);
}

int cov_write_lcov(FILE *f, const struct cov_ctx *c)
{
	struct cov_files fs;
	size_t i;

	if (cov_lines_build(c, &fs) < 0)
		return -1;
	for (i = 0; i < fs.n; i++) {
		uint32_t k;
		int code = 0;

		for (k = 0; k < fs.f[i].nlines && !code; k++)
			code = fs.f[i].lines[k].code;
		if (code)
			write_file(f, c, &fs.f[i]);
	}
	cov_lines_free(&fs);
	return ferror(f) ? -1 : 0;
}
