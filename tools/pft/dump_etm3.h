/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump for ETMv3 trace sources (dump_etm3.c): one source alone
 * (dump_etm3), or, for pft dump --id all, the lines of one source among
 * others, packet by packet (dump_etm3_new ... dump_etm3_free). */
#ifndef PFT_TOOL_DUMP_ETM3_H
#define PFT_TOOL_DUMP_ETM3_H

#include <stdio.h>

#include "input.h"
#include "pft/etm3.h"

/* List the ETMv3 packets of the open input to out (text, JSON Lines with
 * json, or only the per-type summary with want_stats), on jobs threads
 * (par_run.h; segment bytes each, 0: its default) when jobs > 1: the same
 * output.  Returns the exit status (messages printed); *werrno (NULL: not
 * wanted) gets the errno of a failed write of the listing on several
 * threads (0: none), for the caller's message about the output. */
int dump_etm3(struct input *in, FILE *out, int json, int want_stats, unsigned jobs,
	      size_t segment, int *werrno);

/* A packet's JSON line up to its fields (pft dump's PFT and ETMv3 lines
 * alike): '{', the source first when tag (trace ID, and name if not NULL),
 * offset, capture offset, size, type, and its n bytes kept, in hex. */
void dump_json_begin(FILE *o, int tag, const char *name, uint64_t off, uint64_t cap,
		     uint32_t size, const char *type, const uint8_t *bytes, unsigned n);

/* The listing of one ETMv3 source whose packets come from elsewhere (NULL
 * after a message when out of memory). */
struct dump_etm3;
struct dump_etm3 *dump_etm3_new(struct input *in, FILE *out, int json, int want_stats);
/* --id all: the trace ID (and the source name, NULL: none; JSON-safe) first
 * on every line, as pft dump's PFT lines. */
void dump_etm3_tag(struct dump_etm3 *d, int tag, const char *name);
/* The text header: the source and its registers, and (columns) the column
 * titles. */
void dump_etm3_header(struct dump_etm3 *d, int columns);
/* One packet, at capture offset cap (JSON), counted for --stats. */
void dump_etm3_packet(struct dump_etm3 *d, const struct pft_etm3_packet *p, uint64_t cap);
/* After input_finish: --stats' summary, then the end checks given the
 * decoder's last status r.  The exit code (messages printed). */
int dump_etm3_end(struct dump_etm3 *d, int r);
/* dump_etm3 in two steps, for pft dump --id all --stats, which reads its
 * sources on several threads and writes their summaries in order: read the
 * input to its end (*r: the decoder's last status, -1 after a read error;
 * returns PFT_EXIT_OK, or PFT_EXIT_USAGE after a message), then the end
 * (input_finish, --stats' summary, the checks: the exit code). */
int dump_etm3_read(struct dump_etm3 *d, unsigned jobs, size_t segment, int *r);
int dump_etm3_finish(struct dump_etm3 *d, int r, int *werrno);
void dump_etm3_free(struct dump_etm3 *d);

#endif
