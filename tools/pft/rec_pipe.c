/* SPDX-License-Identifier: BSD-3-Clause */
/* Fixed-size records formatted on several threads (rec_pipe.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "list_pipe.h"
#include "rec_pipe.h"

struct batch {
	const struct rec_pipe *r;
	FILE *text;
	unsigned char *recs;
	size_t n;
};

struct rec_pipe {
	struct list_pipe *p;
	size_t size, per_batch;
	rec_pipe_line_fn line;
	const void *ctx;
	int werrno;      /* the first write error (on the caller's thread) */
};

static void *batch_open(void *ctx, FILE *text)
{
	const struct rec_pipe *r = ctx;
	struct batch *b = calloc(1, sizeof *b);

	if (b && !(b->recs = malloc(r->size * r->per_batch))) {
		free(b);
		b = NULL;
	}
	if (b) {
		b->r = r;
		b->text = text;
	}
	return b;
}

static void batch_close(void *arg)
{
	struct batch *b = arg;

	free(b->recs);
	free(b);
}

static int batch_format(void *arg)
{
	struct batch *b = arg;
	size_t i;

	for (i = 0; i < b->n; i++)
		b->r->line(b->r->ctx, b->text, b->recs + i * b->r->size);
	b->n = 0;
	return ferror(b->text) ? -1 : 0;
}

/* A write error does not stop the pipe: the listing goes on to the end and
 * the command reports the output's error there, as on one thread. */
static int batch_write(void *ctx, void *batch, FILE *out, const char *text, size_t len)
{
	struct rec_pipe *r = ctx;

	(void)batch;
	if (len && fwrite(text, 1, len, out) != len && !r->werrno)
		r->werrno = errno ? errno : EIO;
	return 0;
}

struct rec_pipe *rec_pipe_open(FILE *out, unsigned threads, size_t rec_size, size_t per_batch,
			       rec_pipe_line_fn line, const void *ctx)
{
	static const struct list_pipe_ops ops = { batch_open, batch_close, batch_format,
						  batch_write };
	struct rec_pipe *r = calloc(1, sizeof *r);

	if (!r)
		return NULL;
	r->size = rec_size;
	r->per_batch = per_batch ? per_batch : 1;
	r->line = line;
	r->ctx = ctx;
	r->p = list_pipe_open(out, threads, 2 * threads + 2, &ops, r);
	if (!r->p) {
		free(r);
		return NULL;
	}
	return r;
}

int rec_pipe_add(struct rec_pipe *r, const void *rec)
{
	struct batch *b = list_pipe_batch(r->p);

	if (b && b->n == r->per_batch)
		b = list_pipe_submit(r->p) ? NULL : list_pipe_batch(r->p);
	if (!b)
		return -1;
	memcpy(b->recs + b->n++ * r->size, rec, r->size);
	return 0;
}

int rec_pipe_end(struct rec_pipe *r)
{
	struct batch *b = list_pipe_batch(r->p);

	if (!b || (b->n && list_pipe_submit(r->p)))
		return -1;
	return list_pipe_drain(r->p);
}

int rec_pipe_write_errno(const struct rec_pipe *r)
{
	return r->werrno;
}

void rec_pipe_close(struct rec_pipe *r)
{
	if (!r)
		return;
	list_pipe_close(r->p);
	free(r);
}
