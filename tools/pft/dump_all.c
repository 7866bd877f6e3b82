/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump --id all: the PFT and ETMv3 sources of one capture merged in
 * capture order (dump_all.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dump_all.h"
#include "sources_all.h"

struct src {
	struct input in;
	struct pft_pkt_decoder *dec;     /* a PFT source */
	struct pft_etm3_decoder *e3;     /* an ETMv3 source */
	union dump_all_pkt p;
	uint64_t cap;            /* capture offset of p */
	uint64_t pin_off, pin_cap, zstart; /* as cmd_dump.c's hold() */
	const uint8_t *buf;      /* the chunk being decoded */
	size_t len;
	const uint8_t *pend;     /* a chunk to feed once the decoder is drained (after a gap) */
	size_t pend_len;
	int pinned, have, ended, done, status;
	int waiting;             /* no packet, and its next bytes are not de-formatted yet */
};

struct dump_all {
	const char *cmd;
	struct pft_source_group *g; /* one reader of the capture for every source */
	unsigned n;
	struct src s[DUMP_ALL_MAX];
	struct sources_all sa;
};

static int add(struct dump_all *a, const char *path, const struct input_opts *o)
{
	struct src *s = &a->s[a->n];
	int r;

	r = input_open(&s->in, path, o, 1, a->cmd);
	if (r)
		return r;
	a->n++;
	if (input_is_etm3(&s->in.config))
		s->e3 = pft_etm3_decoder_alloc(&s->in.config);
	else if ((s->dec = pft_pkt_decoder_alloc(&s->in.config)) != NULL)
		pft_pkt_decoder_set_isync_resync(s->dec, (enum pft_isync_resync)s->in.isync_resync);
	if (!s->dec && !s->e3) {
		cli_error(a->cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	s->status = -PFT_E_AGAIN;
	return PFT_EXIT_OK;
}

int dump_all_open(struct dump_all **out, const char *path, const struct input_opts *o,
		  int need_len, const char *cmd)
{
	struct dump_all *a;
	struct input_opts io;
	unsigned i;
	int r;

	*out = NULL;
	a = calloc(1, sizeof *a);
	if (!a) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	a->cmd = cmd;
	io = *o;
	io.allow_etm3 = 1;
	r = sources_all_find(&a->sa, path, &io, 1, cmd);
	if (!r)
		r = sources_all_group(&a->sa, &a->g, need_len, cmd);
	for (i = 0; !r && i < a->sa.n; i++)
		r = add(a, path, &a->sa.opts[i]);
	if (r) {
		dump_all_close(a);
		return r;
	}
	*out = a;
	return PFT_EXIT_OK;
}

/* The source's packet decoder, PFT or ETMv3. */
static uint64_t dec_offset(const struct src *s)
{
	return s->e3 ? pft_etm3_decoder_get_offset(s->e3) : pft_pkt_decoder_get_offset(s->dec);
}

/* The next packet into s->p: 0, -PFT_E_AGAIN, or the decoder's end status;
 * *off and *size set from it. */
static int dec_next(struct src *s, uint64_t *off, uint32_t *size)
{
	int r;

	if (s->e3) {
		r = pft_etm3_decoder_next(s->e3, &s->p.e, sizeof s->p.e);
		*off = s->p.e.offset;
		*size = s->p.e.size;
	} else {
		r = pft_pkt_decoder_next(s->dec, &s->p.p, sizeof s->p.p);
		*off = s->p.p.offset;
		*size = s->p.p.size;
	}
	return r;
}

static void dec_feed(struct src *s, const uint8_t *buf, size_t len)
{
	if (s->e3)
		pft_etm3_decoder_feed(s->e3, buf, len);
	else
		pft_pkt_decoder_feed(s->dec, buf, len);
}

static void dec_end(struct src *s)
{
	if (s->e3)
		pft_etm3_decoder_end(s->e3);
	else
		pft_pkt_decoder_end(s->dec);
}

static void dec_resync(struct src *s)
{
	if (s->e3)
		pft_etm3_decoder_resync(s->e3);
	else
		pft_pkt_decoder_resync(s->dec);
}

/* After the chunk buf[0..len) is drained (cmd_dump.c's hold()): keep the
 * capture offset of the first byte not yet reported, release the rest. */
static void hold(struct src *s, const uint8_t *buf, size_t len)
{
	uint64_t off = dec_offset(s), base = s->in.delivered - len;
	size_t i = len;

	while (i && !buf[i - 1])
		i--;
	if (i)
		s->zstart = base + i;
	if (off >= s->in.delivered) {
		s->pinned = 0;
	} else if (!s->pinned || s->pin_off != off) {
		s->pin_off = off;
		s->pin_cap = input_capture_offset(&s->in, off);
		s->pinned = 1;
	}
	input_release(&s->in, off > s->zstart ? off : s->zstart);
}

/* The next packet of s into s->p: 0, or -exit code after a read error.
 * read 0: stop (s->waiting) rather than have the group de-format more of
 * the capture for it. */
static int fill(struct src *s, int read)
{
	const uint8_t *buf;
	size_t len;
	uint64_t off;
	uint32_t size;
	int r, k;

	s->waiting = 0;
	while (!s->have && !s->done) {
		r = dec_next(s, &off, &size);
		if (r == 0) {
			s->cap = s->pinned && off == s->pin_off ? s->pin_cap
				 : input_capture_offset(&s->in, off);
			input_release(&s->in, off + size);
			s->have = 1;
		} else if (r == -PFT_E_AGAIN && s->pend) { /* after a gap: drained, now feed */
			dec_feed(s, s->pend, s->pend_len);
			s->buf = s->pend;
			s->len = s->pend_len;
			s->pend = NULL;
		} else if (r == -PFT_E_AGAIN && !s->ended) {
			if (s->len) /* the chunk drained: what the decoder holds starts at get_offset */
				hold(s, s->buf, s->len);
			s->len = 0;
			if (!read && !pft_source_ready(s->in.src)) {
				s->waiting = 1;
				return 0;
			}
			k = input_read(&s->in, &buf, &len);
			if (k < 0) {
				s->done = 1;
				return -s->in.exit_code;
			}
			if (k == 0) {
				dec_end(s);
				s->ended = 1;
			} else if (s->in.gap) { /* as the one-source dump: resync, drain, feed */
				dec_resync(s);
				s->pend = buf;
				s->pend_len = len;
			} else {
				dec_feed(s, buf, len);
				s->buf = buf;
				s->len = len;
			}
		} else {
			s->status = r;
			s->done = 1;
		}
	}
	return 0;
}

/* Capture offset below which a waiting source (no packet, no chunk
 * queued) has nothing more.  Its next packet starts at the first byte its
 * decoder has not reported (every byte is in exactly one packet): when the
 * decoder holds bytes, that one's capture offset, pinned by hold(); when
 * it holds none, a byte the group has not de-formatted yet. */
static uint64_t bound(const struct src *s)
{
	uint64_t off = dec_offset(s);

	if (off >= s->in.delivered)
		return pft_source_group_position(s->in.src);
	return s->pinned && s->pin_off == off ? s->pin_cap : 0;
}

int dump_all_next(struct dump_all *a, unsigned *src, union dump_all_pkt *p, uint64_t *cap)
{
	unsigned i, best;
	int r, again;

	/* the packet with the lowest capture offset, lowest source on a tie;
	   a source waiting for bytes is read only when they could come first,
	   so that one source silent for long does not make the group queue
	   everything the others wrote meanwhile */
	do {
		best = a->n;
		for (i = 0; i < a->n; i++) {
			if ((r = fill(&a->s[i], 0)) < 0)
				return r;
			if (a->s[i].have && (best == a->n || a->s[i].cap < a->s[best].cap))
				best = i;
		}
		again = 0;
		for (i = 0; i < a->n && !again; i++) {
			struct src *s = &a->s[i];

			if (!s->waiting || (best < a->n && a->s[best].cap < bound(s)))
				continue;
			/* the next capture chunk for everyone; after an error,
			   the source's own read reports it */
			r = pft_source_group_read(a->g);
			if (r && r != -PFT_E_EOS && (r = fill(s, 1)) < 0)
				return r;
			again = 1;
		}
	} while (again);
	if (best == a->n)
		return 0;
	*src = best;
	*p = a->s[best].p;
	*cap = a->s[best].cap;
	a->s[best].have = 0;
	return 1;
}

unsigned dump_all_count(const struct dump_all *a)
{
	return a->n;
}

int dump_all_is_etm3(const struct dump_all *a, unsigned i)
{
	return a->s[i].e3 != NULL;
}

struct input *dump_all_input(struct dump_all *a, unsigned i)
{
	return &a->s[i].in;
}

int dump_all_status(const struct dump_all *a, unsigned i)
{
	return a->s[i].status;
}

const char *dump_all_skipped(const struct dump_all *a)
{
	struct dump_all *w = (struct dump_all *)a;

	return sources_all_skipped(&w->sa, a->n ? &w->s[0].in : NULL);
}

void dump_all_close(struct dump_all *a)
{
	unsigned i;

	if (!a)
		return;
	for (i = 0; i < a->n; i++) {
		pft_pkt_decoder_free(a->s[i].dec);
		pft_etm3_decoder_free(a->s[i].e3);
		input_close(&a->s[i].in);
	}
	pft_source_group_free(a->g);
	free(a);
}
