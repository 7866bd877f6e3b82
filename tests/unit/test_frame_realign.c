/* SPDX-License-Identifier: BSD-3-Clause */
/* Frame alignment recovery of the deformatter (pft_frame_decoder_set_realign,
 * pft_frame_decoder_realign): a clean capture is left alone (TC2, and random
 * multi-source captures from the formatter), and a capture that lost or
 * gained bytes is realigned by the right shift, after which every source's
 * stream goes on exactly as the original; items do not depend on chunking. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/frame.h"

#define CAP (1u << 16)
#define NSRC 4

struct run {
	uint8_t *stream[128];
	size_t len[128];
	unsigned realigns;      /* PFT_FERR_REALIGN items */
	uint64_t first_shift;   /* length of the first one */
	uint64_t first_at;      /* and its capture offset */
	uint64_t errors;        /* other error bytes */
	struct pft_frame_stats st;
};

static void run_free(struct run *r)
{
	int i;

	for (i = 0; i < 128; i++)
		free(r->stream[i]);
}

/* De-format cap[0..n) in chunks of `chunk` bytes, collecting each ID's stream. */
static void deformat(const uint8_t *cap, size_t n, size_t chunk, int realign, int poke,
		     struct run *r)
{
	struct pft_frame_decoder *d = pft_frame_decoder_alloc(PFT_FRAME_CORESIGHT, 0);
	struct pft_frame_item it;
	size_t pos = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	CHECK(d != NULL);
	if (!d)
		return;
	CHECK_EQ(pft_frame_decoder_set_realign(d, realign), 0);
	for (;;) {
		size_t k = n - pos < chunk ? n - pos : chunk;

		if (k) {
			CHECK_EQ(pft_frame_decoder_feed(d, cap + pos, k), 0);
			pos += k;
			if (poke)
				pft_frame_decoder_realign(d); /* the caller doubts, needlessly */
		} else {
			pft_frame_decoder_end(d);
		}
		while ((rc = pft_frame_decoder_next(d, &it, sizeof it)) == 0) {
			if (it.type == PFT_FRAME_ITEM_DATA && it.id < 128) {
				r->stream[it.id] = realloc(r->stream[it.id], r->len[it.id] + it.len);
				memcpy(r->stream[it.id] + r->len[it.id], it.data, it.len);
				r->len[it.id] += it.len;
			} else if (it.type == PFT_FRAME_ITEM_ERROR && it.reason == PFT_FERR_REALIGN) {
				if (!r->realigns++) {
					r->first_shift = it.len;
					r->first_at = it.capture_offset;
				}
			} else if (it.type == PFT_FRAME_ITEM_ERROR) {
				r->errors += it.len;
			}
		}
		if (rc == -PFT_E_EOS)
			break;
		CHECK_EQ(rc, -PFT_E_AGAIN);
		if (rc != -PFT_E_AGAIN)
			break;
	}
	pft_frame_decoder_get_stats(d, &r->st, sizeof(r->st));
	CHECK_EQ(r->st.bytes_in, r->st.data + r->st.overhead + r->st.sync + r->st.unsynced +
				 r->st.error);
	pft_frame_decoder_free(d);
}

/* A capture of NSRC sources writing random bytes, with an A-sync
 * (00 00 00 00 00 80) now and then, interleaved in runs of random length. */
static size_t make_capture(uint64_t *rng, uint8_t *out, uint8_t ids[NSRC])
{
	struct pft_frame_encoder *e = pft_frame_encoder_alloc(PFT_FRAME_CORESIGHT, 0, 0);
	size_t w = 0;
	unsigned k;

	for (k = 0; k < NSRC; k++)
		ids[k] = (uint8_t)(0x10 + k * 3 + check_rand(rng) % 3);
	while (w < CAP - 4096) {
		uint8_t buf[64];
		size_t len = 1 + check_rand(rng) % sizeof buf, i, used;
		int r;

		for (i = 0; i < len; i++)
			buf[i] = (uint8_t)check_rand(rng);
		if (check_rand(rng) % 6 == 0 && len >= 6) {
			memset(buf, 0, 5);
			buf[5] = 0x80;
		}
		r = pft_frame_encoder_encode(e, ids[check_rand(rng) % NSRC], buf, len, out + w, CAP - w, &used);
		CHECK(r >= 0);
		w += (size_t)r;
	}
	w += (size_t)pft_frame_encoder_flush(e, out + w, CAP - w);
	pft_frame_encoder_free(e);
	return w;
}

static int same_streams(const struct run *a, const struct run *b)
{
	int i;

	for (i = 0; i < 128; i++)
		if (a->len[i] != b->len[i] ||
		    (a->len[i] && memcmp(a->stream[i], b->stream[i], a->len[i])))
			return 0;
	return 1;
}

/* Clean captures: nothing realigned, the same bytes with recovery on or off,
 * whatever the chunking, and when the caller doubts needlessly. */
static void clean(const uint8_t *cap, size_t n, size_t small_chunk)
{
	struct run off, on, bytewise, poked;

	deformat(cap, n, n, 0, 0, &off);
	deformat(cap, n, n, 1, 0, &on);
	deformat(cap, n, small_chunk, 1, 0, &bytewise);
	deformat(cap, n, 777, 1, 1, &poked);
	CHECK_EQ(on.realigns, 0);
	CHECK_EQ(poked.realigns, 0);
	CHECK(same_streams(&off, &on));
	CHECK(same_streams(&on, &bytewise));
	CHECK(same_streams(&on, &poked));
	run_free(&off);
	run_free(&on);
	run_free(&bytewise);
	run_free(&poked);
}

static void short_clean(uint64_t *rng)
{
	static const uint8_t idset[NSRC] = { 0x10, 0x11, 0x6F, 0x01 };
	static uint8_t cap[8192];
	struct pft_frame_encoder *e = pft_frame_encoder_alloc(PFT_FRAME_CORESIGHT, 0,
		check_rand(rng) % 2 ? PFT_FRAME_ENC_ID_EVERY_FRAME : 0);
	size_t w = 0, lim = 16 + check_rand(rng) % 4096;

	/* short captures of zero-heavy data where sources start late */
	while (w < lim) {
		uint8_t buf[64];
		size_t len = 1 + check_rand(rng) % sizeof buf, i, used;
		int r;

		for (i = 0; i < len; i++)
			buf[i] = check_rand(rng) % 2 ? 0 : (uint8_t)check_rand(rng);
		r = pft_frame_encoder_encode(e, idset[check_rand(rng) % NSRC], buf, len, cap + w,
		                             sizeof cap - w, &used);
		CHECK(r >= 0);
		w += (size_t)r;
	}
	w += (size_t)pft_frame_encoder_flush(e, cap + w, sizeof cap - w);
	pft_frame_encoder_free(e);
	clean(cap, w, 1 + (size_t)(check_rand(rng) % 64));
}

/* Does every source's stream end with the same `tail` bytes? */
static int same_tails(const struct run *a, const struct run *b, const uint8_t ids[NSRC],
		      size_t tail)
{
	unsigned k;

	for (k = 0; k < NSRC; k++) {
		uint8_t id = ids[k];

		if (a->len[id] < tail || b->len[id] < tail ||
		    memcmp(a->stream[id] + a->len[id] - tail, b->stream[id] + b->len[id] - tail, tail))
			return 0;
	}
	return 1;
}

/* Delete or insert d bytes at a random place in the first half: the capture
 * is realigned by the complementary shift and the end of every stream is
 * intact. */
static void damaged(uint64_t *rng, unsigned *ok, unsigned *tries)
{
	static uint8_t cap[CAP], bad[CAP + 64];
	uint8_t ids[NSRC];
	size_t n = make_capture(rng, cap, ids), at, m;
	unsigned d = 1 + (unsigned)(check_rand(rng) % 40);
	int insert = (int)(check_rand(rng) % 2);
	struct run ref, got, off;

	clean(cap, n, 1 + (size_t)(check_rand(rng) % 64));
	at = n / 8 + (size_t)(check_rand(rng) % (n / 2));
	memcpy(bad, cap, at);
	if (insert) {
		for (m = 0; m < d; m++)
			bad[at + m] = (uint8_t)check_rand(rng);
		memcpy(bad + at + d, cap + at, n - at);
		m = n + d;
	} else {
		memcpy(bad + at, cap + at + d, n - at - d);
		m = n - d;
	}
	deformat(cap, n, n, 1, 0, &ref);
	deformat(bad, m, 1 + (size_t)(check_rand(rng) % 3000), 1, 0, &got);
	deformat(bad, m, m, 0, 0, &off);
	(*tries)++;
	if (d % 16 == 0) {
		/* whole frames lost or gained: the alignment holds */
		CHECK_EQ(got.realigns, 0);
	} else {
		unsigned want = insert ? d % 16 : 16 - d % 16;

		CHECK(got.realigns >= 1);
		if (got.realigns && got.first_shift % 16 == want)
			(*ok)++;
		CHECK(same_tails(&ref, &got, ids, 256));
		/* without recovery, the end is garbage */
		CHECK(!same_tails(&ref, &off, ids, 256));
	}
	run_free(&ref);
	run_free(&got);
	run_free(&off);
}

/* TC2's capture (real hardware: four sources, ETMv3 and PFT) with an even
 * number of bytes deleted or inserted among the ETMv3 sources' frames: the ID
 * slots stay plausible, only the low bits of the even slots' data go wrong.
 * The realignment must come within 32 frames of the damage, by the exact
 * shift, and PFT source 0x13 (whose bytes all come later) must be intact. */
static void tc2_even(const uint8_t *tc2, size_t len)
{
	static const unsigned at[] = { 4200, 7777, 11000, 15321, 19784, 23456 };
	static const unsigned d[] = { 2, 6, 10, 14, 26, 36 };
	static uint8_t bad[1u << 16];
	struct run ref, got;
	unsigned i, j;

	CHECK(len + 64 <= sizeof bad);
	if (len + 64 > sizeof bad)
		return;
	deformat(tc2, len, len, 1, 0, &ref);
	for (i = 0; i < sizeof at / sizeof at[0]; i++)
		for (j = 0; j < 2; j++) {
			unsigned n = d[(i + j) % (sizeof d / sizeof d[0])], want;
			size_t m;

			memcpy(bad, tc2, at[i]);
			if (j) { /* inserted: bytes of the same capture further on */
				memcpy(bad + at[i], tc2 + at[i] + 999, n);
				memcpy(bad + at[i] + n, tc2 + at[i], len - at[i]);
				m = len + n;
				want = n % 16;
			} else {
				memcpy(bad + at[i], tc2 + at[i] + n, len - at[i] - n);
				m = len - n;
				want = 16 - n % 16;
			}
			deformat(bad, m, 4096, 1, 0, &got);
			CHECK_EQ(got.realigns, 1);
			CHECK_EQ(got.first_shift, want);
			CHECK(got.first_at >= at[i] && got.first_at < at[i] + 32 * PFT_FRAME_SIZE);
			CHECK_EQ(got.len[0x13], ref.len[0x13]);
			CHECK(got.len[0x13] == ref.len[0x13] &&
			      !memcmp(got.stream[0x13], ref.stream[0x13], ref.len[0x13]));
			run_free(&got);
		}
	run_free(&ref);
}

int main(void)
{
	uint64_t rng = check_seed(0x5eed);
	char path[4096];
	size_t len;
	uint8_t *tc2 = check_read_file(check_data_path(path, sizeof path, "TC2/cstrace.bin"), &len);
	unsigned i, ok = 0, tries = 0;

	CHECK(tc2 != NULL);
	if (tc2) {
		clean(tc2, len, 1);
		tc2_even(tc2, len);
	}
	free(tc2);
	for (i = 0; i < 100; i++)
		damaged(&rng, &ok, &tries);
	/* a new ID near the capture's end leaves too few frames to weigh a
	 * shift on (found by fuzz_deformat) */
	for (i = 0; i < 3000; i++)
		short_clean(&rng);
	/* the first realignment names the exact shift nearly always (it may
	 * first shift at a new source's ID, then again) */
	fprintf(stderr, "exact first shift in %u of %u damaged captures\n", ok, tries);
	CHECK(ok * 10 >= tries * 9);
	return check_report();
}
