/* SPDX-License-Identifier: BSD-3-Clause */
/* Trace sources: several trace IDs of one capture read by one reader and
 * one deformatter (pft/source.h, "several trace IDs of one capture").
 *
 * The group reads the capture in the chunks a source alone reads, and cuts
 * every member's bytes where source_stream_fill_frames() would cut them:
 * after a chunk of the capture is drained, when a chunk is within
 * PFT_FRAME_MAX_RUN of PFT_SOURCE_CHUNK, and at a frame error (the next
 * chunk starts after a gap).  So a member gets the chunks it would get
 * alone, and a decoder behind it gives the same output.
 *
 * Each trace ID with readers has a list of closed chunks, oldest first;
 * each chunk counts the members that have still to take it, and is freed
 * (kept for reuse) when none has.  Several members may read one ID (a
 * decoder and a reader ahead of it).  A member whose queue exceeds max_lag
 * after a read detaches: it gives back its queued chunks and reads alone
 * from then on (source_stream_fill_frames from the capture's start, the
 * chunks it took skipped). */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/struct_size.h"
#include "source_int.h"

#define GROUP_MAX 64 /* members */
#define GCHUNK_CAP (PFT_SOURCE_CHUNK + 4 * PFT_FRAME_SIZE)

struct source_gchunk {
	struct source_gchunk *next;
	uint8_t *data;
	size_t len;
	int gap;                      /* starts after a gap */
	unsigned refs;                /* members still to take it or holding it */
	struct source_segment *seg;   /* capture offsets of its bytes (tracked IDs) */
	size_t nseg, segcap;
};

struct gid {
	struct source_gchunk *head, *tail; /* closed chunks, oldest first */
	struct source_gchunk *open;        /* the chunk being filled */
	int gap;                           /* the next chunk starts after a gap */
	unsigned readers, track;           /* attached members; of them tracking offsets */
};

struct pft_source_group {
	unsigned refs;
	uint64_t max_lag;
	unsigned flags;
	/* the capture: bound by the first member */
	int bound;
	struct pft_source *rd;        /* its capture fields only: the reader */
	dev_t dev;
	ino_t ino;
	const void *map;
	size_t map_len;
	enum pft_frame_format format;
	int no_realign;
	int started, ended, err;
	struct pft_frame_decoder *fdec;
	struct pft_frame_stats st;
	uint64_t frame_errors;
	char frame_error[256];
	uint64_t position;            /* capture offset after the last byte de-formatted */
	/* the scan (PFT_SOURCE_GROUP_SCAN) */
	int scanned;
	struct pft_frame_stats scan_st;
	/* members and queues */
	struct pft_source *m[GROUP_MAX];
	unsigned nm, joined, detached;
	struct gid ids[128];
	struct source_gchunk *spare;  /* freed chunks, for reuse */
	uint64_t queued, peak_queued;
};

int pft_source_group_alloc(struct pft_source_group **out, uint64_t max_lag, unsigned flags)
{
	struct pft_source_group *g;

	if (!out)
		return -PFT_E_INVAL;
	*out = NULL;
	if (max_lag && max_lag < 2ull * PFT_SOURCE_CHUNK)
		return -PFT_E_INVAL;
	if (flags & ~PFT_SOURCE_GROUP_SCAN)
		return -PFT_E_INVAL;
	if (!(g = calloc(1, sizeof *g)))
		return -PFT_E_NOMEM;
	g->refs = 1;
	g->max_lag = max_lag ? max_lag : PFT_SOURCE_GROUP_LAG;
	g->flags = flags;
	*out = g;
	return 0;
}

static void free_chunk(struct source_gchunk *c)
{
	if (!c)
		return;
	free(c->data);
	free(c->seg);
	free(c);
}

static void group_free(struct pft_source_group *g)
{
	struct source_gchunk *c, *n;
	unsigned k;

	for (k = 0; k < 128; k++) {
		for (c = g->ids[k].head; c; c = n) {
			n = c->next;
			free_chunk(c);
		}
		free_chunk(g->ids[k].open);
	}
	for (c = g->spare; c; c = n) {
		n = c->next;
		free_chunk(c);
	}
	pft_frame_decoder_free(g->fdec);
	if (g->rd)
		source_capture_close(g->rd);
	free(g->rd);
	free(g);
}

static void unref_group(struct pft_source_group *g)
{
	if (g && !--g->refs)
		group_free(g);
}

void pft_source_group_free(struct pft_source_group *g)
{
	unref_group(g);
}

int pft_source_group_get_stats(const struct pft_source_group *g,
			       struct pft_source_group_stats *out, size_t size)
{
	struct pft_source_group_stats t;

	if (!g || !out || size < sizeof(size_t))
		return -PFT_E_INVAL;
	memset(&t, 0, sizeof t);
	t.size = sizeof t;
	t.members = g->joined;
	t.detached = g->detached;
	t.capture_bytes = g->rd ? g->rd->capture_len : 0;
	t.queued = g->queued;
	t.peak_queued = g->peak_queued;
	pft_copy_out(out, size, &t, sizeof t);
	out->size = size < sizeof t ? size : sizeof t;
	return 0;
}

/* ---- chunks -------------------------------------------------------------- */

static struct source_gchunk *new_chunk(struct pft_source_group *g)
{
	struct source_gchunk *c = g->spare;

	if (c) {
		g->spare = c->next;
	} else {
		if (!(c = calloc(1, sizeof *c)))
			return NULL;
		if (!(c->data = malloc(GCHUNK_CAP))) {
			free(c);
			return NULL;
		}
	}
	c->next = NULL;
	c->len = 0;
	c->gap = 0;
	c->refs = 0;
	c->nseg = 0;
	return c;
}

/* Chunks no member needs any more, from the head of ID k's list. */
static void drop_taken(struct pft_source_group *g, unsigned k)
{
	struct gid *d = &g->ids[k];
	struct source_gchunk *c;

	while ((c = d->head) && !c->refs) {
		d->head = c->next;
		if (!d->head)
			d->tail = NULL;
		g->queued -= c->len;
		c->next = g->spare;
		g->spare = c;
	}
}

static void unref_chunk(struct pft_source_group *g, unsigned k, struct source_gchunk *c)
{
	if (c && c->refs && !--c->refs)
		drop_taken(g, k);
}

static int chunk_seg(struct source_gchunk *c, uint64_t stream, uint64_t capture)
{
	if (c->nseg) {
		const struct source_segment *l = &c->seg[c->nseg - 1];
		if (capture - l->capture == stream - l->stream)
			return 0;
	}
	if (c->nseg == c->segcap) {
		size_t nc = c->segcap ? c->segcap * 2 : 256;
		struct source_segment *ns = realloc(c->seg, nc * sizeof *ns);

		if (!ns)
			return -PFT_E_NOMEM;
		c->seg = ns;
		c->segcap = nc;
	}
	c->seg[c->nseg].stream = stream;
	c->seg[c->nseg].capture = capture;
	c->nseg++;
	return 0;
}

/* The open chunk of ID k is complete: to the back of its list, for every
 * member reading k. */
static void close_chunk(struct pft_source_group *g, unsigned k)
{
	struct gid *d = &g->ids[k];
	struct source_gchunk *c = d->open;
	unsigned i;

	if (!c)
		return;
	d->open = NULL;
	if (d->tail)
		d->tail->next = c;
	else
		d->head = c;
	d->tail = c;
	c->refs = d->readers;
	for (i = 0; i < g->nm; i++) {
		struct pft_source *s = g->m[i];

		if (!s || s->gdetached || s->lock_id != (int)k)
			continue;
		if (!s->gnext)
			s->gnext = c;
		s->glag += c->len;
	}
	g->queued += c->len;
	if (g->queued > g->peak_queued)
		g->peak_queued = g->queued;
	if (!c->refs) /* every reader left meanwhile */
		drop_taken(g, k);
}

static void close_all(struct pft_source_group *g)
{
	unsigned k;

	for (k = 0; k < 128; k++)
		if (g->ids[k].open)
			close_chunk(g, k);
}

static int take_data(struct pft_source_group *g, const struct pft_frame_item *it)
{
	struct gid *d;
	struct source_gchunk *c;
	uint32_t i;
	int r;

	g->position = pft_frame_item_byte_offset(it, it->len - 1) + 1;
	if (it->id >= 128 || !g->ids[it->id].readers)
		return 0;
	d = &g->ids[it->id];
	if (!(c = d->open)) {
		if (!(c = d->open = new_chunk(g)))
			return -PFT_E_NOMEM;
		c->gap = d->gap;
		d->gap = 0;
	}
	if (d->track)
		for (i = 0; i < it->len; i++)
			if ((r = chunk_seg(c, it->stream_offset + i, pft_frame_item_byte_offset(it, i))))
				return r;
	memcpy(c->data + c->len, it->data, it->len);
	c->len += it->len;
	if (c->len + PFT_FRAME_MAX_RUN > PFT_SOURCE_CHUNK)
		close_chunk(g, it->id);
	return 0;
}

static void note_error(struct pft_source_group *g, const struct pft_frame_item *it)
{
	struct pft_source tmp;

	/* the message a source alone writes */
	tmp.frame_errors = g->frame_errors;
	source_stream_note_error(&tmp, it);
	if (!g->frame_errors)
		memcpy(g->frame_error, tmp.frame_error, sizeof g->frame_error);
	g->frame_errors = tmp.frame_errors;
}

/* ---- the reader ---------------------------------------------------------- */

/* A member that queued more than max_lag reads alone from now on. */
static void detach(struct pft_source_group *g, struct pft_source *s)
{
	unsigned k = (unsigned)s->lock_id;
	struct gid *d = &g->ids[k];
	struct source_gchunk *c;

	for (c = s->gnext; c; c = c->next)
		c->refs--;
	s->gnext = NULL;
	s->glag = 0;
	s->gdetached = 1;
	d->readers--;
	if (s->track)
		d->track--;
	g->detached++;
	drop_taken(g, k);
}

static void check_lag(struct pft_source_group *g, const struct pft_source *reader)
{
	unsigned i;

	for (i = 0; i < g->nm; i++) {
		struct pft_source *s = g->m[i];

		if (s && s != reader && !s->gdetached && s->glag > g->max_lag)
			detach(g, s);
	}
}

/* Read and de-format the next capture chunk into the members' queues. */
static int pump(struct pft_source_group *g)
{
	struct pft_frame_item it;
	unsigned k;
	int r;

	if (g->err)
		return g->err;
	if (!g->started) {
		g->started = 1;
		if (!(g->fdec = pft_frame_decoder_alloc(g->format, 0)))
			return g->err = -PFT_E_NOMEM;
		pft_frame_decoder_set_realign(g->fdec, !g->no_realign);
	}
	if ((r = source_capture_read(g->rd)))
		return g->err = r;
	if (g->rd->eof)
		pft_frame_decoder_end(g->fdec);
	else
		pft_frame_decoder_feed(g->fdec, g->rd->cdata, g->rd->clen);
	while ((r = pft_frame_decoder_next(g->fdec, &it, sizeof it)) == 0) {
		if (it.type == PFT_FRAME_ITEM_ERROR && it.reason != PFT_FERR_TRUNCATED) {
			note_error(g, &it);
			for (k = 0; k < 128; k++) {
				if (!g->ids[k].readers)
					continue;
				close_chunk(g, k);
				g->ids[k].gap = 1;
			}
		} else if (it.type != PFT_FRAME_ITEM_DATA) {
			note_error(g, &it);
		} else if (it.len && (r = take_data(g, &it))) {
			return g->err = r;
		}
	}
	pft_frame_decoder_get_stats(g->fdec, &g->st, sizeof g->st);
	close_all(g);
	if (r == -PFT_E_EOS)
		g->ended = 1;
	return 0;
}

/* ---- members ------------------------------------------------------------- */

static int same_capture(const struct pft_source_group *g, const struct pft_source *s,
			const struct stat *sb)
{
	if (g->format != s->format || g->no_realign != s->no_realign)
		return 0;
	if (g->map || s->map)
		return g->map == s->map && g->map_len == s->map_len;
	return sb->st_dev == g->dev && sb->st_ino == g->ino;
}

/* The group's own reader of the capture s reads. */
static int bind(struct pft_source_group *g, struct pft_source *s, const struct stat *sb)
{
	int fd;

	if (!(g->rd = calloc(1, sizeof *g->rd)))
		return -PFT_E_NOMEM;
	g->rd->fd = -1;
	g->format = s->format;
	g->no_realign = s->no_realign;
	if (s->map) {
		g->map = s->map;
		g->map_len = s->map_len;
		source_capture_set_memory(g->rd, s->map, s->map_len);
	} else {
		if ((fd = open(s->buffer_path, O_RDONLY)) < 0)
			return -PFT_E_IO;
		g->rd->own_fd = 1;
		source_capture_set_fd(g->rd, fd);
		g->dev = sb->st_dev;
		g->ino = sb->st_ino;
	}
	g->bound = 1;
	return 0;
}

int source_group_join(struct pft_source *s, char *msg, size_t cap)
{
	struct pft_source_group *g = s->group_req;
	struct stat sb;
	int r;

	memset(&sb, 0, sizeof sb);
	if (!g || s->format == PFT_FRAME_RAW || s->lock_id < 0 || s->size <= 0)
		return 0;
	if (!s->map && (!s->own_fd || !s->buffer_path || fstat(s->fd, &sb) || !S_ISREG(sb.st_mode)))
		return 0;
	if (g->bound && !same_capture(g, s, &sb))
		return 0;
	if (g->started)
		return source_msg(-PFT_E_INVAL, msg, cap,
				  "%s: the source group has started reading: join every source first",
				  s->name);
	if (g->nm == GROUP_MAX)
		return 0;
	if (!g->bound && (r = bind(g, s, &sb)))
		return source_msg(r, msg, cap, "cannot open %s again", s->name);
	if (g->flags & PFT_SOURCE_GROUP_SCAN) {
		if (!g->scanned) {
			if ((r = source_stream_scan(s)))
				return source_msg(r, msg, cap, "cannot read %s", s->name);
			g->scan_st = s->frame_stats;
			g->scanned = 1;
		}
		s->frame_stats = g->scan_st; /* for the message of an absent ID */
		if (!g->scan_st.id_bytes[s->lock_id])
			return 2;
		s->stream_len = g->scan_st.id_bytes[s->lock_id];
	}
	g->m[g->nm++] = s;
	g->joined++;
	g->refs++;
	g->ids[s->lock_id].readers++;
	if (s->track)
		g->ids[s->lock_id].track++;
	s->group = g;
	return 1;
}

/* Read alone: from the capture's start, the chunks taken skipped. */
static int fill_alone(struct pft_source *s)
{
	int r, track;

	if (!s->fdec) {
		if ((r = source_stream_start(s)))
			return s->err = r;
		track = s->track;
		s->track = 0;
		for (; s->gtaken && !s->done; s->gtaken--) {
			s->out_gap = s->gap;
			s->gap = 0;
			if ((r = source_stream_fill_frames(s))) {
				s->track = track;
				return s->err = r;
			}
		}
		s->track = track;
		if (s->done) /* cannot happen: the same bytes cut the same way */
			return s->err = -PFT_E_IO;
	}
	s->out_gap = s->gap;
	s->gap = 0;
	if ((r = source_stream_fill_frames(s)))
		return s->err = r;
	s->out = s->obuf;
	s->have = s->olen > 0;
	return 0;
}

int source_group_fill(struct pft_source *s)
{
	struct pft_source_group *g = s->group;
	struct source_gchunk *c;
	size_t i;
	int r;

	s->have = 0;
	if (s->done)
		return 0;
	source_stream_trim(s);
	if (s->gcur) {
		unref_chunk(g, (unsigned)s->lock_id, s->gcur);
		s->gcur = NULL;
	}
	if (s->gdetached)
		return fill_alone(s);
	while (!s->gnext) {
		if (g->ended) {
			s->done = 1;
			s->frame_stats = g->st;
			s->frame_errors = g->frame_errors;
			memcpy(s->frame_error, g->frame_error, sizeof s->frame_error);
			s->capture_len = g->rd->capture_len;
			return 0;
		}
		if ((r = pump(g)))
			return s->err = r;
		check_lag(g, s);
	}
	c = s->gnext;
	s->gnext = c->next;
	s->glag -= c->len;
	s->gcur = c;
	s->gtaken++;
	if (s->track)
		for (i = 0; i < c->nseg; i++)
			if ((r = source_stream_add_seg(s, c->seg[i].stream, c->seg[i].capture)))
				return s->err = r;
	s->out = c->data;
	s->olen = c->len;
	s->out_gap = c->gap;
	s->have = 1;
	s->frame_stats = g->st;
	s->frame_errors = g->frame_errors;
	memcpy(s->frame_error, g->frame_error, sizeof s->frame_error);
	s->capture_len = g->rd->capture_len;
	return 0;
}

void source_group_leave(struct pft_source *s)
{
	struct pft_source_group *g = s->group;
	unsigned i;

	if (!g)
		return;
	if (s->gcur)
		unref_chunk(g, (unsigned)s->lock_id, s->gcur);
	if (!s->gdetached) {
		detach(g, s);
		g->detached--; /* leaving is not falling behind */
	}
	for (i = 0; i < g->nm; i++)
		if (g->m[i] == s)
			g->m[i] = NULL;
	s->group = NULL;
	s->gcur = NULL;
	unref_group(g);
}

int pft_source_group_read(struct pft_source_group *g)
{
	int r;

	if (!g)
		return -PFT_E_INVAL;
	if (!g->bound || g->ended)
		return -PFT_E_EOS;
	if ((r = pump(g)))
		return r;
	check_lag(g, NULL);
	return 0;
}

int pft_source_ready(const struct pft_source *s)
{
	if (!s)
		return 0;
	if (s->have || s->done || s->err || !s->group || s->gdetached)
		return 1;
	return s->gnext != NULL || s->group->ended;
}

uint64_t pft_source_group_position(const struct pft_source *s)
{
	return s && s->group && !s->gdetached ? s->group->position : UINT64_MAX;
}
