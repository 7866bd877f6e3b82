/* SPDX-License-Identifier: BSD-3-Clause */
/* Streaming: the same stream fed in random chunks (including empty ones and
 * chunks of one byte) gives exactly the items of a single-buffer decode, and
 * the item sizes always add up to the bytes fed.  UNSYNCED items included:
 * a run of skipped bytes is one item (same offset, size and first 16 bytes)
 * however it is cut.  Covers packets cut by a chunk boundary at every
 * position, long A-sync zero runs and unsynced runs across chunks. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pkt_util.h"
#include "pkt_vec.h"

#define MAXI 200000

static struct pft_packet ref[MAXI], got[MAXI];

/* Decode buf in chunks from the PRNG (or one chunk if rng is NULL). */
static int decode_chunked(const struct pft_config *c, const uint8_t *buf, size_t len,
			  uint64_t *rng, struct pft_packet *out, int max)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(c);
	size_t pos = 0;
	uint64_t sum = 0;
	int n = 0, r;

	if (!d)
		return -1;
	for (;;) {
		size_t chunk = len - pos;
		if (rng && chunk) {
			uint64_t x = check_rand(rng);
			switch (x & 3) {
			case 0: chunk = (x >> 8) % 3; break;     /* 0, 1, 2 */
			case 1: chunk = (x >> 8) % 17; break;
			case 2: chunk = (x >> 8) % 64; break;
			default: chunk = (x >> 8) % 1024; break;
			}
			if (chunk > len - pos)
				chunk = len - pos;
		}
		CHECK_EQ(pft_pkt_decoder_feed(d, buf + pos, chunk), 0);
		pos += chunk;
		if (pos == len)
			pft_pkt_decoder_end(d);
		for (;;) {
			struct pft_packet p;
			r = pft_pkt_decoder_next(d, &p, sizeof(p));
			if (r < 0)
				break;
			CHECK_EQ(p.offset, sum);
			CHECK(p.size > 0);
			/* bytes[]: the first min(size, 16) bytes of the item's range */
			CHECK_EQ(p.nbytes, p.size < PFT_PKT_MAX_BYTES ? p.size : PFT_PKT_MAX_BYTES);
			CHECK(p.offset + p.nbytes <= len &&
			      !memcmp(p.bytes, buf + p.offset, p.nbytes));
			sum += p.size;
			if (n < max)
				out[n++] = p;
		}
		if (r == -PFT_E_EOS)
			break;
		CHECK_EQ(r, -PFT_E_AGAIN);
		if (r != -PFT_E_AGAIN)
			break;
		/* everything up to the current chunk end is reported or held */
		CHECK(pft_pkt_decoder_get_offset(d) <= pos);
	}
	CHECK_EQ(sum, len);
	CHECK_EQ(pft_pkt_decoder_get_offset(d), len);
	/* EOS is sticky */
	{
		struct pft_packet p;
		CHECK_EQ(pft_pkt_decoder_next(d, &p, sizeof(p)), -PFT_E_EOS);
	}
	pft_pkt_decoder_free(d);
	return n;
}

static void compare(const struct pft_config *c, const uint8_t *buf, size_t len, uint64_t *rng,
		    int rounds, const char *what)
{
	int nref = decode_chunked(c, buf, len, NULL, ref, MAXI), i, k;

	CHECK(nref > 0);
	for (k = 0; k < rounds; k++) {
		int n = decode_chunked(c, buf, len, rng, got, MAXI);
		int bad = 0;
		CHECK_EQ(n, nref);
		for (i = 0; i < n && i < nref; i++) {
			if (memcmp(&ref[i], &got[i], sizeof(ref[i]))) {
				if (!bad++) {
					fprintf(stderr, "%s: item %d differs\n  ", what, i);
					pkt_print(stderr, &ref[i]);
					fprintf(stderr, "  ");
					pkt_print(stderr, &got[i]);
				}
			}
		}
		CHECK_EQ(bad, 0);
	}
}

static uint8_t stream[1 << 20];

/* 1 GiB + 1000 bytes of 0x55 then "00 00 00 00 00 00 80 84", fed in chunks
 * of an odd size: UNSYNCED of exactly 2^30 bytes, UNSYNCED of the rest,
 * then the A-sync. */
static void cap_test(uint64_t *rng)
{
	struct pft_config c = pkt_cfg(C_RSTK);
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(&c);
	static const uint8_t tail[] = { 0, 0, 0, 0, 0, 0, 0x80, 0x84 };
	const uint64_t total = (1ull << 30) + 1000;
	uint64_t fed = 0, sum = 0;
	size_t chunk = (1u << 20) - 7 - (size_t)(check_rand(rng) % 4096);
	struct pft_packet p, got4[4];
	int n = 0, r;

	memset(stream, 0x55, sizeof(stream));
	CHECK(d != NULL);
	if (!d)
		return;
	while (fed < total) {
		size_t k = total - fed < chunk ? (size_t)(total - fed) : chunk;
		CHECK_EQ(pft_pkt_decoder_feed(d, stream, k), 0);
		fed += k;
		while ((r = pft_pkt_decoder_next(d, &p, sizeof(p))) == 0) {
			if (n < 4)
				got4[n] = p;
			n++;
			sum += p.size;
		}
		CHECK_EQ(r, -PFT_E_AGAIN);
	}
	CHECK_EQ(pft_pkt_decoder_feed(d, tail, sizeof(tail)), 0);
	pft_pkt_decoder_end(d);
	while ((r = pft_pkt_decoder_next(d, &p, sizeof(p))) == 0) {
		if (n < 4)
			got4[n] = p;
		n++;
		sum += p.size;
	}
	CHECK_EQ(r, -PFT_E_EOS);
	CHECK_EQ(n, 4);
	CHECK_EQ(sum, total + sizeof(tail));
	if (n == 4) {
		CHECK_EQ(got4[0].type, PFT_PKT_UNSYNCED);
		CHECK_EQ(got4[0].offset, 0);
		CHECK_EQ(got4[0].size, 1u << 30);
		CHECK_EQ(got4[0].nbytes, 16);
		CHECK(!memcmp(got4[0].bytes, stream, 16));
		CHECK_EQ(got4[1].type, PFT_PKT_UNSYNCED);
		CHECK_EQ(got4[1].offset, 1u << 30);
		CHECK_EQ(got4[1].size, 1000);
		CHECK(!memcmp(got4[1].bytes, stream, 16));
		CHECK_EQ(got4[2].type, PFT_PKT_ASYNC);
		CHECK_EQ(got4[2].offset, total);
		CHECK_EQ(got4[2].size, 7);
		CHECK_EQ(got4[3].type, PFT_PKT_ATOM);
	}
	pft_pkt_decoder_free(d);
}

int main(void)
{
	uint64_t rng = check_seed(0x5eed0001);
	size_t i, n, nv;
	struct pft_config c;
	struct pkt_vec *vs;

	/* 1. every spec vector, each config, concatenated with garbage between */
	vs = pkt_vec_load(NULL, 0, &nv);
	for (i = 0; i < nv; i++) {
		const struct pkt_vec *v = &vs[i];
		size_t j;
		check_case("%s (%s)", v->name, v->where);
		n = 0;
		for (j = 0; j < 20; j++) {
			size_t g = check_rand(&rng) % 8, q;
			for (q = 0; q < g; q++)
				stream[n++] = (uint8_t)check_rand(&rng);
			n += pkt_vec_stream(v, 0, stream + n, 256);
			memcpy(stream + n, v->bytes, v->nbytes);
			n += v->nbytes;
		}
		compare(&v->cfg, stream, n, &rng, 20, v->name);
	}
	check_case(NULL);
	free(vs);

	/* 2. random bytes under CA and non-CA, with A-syncs sprinkled in */
	{
		static const uint32_t crs[] = { 0x10001000u, 0x0000C000u, 0x5000D000u, 0 };
		size_t k;
		for (k = 0; k < 4; k++) {
			c = pkt_cfg(crs[k], k & 1 ? CCER_V10 : CCER_A15, k & 1 ? IDR_V10 : IDR_V11);
			n = 0;
			while (n < 200000) {
				uint64_t x = check_rand(&rng);
				if ((x & 63) == 0) {
					size_t z = 5 + (x >> 8) % 12, q;
					for (q = 0; q < z; q++)
						stream[n++] = 0;
					stream[n++] = 0x80;
				} else if ((x & 63) == 1) {
					stream[n++] = 0; /* a stray zero */
				} else {
					stream[n++] = (uint8_t)(x >> 16);
				}
			}
			compare(&c, stream, n, &rng, 3, "random bytes");
		}
	}

	/* 3. long zero runs: a 300000-byte A-sync, an unsynced run of
	 * zeros and junk, fed in small chunks */
	c = pkt_cfg(C_RSTK);
	memset(stream, 0, 300000);
	stream[300000] = 0x80;
	stream[300001] = 0x84;
	n = 300002;
	compare(&c, stream, n, &rng, 3, "long A-sync");
	{
		struct pft_packet out[4];
		int k = pkt_decode_all(&c, stream, n, out, 4);
		CHECK_EQ(k, 2);
		CHECK_EQ(out[0].type, PFT_PKT_ASYNC);
		CHECK_EQ(out[0].size, 300001);
		CHECK_EQ(out[1].type, PFT_PKT_ATOM);
	}
	for (i = 0; i < 100000; i++)
		stream[i] = (uint8_t)(i % 5 ? 0 : 0x80); /* runs of 4 zeros: no A-sync */
	n = 100000;
	n += pkt_hex("00 00 00 00 00 80 84", stream + n, 16);
	compare(&c, stream, n, &rng, 3, "unsynced zero-rich run");
	{
		struct pft_packet out[64];
		int k = pkt_decode_all(&c, stream, n, out, 64), j;
		CHECK_EQ(k, 3);
		for (j = 0; j + 2 < k; j++)
			CHECK_EQ(out[j].type, PFT_PKT_UNSYNCED);
		CHECK_EQ(out[0].offset, 0);
		CHECK_EQ(out[0].size, 99996);
		CHECK_EQ(out[k - 2].type, PFT_PKT_ASYNC);
		CHECK_EQ(out[k - 2].offset, 99996);
		CHECK_EQ(out[k - 2].size, 10);
		CHECK_EQ(out[k - 1].type, PFT_PKT_ATOM);
	}

	/* 4. a run of garbage whose trailing zeros (an A-sync candidate) and
	 * first 16 bytes sit in different chunks: one UNSYNCED item */
	for (i = 0; i < 700000; i++)
		stream[i] = (uint8_t)(1 + check_rand(&rng) % 255);
	for (i = 0; i < 3000; i++) /* stray zeros, runs of 1..4 */
		memset(stream + check_rand(&rng) % 699000, 0, 1 + check_rand(&rng) % 4);
	memset(stream + 700000, 0, 40); /* 40 zeros then 0x80: a 41-byte A-sync */
	n = 700040;
	n += pkt_hex("80 84 00 00 00 00 01 84", stream + n, 16);
	compare(&c, stream, n, &rng, 5, "garbage then a long A-sync");
	{
		struct pft_packet out[8];
		int k = pkt_decode_all(&c, stream, n, out, 8);
		CHECK(k >= 3);
		CHECK_EQ(out[0].type, PFT_PKT_UNSYNCED);
		CHECK_EQ(out[0].offset, 0);
		CHECK_EQ(out[0].size, 700000);
		CHECK(!memcmp(out[0].bytes, stream, 16));
		CHECK_EQ(out[1].type, PFT_PKT_ASYNC);
		CHECK_EQ(out[1].size, 41);
	}

	/* 5. the only split left: the RUN_MAX (1 GiB) cap on an UNSYNCED item,
	 * at the same stream position for any chunking */
	cap_test(&rng);
	return check_report();
}
