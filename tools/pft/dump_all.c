/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump --id all: the PFT sources of one capture merged in capture
 * order (dump_all.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "dump_all.h"
#include "probe_out.h"
#include "pft/probe.h"
#include "pft/snapshot.h"

#define PROBE_BYTES (16u << 20) /* capture bytes probed for the trace IDs */

struct src {
	struct input in;
	struct pft_pkt_decoder *dec;
	struct pft_packet p;
	uint64_t cap;            /* capture offset of p */
	uint64_t pin_off, pin_cap, zstart; /* as cmd_dump.c's hold() */
	const uint8_t *buf;      /* the chunk being decoded */
	size_t len;
	int pinned, have, ended, done, status;
};

struct dump_all {
	const char *cmd;
	unsigned n;
	struct src s[DUMP_ALL_MAX];
	unsigned nskip;
	uint8_t skip_id[128];
	char skip_what[128][24];
	char skipped[2048];
};

static int is_dir(const char *path)
{
	struct stat sb;

	return strcmp(path, "-") && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static void skip(struct dump_all *a, uint8_t id, const char *what)
{
	if (a->nskip >= 128)
		return;
	a->skip_id[a->nskip] = id;
	snprintf(a->skip_what[a->nskip], sizeof a->skip_what[0], "%s", what);
	a->nskip++;
}

static int add(struct dump_all *a, const char *path, const struct input_opts *o)
{
	struct src *s;
	int r;

	if (a->n >= DUMP_ALL_MAX) {
		cli_error(a->cmd, "%s: more than %d PFT sources: give --id", path, DUMP_ALL_MAX);
		return PFT_EXIT_USAGE;
	}
	s = &a->s[a->n];
	r = input_open(&s->in, path, o, 1, a->cmd);
	if (r)
		return r;
	a->n++;
	s->dec = pft_pkt_decoder_alloc(&s->in.config);
	if (!s->dec) {
		cli_error(a->cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	s->status = -PFT_E_AGAIN;
	return PFT_EXIT_OK;
}

/* 1 if the frames of file hold bytes of trace ID id (a bounded probe of
 * the file's first PROBE_BYTES; a raw buffer: 1). */
static int has_data(const char *file, const char *format, uint8_t id)
{
	struct pft_probe_report *rep;
	unsigned long long total;
	unsigned char *buf = NULL;
	size_t len;
	unsigned i;
	int yes = 1;

	if (!file || pft_snapshot_buffer_format(format ? format : "coresight") == PFT_FRAME_RAW)
		return 1;
	rep = calloc(1, sizeof *rep);
	if (!rep || probe_read_file(NULL, file, PROBE_BYTES, &buf, &len, &total) < 0) {
		free(rep);
		return 1; /* input_open says what is wrong */
	}
	rep->size = sizeof *rep;
	if (pft_probe_buffer(buf, len, PFT_PROBE_LAYOUT_FRAMES, rep) == 0) {
		yes = 0;
		for (i = 0; i < rep->nstreams; i++)
			if (rep->streams[i].id == id && rep->streams[i].bytes)
				yes = 1;
	}
	free(buf);
	free(rep);
	return yes;
}

/* A snapshot: its PTM sources by name; the others are skipped. */
static int open_snapshot(struct dump_all *a, const char *path, const struct input_opts *o)
{
	struct pft_snapshot *snap;
	struct pft_snapshot_source ss;
	struct input_opts one = *o;
	char msg[1024];
	size_t i, n;
	int r = PFT_EXIT_OK;

	if (pft_snapshot_open(path, &snap, msg, sizeof msg) < 0) {
		cli_error(a->cmd, "%s", msg);
		return PFT_EXIT_USAGE;
	}
	n = pft_snapshot_source_count(snap);
	for (i = 0; i < n && !r; i++) {
		if (pft_snapshot_source(snap, i, &ss) < 0)
			continue;
		if (!ss.is_ptm) {
			skip(a, ss.trace_id, ss.type ? ss.type : "not PFT");
			continue;
		}
		if (!has_data(ss.buffer_file, ss.buffer_format, ss.trace_id)) {
			skip(a, ss.trace_id, "PTM, no data");
			continue;
		}
		one.source = ss.name;
		one.id = -1;
		r = add(a, path, &one);
	}
	pft_snapshot_close(snap);
	return r;
}

static enum pft_probe_layout layout_of(int format)
{
	return format == PFT_FRAME_RAW ? PFT_PROBE_LAYOUT_RAW
	       : format == PFT_FRAME_CORESIGHT ? PFT_PROBE_LAYOUT_FRAMES
	       : format == PFT_FRAME_TPIU ? PFT_PROBE_LAYOUT_TPIU : PFT_PROBE_LAYOUT_UNKNOWN;
}

/* A capture file: the probe says which trace IDs hold PFT, and (when no
 * register or flag is given) with which options. */
static int open_capture(struct dump_all *a, const char *path, const struct input_opts *o)
{
	struct pft_probe_report *rep = calloc(1, sizeof *rep);
	unsigned long long total;
	unsigned char *buf = NULL;
	size_t len, i;
	int r = PFT_EXIT_OK, given = o->regs_given || o->cycle_accurate || o->timestamps ||
				    o->vmid || o->return_stack || o->branch_broadcast ||
				    o->contextid_bytes >= 0 || o->pft_minor >= 0;

	if (!rep || probe_read_file(a->cmd, path, PROBE_BYTES, &buf, &len, &total) < 0) {
		free(rep);
		return PFT_EXIT_USAGE;
	}
	rep->size = sizeof *rep;
	r = pft_probe_buffer(buf, len, o->format >= 0 ? layout_of(o->format) : PFT_PROBE_LAYOUT_UNKNOWN,
			     rep);
	free(buf);
	if (r < 0) {
		free(rep);
		cli_error(a->cmd, "%s: %s", path, pft_errstr(r));
		return PFT_EXIT_USAGE;
	}
	r = PFT_EXIT_OK;
	for (i = 0; i < rep->nstreams && !r; i++) {
		const struct pft_probe_stream *st = &rep->streams[i];
		struct input_opts one = *o;
		if (st->protocol != PFT_PROBE_PROTO_PFT) {
			skip(a, st->id, pft_probe_proto_name((enum pft_probe_proto)st->protocol));
			continue;
		}
		one.format = rep->layout == PFT_PROBE_LAYOUT_TPIU ? PFT_FRAME_TPIU
			     : rep->layout == PFT_PROBE_LAYOUT_FRAMES ? PFT_FRAME_CORESIGHT : PFT_FRAME_RAW;
		one.id = one.format == PFT_FRAME_RAW ? -1 : st->id;
		if (!given) {
			one.regs = st->config;
			one.regs_given = PFT_SNAPSHOT_REG_ETMCR | PFT_SNAPSHOT_REG_ETMCCER |
					 PFT_SNAPSHOT_REG_ETMIDR;
		}
		r = add(a, path, &one);
	}
	free(rep);
	return r;
}

int dump_all_open(struct dump_all **out, const char *path, const struct input_opts *o,
		  const char *cmd)
{
	struct dump_all *a;
	int r;

	*out = NULL;
	if (!path || !strcmp(path, "-")) {
		cli_error(cmd, "--id all reads a capture file or a snapshot folder (not standard "
			       "input: each source reads the capture once)");
		return PFT_EXIT_USAGE;
	}
	a = calloc(1, sizeof *a);
	if (!a) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	a->cmd = cmd;
	r = is_dir(path) ? open_snapshot(a, path, o) : open_capture(a, path, o);
	if (!r && !a->n) {
		cli_error(cmd, "%s: no PFT source", path);
		r = PFT_EXIT_DATA;
	}
	if (r) {
		dump_all_close(a);
		return r;
	}
	*out = a;
	return PFT_EXIT_OK;
}

/* After the chunk buf[0..len) is drained (cmd_dump.c's hold()): keep the
 * capture offset of the first byte not yet reported, release the rest. */
static void hold(struct src *s, const uint8_t *buf, size_t len)
{
	uint64_t off = pft_pkt_decoder_get_offset(s->dec), base = s->in.delivered - len;
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

/* The next packet of s into s->p: 0, or -exit code after a read error. */
static int fill(struct src *s)
{
	const uint8_t *buf;
	size_t len;
	int r, k;

	while (!s->have && !s->done) {
		r = pft_pkt_decoder_next(s->dec, &s->p, sizeof s->p);
		if (r == 0) {
			s->cap = s->pinned && s->p.offset == s->pin_off ? s->pin_cap
				 : input_capture_offset(&s->in, s->p.offset);
			input_release(&s->in, s->p.offset + s->p.size);
			s->have = 1;
		} else if (r == -PFT_E_AGAIN && !s->ended) {
			if (s->len) /* the chunk drained: what the decoder holds starts at get_offset */
				hold(s, s->buf, s->len);
			k = input_read(&s->in, &buf, &len);
			if (k < 0) {
				s->done = 1;
				return -s->in.exit_code;
			}
			if (k == 0) {
				pft_pkt_decoder_end(s->dec);
				s->ended = 1;
			} else {
				pft_pkt_decoder_feed(s->dec, buf, len);
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

int dump_all_next(struct dump_all *a, unsigned *src, struct pft_packet *p, uint64_t *cap)
{
	unsigned i, best = a->n;
	int r;

	for (i = 0; i < a->n; i++) {
		if ((r = fill(&a->s[i])) < 0)
			return r;
		if (a->s[i].have && (best == a->n || a->s[i].cap < a->s[best].cap))
			best = i;
	}
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
	const struct input *in = a->n ? &a->s[0].in : NULL;
	size_t n = 0;
	unsigned i;

	w->skipped[0] = 0;
	for (i = 0; i < a->nskip && n < sizeof w->skipped - 64; i++) {
		int k = snprintf(w->skipped + n, sizeof w->skipped - n, "%s0x%02x (%s",
				 i ? ", " : "", a->skip_id[i], a->skip_what[i]);
		n += k > 0 ? (size_t)k : 0;
		if (in && in->format != PFT_FRAME_RAW && a->skip_id[i] < 128)
			k = snprintf(w->skipped + n, sizeof w->skipped - n, ", %llu bytes)",
				     (unsigned long long)in->frame_stats.id_bytes[a->skip_id[i]]);
		else
			k = snprintf(w->skipped + n, sizeof w->skipped - n, ")");
		n += k > 0 ? (size_t)k : 0;
	}
	return w->skipped;
}

void dump_all_close(struct dump_all *a)
{
	unsigned i;

	if (!a)
		return;
	for (i = 0; i < a->n; i++) {
		pft_pkt_decoder_free(a->s[i].dec);
		input_close(&a->s[i].in);
	}
	free(a);
}
