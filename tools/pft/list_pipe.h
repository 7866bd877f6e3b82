/* SPDX-License-Identifier: BSD-3-Clause */
/* A listing formatted on several threads, written in order (list_pipe.c).
 *
 * The thread that has the items (pft decode's and pft dump's --jobs N
 * join) copies them into batches; formatter threads turn whole batches
 * into text, each into its own memory stream; the text is written to the
 * output in the order the batches were handed over, by the thread that
 * hands them over (so that a write error, EPIPE included, happens where it
 * would without the pipe).  The pipe knows nothing of the items: a batch
 * is the caller's (ops below), one per slot, made once; so is its
 * formatting state, which therefore must not carry from one batch to the
 * next (the caller cuts its batches where the formatter holds nothing).
 *
 *     p = list_pipe_open(out, threads, slots, &ops, ctx);
 *     for each item:
 *         b = list_pipe_batch(p);           (NULL: a write or format error)
 *         add the item to b; when b is full: list_pipe_submit(p);
 *     list_pipe_submit(p); list_pipe_drain(p);   (everything written)
 *     list_pipe_close(p);
 *
 * Memory: slots batches and their text, no allocation per item (a memory
 * stream grows to the largest text of its slot and stays so).  The pipe
 * stops at the first error; list_pipe_close() ends its threads whatever
 * is pending (a batch being formatted is finished first, then dropped). */
#ifndef PFT_TOOLS_LIST_PIPE_H
#define PFT_TOOLS_LIST_PIPE_H

#include <stdio.h>

struct list_pipe_ops {
	/* A batch and its formatter, writing to text (the slot's memory
	 * stream, owned by the pipe): NULL if out of memory. */
	void *(*open)(void *ctx, FILE *text);
	void (*close)(void *batch);
	/* The batch's items as text into the stream given to open, then the
	 * batch emptied: 0, or -1 (out of memory).  Runs on a formatter
	 * thread, at the same time as other batches' format and as the
	 * caller filling another batch. */
	int (*format)(void *batch);
	/* Optional (NULL: text written as it is): write a formatted batch's
	 * text to out, on the caller's thread, in order: 0 or -1.  Where a
	 * batch's text may depend on the batches before it, this is where it
	 * is checked (and the batch formatted again if need be). */
	int (*write)(void *ctx, void *batch, FILE *out, const char *text, size_t len);
};

struct list_pipe;

/* threads formatter threads (1..64), slots batches (threads + 1..256:
 * one filled, the others formatted or waiting to be written).  NULL if
 * out of memory or a thread cannot start. */
struct list_pipe *list_pipe_open(FILE *out, unsigned threads, unsigned slots,
				 const struct list_pipe_ops *ops, void *ctx);

/* The batch being filled (waiting, and writing earlier batches' text, until
 * its slot is free).  NULL after an error: stop. */
void *list_pipe_batch(struct list_pipe *p);

/* Hand the batch being filled to the formatters (an empty one too: it gives
 * no text); the earlier batches whose text is ready are written.  0, or -1
 * after an error (write or format). */
int list_pipe_submit(struct list_pipe *p);

/* Wait for every batch handed over and write its text: out then holds the
 * whole listing so far (not flushed).  0 or -1. */
int list_pipe_drain(struct list_pipe *p);

/* Stop the threads, free the batches (ops->close) and the streams.  p may
 * be NULL. */
void list_pipe_close(struct list_pipe *p);

#endif
