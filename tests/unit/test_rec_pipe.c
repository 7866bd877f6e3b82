/* SPDX-License-Identifier: BSD-3-Clause */
/* tools/pft/rec_pipe.c: fixed-size records formatted on several threads
 * give line() of every record in order (1-3 threads, batches of 1-40
 * records, records of odd sizes); a write error does not stop the pipe and
 * its errno is kept for the message (ENOSPC on /dev/full). */
#define _GNU_SOURCE /* list_pipe.c: fopencookie */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tools/pft/list_pipe.c"
#include "tools/pft/rec_pipe.c"

struct rec {
	uint32_t v;
	uint8_t odd[9]; /* a size that is not a power of two */
};

struct ctx {
	const char *tag;
};

static void line(const void *c, FILE *f, const void *r)
{
	const struct ctx *x = c;
	const struct rec *p = r;

	fprintf(f, "%s%u %u\n", x->tag, p->v, p->odd[p->v % 9]);
}

static void run(uint64_t *rng, unsigned threads, size_t per, unsigned n)
{
	struct ctx c = { "rec " };
	FILE *a = tmpfile(), *b = tmpfile();
	struct rec_pipe *r = rec_pipe_open(b, threads, sizeof(struct rec), per, line, &c);
	struct rec x;
	char *sa, *sb;
	size_t la, lb;
	unsigned i;

	check_case("threads %u per batch %zu records %u", threads, per, n);
	CHECK(r != NULL);
	if (!r)
		return;
	for (i = 0; i < n; i++) {
		memset(&x, 0, sizeof x);
		x.v = i;
		x.odd[i % 9] = (uint8_t)check_rand(rng);
		line(&c, a, &x);
		CHECK_EQ(rec_pipe_add(r, &x), 0);
	}
	CHECK_EQ(rec_pipe_end(r), 0);
	CHECK_EQ(rec_pipe_write_errno(r), 0);
	rec_pipe_close(r);
	sa = check_read_stream(a, &la);
	sb = check_read_stream(b, &lb);
	CHECK_EQ(lb, la);
	CHECK(la == lb && !memcmp(sa, sb, la));
	free(sa);
	free(sb);
	fclose(a);
	fclose(b);
}

static void write_error(void)
{
	struct ctx c = { "" };
	FILE *f = fopen("/dev/full", "w");
	struct rec_pipe *r;
	struct rec x;
	unsigned i;

	check_case("write error");
	if (!f)
		return;
	r = rec_pipe_open(f, 2, sizeof x, 16, line, &c);
	CHECK(r != NULL);
	memset(&x, 0, sizeof x);
	for (i = 0; r && i < 20000; i++) {
		x.v = i;
		CHECK_EQ(rec_pipe_add(r, &x), 0); /* goes on, as one thread would */
	}
	CHECK_EQ(rec_pipe_end(r), 0);
	CHECK_EQ(rec_pipe_write_errno(r), ENOSPC);
	CHECK(ferror(f));
	rec_pipe_close(r);
	fclose(f);
}

int main(void)
{
	uint64_t rng = check_seed(0x5ec);
	unsigned t;
	size_t per;

	for (t = 1; t <= 3; t++)
		for (per = 1; per <= 40; per = per * 3 + 1)
			run(&rng, t, per, 500 + (unsigned)(check_rand(&rng) % 2000));
	write_error();
	return check_report();
}
