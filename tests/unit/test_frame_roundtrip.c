/* SPDX-License-Identifier: BSD-3-Clause */
/* Formatter -> deformatter round trip: random multi-source streams framed
 * with random options (CoreSight or TPIU, FSYNC interval, ID in every frame),
 * written into output buffers of random sizes, TPIU captures with junk in
 * front and HSYNCs sprinkled in, de-formatted in random chunks: every
 * source's bytes come back, in order, with nothing else but padding. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/frame.h"

#define MAXSRC 6
#define MAXLEN 6000

struct src {
	uint8_t id;
	uint8_t in[MAXLEN];
	size_t n_in;
	uint8_t out[MAXLEN];
	size_t n_out;
};

static int one_case(uint64_t *rng, int verbose)
{
	static struct src s[MAXSRC];
	static uint8_t cap[8 * MAXLEN * MAXSRC], cap2[10 * MAXLEN * MAXSRC];
	enum pft_frame_format fmt = check_rand(rng) % 2 ? PFT_FRAME_TPIU : PFT_FRAME_CORESIGHT;
	unsigned nsrc = 1 + (unsigned)(check_rand(rng) % MAXSRC);
	unsigned every = (unsigned)(check_rand(rng) % 4);
	unsigned flags = check_rand(rng) % 3 == 0 ? PFT_FRAME_ENC_ID_EVERY_FRAME : 0;
	struct pft_frame_encoder *enc = pft_frame_encoder_alloc(fmt, every, flags);
	struct pft_frame_decoder *dec;
	struct pft_frame_item it;
	struct pft_frame_stats st;
	size_t w = 0, n2 = 0, junk = 0, i, pos;
	unsigned k, total_segments = (unsigned)(check_rand(rng) % 60);
	int r, bad = 0;

	CHECK(enc != NULL);
	if (!enc)
		return 1;
	for (k = 0; k < nsrc; k++) {
		unsigned j;
		do {
			s[k].id = (uint8_t)(1 + check_rand(rng) % 0x6F);
			for (j = 0; j < k && s[j].id != s[k].id; j++)
				;
		} while (j < k);
		s[k].n_in = s[k].n_out = 0;
	}
	/* Interleave segments of random length and content. */
	for (k = 0; k < total_segments; k++) {
		struct src *x = &s[check_rand(rng) % nsrc];
		size_t len = (size_t)(check_rand(rng) % 40), used = 0;

		if (check_rand(rng) % 8 == 0)
			len = (size_t)(check_rand(rng) % 400);
		if (x->n_in + len > MAXLEN)
			len = MAXLEN - x->n_in;
		for (i = 0; i < len; i++)
			x->in[x->n_in + i] = (uint8_t)check_rand(rng);
		while (used < len) {
			/* random output room: sometimes too small for anything */
			size_t room = (size_t)(check_rand(rng) % 64);
			size_t c;

			if (room > sizeof cap - w)
				room = sizeof cap - w;
			r = pft_frame_encoder_encode(enc, x->id, x->in + x->n_in + used, len - used,
					     cap + w, room, &c);
			if (r < 0) {
				CHECK_EQ(r, -PFT_E_NOSPC);
				CHECK_EQ(c, 0);
				continue;
			}
			w += (size_t)r;
			used += c;
		}
		x->n_in += len;
	}
	r = pft_frame_encoder_flush(enc, cap + w, sizeof cap - w);
	CHECK(r >= 0);
	w += (size_t)(r > 0 ? r : 0);
	CHECK_EQ(w % 4, 0);
	pft_frame_encoder_free(enc);

	/* TPIU: junk in front (no 0xFF, so it cannot look like a sync) and
	 * HSYNCs at random halfword positions after the first FSYNC. */
	if (fmt == PFT_FRAME_TPIU) {
		junk = (size_t)(check_rand(rng) % 23);
		for (i = 0; i < junk; i++)
			cap2[n2++] = (uint8_t)(check_rand(rng) % 0xFF);
		for (i = 0; i < w; i += 2) {
			if (i >= 4 && check_rand(rng) % 16 == 0)
				cap2[n2++] = 0xFF, cap2[n2++] = 0x7F;
			cap2[n2++] = cap[i];
			cap2[n2++] = cap[i + 1];
		}
	} else {
		memcpy(cap2, cap, w);
		n2 = w;
	}

	dec = pft_frame_decoder_alloc(fmt, 0);
	pos = 0;
	for (;;) {
		size_t chunk = 1 + (size_t)(check_rand(rng) % 100);

		if (pos < n2) {
			if (chunk > n2 - pos)
				chunk = n2 - pos;
			pft_frame_decoder_feed(dec, cap2 + pos, chunk);
			pos += chunk;
		} else {
			pft_frame_decoder_end(dec);
		}
		while ((r = pft_frame_decoder_next(dec, &it, sizeof it)) == 0) {
			if (it.type == PFT_FRAME_ITEM_UNSYNCED && it.capture_offset == 0 &&
			    it.len == junk)
				continue;
			if (it.type != PFT_FRAME_ITEM_DATA) {
				bad++;
				continue;
			}
			if (it.id == PFT_FRAME_ID_NULL) {
				for (i = 0; i < it.len; i++)
					bad += it.data[i] != 0;
				continue;
			}
			for (k = 0; k < nsrc && s[k].id != it.id; k++)
				;
			if (k == nsrc || it.stream_offset != s[k].n_out ||
			    s[k].n_out + it.len > MAXLEN) {
				bad++;
				continue;
			}
			memcpy(s[k].out + s[k].n_out, it.data, it.len);
			s[k].n_out += it.len;
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	CHECK_EQ(r, -PFT_E_EOS);
	pft_frame_decoder_get_stats(dec, &st, sizeof(st));
	CHECK_EQ(st.data + st.overhead + st.sync + st.unsynced + st.error, n2);
	pft_frame_decoder_free(dec);
	for (k = 0; k < nsrc; k++)
		if (s[k].n_in != s[k].n_out || memcmp(s[k].in, s[k].out, s[k].n_in))
			bad++;
	if (bad && verbose)
		fprintf(stderr, "fmt %d nsrc %u every %u flags %u: %d differences\n", fmt, nsrc,
			every, flags, bad);
	return bad;
}

int main(void)
{
	uint64_t rng = check_seed(0x5eed0f12a3e5ull);
	int i, fails = 0;
	uint8_t small[32], out[128];
	int64_t n;

	for (i = 0; i < 400; i++)
		fails += one_case(&rng, fails < 5) != 0;
	CHECK_EQ(fails, 0);

	/* encode_buffer + extract, and the NOSPC / INVAL paths. */
	for (i = 0; i < 32; i++)
		small[i] = (uint8_t)(i * 37);
	n = pft_frame_encode_buffer(PFT_FRAME_CORESIGHT, 0x13, small, 32, out, sizeof out);
	CHECK_EQ(n, 48); /* ID + 32 data + padding: 3 frames */
	{
		uint8_t back[64];
		struct pft_frame_stats st;
		int64_t m = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, out, (size_t)n, back,
					      sizeof back, &st);
		CHECK_EQ(m, 32);
		CHECK(memcmp(back, small, 32) == 0);
		CHECK_EQ(st.frames, 3);
		m = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, out, (size_t)n, back, 4, NULL);
		CHECK_EQ(m, 32); /* length reported even when only 4 bytes fit */
	}
	CHECK_EQ(pft_frame_encode_buffer(PFT_FRAME_CORESIGHT, 0x13, small, 32, out, 20),
		 -PFT_E_NOSPC);
	CHECK_EQ(pft_frame_encode_buffer(PFT_FRAME_RAW, 0x13, small, 32, out, sizeof out),
		 -PFT_E_INVAL);
	CHECK_EQ(pft_frame_encode_buffer(PFT_FRAME_CORESIGHT, 0x7F, small, 32, out, sizeof out),
		 -PFT_E_INVAL);
	n = pft_frame_encode_buffer(PFT_FRAME_TPIU, 0x13, small, 10, out, sizeof out);
	CHECK_EQ(n, 20);
	CHECK(out[0] == 0xFF && out[1] == 0xFF && out[2] == 0xFF && out[3] == 0x7F);
	CHECK(pft_frame_encoder_alloc(PFT_FRAME_RAW, 0, 0) == NULL);
	return check_report();
}
