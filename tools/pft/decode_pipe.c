/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode's listing on several threads (decode_pipe.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode_pipe.h"
#include "list_pipe.h"

struct batch {
	struct decode_out *o;        /* this slot's writer, on its text stream */
	struct pft_flow_item *items;
	struct pft_insn *insns;
	uint32_t *cycles;
	size_t n, ninsns, ncycles;
	int cut;                     /* the batch may end after its last item */
	struct decode_it end;        /* the IT block open after it (formatted) */
};

struct decode_pipe {
	struct list_pipe *p;
	struct decode_out *out;      /* the caller's */
	size_t items, insns;         /* per batch */
	int serial;                  /* formatting here until a cut point */
	struct decode_it expect;     /* the IT block open after the text written */
	int werrno;                  /* the errno of the write that failed */
	unsigned it_left;            /* an IT block's slots left, as far as can be
	                                told without a disassembler: no cut there */
};

static void batch_clear(struct batch *b)
{
	b->n = b->ninsns = b->ncycles = 0;
	b->cut = 1;
}

static void *batch_open(void *ctx, FILE *text)
{
	const struct decode_pipe *d = ctx;
	struct batch *b = calloc(1, sizeof *b);

	if (!b)
		return NULL;
	b->o = decode_out_like(d->out, text);
	b->items = malloc(d->items * sizeof *b->items);
	b->insns = malloc(d->insns * sizeof *b->insns);
	b->cycles = malloc(d->insns * sizeof *b->cycles);
	if (!b->o || !b->items || !b->insns || !b->cycles) {
		decode_out_close(b->o);
		free(b->items);
		free(b->insns);
		free(b->cycles);
		free(b);
		return NULL;
	}
	batch_clear(b);
	return b;
}

static void batch_close(void *arg)
{
	struct batch *b = arg;

	decode_out_close(b->o);
	free(b->items);
	free(b->insns);
	free(b->cycles);
	free(b);
}

/* On a formatter thread, from no IT block open (decode.h).  A batch that
 * ends inside a run of ranges is the last one: its run is flushed as
 * decode_out_finish would at the end.  The batch is kept until written. */
static int batch_format(void *arg)
{
	static const struct decode_it none;
	struct batch *b = arg;
	size_t i;
	int r = 0;

	for (i = 0; i < b->n && !r; i++)
		r = decode_out_item(b->o, &b->items[i]);
	if (decode_out_finish(b->o, NULL))
		r = -1;
	decode_out_get_it(b->o, &b->end);
	if (b->end.n)
		decode_out_set_it(b->o, &none); /* the next batch starts outside */
	return r;
}

/* On the caller's thread, in order: a batch formatted from no IT block is
 * right if none was open after the text before it; else it is formatted
 * again here, from the block that was (rare: batches are cut where no IT
 * block is open, as far as the instructions tell without a disassembler). */
static int batch_write(void *ctx, void *arg, FILE *out, const char *text, size_t len)
{
	struct decode_pipe *d = ctx;
	struct batch *b = arg;
	size_t i;
	int r = 0;

	if (!d->expect.n) {
		if (len && fwrite(text, 1, len, out) != len) {
			d->werrno = errno;
			r = -1;
		}
		d->expect = b->end;
	} else {
		decode_out_set_it(d->out, &d->expect);
		for (i = 0; i < b->n && !r; i++)
			r = decode_out_item(d->out, &b->items[i]);
		decode_out_get_it(d->out, &d->expect);
	}
	batch_clear(b);
	return r;
}

struct decode_pipe *decode_pipe_open(struct decode_out *out, unsigned threads, size_t items)
{
	static const struct list_pipe_ops ops = { batch_open, batch_close, batch_format,
						  batch_write };
	struct decode_pipe *d = calloc(1, sizeof *d);

	if (!d)
		return NULL;
	d->out = out;
	d->items = items ? items : 1;
	d->insns = DECODE_PIPE_INSNS(d->items);
	d->p = list_pipe_open(decode_out_file(out), threads, 2 * threads + 2, &ops, d);
	if (!d->p) {
		free(d);
		return NULL;
	}
	return d;
}

/* An item formatted here; back to the batches after a cut point. */
static int format_on(struct decode_pipe *d, const struct pft_flow_item *it)
{
	int r = decode_out_item(d->out, it);

	d->serial = !decode_out_cut_after(d->out, it);
	if (!d->serial)
		decode_out_get_it(d->out, &d->expect);
	return r;
}

/* This batch and the item formatted here, after everything before them is
 * written; here until the next cut point. */
static int format_here(struct decode_pipe *d, struct batch *b, const struct pft_flow_item *it)
{
	size_t i;

	if (list_pipe_drain(d->p))
		return -1;
	decode_out_set_it(d->out, &d->expect);
	for (i = 0; i < b->n; i++)
		if (decode_out_item(d->out, &b->items[i]))
			return -1;
	batch_clear(b);
	return format_on(d, it);
}

/* IT instructions among Thumb instructions: the slots left of the last
 * IT's block (if every instruction after it decodes). */
static void skip_it(struct decode_pipe *d, const struct pft_insn *in, size_t n)
{
	size_t i;
	unsigned slots;

	for (i = 0; i < n; i++) {
		if ((slots = decode_it_slots(&in[i])) != 0) {
			if (!d->it_left) /* (one inside a block changes nothing) */
				d->it_left = slots;
		} else if (d->it_left) {
			d->it_left--;
		}
	}
}

int decode_pipe_item(struct decode_pipe *d, const struct pft_flow_item *it)
{
	struct batch *b;
	struct pft_flow_item *c;
	size_t ni = it->insns ? it->ninsns : 0, nc = it->insn_cycles ? it->ninsns : 0;

	if (d->serial)
		return format_on(d, it);
	if (!(b = list_pipe_batch(d->p)))
		return -1;
	if (b->n == d->items || b->ninsns + ni > d->insns || b->ncycles + nc > d->insns) {
		if (b->n && b->cut) {
			if (list_pipe_submit(d->p) || !(b = list_pipe_batch(d->p)))
				return -1;
		}
		if (b->n || ni > d->insns || nc > d->insns)
			return format_here(d, b, it);
	}
	c = &b->items[b->n++];
	*c = *it;
	if (ni) {
		if (it->isa != PFT_ISA_ARM)
			skip_it(d, it->insns, ni);
		memcpy(b->insns + b->ninsns, it->insns, ni * sizeof *it->insns);
		c->insns = b->insns + b->ninsns;
		b->ninsns += ni;
	}
	if (nc) {
		memcpy(b->cycles + b->ncycles, it->insn_cycles, nc * sizeof *it->insn_cycles);
		c->insn_cycles = b->cycles + b->ncycles;
		b->ncycles += nc;
	}
	b->cut = decode_out_cut_after(d->out, it) && !d->it_left;
	return 0;
}

int decode_pipe_end(struct decode_pipe *d)
{
	struct batch *b = list_pipe_batch(d->p);

	if (!b || (b->n && list_pipe_submit(d->p)))
		return -1;
	return list_pipe_drain(d->p);
}

void decode_pipe_close(struct decode_pipe *d)
{
	int e;

	if (!d)
		return;
	e = d->werrno;
	list_pipe_close(d->p);
	free(d);
	if (e)
		errno = e; /* for the caller's message */
}
