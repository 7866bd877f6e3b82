/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode's listing on several threads (decode_pipe.c): the flow items
 * of a --jobs N run, in serial order, copied with their instructions (and
 * ETMv3 per-instruction cycle counts) into batches of a list_pipe
 * (list_pipe.h), each slot's batch formatted by its own decode_out (its
 * own disassembler); the text written in order.  The output is byte for
 * byte that of decode_out_item() on every item.
 *
 * Batches are cut only where the writer holds nothing back
 * (decode_out_cut_after: not inside a run of --ranges).  Where a batch is
 * full at a point that cannot be cut (a long run of ranges that go on), or
 * an item's instructions do not fit in a batch, the pipe is drained and
 * this thread formats with the caller's decode_out until the next cut
 * point: slower there, never different. */
#ifndef PFT_TOOLS_DECODE_PIPE_H
#define PFT_TOOLS_DECODE_PIPE_H

#include "decode.h"

/* Items per batch: one per 32 bytes of a --segment-size (small segments,
 * as the tests use, give small batches: many cuts), 8 to 1024; a batch
 * holds 16 instructions per item. */
#define DECODE_PIPE_ITEMS(segment) ((segment) / 32 < 8 ? 8 : (segment) / 32 > 1024 ? 1024 : \
				    (segment) / 32)
#define DECODE_PIPE_INSNS(items) ((items) * 16)

struct decode_pipe;

/* out: the caller's writer (each batch's writer is one like it, on its
 * slot's text; out writes where a batch cannot be cut); threads formatter
 * threads; items per batch (DECODE_PIPE_ITEMS).  NULL if out of memory. */
struct decode_pipe *decode_pipe_open(struct decode_out *out, unsigned threads, size_t items);

/* The next item (its instructions are copied): 0, or -1 (a write error, or
 * out of memory in a formatter): stop. */
int decode_pipe_item(struct decode_pipe *d, const struct pft_flow_item *it);

/* Everything handed over written to f (not flushed): 0 or -1.  What out
 * holds back (a range line) is then the caller's (decode_out_finish). */
int decode_pipe_end(struct decode_pipe *d);

/* Stops the threads; after a failed write of the text, errno is that
 * write's (for the caller's message). */
void decode_pipe_close(struct decode_pipe *d);

#endif
