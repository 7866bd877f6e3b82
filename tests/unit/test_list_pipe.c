/* SPDX-License-Identifier: BSD-3-Clause */
/* tools/pft/list_pipe.c: batches formatted on several threads come out in
 * the order they were handed over, each exactly once, for 1-4 threads and
 * as few slots as allowed; batches finish out of order (random delays);
 * empty batches, texts that grow a slot's stream; a batch whose format
 * fails stops the pipe after the batches before it; a write error stops
 * it; closing with batches pending ends the threads; a write hook sees
 * every batch once, in order. */
#define _GNU_SOURCE /* list_pipe.c: fopencookie */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "tools/pft/list_pipe.c"

#define MAXV 64

struct tbatch {
	FILE *text;
	unsigned v[MAXV];
	unsigned n;
	long delay_ns;
	int fail;
	int *opened;
};

static void *t_open(void *ctx, FILE *text)
{
	struct tbatch *b = calloc(1, sizeof *b);

	if (b) {
		b->text = text;
		b->opened = ctx;
		(*b->opened)++;
	}
	return b;
}

static void t_close(void *arg)
{
	struct tbatch *b = arg;

	(*b->opened)--;
	free(b);
}

static int t_format(void *arg)
{
	struct tbatch *b = arg;
	struct timespec ts = { 0, b->delay_ns };
	unsigned i, k;
	int r = b->fail ? -1 : 0;

	if (b->delay_ns)
		nanosleep(&ts, NULL);
	for (i = 0; i < b->n; i++) {
		fprintf(b->text, "%u", b->v[i]);
		for (k = 0; k < b->v[i] % 97 * 40; k++) /* long lines now and then */
			fputc('a' + (int)(b->v[i] % 26), b->text);
		fputc('\n', b->text);
	}
	b->n = 0;
	b->fail = 0;
	return r;
}

static const struct list_pipe_ops ops = { t_open, t_close, t_format, NULL };

/* A write hook: each batch's text, then "#" and the batch's order. */
struct hook {
	int opened;
	unsigned calls;
};

static void *h_open(void *ctx, FILE *text)
{
	struct hook *h = ctx;

	return t_open(&h->opened, text);
}

static int h_write(void *ctx, void *batch, FILE *out, const char *text, size_t len)
{
	struct hook *h = ctx;

	(void)batch;
	fwrite(text, 1, len, out);
	fprintf(out, "#%u\n", h->calls++);
	return 0;
}

static const struct list_pipe_ops hook_ops = { h_open, t_close, t_format, h_write };


/* The text of value v, as t_format writes it. */
static void expect(char **e, size_t *len, size_t *cap, unsigned v)
{
	char line[64 + 97 * 40];
	int n = snprintf(line, sizeof line, "%u", v);
	unsigned k;

	for (k = 0; k < v % 97 * 40; k++)
		line[n++] = (char)('a' + (int)(v % 26));
	line[n++] = '\n';
	if (*len + (size_t)n > *cap) {
		*cap = (*len + (size_t)n) * 2;
		*e = realloc(*e, *cap);
	}
	memcpy(*e + *len, line, (size_t)n);
	*len += (size_t)n;
}

/* nbatch batches through threads threads and slots slots; batch fail_at
 * (or -1: none) fails its format.  The output must be every value of the
 * batches before the failing one, in order. */
static void run(uint64_t *rng, unsigned threads, unsigned slots, unsigned nbatch, int fail_at)
{
	int opened = 0;
	struct list_pipe *p;
	FILE *out = tmpfile();
	char *e = NULL, *got;
	size_t elen = 0, ecap = 0, glen;
	unsigned i, k, val = 0;
	int r = 0, stopped = 0;

	check_case("threads %u slots %u batches %u fail at %d", threads, slots, nbatch, fail_at);
	p = list_pipe_open(out, threads, slots, &ops, &opened);
	CHECK(p != NULL);
	if (!p || !out)
		return;
	CHECK_EQ(opened, slots);
	for (i = 0; i < nbatch && !stopped; i++) {
		struct tbatch *b = list_pipe_batch(p);

		if (!b) {
			stopped = 1;
			break;
		}
		CHECK_EQ(b->n, 0);
		b->n = (unsigned)(check_rand(rng) % 5 == 0 ? 0 : check_rand(rng) % MAXV);
		b->delay_ns = (long)(check_rand(rng) % 4 == 0 ? check_rand(rng) % 500000 : 0);
		b->fail = (int)i == fail_at;
		for (k = 0; k < b->n; k++) {
			b->v[k] = val++;
			if ((int)i < fail_at || fail_at < 0)
				expect(&e, &elen, &ecap, b->v[k]);
		}
		if (list_pipe_submit(p))
			stopped = 1;
	}
	if (!stopped)
		r = list_pipe_drain(p);
	CHECK_EQ(stopped || r, fail_at >= 0);
	if (fail_at >= 0)
		CHECK(list_pipe_batch(p) == NULL);
	list_pipe_close(p);
	CHECK_EQ(opened, 0);
	got = check_read_stream(out, &glen);
	CHECK_EQ(glen, elen);
	if (glen == elen && elen && memcmp(got, e, elen))
		check_fail(__FILE__, __LINE__, "the text differs from the batches in order");
	free(got);
	free(e);
	fclose(out);
}

/* Writes fail (a full device): the pipe stops, and closes. */
static void write_error(void)
{
	int opened = 0;
	FILE *out = fopen("/dev/full", "w");
	struct list_pipe *p;
	unsigned i;
	int stopped = 0;

	check_case("write error");
	if (!out)
		return; /* no /dev/full here */
	setvbuf(out, NULL, _IONBF, 0);
	p = list_pipe_open(out, 2, 3, &ops, &opened);
	CHECK(p != NULL);
	for (i = 0; p && i < 100 && !stopped; i++) {
		struct tbatch *b = list_pipe_batch(p);

		if (!b) {
			stopped = 1;
			break;
		}
		b->v[0] = i;
		b->n = 1;
		stopped = list_pipe_submit(p) != 0;
	}
	CHECK(stopped || list_pipe_drain(p) != 0);
	CHECK(list_pipe_drain(p) != 0);
	list_pipe_close(p);
	CHECK_EQ(opened, 0);
	fclose(out);
}

/* Closed with batches handed over and not written: the threads end. */
static void close_pending(void)
{
	int opened = 0;
	FILE *out = tmpfile();
	struct list_pipe *p = list_pipe_open(out, 3, 8, &ops, &opened);
	unsigned i;

	check_case("close with batches pending");
	CHECK(p != NULL);
	for (i = 0; p && i < 7; i++) {
		struct tbatch *b = list_pipe_batch(p);

		b->n = 3;
		b->delay_ns = 1000000;
		CHECK_EQ(list_pipe_submit(p), 0);
	}
	list_pipe_close(p);
	CHECK_EQ(opened, 0);
	fclose(out);
}

/* Every batch goes through the hook once, in order, on this thread. */
static void write_hook(uint64_t *rng)
{
	struct hook h = { 0, 0 };
	FILE *out = tmpfile();
	struct list_pipe *p = list_pipe_open(out, 3, 5, &hook_ops, &h);
	char *e = NULL, *got, mark[32];
	size_t elen = 0, ecap = 0, glen;
	unsigned i, k, val = 0;

	check_case("write hook");
	CHECK(p != NULL);
	for (i = 0; p && i < 50; i++) {
		struct tbatch *b = list_pipe_batch(p);

		b->n = (unsigned)(check_rand(rng) % 6);
		b->delay_ns = (long)(check_rand(rng) % 3 == 0 ? check_rand(rng) % 300000 : 0);
		for (k = 0; k < b->n; k++)
			expect(&e, &elen, &ecap, b->v[k] = val++);
		snprintf(mark, sizeof mark, "#%u\n", i);
		if (elen + strlen(mark) > ecap) {
			ecap = (elen + strlen(mark)) * 2;
			e = realloc(e, ecap);
		}
		memcpy(e + elen, mark, strlen(mark));
		elen += strlen(mark);
		CHECK_EQ(list_pipe_submit(p), 0);
	}
	CHECK_EQ(list_pipe_drain(p), 0);
	CHECK_EQ(h.calls, 50);
	list_pipe_close(p);
	CHECK_EQ(h.opened, 0);
	got = check_read_stream(out, &glen);
	CHECK_EQ(glen, elen);
	if (glen == elen && memcmp(got, e, elen))
		check_fail(__FILE__, __LINE__, "the hook's text differs");
	free(got);
	free(e);
	fclose(out);
}

int main(void)
{
	uint64_t rng = check_seed(0x11571);
	unsigned t, extra, rep;
	int opened = 0;

	check_case("arguments");
	CHECK(list_pipe_open(stdout, 0, 2, &ops, &opened) == NULL);
	CHECK(list_pipe_open(stdout, 2, 2, &ops, &opened) == NULL);
	CHECK(list_pipe_open(stdout, 65, 70, &ops, &opened) == NULL);
	CHECK_EQ(opened, 0);
	list_pipe_close(NULL);
	for (t = 1; t <= 4; t++)
		for (extra = 1; extra <= 3; extra++)
			for (rep = 0; rep < 3; rep++)
				run(&rng, t, t + extra, 40 + (unsigned)(check_rand(&rng) % 80), -1);
	for (rep = 0; rep < 12; rep++) {
		t = 1 + (unsigned)(check_rand(&rng) % 4);
		run(&rng, t, t + 1 + rep % 3, 60, (int)(check_rand(&rng) % 60));
	}
	write_error();
	close_pending();
	write_hook(&rng);
	return check_report();
}
