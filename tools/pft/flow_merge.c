/* SPDX-License-Identifier: BSD-3-Clause */
/* The flows of several sources merged by time, or by capture position
 * (flow_merge.h; doc/decode.md). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "flow_merge.h"
#include "sources_all.h"
#include "pft/pft.h"

/* The capture offset map of a source is kept from its last item used, but
 * never for more than this many stream bytes behind what was read: an item
 * whose packet began further back (the end of a long unsynced run) gets the
 * capture position of the oldest byte still mapped. */
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

struct msrc {
	struct input *in;
	struct flow_any *dec;
	struct scout sc;
	struct pft_flow_item it;         /* the head: the next item to hand out */
	uint64_t key, cap;               /* its time and capture position */
	uint64_t last_ts, prev_key, rel; /* timestamps passed; the key before; map kept from rel */
	uint64_t ts_back;                /* timestamps lower than the one before */
	uint64_t ts_prev;                /* the timestamp before (as read) */
	const uint8_t *pend;             /* a chunk to feed once the flow is drained (after a gap) */
	size_t pend_len;
	int any_ts, have, ended, done, err, rc;
};

struct flow_merge {
	const char *cmd;
	struct msrc s[SOURCES_ALL_MAX];
	unsigned n;
	int by_time;
};

static int scout_open(struct scout *sc, const char *path, const struct input_opts *o,
		      const char *cmd)
{
	int r = input_open(&sc->in, path, o, 0, cmd);

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
		cli_error(cmd, "out of memory");
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

/* The scout's next packet, PFT or ETMv3: the decoder's status; a timestamp
 * packet sets sc->off, sc->val and have. */
static int scout_packet(struct scout *sc)
{
	struct pft_packet p;
	struct pft_etm3_packet e;
	int r;

	if (sc->pk) {
		r = pft_pkt_decoder_next(sc->pk, &p, sizeof p);
		if (r == 0 && p.type == PFT_PKT_TIMESTAMP) {
			sc->off = p.offset;
			sc->val = p.timestamp;
			sc->have = 1;
		}
		return r;
	}
	r = pft_etm3_decoder_next(sc->e3, &e, sizeof e);
	if (r == 0 && e.type == PFT_ETM3_TIMESTAMP) {
		sc->off = e.offset;
		sc->val = e.timestamp;
		sc->have = 1;
	}
	return r;
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
		r = scout_packet(sc);
		if (sc->have)
			return;
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

/* The head's time and capture position (flow_merge.h). */
static void keys(struct flow_merge *m, struct msrc *s)
{
	uint64_t o = s->it.offset, key = 0, q;

	if (m->by_time) {
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
	if (q > s->in->delivered)
		q = s->in->delivered;
	s->cap = input_capture_offset(s->in, q);
}

/* The next item of s into its head, unless it has one or is done. */
static void fill(struct flow_merge *m, struct msrc *s)
{
	const uint8_t *buf;
	size_t len;
	int r, k;

	while (!s->have && !s->done) {
		r = flow_any_next(s->dec, &s->it);
		if (r == 0) {
			s->have = 1;
			keys(m, s);
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
			k = input_read(s->in, &buf, &len);
			if (k < 0) {
				s->rc = s->in->exit_code;
				s->err = -PFT_E_IO;
				s->done = 1;
				return;
			}
			if (k == 0) {
				s->ended = 1;
				r = flow_any_end(s->dec);
			} else if (s->in->gap) { /* drop the state; drain, then feed */
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

int flow_merge_next(struct flow_merge *m, int stick, unsigned *k, const struct pft_flow_item **it)
{
	unsigned i;
	int best = -1, stuck = 0;

	if (stick >= 0 && (unsigned)stick < m->n) { /* the rest of a run split by the decoder */
		struct msrc *s = &m->s[stick];

		fill(m, s);
		if (s->have && s->it.kind == PFT_FLOW_RANGE) {
			best = stick;
			stuck = 1;
		}
	}
	for (i = 0; !stuck && i < m->n; i++) {
		struct msrc *s = &m->s[i], *b;

		fill(m, s);
		if (!s->have)
			continue;
		if (best < 0) {
			best = (int)i;
			continue;
		}
		b = &m->s[best];
		if (s->key < b->key || (s->key == b->key && s->cap < b->cap))
			best = (int)i;
	}
	if (best < 0)
		return 0;
	*k = (unsigned)best;
	*it = &m->s[best].it;
	return 1;
}

void flow_merge_release(struct flow_merge *m, unsigned k)
{
	struct msrc *s = &m->s[k];

	s->have = 0;
	if (s->it.offset > s->rel)
		s->rel = s->it.offset;
	if (s->in->delivered > MAP_WINDOW && s->rel < s->in->delivered - MAP_WINDOW)
		s->rel = s->in->delivered - MAP_WINDOW;
	input_release(s->in, s->rel);
}

int flow_merge_open(struct flow_merge **out, const char *path, const struct flow_merge_src *src,
		    unsigned n, const char *cmd)
{
	struct flow_merge *m;
	unsigned i;
	int rc = PFT_EXIT_OK;

	*out = NULL;
	if (n > SOURCES_ALL_MAX || !(m = calloc(1, sizeof *m))) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	m->cmd = cmd;
	m->n = n;
	/* by time when every source has timestamps: then a scout each */
	m->by_time = 1;
	for (i = 0; i < n; i++) {
		m->s[i].in = src[i].in;
		m->s[i].dec = src[i].dec;
		if (!(src[i].in->config.etmcr & PFT_ETMCR_TIMESTAMP))
			m->by_time = 0;
	}
	for (i = 0; !rc && m->by_time && i < n; i++)
		rc = scout_open(&m->s[i].sc, path, src[i].opts, cmd);
	for (i = 0; !rc && m->by_time && i < n; i++)
		scout_next(&m->s[i].sc);
	*out = m;
	return rc;
}

int flow_merge_by_time(const struct flow_merge *m)
{
	return m->by_time;
}

int flow_merge_finish(struct flow_merge *m, unsigned k, int *err)
{
	struct msrc *s = &m->s[k];
	const uint8_t *buf;
	size_t len;
	int rc = s->rc, r;

	*err = s->err;
	if (!rc && s->err != -PFT_E_IO && s->err != -PFT_E_EOS) {
		while ((r = input_read(s->in, &buf, &len)) > 0)
			;
		if (r < 0)
			rc = s->in->exit_code;
	}
	return rc;
}

void flow_merge_warn(const struct flow_merge *m, unsigned k)
{
	const struct msrc *s = &m->s[k];

	if (m->by_time && s->ts_back)
		cli_error(m->cmd, "trace ID 0x%02X: %" PRIu64 " timestamp(s) lower than the one "
			  "before (a reset, a wrap, damage): time kept from going back, the items "
			  "after them ordered at the highest timestamp so far",
			  s->in->trace_id, s->ts_back);
	if (m->by_time && !s->any_ts && s->sc.done)
		cli_error(m->cmd, "trace ID 0x%02X: no timestamp in the trace: its items come "
			  "first (time 0)", s->in->trace_id);
}

void flow_merge_close(struct flow_merge *m)
{
	unsigned i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		scout_close(&m->s[i].sc);
	free(m);
}
