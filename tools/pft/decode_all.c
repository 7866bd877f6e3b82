/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode --id all: the flows of every PFT and ETMv3 source merged by
 * time, or by capture position (decode_all.h; doc/decode.md). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode_all.h"
#include "flow_merge.h"
#include "sources_all.h"
#include "pft/pft.h"

struct dsrc {
	struct input in;
	struct flow_any *dec;
	struct pft_image *img;
	struct pft_dbg *dbg;
	struct decode_out *out;
};

struct decode_all {
	const struct decode_all_params *p;
	struct sources_all sa;
	struct pft_source_group *g;      /* one reader of the capture for every source */
	struct dsrc s[SOURCES_ALL_MAX];
	unsigned n;
	struct flow_merge *m;            /* the order (flow_merge.h) */
	FILE *f;
};

/* Its input (the scout comes later, when the order is by time). */
static int open_source(struct decode_all *a, struct dsrc *s, unsigned i)
{
	return input_open(&s->in, a->p->path, &a->sa.opts[i], 1, "decode");
}

/* Its image, flow decoder and writer (after the output is open). */
static int open_decoder(struct decode_all *a, struct dsrc *s, unsigned i)
{
	const struct decode_all_params *p = a->p;
	int r = p->open_image(p->ctx, &s->in, &s->img, &s->dbg);

	if (r)
		return r;
	s->dec = flow_any_alloc(&s->in.config, s->img, s->in.isync_resync);
	s->out = decode_out_open(a->f, p->fmt, p->disasm,
				 pft_dbg_symbol_count(s->dbg) || pft_dbg_has_lines(s->dbg) ? s->dbg
											 : NULL);
	if (!s->dec || !s->out) {
		cli_error("decode", "out of memory");
		return PFT_EXIT_USAGE;
	}
	decode_out_set_source(s->out, s->in.trace_id, a->sa.names[i]);
	return PFT_EXIT_OK;
}

/* 0, or 1 if an output path names one of the inputs (message printed). */
static int output_over_input(const struct decode_all *a)
{
	const char *ins[2 * SOURCES_ALL_MAX + 64];
	size_t n = 0, i;

	for (i = 0; i < a->n; i++) {
		ins[n++] = a->s[i].in.path;
		ins[n++] = a->s[i].in.buffer_path;
	}
	for (i = 0; i < a->p->nimages && n < sizeof ins / sizeof ins[0]; i++)
		ins[n++] = a->p->images[i];
	return cli_output_is_input("decode", a->p->outpath, ins, n);
}

/* The end of one source: what is left of its input, its totals, its
 * checks.  The exit code. */
static int finish(struct decode_all *a, unsigned i)
{
	struct dsrc *s = &a->s[i];
	struct pft_flow_stats st;
	int err, rc = flow_merge_finish(a->m, i, &err);

	if (!rc)
		rc = input_finish(&s->in, "decode");
	flow_any_get_stats(s->dec, &st);
	if (!rc && (decode_out_finish(s->out, &st) || err == -PFT_E_IO)) {
		cli_error("decode", "error writing %s", a->p->outpath ? a->p->outpath : "standard output");
		return PFT_EXIT_USAGE;
	}
	if (!rc)
		rc = a->p->report(a->p->ctx, &s->in, s->dec, err);
	flow_merge_warn(a->m, i);
	return rc;
}

/* Read, merge and write everything: the exit code. */
static int run(struct decode_all *a)
{
	const struct pft_flow_item *it;
	unsigned i, k;
	int rc = PFT_EXIT_OK, r, stick = -1;

	while (flow_merge_next(a->m, stick, &k, &it) == 1) {
		struct dsrc *s = &a->s[k];

		if (decode_out_item(s->out, it)) {
			cli_error("decode", "error writing %s",
				  a->p->outpath ? a->p->outpath : "standard output");
			return PFT_EXIT_USAGE;
		}
		/* the rest of a run split by the decoder (--ranges) comes next */
		stick = (a->p->fmt == DECODE_RANGES || a->p->fmt == DECODE_JSON_RANGES) &&
				it->kind == PFT_FLOW_RANGE && it->end_kind == PFT_RANGE_MORE
			? (int)k : -1;
		flow_merge_release(a->m, k);
	}
	for (i = 0; i < a->n; i++) {
		r = finish(a, i);
		if (r > rc)
			rc = r;
	}
	if (*sources_all_skipped(&a->sa, a->n ? &a->s[0].in : NULL))
		cli_error("decode", "skipped (neither PFT nor ETMv3, or no data): %s", a->sa.skipped);
	return rc;
}

int decode_all_run(const struct decode_all_params *p)
{
	struct decode_all *a = calloc(1, sizeof *a);
	struct input_opts io;
	unsigned i;
	int rc;

	if (!a) {
		cli_error("decode", "out of memory");
		return PFT_EXIT_USAGE;
	}
	a->p = p;
	io = *p->io;
	io.allow_etm3 = 1;
	rc = sources_all_find(&a->sa, p->path, &io, 1, "decode");
	if (!rc)
		rc = sources_all_group(&a->sa, &a->g, 0, "decode");
	for (i = 0; !rc && i < a->sa.n; i++) {
		a->n++;
		rc = open_source(a, &a->s[i], i);
	}
	if (!rc && output_over_input(a))
		rc = PFT_EXIT_USAGE;
	if (!rc && !(a->f = cli_open_output("decode", p->outpath)))
		rc = PFT_EXIT_USAGE;
	for (i = 0; !rc && i < a->n; i++)
		rc = open_decoder(a, &a->s[i], i);
	if (!rc) {
		struct flow_merge_src ms[SOURCES_ALL_MAX];

		for (i = 0; i < a->n; i++) {
			ms[i].in = &a->s[i].in;
			ms[i].dec = a->s[i].dec;
			ms[i].opts = &a->sa.opts[i];
		}
		rc = flow_merge_open(&a->m, p->path, ms, a->n, "decode");
	}
	if (!rc)
		rc = run(a);
	flow_merge_close(a->m);
	for (i = 0; i < a->n; i++) {
		struct dsrc *s = &a->s[i];

		decode_out_close(s->out);
		flow_any_free(s->dec);
		pft_dbg_free(s->dbg);
		pft_image_free(s->img);
		input_close(&s->in);
	}
	if (a->f && a->f != stdout)
		fclose(a->f);
	pft_source_group_free(a->g);
	free(a);
	return rc;
}
