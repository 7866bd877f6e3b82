/* SPDX-License-Identifier: BSD-3-Clause */
/* Source groups (pft/source.h: several trace IDs of one capture read once)
 * against each source read alone: a framed capture of three trace IDs
 * (runs of random lengths, one ID silent for a long stretch, frames broken
 * by ID 0x7F bytes so that chunks start after gaps), from a file and from a
 * buffer.  Every member gets the chunks it gets alone: the same lengths,
 * bytes, gap flags and capture offsets, in every reading order:
 *  - round robin: the capture is read once, nobody detaches, the queues
 *    stay within a few chunks;
 *  - one source to its end before the others, with the smallest lag bound:
 *    the others detach (and read alone), the queues never exceed the bound;
 *  - two members on one ID (a reader ahead of a decoder);
 *  - PFT_SOURCE_GROUP_SCAN: the stream lengths at open, an absent ID;
 *  - a member joining after the reading started is refused; a raw capture
 *    reads alone. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pft/source.h"

#define NID 3
static const uint8_t ids[NID] = { 0x13, 0x24, 0x35 };

struct chunk {
	size_t len;
	uint32_t flags;
	uint64_t sum, offsum; /* of the bytes and of their capture offsets */
};

struct seq {
	struct chunk *c;
	size_t n, cap;
	uint64_t bytes;
};

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

/* About len bytes of capture: three IDs in runs; ID 0x35 silent in the
 * middle third; an ID 0x7F byte every so often. */
static uint8_t *make_capture(size_t want, size_t *len)
{
	struct pft_frame_encoder *enc = pft_frame_encoder_alloc(PFT_FRAME_CORESIGHT, 0, 0);
	uint8_t *out = malloc(want + 65536), data[512];
	size_t n = 0, used, i, k;

	CHECK(enc && out);
	while (n < want) {
		uint8_t id = ids[rnd() % NID];
		size_t run = 1 + rnd() % 400;
		int w;

		if (id == 0x35 && n > want / 3 && n < 2 * want / 3)
			id = 0x13;
		for (i = 0; i < run; i++)
			data[i] = (uint8_t)rnd();
		w = pft_frame_encoder_encode(enc, id, data, run, out + n, want + 65536 - n, &used);
		CHECK(w >= 0 && used == run);
		n += (size_t)w;
	}
	n += (size_t)pft_frame_encoder_flush(enc, out + n, want + 65536 - n);
	pft_frame_encoder_free(enc);
	for (k = 1; k < 12; k++) /* ID 0x7F in slot 0 of a frame: a frame error */
		out[(n / 12 * k) & ~(size_t)15] = 0xFF;
	*len = n;
	return out;
}

static void add(struct seq *s, const struct pft_source *src, const struct pft_source_chunk *c)
{
	struct chunk k;
	size_t i;

	memset(&k, 0, sizeof k);
	k.len = c->len;
	k.flags = c->flags;
	for (i = 0; i < c->len; i++) {
		k.sum = k.sum * 31 + c->data[i];
		k.offsum = k.offsum * 31 + pft_source_capture_offset(src, c->stream_offset + i);
	}
	pft_source_release((struct pft_source *)src, c->stream_offset + c->len);
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->c = realloc(s->c, s->cap * sizeof *s->c);
	}
	s->c[s->n++] = k;
	s->bytes += c->len;
}

static int open_one(struct pft_source **src, const char *path, const uint8_t *mem, size_t len,
		    uint8_t id, struct pft_source_group *g, int format)
{
	struct pft_source_params p;
	char msg[1024];
	int r;

	pft_source_params_init(&p);
	p.format = format;
	p.trace_id = id;
	p.capture_offsets = 1;
	p.group = g;
	r = path ? pft_source_open(src, path, &p, msg, sizeof msg)
		 : pft_source_open_memory(src, mem, len, &p, msg, sizeof msg);
	if (r)
		printf("open 0x%02x: %s\n", id, msg);
	return r;
}

static void read_alone(const char *path, const uint8_t *mem, size_t len, struct seq *ref)
{
	struct pft_source_chunk c;
	struct pft_source *src;
	unsigned i;

	for (i = 0; i < NID; i++) {
		CHECK_EQ(open_one(&src, path, mem, len, ids[i], NULL, PFT_FRAME_CORESIGHT), 0);
		while (pft_source_next(src, &c, sizeof c) == 0)
			add(&ref[i], src, &c);
		pft_source_close(src);
	}
}

static int same(const struct seq *a, const struct seq *b)
{
	return a->n == b->n && !memcmp(a->c, b->c, a->n * sizeof *a->c);
}

static void free_seqs(struct seq *s, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		free(s[i].c);
		memset(&s[i], 0, sizeof s[i]);
	}
}

/* All members of a group read; order 0: round robin, 1: each to its end
 * in turn.  dup: a second member on the first ID. */
static void read_group(const char *what, const char *path, const uint8_t *mem, size_t len,
		       const struct seq *ref, uint64_t lag, int order, int dup,
		       struct pft_source_group_stats *st)
{
	struct pft_source_group *g;
	struct pft_source *src[NID + 1];
	struct pft_source_chunk c;
	struct seq got[NID + 1];
	unsigned n = NID + (dup ? 1 : 0), i, live;
	int r;

	memset(got, 0, sizeof got);
	CHECK_EQ(pft_source_group_alloc(&g, lag, 0), 0);
	for (i = 0; i < n; i++)
		CHECK_EQ(open_one(&src[i], path, mem, len, ids[i % NID], g, PFT_FRAME_CORESIGHT), 0);
	CHECK_EQ(pft_source_group_position(src[0]), 0);
	if (order == 0) {
		for (live = n; live;)
			for (live = 0, i = 0; i < n; i++) {
				if (!src[i])
					continue;
				r = pft_source_next(src[i], &c, sizeof c);
				if (r == 0) {
					add(&got[i], src[i], &c);
					live++;
				} else {
					CHECK_EQ(r, -PFT_E_EOS);
					CHECK_EQ(pft_source_finish(src[i], NULL, 0), 0);
					pft_source_close(src[i]);
					src[i] = NULL;
				}
			}
	} else {
		for (i = 0; i < n; i++) {
			while ((r = pft_source_next(src[i], &c, sizeof c)) == 0)
				add(&got[i], src[i], &c);
			CHECK_EQ(r, -PFT_E_EOS);
			CHECK(pft_source_ready(src[i]));
			if (!i) /* the group has read everything for the first */
				CHECK_EQ(pft_source_group_position(src[0]) + 16 > len, 1);
		}
	}
	CHECK_EQ(pft_source_group_get_stats(g, st, sizeof *st), 0);
	for (i = 0; i < n; i++) {
		if (!same(&got[i], &ref[i % NID]))
			printf("%s: member %u (ID 0x%02x): %zu chunks, %llu bytes; alone %zu, %llu\n",
			       what, i, ids[i % NID], got[i].n, (unsigned long long)got[i].bytes,
			       ref[i % NID].n, (unsigned long long)ref[i % NID].bytes);
		CHECK(same(&got[i], &ref[i % NID]));
		if (order)
			pft_source_close(src[i]);
	}
	pft_source_group_free(g);
	free_seqs(got, n);
	printf("%s: %u members, %u detached, %llu capture bytes read, peak %llu bytes queued\n",
	       what, st->members, st->detached, (unsigned long long)st->capture_bytes,
	       (unsigned long long)st->peak_queued);
}

static void check_orders(const char *path, const uint8_t *mem, size_t len, size_t caplen)
{
	struct pft_source_group_stats st;
	struct seq ref[NID];
	unsigned i;

	memset(ref, 0, sizeof ref);
	read_alone(path, mem, len, ref);
	for (i = 0; i < NID; i++)
		CHECK(ref[i].n >= 4);
	CHECK(ref[0].c[0].flags == 0);
	for (i = 1; i < ref[0].n && !(ref[0].c[i].flags & PFT_SOURCE_CHUNK_GAP); i++)
		;
	CHECK(i < ref[0].n); /* the frame errors cut the chunks */

	read_group(path ? "file, round robin" : "buffer, round robin", path, mem, len, ref, 0, 0,
		   0, &st);
	CHECK_EQ(st.members, NID);
	CHECK_EQ(st.detached, 0);
	CHECK_EQ(st.capture_bytes, caplen); /* read once */
	CHECK(st.peak_queued <= 6ull * PFT_SOURCE_CHUNK);
	CHECK_EQ(st.queued, 0);

	read_group(path ? "file, one after another" : "buffer, one after another", path, mem, len,
		   ref, 2ull * PFT_SOURCE_CHUNK, 1, 0, &st);
	CHECK(st.detached >= 1);
	CHECK(st.peak_queued <= NID * 3ull * PFT_SOURCE_CHUNK);

	read_group("two members on one ID", path, mem, len, ref, 0, 0, 1, &st);
	CHECK_EQ(st.members, NID + 1);
	CHECK_EQ(st.detached, 0);
	CHECK_EQ(st.capture_bytes, caplen);
	free_seqs(ref, NID);
}

static void check_scan_and_errors(const char *path)
{
	struct pft_source_group *g;
	struct pft_source *a, *b, *c;
	struct pft_source_info info;
	struct pft_source_params p;
	struct pft_source_chunk ch;
	char msg[1024];

	CHECK_EQ(pft_source_group_alloc(&g, 1024, 0), -PFT_E_INVAL); /* lag below 2 chunks */
	CHECK_EQ(pft_source_group_alloc(&g, 0, 0x80), -PFT_E_INVAL);

	/* the scan: stream lengths at open; an ID without data refused at open */
	CHECK_EQ(pft_source_group_alloc(&g, 0, PFT_SOURCE_GROUP_SCAN), 0);
	CHECK_EQ(open_one(&a, path, NULL, 0, 0x13, g, PFT_FRAME_CORESIGHT), 0);
	CHECK_EQ(pft_source_get_info(a, &info, sizeof info), 0);
	CHECK(info.stream_len != PFT_SOURCE_LEN_UNKNOWN && info.stream_len > 0);
	pft_source_params_init(&p);
	p.format = PFT_FRAME_CORESIGHT;
	p.trace_id = 0x44;
	p.group = g;
	CHECK_EQ(pft_source_open(&b, path, &p, msg, sizeof msg), -PFT_E_NOTFOUND);
	CHECK(strstr(msg, "0x13 (") != NULL);
	/* joining after the reading started */
	CHECK_EQ(pft_source_next(a, &ch, sizeof ch), 0);
	p.trace_id = 0x24;
	CHECK_EQ(pft_source_open(&b, path, &p, msg, sizeof msg), -PFT_E_INVAL);
	CHECK(strstr(msg, "join every source first") != NULL);
	/* a raw capture reads alone: the group is not bound by it */
	CHECK_EQ(open_one(&c, path, NULL, 0, 0x13, g, PFT_FRAME_RAW), 0);
	CHECK_EQ(pft_source_group_position(c), UINT64_MAX);
	CHECK(pft_source_ready(c));
	pft_source_close(c);
	pft_source_group_free(g); /* before its member: lives until the member closes */
	CHECK_EQ(pft_source_next(a, &ch, sizeof ch), 0);
	pft_source_close(a);

	/* without the scan: the length is known at the end */
	CHECK_EQ(pft_source_group_alloc(&g, 0, 0), 0);
	CHECK_EQ(open_one(&a, path, NULL, 0, 0x13, g, PFT_FRAME_CORESIGHT), 0);
	CHECK_EQ(pft_source_get_info(a, &info, sizeof info), 0);
	CHECK_EQ(info.stream_len, PFT_SOURCE_LEN_UNKNOWN);
	CHECK_EQ(pft_source_ready(a), 0);
	CHECK_EQ(pft_source_group_read(g), 0); /* a chunk for everyone */
	CHECK_EQ(pft_source_ready(a), 1);
	CHECK(pft_source_group_position(a) > 0);
	while (pft_source_next(a, &ch, sizeof ch) == 0)
		;
	CHECK_EQ(pft_source_group_read(g), -PFT_E_EOS);
	CHECK_EQ(pft_source_finish(a, msg, sizeof msg), 0);
	pft_source_get_info(a, &info, sizeof info);
	CHECK(info.stream_len != PFT_SOURCE_LEN_UNKNOWN && info.stream_len > 0);
	CHECK(info.frame_errors > 0);
	pft_source_close(a);
	pft_source_group_free(g);
}

int main(void)
{
	char tmp[] = "/tmp/pft_source_group_XXXXXX";
	size_t len;
	uint8_t *cap = make_capture(9u << 20, &len);
	int fd = mkstemp(tmp);

	CHECK(fd >= 0);
	if (fd < 0)
		return check_report();
	CHECK_EQ(write(fd, cap, len), (long long)len);
	close(fd);
	check_orders(tmp, NULL, 0, len);
	check_orders(NULL, cap, len, len);
	check_scan_and_errors(tmp);
	unlink(tmp);
	free(cap);
	return check_report();
}
