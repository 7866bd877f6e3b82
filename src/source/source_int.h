/* SPDX-License-Identifier: BSD-3-Clause */
/* Trace sources: the object and the functions its files share.  Floors,
 * each calling only those below it:
 *   source.c          entry points: open (path, fd, memory), next, finish, info
 *   source_choose.c   which snapshot source, which trace ID, the first chunk
 *   source_group.c    the chunks of several sources de-formatted by one reader
 *   source_stream.c   the chosen ID's bytes in chunks, the capture offset map
 *   source_capture.c  capture bytes in chunks: reads, or a buffer in place */
#ifndef PFT_SOURCE_INT_H
#define PFT_SOURCE_INT_H

#include "pft/probe.h"
#include "pft/source.h"

struct source_segment { /* stream bytes [stream, next.stream) sit at capture, capture+1 ... */
	uint64_t stream;
	uint64_t capture;
};

struct source_gchunk; /* a de-formatted chunk shared by a group's members (source_group.c) */

struct pft_source {
	/* the capture (source_capture.c) */
	int fd;                    /* read from, or -1 (a buffer in memory) */
	int own_fd;                /* close it at the end */
	const uint8_t *map;        /* the whole capture: the caller's buffer, or NULL */
	size_t map_len, map_pos;
	int64_t size;              /* capture length, -1 for a pipe */
	uint8_t *cbuf;             /* read buffer (fd) */
	const uint8_t *cdata;      /* the current capture chunk */
	size_t clen;
	int eof;                   /* the capture is read to its end */
	uint64_t capture_len;      /* capture bytes read so far */
	int err;                   /* a read error: every call returns it */

	/* the stream (source_stream.c) */
	enum pft_frame_format format;
	struct pft_frame_decoder *fdec;
	uint8_t *obuf;             /* de-formatted chunk */
	size_t olen;
	const uint8_t *out;        /* the chunk handed out */
	int have, done, track, auto_id, lock_id; /* lock_id: the ID read, -1 none yet */
	int no_realign;            /* params.no_realign */
	int gap;                   /* frame error since the last chunk was handed
	                              out: the next one starts after a gap */
	int out_gap;               /* the chunk being handed out starts after one */
	uint64_t delivered;
	uint64_t stream_len;
	struct pft_frame_stats frame_stats;
	uint64_t frame_errors;
	char frame_error[256];
	uint64_t release;
	struct source_segment *seg; /* live: [seg0, nseg) */
	size_t seg0, nseg, segcap;

	/* what was chosen (source_choose.c) */
	struct pft_snapshot *snap;
	const char *source_name, *core_name;
	const char *buffer_path;
	struct pft_config config;
	int trace_id_chosen;
	struct pft_probe_report *probe; /* what the bytes said (source_probe.c), or NULL */
	int probe_id;              /* the PFT trace ID it chose (frames), or -1 */
	char name[1200];
	char path[1024];

	/* a member of a group (source_group.c): its chunks come from the
	   group's reader until it falls too far behind (detached), then from
	   its own reader, which skips the chunks already taken */
	struct pft_source_group *group_req; /* params.group */
	struct pft_source_group *group;     /* joined, or NULL: reads alone */
	struct source_gchunk *gcur;         /* the chunk handed out */
	struct source_gchunk *gnext;        /* the next to take, NULL: the next queued */
	uint64_t glag;                      /* bytes queued for it */
	uint64_t gtaken;                    /* chunks taken from the group */
	int gdetached;
};

/* source_capture.c */
int source_capture_open_path(struct pft_source *s, const char *path);
void source_capture_set_memory(struct pft_source *s, const void *buf, size_t len);
void source_capture_set_fd(struct pft_source *s, int fd);
int source_capture_read(struct pft_source *s);
int source_capture_rewind(struct pft_source *s);
void source_capture_close(struct pft_source *s);

/* source_choose.c: 0 or an error with msg */
int source_choose_snapshot(struct pft_source *s, const char *dir, const struct pft_source_params *p,
			   char *msg, size_t cap);
int source_choose_capture(struct pft_source *s, const struct pft_source_params *p, char *msg,
			  size_t cap);

/* source_probe.c: a capture without layout or trace ID given: 1 when the
 * probe found a PFT stream and chose format, config and probe_id; 0 when it
 * did not run or found none; -PFT_E_NOMEM */
int source_probe(struct pft_source *s, const struct pft_source_params *p);

/* source_stream.c */
int source_stream_start(struct pft_source *s);
int source_stream_fill(struct pft_source *s);
int source_stream_scan(struct pft_source *s);
int source_stream_fill_frames(struct pft_source *s);
void source_stream_trim(struct pft_source *s);
int source_stream_add_seg(struct pft_source *s, uint64_t stream, uint64_t capture);
void source_stream_note_error(struct pft_source *s, const struct pft_frame_item *it);
void source_stream_free(struct pft_source *s);

/* source_group.c: s (chosen, lock_id set, capture open, nothing read)
 * joins its group: 1 joined, 0 reads alone (another capture, a pipe, raw),
 * 2 its ID has no data (the group's scan, in s->frame_stats), or an error
 * with msg; the next chunk of a member into s->out (s->have), as
 * source_stream_fill; leaving (close). */
int source_group_join(struct pft_source *s, char *msg, size_t cap);
int source_group_fill(struct pft_source *s);
void source_group_leave(struct pft_source *s);

/* msg helper: snprintf into msg when msg is not NULL; returns err. */
int source_msg(int err, char *msg, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
