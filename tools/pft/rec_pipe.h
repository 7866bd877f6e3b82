/* SPDX-License-Identifier: BSD-3-Clause */
/* A listing of fixed-size records (pft dump's packets with their capture
 * offsets) formatted on several threads (rec_pipe.c): the records are
 * copied into batches of a list_pipe (list_pipe.h) and each turned into
 * its line by line(), which must depend on the record and ctx only (ctx
 * is read on the formatter threads: what they read must not change while
 * the pipe runs).  The text is that of line() on every record in order. */
#ifndef PFT_TOOLS_REC_PIPE_H
#define PFT_TOOLS_REC_PIPE_H

#include <stdio.h>

/* Records per batch: one per 16 bytes of a --segment-size (small segments,
 * as the tests use, give small batches: many cuts), 8 to 2048. */
#define REC_PIPE_RECS(segment) ((segment) / 16 < 8 ? 8 : (segment) / 16 > 2048 ? 2048 : \
				(segment) / 16)

struct rec_pipe;

typedef void (*rec_pipe_line_fn)(const void *ctx, FILE *f, const void *rec);

/* NULL if out of memory. */
struct rec_pipe *rec_pipe_open(FILE *out, unsigned threads, size_t rec_size, size_t per_batch,
			       rec_pipe_line_fn line, const void *ctx);
/* The next record (copied): 0, or -1 (out of memory in a formatter: stop).
 * A write error does not stop the pipe (ferror(out) tells it at the end,
 * as when the lines are written on one thread). */
int rec_pipe_add(struct rec_pipe *r, const void *rec);
/* Every record's line written to out (not flushed): 0 or -1 (as above). */
int rec_pipe_end(struct rec_pipe *r);
/* The errno of the first write that failed (0: none): the message to give,
 * since out's last fflush may have nothing left to fail on. */
int rec_pipe_write_errno(const struct rec_pipe *r);
void rec_pipe_close(struct rec_pipe *r);

#endif
