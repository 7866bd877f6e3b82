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
#include "sources_all.h"
#include "pft/pft.h"

/* The capture offset map of a source is kept from its last item written,
 * but never for more than this many stream bytes behind what was read: an
 * item whose packet began further back (the end of a long unsynced run)
 * gets the capture position of the oldest byte still mapped. */
#define MAP_WINDOW (4u << 20)

/* A reader of one source's packets ahead of its flow: the next timestamp. */
struct scout {
	struct input in;
	struct pft_pkt_decoder *pk;      /* a PFT source */
	struct pft_etm3_decoder *e3;     /* an ETMv3 source */
	int ended, done;                 /* input at its end; no more timestamps */
	int have;                        /* off, val: the next timestamp */
	uint64_t off, val;
};

struct dsrc {
	struct input in;
	struct flow_any *dec;
	struct pft_image *img;
	struct pft_dbg *dbg;
	struct decode_out *out;
	struct scout sc;
	struct pft_flow_item it;         /* the head: the next item to write */
	uint64_t key, cap;               /* its time and capture position */
	uint64_t last_ts, prev_key, rel; /* timestamps passed; the key before; map kept from rel */
	uint64_t ts_back;                /* timestamps lower than the one before */
	uint64_t ts_prev;                /* the timestamp before (as read) */
	const uint8_t *pend;             /* a chunk to feed once the flow is drained (after a gap) */
	size_t pend_len;
	int any_ts, have, ended, done, err, rc;
};

struct decode_all {
	const struct decode_all_params *p;
	struct sources_all sa;
	struct pft_source_group *g;      /* one reader of the capture for every source */
	struct dsrc s[SOURCES_ALL_MAX];
	unsigned n;
	int by_time, sticky;
	FILE *f;
};

static int scout_open(struct scout *sc, const char *path, const struct input_opts *o)
{
	int r = input_open(&sc->in, path, o, 0, "decode");

	if (r)
		return r;
	if (input_is_etm3(&sc->in.config)) {
		sc->e3 = pft_etm3_decoder_alloc(&sc->in.config);
	} else {
		sc->pk = pft_pkt_decoder_alloc(&sc->in.config);
		if (sc->pk)
			pft_pkt_decoder_set_isync_resync(sc->pk,
							 (enum pft_isync_resync)sc->in.isync_resync);
	}
	if (!sc->e3 && !sc->pk) {
		cli_error("decode", "out of memory");
		return PFT_EXIT_USAGE;
	}
	return PFT_EXIT_OK;
}

static void scout_close(struct scout *sc)
{
	pft_pkt_decoder_free(sc->pk);
	pft_etm3_decoder_free(sc->e3);
	input_close(&sc->in);
}

/* The next timestamp packet of the source into sc->off, sc->val (have), or
 * none left (done).  The scout reads the stream as the flow's own packet
 * decoder does: resynchronised at the same gaps, with the same I-sync rule. */
static void scout_next(struct scout *sc)
{
	const uint8_t *buf;
	size_t len;
	int r, k;

	sc->have = 0;
	while (!sc->done) {
		if (sc->pk) {
			struct pft_packet p;

			r = pft_pkt_decoder_next(sc->pk, &p, sizeof p);
			if (r == 0 && p.type == PFT_PKT_TIMESTAMP) {
				sc->off = p.offset;
				sc->val = p.timestamp;
				sc->have = 1;
				return;
			}
		} else {
			struct pft_etm3_packet p;

			r = pft_etm3_decoder_next(sc->e3, &p, sizeof p);
			if (r == 0 && p.type == PFT_ETM3_TIMESTAMP) {
				sc->off = p.offset;
				sc->val = p.timestamp;
				sc->have = 1;
				return;
			}
		}
		if (r == 0)
			continue;
		if (r != -PFT_E_AGAIN || sc->ended) {
			sc->done = 1;
			break;
		}
		k = input_read(&sc->in, &buf, &len);
		if (k < 0) { /* the flow's reader reports it */
			sc->done = 1;
		} else if (k == 0) {
			sc->ended = 1;
			if (sc->pk)
				pft_pkt_decoder_end(sc->pk);
			else
				pft_etm3_decoder_end(sc->e3);
		} else {
			if (sc->in.gap) {
				if (sc->pk)
					pft_pkt_decoder_resync(sc->pk);
				else
					pft_etm3_decoder_resync(sc->e3);
			}
			if (sc->pk)
				pft_pkt_decoder_feed(sc->pk, buf, len);
			else
				pft_etm3_decoder_feed(sc->e3, buf, len);
		}
	}
}

/* The head's time and capture position (decode_all.h). */
static void keys(struct decode_all *a, struct dsrc *s)
{
	uint64_t o = s->it.offset, key = 0, q;

	if (a->by_time) {
		while (s->sc.have && s->sc.off < o) {
			if (s->any_ts && s->sc.val < s->ts_prev)
				s->ts_back++;
			if (s->sc.val > s->last_ts)
				s->last_ts = s->sc.val;
			s->ts_prev = s->sc.val;
			s->any_ts = 1;
			scout_next(&s->sc);
		}
		key = s->sc.have ? s->sc.val : s->last_ts;
		if (key < s->prev_key)
			key = s->prev_key;
		s->prev_key = key;
	}
	s->key = key;
	q = o > s->rel ? o : s->rel;
	if (q > s->in.delivered)
		q = s->in.delivered;
	s->cap = input_capture_offset(&s->in, q);
}

/* The next item of s into its head, unless it has one or is done. */
static void fill(struct decode_all *a, struct dsrc *s)
{
	const uint8_t *buf;
	size_t len;
	int r, k;

	while (!s->have && !s->done) {
		r = flow_any_next(s->dec, &s->it);
		if (r == 0) {
			s->have = 1;
			keys(a, s);
			return;
		}
		if (r != -PFT_E_AGAIN || s->ended) {
			s->err = r;
			s->done = 1;
			return;
		}
		if (s->pend) {
			r = flow_any_feed(s->dec, s->pend, s->pend_len);
			s->pend = NULL;
		} else {
			k = input_read(&s->in, &buf, &len);
			if (k < 0) {
				s->rc = s->in.exit_code;
				s->err = -PFT_E_IO;
				s->done = 1;
				return;
			}
			if (k == 0) {
				s->ended = 1;
				r = flow_any_end(s->dec);
			} else if (s->in.gap) { /* drop the state; drain, then feed */
				flow_any_resync(s->dec);
				s->pend = buf;
				s->pend_len = len;
				r = 0;
			} else {
				r = flow_any_feed(s->dec, buf, len);
			}
		}
		if (r) {
			s->err = r;
			s->done = 1;
		}
	}
}

/* The source whose head goes next, or -1 when all are done. */
static int pick(struct decode_all *a)
{
	unsigned i;
	int best = -1;

	if (a->sticky >= 0) { /* the rest of a run split by the decoder (--ranges) */
		struct dsrc *s = &a->s[a->sticky];

		fill(a, s);
		if (s->have && s->it.kind == PFT_FLOW_RANGE)
			return a->sticky;
	}
	for (i = 0; i < a->n; i++) {
		struct dsrc *s = &a->s[i], *b;

		fill(a, s);
		if (!s->have)
			continue;
		if (best < 0) {
			best = (int)i;
			continue;
		}
		b = &a->s[best];
		if (s->key < b->key || (s->key == b->key && s->cap < b->cap))
			best = (int)i;
	}
	return best;
}

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
static int finish(struct decode_all *a, struct dsrc *s)
{
	struct pft_flow_stats st;
	const uint8_t *buf;
	size_t len;
	int rc = s->rc, k;

	if (!rc && s->err != -PFT_E_IO && s->err != -PFT_E_EOS) {
		while ((k = input_read(&s->in, &buf, &len)) > 0)
			;
		if (k < 0)
			rc = s->in.exit_code;
	}
	if (!rc)
		rc = input_finish(&s->in, "decode");
	flow_any_get_stats(s->dec, &st);
	if (!rc && (decode_out_finish(s->out, &st) || s->err == -PFT_E_IO)) {
		cli_error("decode", "error writing %s", a->p->outpath ? a->p->outpath : "standard output");
		return PFT_EXIT_USAGE;
	}
	if (!rc)
		rc = a->p->report(a->p->ctx, &s->in, s->dec, s->err);
	if (a->by_time && s->ts_back)
		cli_error("decode", "trace ID 0x%02X: %" PRIu64 " timestamp(s) lower than the one "
			  "before (a reset, a wrap, damage): time kept from going back, the items "
			  "after them ordered at the highest timestamp so far",
			  s->in.trace_id, s->ts_back);
	if (a->by_time && !s->any_ts && s->sc.done)
		cli_error("decode", "trace ID 0x%02X: no timestamp in the trace: its items come "
			  "first (time 0)", s->in.trace_id);
	return rc;
}

/* Read, merge and write everything: the exit code. */
static int run(struct decode_all *a)
{
	unsigned i;
	int rc = PFT_EXIT_OK, k;

	a->sticky = -1;
	while ((k = pick(a)) >= 0) {
		struct dsrc *s = &a->s[k];

		if (decode_out_item(s->out, &s->it)) {
			cli_error("decode", "error writing %s",
				  a->p->outpath ? a->p->outpath : "standard output");
			return PFT_EXIT_USAGE;
		}
		s->have = 0;
		a->sticky = (a->p->fmt == DECODE_RANGES || a->p->fmt == DECODE_JSON_RANGES) &&
				    s->it.kind == PFT_FLOW_RANGE && s->it.end_kind == PFT_RANGE_MORE
			    ? k : -1;
		if (s->it.offset > s->rel)
			s->rel = s->it.offset;
		if (s->in.delivered > MAP_WINDOW && s->rel < s->in.delivered - MAP_WINDOW)
			s->rel = s->in.delivered - MAP_WINDOW;
		input_release(&s->in, s->rel);
	}
	for (i = 0; i < a->n; i++) {
		k = finish(a, &a->s[i]);
		if (k > rc)
			rc = k;
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
	/* by time when every source has timestamps: then a scout each */
	a->by_time = 1;
	for (i = 0; i < a->n; i++)
		if (!(a->s[i].in.config.etmcr & PFT_ETMCR_TIMESTAMP))
			a->by_time = 0;
	for (i = 0; !rc && a->by_time && i < a->n; i++)
		rc = scout_open(&a->s[i].sc, p->path, &a->sa.opts[i]);
	for (i = 0; !rc && a->by_time && i < a->n; i++)
		scout_next(&a->s[i].sc);
	if (!rc)
		rc = run(a);
	for (i = 0; i < a->n; i++) {
		struct dsrc *s = &a->s[i];

		decode_out_close(s->out);
		flow_any_free(s->dec);
		pft_dbg_free(s->dbg);
		pft_image_free(s->img);
		scout_close(&s->sc);
		input_close(&s->in);
	}
	if (a->f && a->f != stdout)
		fclose(a->f);
	pft_source_group_free(a->g);
	free(a);
	return rc;
}
