/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft: trace sources (pft_source_).  A snapshot folder, a capture file,
 * a file descriptor (a pipe, standard input) or a memory buffer -> the
 * de-formatted PFT byte stream of one trace ID, in chunks, with the capture
 * offset of every byte.  Nothing is printed: failures are -PFT_E_* codes,
 * and a one-line description goes into the caller's msg buffer.
 *
 *     struct pft_source_params p;
 *     struct pft_source_chunk c;
 *     struct pft_source *src;
 *     char msg[1024];
 *
 *     pft_source_params_init(&p);
 *     p.trace_id = 0x13;                        // or -1: the source's / the only one
 *     r = pft_source_open(&src, "data/TC2", &p, msg, sizeof msg);
 *     if (r < 0) { puts(msg); return; }
 *     pft_source_get_config(src, &cfg);         // the snapshot's registers
 *     while ((r = pft_source_next(src, &c, sizeof c)) == 0)
 *         feed c.data[0..c.len) (stream bytes c.stream_offset ...; valid
 *         until the next call) to a packet or flow decoder;
 *     if (r == -PFT_E_EOS) r = pft_source_finish(src, msg, sizeof msg);
 *     pft_source_close(src);
 *
 * Which trace ID: params.source_name (a snapshot source), else
 * params.trace_id, else for a snapshot the first PTM source whose trace ID
 * has data, for a capture the only trace ID with data.  Layout:
 * params.format, else the snapshot's buffer format, else frames when a
 * trace ID is given and raw otherwise.
 *
 * A capture that can be read twice (a regular file, a buffer) given with
 * neither params.format nor a trace ID nor a source name is probed first
 * (pft/probe.h, its first 16 MiB): when it holds a PFT stream, the layout,
 * the trace ID (the first PFT stream) and the registers
 * (pft_source_get_config: the PTM options the bytes imply) come from the
 * probe, whose report pft_source_get_probe returns.  Otherwise, and for a
 * pipe, the defaults above apply.
 *
 * Memory stays bounded whatever the input size: the capture is read in
 * chunks of PFT_SOURCE_CHUNK bytes (a buffer in memory is handed out in
 * place).  A regular file or a buffer in
 * frame format is first scanned once (de-formatting only, nothing kept) for
 * the trace IDs it holds, so that the choice of ID, an absent ID and the
 * stream length are known at open.  A pipe cannot be read twice: the first
 * trace ID with data is taken when none is given, stream_len is
 * PFT_SOURCE_LEN_UNKNOWN, and pft_source_finish() reports at the end what
 * could not be known before (an ID without data, several IDs, no data).
 *
 * Errors of open and finish (msg describes each):
 *   -PFT_E_IO        a file cannot be opened or read
 *   -PFT_E_FORMAT    a bad snapshot folder
 *   -PFT_E_NOTFOUND  no such source / trace ID (msg lists those present)
 *   -PFT_E_INVAL     several trace IDs and none chosen; bad parameters
 *   -PFT_E_UNSUPPORTED  a source that is not a PTM, a buffer layout not read
 *   -PFT_E_EOS       an empty input, or no trace data at all
 *   -PFT_E_NOMEM
 * Frame errors (a truncated frame ...) do not stop the source: they are
 * counted (pft_source_info.frame_errors), the first one described. */
#ifndef PFT_SOURCE_H
#define PFT_SOURCE_H

#include "pft/common.h"
#include "pft/frame.h"
#include "pft/probe.h"
#include "pft/snapshot.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PFT_SOURCE_CHUNK (1u << 20)            /* capture bytes per read */
#define PFT_SOURCE_LEN_UNKNOWN UINT64_MAX      /* stream_len of a pipe in frame format */
#define PFT_SOURCE_FORMAT_AUTO (-1)

struct pft_source;

struct pft_source_params {
	size_t size;             /* sizeof(struct pft_source_params), set by init */
	int format;              /* enum pft_frame_format, or PFT_SOURCE_FORMAT_AUTO */
	int trace_id;            /* 0x01-0x6F, or -1: chosen as described above */
	const char *source_name; /* a snapshot's trace source ("PTM_0"), or NULL */
	int capture_offsets;     /* 1: keep the stream -> capture offset map
	                            (pft_source_capture_offset) */
	int no_realign;          /* 1: frames are taken as they come, no
	                            alignment recovery (pft_frame_decoder_set_realign) */
	int allow_outside;       /* 1: follow paths in a snapshot's ini files that
	                            leave its folder (PFT_SNAPSHOT_ALLOW_OUTSIDE) */
	struct pft_source_group *group; /* NULL, or a group this source joins
	                            (below: one reader for several trace IDs) */
};

/* Defaults: format AUTO, trace_id -1, no source name, no offset map. */
PFT_API void pft_source_params_init(struct pft_source_params *p);

/* path: a snapshot folder, a capture file, or "-" for standard input. */
PFT_API int pft_source_open(struct pft_source **out, const char *path,
                            const struct pft_source_params *p, char *msg, size_t cap);
/* A capture read from fd (not closed by the source); name is used in messages. */
PFT_API int pft_source_open_fd(struct pft_source **out, int fd, const char *name,
                               const struct pft_source_params *p, char *msg, size_t cap);
/* A capture in memory (not copied: it must outlive the source). */
PFT_API int pft_source_open_memory(struct pft_source **out, const void *buf, size_t len,
                                   const struct pft_source_params *p, char *msg, size_t cap);
PFT_API void pft_source_close(struct pft_source *src);

struct pft_source_chunk {
	const uint8_t *data;    /* valid until the next pft_source_next / close */
	size_t len;             /* > 0 */
	uint64_t stream_offset; /* offset of data[0] in the stream of the trace ID */
	uint32_t flags;         /* PFT_SOURCE_CHUNK_* */
};
/* The frame deformatter lost capture bytes (realigned frames, an ID 0x7F, a
 * bad TPIU sync) just before data[0]: bytes of this trace ID may be missing
 * there.  A decoder should drop its state (pft_flow_decoder_resync,
 * pft_pkt_decoder_resync) before it takes the chunk. */
#define PFT_SOURCE_CHUNK_GAP 0x1u

/* The next chunk: 0, -PFT_E_EOS at the end of the stream, or -PFT_E_IO /
 * -PFT_E_NOMEM (then every later call returns the same). */
PFT_API int pft_source_next(struct pft_source *src, struct pft_source_chunk *out, size_t size);

/* After -PFT_E_EOS: the checks that need the whole capture (see the top).
 * 0 or an error with msg. */
PFT_API int pft_source_finish(struct pft_source *src, char *msg, size_t cap);

struct pft_source_info {
	size_t size;              /* sizeof(struct pft_source_info) */
	enum pft_frame_format format;
	int trace_id;             /* the ID read (frames); -1 until a pipe has data, and for raw */
	int trace_id_chosen;      /* 1 if the ID came from params (or the snapshot source) */
	uint64_t stream_len;      /* stream bytes, or PFT_SOURCE_LEN_UNKNOWN until the end */
	uint64_t delivered;       /* stream bytes handed out so far */
	uint64_t capture_len;     /* capture bytes read so far (all of them at the end) */
	const char *name;         /* the capture, for messages ("x.bin (buffer of PTM_0)") */
	const char *buffer_path;  /* the capture file read ("-": standard input), or NULL */
	const char *source_name;  /* snapshot source, or NULL */
	const char *core_name;    /* core it traces (for pft_snapshot_dump), or NULL */
	uint64_t frame_errors;    /* ERROR / UNSYNCED frame items */
	const char *first_frame_error; /* the first, described; "" if none */
};
/* Strings live until pft_source_close. */
PFT_API int pft_source_get_info(const struct pft_source *src, struct pft_source_info *out,
                                size_t size);
/* De-formatter counters so far (complete at the end). */
PFT_API int pft_source_get_frame_stats(const struct pft_source *src,
                                       struct pft_frame_stats *out, size_t size);

/* The PTM registers: the snapshot source's, else pft_config_init()'s; with
 * ETMTRACEIDR the trace ID read when there is one. */
PFT_API int pft_source_get_config(const struct pft_source *src, struct pft_config *out);

/* The probe's report when the layout, trace ID and registers came from the
 * bytes (see the top of this file), else NULL.  Lives until pft_source_close. */
PFT_API const struct pft_probe_report *pft_source_get_probe(const struct pft_source *src);

/* The snapshot (memory dumps ...), or NULL when the input is not one. */
PFT_API const struct pft_snapshot *pft_source_snapshot(const struct pft_source *src);

/* Capture offset of stream byte off (handed out already, not released).
 * Needs params.capture_offsets. */
PFT_API uint64_t pft_source_capture_offset(const struct pft_source *src, uint64_t off);
/* Stream bytes below off will not be asked for again (their map is freed). */
PFT_API void pft_source_release(struct pft_source *src, uint64_t off);

/* ---- several trace IDs of one capture, read once --------------------------
 * Sources opened with params.group set share one reader and one
 * deformatter of their capture, instead of each reading and de-formatting
 * the whole capture for its own ID (and scanning it first).  The first
 * framed source to join binds the group to its capture file (or buffer),
 * layout and alignment recovery; a source of another capture, of a raw
 * capture, or read from a descriptor or a pipe reads alone, as without a
 * group.  Join every member before reading any; then read them in any
 * order, as without a group: each gets exactly the chunks (same bytes, same
 * cuts, same gap flags, same capture offsets) it would get alone.
 *
 *     pft_source_group_alloc(&g, 0, 0);
 *     p.group = g;
 *     p.trace_id = 0x13; pft_source_open(&a, "cap.bin", &p, msg, sizeof msg);
 *     p.trace_id = 0x14; pft_source_open(&b, "cap.bin", &p, msg, sizeof msg);
 *     ... pft_source_next(a, ...), pft_source_next(b, ...) as the merge wants ...
 *     pft_source_close(a); pft_source_close(b); pft_source_group_free(g);
 *
 * A member that needs a chunk reads and de-formats the next capture chunk
 * (PFT_SOURCE_CHUNK) and queues every member's bytes; a member whose
 * queue then holds more than max_lag bytes (it is read far behind the
 * others) leaves the group: its queue is freed, and its next chunks come
 * from a reader of its own, which de-formats the capture again from its
 * start and skips the chunks the member already took.  Memory is so
 * bounded by max_lag + 2 chunks per member whatever the capture and the
 * order of reading; the price of a member read far behind is a second
 * pass, as without a group.
 *
 * Without PFT_SOURCE_GROUP_SCAN, a member's stream_len is
 * PFT_SOURCE_LEN_UNKNOWN until its end, and an ID without data is reported
 * by pft_source_finish (as for a pipe).  With it, the first member scans
 * the capture once (de-formatting only) for every member: stream_len and
 * absent IDs are known at open, as without a group, at the cost of that
 * second pass. */
struct pft_source_group;

#define PFT_SOURCE_GROUP_SCAN 0x1u
#define PFT_SOURCE_GROUP_LAG (4u << 20)  /* max_lag 0: this default */

/* max_lag: queued bytes per member before it reads alone (0: the default;
 * at least 2 * PFT_SOURCE_CHUNK).  0, -PFT_E_INVAL or -PFT_E_NOMEM. */
PFT_API int pft_source_group_alloc(struct pft_source_group **out, uint64_t max_lag,
                                   unsigned flags);
/* The group lives until this call and the close of its last member. */
PFT_API void pft_source_group_free(struct pft_source_group *g);

struct pft_source_group_stats {
	size_t size;            /* sizeof(struct pft_source_group_stats) */
	unsigned members;       /* sources that joined */
	unsigned detached;      /* members that fell max_lag behind and read alone */
	uint64_t capture_bytes; /* capture bytes the group's reader read */
	uint64_t queued;        /* bytes queued now (each chunk once) */
	uint64_t peak_queued;   /* the most queued at once */
};
PFT_API int pft_source_group_get_stats(const struct pft_source_group *g,
                                       struct pft_source_group_stats *out, size_t size);

/* 1 when the next pft_source_next of src returns without reading the
 * capture (a chunk is queued for it, or it is at its end, or it reads
 * alone), 0 when it would read and de-format more of the group's capture. */
PFT_API int pft_source_ready(const struct pft_source *src);
/* Read and de-format the group's next capture chunk into its members'
 * queues (what pft_source_next does for a member with nothing queued), so
 * that a merge can read on without asking for any one member's bytes: 0,
 * -PFT_E_EOS when the capture is all read (or no member joined), or the
 * read error every member then gets. */
PFT_API int pft_source_group_read(struct pft_source_group *g);
/* Capture offset up to which the group has de-formatted its capture:
 * bytes of src's ID not yet queued lie at or after it.  For a source
 * outside a group: UINT64_MAX. */
PFT_API uint64_t pft_source_group_position(const struct pft_source *src);

/* "0x10 (123 bytes), 0x13 (456 bytes)" or "no trace data at all". */
PFT_API void pft_source_describe_ids(const struct pft_frame_stats *st, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
