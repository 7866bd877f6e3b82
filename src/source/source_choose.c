/* SPDX-License-Identifier: BSD-3-Clause */
/* Trace sources: what to read.  The snapshot's trace source (named, by
 * trace ID, or the first PTM with data), the capture layout, the trace ID
 * (given, or the only one with data), and the first chunk, so that what
 * can be checked up front is checked at open. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "source_int.h"

static int eos_no_data(struct pft_source *s, uint64_t caplen, char *msg, size_t cap)
{
	return source_msg(-PFT_E_EOS, msg, cap,
			  "%s holds no trace data in %s format (%llu capture bytes%s%s)", s->name,
			  pft_frame_format_name(s->format), (unsigned long long)caplen,
			  s->frame_errors ? "; " : "", s->frame_error);
}

static int absent_id(struct pft_source *s, int id, char *msg, size_t cap)
{
	char ids[600];

	pft_source_describe_ids(&s->frame_stats, ids, sizeof ids);
	return source_msg(-PFT_E_NOTFOUND, msg, cap, "no data for trace ID 0x%02X in %s; it holds %s",
			  id, s->name, ids);
}

/* With the whole capture scanned and no ID chosen: the only one with data. */
static int only_id(struct pft_source *s, char *msg, size_t cap)
{
	char ids[600];
	int found = -1, k;

	for (k = 1; k < 128; k++) {
		if (!s->frame_stats.id_bytes[k])
			continue;
		if (found >= 0) {
			pft_source_describe_ids(&s->frame_stats, ids, sizeof ids);
			return source_msg(-PFT_E_INVAL, msg, cap,
					  "%s holds several trace IDs: %s; choose one with --id", s->name,
					  ids);
		}
		found = k;
	}
	if (found < 0)
		return eos_no_data(s, (uint64_t)s->size, msg, cap);
	return found;
}

/* The capture is open: choose the trace ID (id < 0: the only one with
 * data), check what can be checked up front, and read the first chunk. */
static int start(struct pft_source *s, int id, int scanned, char *msg, size_t cap)
{
	int r;

	s->stream_len = PFT_SOURCE_LEN_UNKNOWN;
	if (s->size == 0)
		return source_msg(-PFT_E_EOS, msg, cap, "%s is empty: no trace to read", s->name);
	if (s->format == PFT_FRAME_RAW) {
		if (s->size > 0)
			s->stream_len = (uint64_t)s->size;
	} else {
		if (id >= 0 && s->group_req && !scanned) { /* one reader for several IDs */
			s->lock_id = id;
			r = source_group_join(s, msg, cap);
			if (r == 2)
				return absent_id(s, id, msg, cap);
			if (r)
				return r < 0 ? r : 0;
			s->lock_id = -1; /* it reads alone */
		}
		if (s->size > 0 && !scanned) {
			if ((r = source_stream_scan(s)))
				goto read_error;
			scanned = 1;
		}
		if (scanned && id < 0 && (id = only_id(s, msg, cap)) < 0)
			return id;
		if (scanned) {
			if (!s->frame_stats.id_bytes[id])
				return absent_id(s, id, msg, cap);
			s->stream_len = s->frame_stats.id_bytes[id];
		}
		s->lock_id = id;
	}
	if ((r = source_stream_start(s)))
		return source_msg(r, msg, cap, "out of memory");
	if ((r = source_stream_fill(s)))
		goto read_error;
	if (!s->capture_len)
		return source_msg(-PFT_E_EOS, msg, cap, "%s is empty: no trace to read", s->name);
	return 0;
read_error:
	if (r == -PFT_E_NOMEM)
		return source_msg(r, msg, cap, "out of memory");
	return source_msg(r, msg, cap, "cannot read %s: %s", s->name, strerror(errno));
}

static void list_sources(const struct pft_snapshot *sn, char *buf, size_t cap)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < pft_snapshot_source_count(sn) && n + 60 < cap; i++) {
		struct pft_snapshot_source t;

		pft_snapshot_source(sn, i, &t);
		n += (size_t)snprintf(buf + n, cap - n, "%s%s (%s, ID 0x%02X)", i ? ", " : "", t.name,
				      t.type, t.trace_id);
	}
	if (!n)
		snprintf(buf, cap, "none");
}

static void take_source(struct pft_source *s, const struct pft_snapshot_source *t)
{
	s->config = t->config;
	s->source_name = t->name;
	s->core_name = t->core;
	snprintf(s->name, sizeof s->name, "%s (buffer of %s)", t->buffer_file, t->name);
}

/* The snapshot source asked for: index, or an error with msg. */
static int find_source(struct pft_source *s, const char *dir, const struct pft_source_params *p,
		       char *msg, size_t cap)
{
	char list[600];
	struct pft_snapshot_source t;
	size_t i;
	int idx = -1;

	if (p->source_name)
		idx = pft_snapshot_find_source(s->snap, p->source_name);
	else if (p->trace_id >= 0)
		idx = pft_snapshot_find_trace_id(s->snap, (uint8_t)p->trace_id);
	else
		for (i = 0; i < pft_snapshot_source_count(s->snap) && idx < 0; i++) {
			pft_snapshot_source(s->snap, i, &t);
			if (t.is_ptm)
				idx = (int)i;
		}
	/* no PTM, and one source (an ETMv3 recorded by pft record): that one */
	if (idx < 0 && !p->source_name && p->trace_id < 0 && pft_snapshot_source_count(s->snap) == 1)
		idx = 0;
	if (idx >= 0)
		return idx;
	list_sources(s->snap, list, sizeof list);
	if (p->source_name)
		return source_msg(-PFT_E_NOTFOUND, msg, cap, "no trace source '%s' in %s; its sources: %s",
				  p->source_name, dir, list);
	if (p->trace_id >= 0)
		return source_msg(-PFT_E_NOTFOUND, msg, cap,
				  "no trace source with trace ID 0x%02X in %s; its sources: %s",
				  p->trace_id, dir, list);
	return source_msg(-PFT_E_NOTFOUND, msg, cap, "no PTM trace source in %s (its sources: %s)",
			  dir, list);
}

/* No source asked for and several PTMs share the buffer: the first with data. */
static void first_with_data(struct pft_source *s, struct pft_snapshot_source *t)
{
	struct pft_snapshot_source u;
	size_t i;

	if (s->frame_stats.id_bytes[t->trace_id])
		return;
	for (i = 0; i < pft_snapshot_source_count(s->snap); i++) {
		pft_snapshot_source(s->snap, i, &u);
		if (u.is_ptm && u.buffer_file && !strcmp(u.buffer_file, t->buffer_file) &&
		    u.trace_id && s->frame_stats.id_bytes[u.trace_id]) {
			*t = u;
			take_source(s, t);
			return;
		}
	}
}

int source_choose_snapshot(struct pft_source *s, const char *dir, const struct pft_source_params *p,
			   char *msg, size_t cap)
{
	struct pft_snapshot_source t;
	int idx, r, fmt, scanned = 0;

	r = pft_snapshot_open_flags(dir, p->allow_outside ? PFT_SNAPSHOT_ALLOW_OUTSIDE : 0,
				    &s->snap, msg, cap);
	if (r)
		return r;
	idx = find_source(s, dir, p, msg, cap);
	if (idx < 0)
		return idx;
	pft_snapshot_source(s->snap, (size_t)idx, &t);
	/* --id and --source together must name the same source: else the
	 * bytes of one would be decoded with the registers of the other */
	if (p->source_name && p->trace_id >= 0 && t.trace_id != p->trace_id)
		return source_msg(-PFT_E_INVAL, msg, cap,
				  "--id 0x%02X and --source %s disagree: %s has trace ID 0x%02X in %s; "
				  "give one of them", p->trace_id, t.name, t.name, t.trace_id, dir);
	if (!t.is_ptm && !t.is_etm3)
		return source_msg(-PFT_E_UNSUPPORTED, msg, cap,
				  "trace source %s in %s has type %s: not a PTM (PFT) or an ETMv3", t.name, dir,
				  *t.type ? t.type : "device of unknown type");
	if (!t.buffer_file && !pft_snapshot_trace_ini_path(s->snap))
		return source_msg(-PFT_E_NOTFOUND, msg, cap,
				  "trace source %s has no trace buffer: %s has no [trace] section with "
				  "metadata= (the file that lists the buffers)", t.name,
				  pft_snapshot_ini_path(s->snap));
	if (!t.buffer_file)
		return source_msg(-PFT_E_NOTFOUND, msg, cap,
				  "trace source %s has no trace buffer in %s (no %s= in [source_buffers])",
				  t.name, pft_snapshot_trace_ini_path(s->snap), t.name);
	fmt = p->format;
	if (fmt < 0 && (fmt = pft_snapshot_buffer_format(t.buffer_format)) < 0)
		return source_msg(-PFT_E_UNSUPPORTED, msg, cap,
				  "buffer %s has format '%s', which pft does not read; give --format",
				  t.buffer_name ? t.buffer_name : "?",
				  t.buffer_format ? t.buffer_format : "(none)");
	s->format = (enum pft_frame_format)fmt;
	s->trace_id_chosen = 1;
	take_source(s, &t);
	if (source_capture_open_path(s, t.buffer_file))
		return source_msg(-PFT_E_IO, msg, cap, "cannot open %s: %s", t.buffer_file,
				  strerror(errno));
	s->buffer_path = t.buffer_file;
	if (!p->source_name && p->trace_id < 0 && s->format != PFT_FRAME_RAW && s->size > 0) {
		if ((r = source_stream_scan(s)))
			return source_msg(r, msg, cap, "cannot read %s: %s", s->name, strerror(errno));
		scanned = 1;
		first_with_data(s, &t);
	}
	return start(s, s->format == PFT_FRAME_RAW ? -1 :
			p->trace_id >= 0 ? p->trace_id : (int)(s->config.etmtraceidr & 0x7F),
		     scanned, msg, cap);
}

int source_choose_capture(struct pft_source *s, const struct pft_source_params *p, char *msg,
			  size_t cap)
{
	if (p->source_name)
		return source_msg(-PFT_E_INVAL, msg, cap, "--source needs a snapshot folder; %s is a file",
				  s->name);
	int r;

	pft_config_init(&s->config);
	r = source_probe(s, p); /* no layout, no ID: what the bytes say */
	if (r < 0)
		return source_msg(r, msg, cap, "out of memory");
	if (r > 0)
		return start(s, s->probe_id, 0, msg, cap);
	s->format = p->format >= 0 ? (enum pft_frame_format)p->format :
		    p->trace_id >= 0 ? PFT_FRAME_CORESIGHT : PFT_FRAME_RAW;
	s->trace_id_chosen = p->trace_id >= 0;
	return start(s, s->format == PFT_FRAME_RAW ? -1 : p->trace_id, 0, msg, cap);
}
