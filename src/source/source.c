/* SPDX-License-Identifier: BSD-3-Clause */
/* Trace sources, top floor: the entry points (see pft/source.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/struct_size.h"
#include "source_int.h"

void pft_source_params_init(struct pft_source_params *p)
{
	if (!p)
		return;
	memset(p, 0, sizeof(*p));
	p->size = sizeof(*p);
	p->format = PFT_SOURCE_FORMAT_AUTO;
	p->trace_id = -1;
}

/* A caller's params of any version into *dst: fields it lacks keep their
 * defaults; then checked. */
static int take_params(struct pft_source_params *dst, const struct pft_source_params *user,
		       char *msg, size_t cap)
{
	const struct pft_source_params *p = dst;

	if (!user || user->size < sizeof(user->size))
		return source_msg(-PFT_E_INVAL, msg, cap, "bad source parameters");
	pft_source_params_init(dst);
	pft_copy_in(dst, sizeof(*dst), user, user->size);
	dst->size = sizeof(*dst);
	if (p->format != PFT_SOURCE_FORMAT_AUTO && p->format != PFT_FRAME_RAW &&
	    p->format != PFT_FRAME_CORESIGHT && p->format != PFT_FRAME_TPIU)
		return source_msg(-PFT_E_INVAL, msg, cap, "bad capture format %d", p->format);
	if (p->trace_id > 0x6F || p->trace_id == 0 || p->trace_id < -1)
		return source_msg(-PFT_E_INVAL, msg, cap, "0x%X is not a trace ID (0x01-0x6F)",
				  (unsigned)p->trace_id);
	return 0;
}

static struct pft_source *alloc_source(const struct pft_source_params *p)
{
	struct pft_source *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->fd = -1;
	s->lock_id = -1;
	s->track = p->capture_offsets;
	s->no_realign = p->no_realign;
	s->group_req = p->group;
	return s;
}

/* The capture is set up (fd or memory): choose, start, hand over. */
static int finish_open(struct pft_source *s, struct pft_source **out,
		       const struct pft_source_params *p, char *msg, size_t cap)
{
	int r = source_choose_capture(s, p, msg, cap);

	if (r) {
		pft_source_close(s);
		return r;
	}
	*out = s;
	return 0;
}

int pft_source_open(struct pft_source **out, const char *path, const struct pft_source_params *p,
		    char *msg, size_t cap)
{
	struct pft_source_params pp;
	struct pft_source *s;
	struct stat sb;
	int r;

	if (!out || !path)
		return source_msg(-PFT_E_INVAL, msg, cap, "no input given");
	*out = NULL;
	if ((r = take_params(&pp, p, msg, cap)))
		return r;
	p = &pp;
	if (!(s = alloc_source(p)))
		return source_msg(-PFT_E_NOMEM, msg, cap, "out of memory");
	snprintf(s->path, sizeof s->path, "%s", path);
	if (strcmp(path, "-") && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		r = source_choose_snapshot(s, path, p, msg, cap);
		if (r) {
			pft_source_close(s);
			return r;
		}
		*out = s;
		return 0;
	}
	snprintf(s->name, sizeof s->name, "%s", strcmp(path, "-") ? path : "standard input");
	if (source_capture_open_path(s, path)) {
		r = source_msg(-PFT_E_IO, msg, cap, "cannot open %s: %s", path, strerror(errno));
		pft_source_close(s);
		return r;
	}
	s->buffer_path = s->path;
	return finish_open(s, out, p, msg, cap);
}

int pft_source_open_fd(struct pft_source **out, int fd, const char *name,
		       const struct pft_source_params *p, char *msg, size_t cap)
{
	struct pft_source_params pp;
	struct pft_source *s;
	int r;

	if (!out || fd < 0)
		return source_msg(-PFT_E_INVAL, msg, cap, "bad file descriptor");
	*out = NULL;
	if ((r = take_params(&pp, p, msg, cap)))
		return r;
	p = &pp;
	if (!(s = alloc_source(p)))
		return source_msg(-PFT_E_NOMEM, msg, cap, "out of memory");
	snprintf(s->path, sizeof s->path, "%s", name ? name : "file descriptor");
	snprintf(s->name, sizeof s->name, "%s", s->path);
	s->buffer_path = s->path;
	source_capture_set_fd(s, fd);
	return finish_open(s, out, p, msg, cap);
}

int pft_source_open_memory(struct pft_source **out, const void *buf, size_t len,
			   const struct pft_source_params *p, char *msg, size_t cap)
{
	struct pft_source_params pp;
	struct pft_source *s;
	int r;

	if (!out || (!buf && len))
		return source_msg(-PFT_E_INVAL, msg, cap, "no buffer");
	*out = NULL;
	if ((r = take_params(&pp, p, msg, cap)))
		return r;
	p = &pp;
	if (!(s = alloc_source(p)))
		return source_msg(-PFT_E_NOMEM, msg, cap, "out of memory");
	snprintf(s->name, sizeof s->name, "the capture in memory");
	source_capture_set_memory(s, buf, len);
	return finish_open(s, out, p, msg, cap);
}

void pft_source_close(struct pft_source *s)
{
	if (!s)
		return;
	source_group_leave(s);
	source_stream_free(s);
	source_capture_close(s);
	pft_snapshot_close(s->snap);
	free(s->probe);
	free(s);
}

static int next_chunk(struct pft_source *s, struct pft_source_chunk *out);

int pft_source_next(struct pft_source *s, struct pft_source_chunk *out, size_t size)
{
	struct pft_source_chunk tmp;
	int r;

	if (!s || !out || !size)
		return -PFT_E_INVAL;
	if (size == sizeof(*out))
		return next_chunk(s, out);
	memset(&tmp, 0, sizeof(tmp));
	r = next_chunk(s, &tmp);
	pft_copy_out(out, size, &tmp, sizeof(tmp));
	return r;
}

static int next_chunk(struct pft_source *s, struct pft_source_chunk *out)
{
	int r;

	if (s->err)
		return s->err;
	while (!s->have) {
		if (s->done)
			return -PFT_E_EOS;
		if ((r = s->group ? source_group_fill(s) : source_stream_fill(s)))
			return r;
	}
	out->data = s->out;
	out->len = s->olen;
	out->stream_offset = s->delivered;
	out->flags = s->out_gap ? PFT_SOURCE_CHUNK_GAP : 0;
	s->delivered += s->olen;
	s->have = 0;
	return 0;
}

int pft_source_finish(struct pft_source *s, char *msg, size_t cap)
{
	char ids[600];
	int k, n = 0;

	if (!s)
		return -PFT_E_INVAL;
	s->stream_len = s->delivered;
	if (s->format == PFT_FRAME_RAW)
		return 0;
	for (k = 1; k < 128; k++)
		n += s->frame_stats.id_bytes[k] != 0;
	if (s->lock_id < 0)
		return source_msg(-PFT_E_EOS, msg, cap,
				  "%s holds no trace data in %s format (%llu capture bytes%s%s)", s->name,
				  pft_frame_format_name(s->format), (unsigned long long)s->capture_len,
				  s->frame_errors ? "; " : "", s->frame_error);
	pft_source_describe_ids(&s->frame_stats, ids, sizeof ids);
	if (!s->trace_id_chosen && n > 1)
		return source_msg(-PFT_E_INVAL, msg, cap,
				  "%s holds several trace IDs: %s; choose one with --id (read 0x%02X, the first)",
				  s->name, ids, s->lock_id);
	if (!s->delivered)
		return source_msg(-PFT_E_NOTFOUND, msg, cap, "no data for trace ID 0x%02X in %s; it holds %s",
				  s->lock_id, s->name, ids);
	return 0;
}

int pft_source_get_info(const struct pft_source *s, struct pft_source_info *out, size_t size)
{
	struct pft_source_info i;

	if (!s || !out || size < sizeof(size_t))
		return -PFT_E_INVAL;
	memset(&i, 0, sizeof i);
	i.size = sizeof i;
	i.format = s->format;
	i.trace_id = s->format == PFT_FRAME_RAW ? -1 : s->lock_id;
	i.trace_id_chosen = s->trace_id_chosen;
	i.stream_len = s->stream_len;
	i.delivered = s->delivered;
	i.capture_len = s->capture_len;
	i.name = s->name;
	i.buffer_path = s->buffer_path;
	i.source_name = s->source_name;
	i.core_name = s->core_name;
	i.frame_errors = s->frame_errors;
	i.first_frame_error = s->frame_error;
	pft_copy_out(out, size, &i, sizeof i);
	out->size = size < sizeof i ? size : sizeof i;
	return 0;
}

int pft_source_get_frame_stats(const struct pft_source *s, struct pft_frame_stats *out, size_t size)
{
	if (!s || !out || !size)
		return -PFT_E_INVAL;
	pft_copy_out(out, size, &s->frame_stats, sizeof(s->frame_stats));
	return 0;
}

int pft_source_get_config(const struct pft_source *s, struct pft_config *out)
{
	if (!s || !out)
		return -PFT_E_INVAL;
	*out = s->config;
	if (!s->snap && s->format != PFT_FRAME_RAW && s->lock_id >= 0)
		out->etmtraceidr = (uint32_t)s->lock_id; /* the ID found in the capture */
	return 0;
}

const struct pft_snapshot *pft_source_snapshot(const struct pft_source *s)
{
	return s ? s->snap : NULL;
}

const struct pft_probe_report *pft_source_get_probe(const struct pft_source *s)
{
	return s ? s->probe : NULL;
}
