/* SPDX-License-Identifier: BSD-3-Clause */
/* pft_pkt_decoder_next_batch: gives exactly the items of pft_pkt_decoder_next, field for
 * field and byte for byte.  The reference is pft_pkt_decoder_next fed one byte at a
 * time, which never takes the in-place fast readers (every packet is
 * completed byte by byte through the partial-packet buffer), so the fast
 * readers are checked against the byte-by-byte ones.  Streams: random
 * packets of every type written by the encoder, with junk bytes now and
 * then (errors, resyncs), under every configuration class (CA on/off, context ID
 * sizes, 48/64-bit timestamps, v1.0/v1.1).  Also: a stride larger than the
 * struct, max of 1, chunks of every size, misuse. */
#include <string.h>

#include "check.h"
#include "pkt_gen.h"
#include "pkt_util.h"

#define LEN 60000
#define MAXI (LEN + 16)

static uint8_t stream[LEN + 64];
static struct pft_packet ref[MAXI], got[MAXI];

/* pft_pkt_decoder_next, every byte fed on its own. */
static int decode_bytewise(const struct pft_config *c, const uint8_t *buf, size_t len,
			   struct pft_packet *out)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(c);
	size_t pos = 0;
	int n = 0, r;

	if (!d)
		return -1;
	for (;;) {
		size_t k = pos < len ? 1 : 0;
		CHECK_EQ(pft_pkt_decoder_feed(d, buf + pos, k), 0);
		pos += k;
		if (pos == len)
			pft_pkt_decoder_end(d);
		while (n < MAXI && (r = pft_pkt_decoder_next(d, &out[n], sizeof(out[n]))) == 0)
			n++;
		if (r != -PFT_E_AGAIN)
			break;
	}
	CHECK_EQ(r, -PFT_E_EOS);
	pft_pkt_decoder_free(d);
	return n;
}

/* pft_pkt_decoder_next_batch with random chunks (or one if !chunked) and random
 * batch sizes, into elements `stride` bytes apart (copied out to out[]). */
static int decode_batch(const struct pft_config *c, const uint8_t *buf, size_t len,
			uint64_t *rng, int chunked, size_t stride, struct pft_packet *out)
{
	static unsigned char arr[300 * (sizeof(struct pft_packet) + 32)];
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(c);
	size_t pos = 0, j;
	uint64_t sum = 0;
	int n = 0, r, i;

	if (!d)
		return -1;
	for (;;) {
		size_t k = len - pos;
		if (chunked) {
			uint64_t x = check_rand(rng);
			k = (x & 1) ? (x >> 8) % 20 : (x >> 8) % 2000;
			if (k > len - pos)
				k = len - pos;
		}
		CHECK_EQ(pft_pkt_decoder_feed(d, buf + pos, k), 0);
		pos += k;
		if (pos == len)
			pft_pkt_decoder_end(d);
		for (;;) {
			uint64_t x = check_rand(rng);
			size_t max = (x & 3) ? 1 + (x >> 8) % 300 : 1 + (x >> 8) % 3;
			memset(arr, 0xA5, sizeof(arr));
			r = pft_pkt_decoder_next_batch(d, (struct pft_packet *)(void *)arr, max, stride);
			if (r <= 0)
				break;
			CHECK(r <= (int)max);
			for (i = 0; i < r && n < MAXI; i++) {
				memcpy(&out[n], arr + (size_t)i * stride, sizeof(out[n]));
				/* a larger element (a newer header's struct): the
				 * bytes beyond the library's struct are zeroed */
				for (j = sizeof(struct pft_packet); j < stride; j++)
					CHECK_EQ(arr[(size_t)i * stride + j], 0);
				CHECK_EQ(out[n].offset, sum);
				sum += out[n].size;
				n++;
			}
			/* nor beyond the max elements given */
			for (j = max * stride; j < sizeof(arr); j++)
				if (arr[j] != 0xA5)
					break;
			CHECK_EQ(j, sizeof(arr));
		}
		if (r != -PFT_E_AGAIN)
			break;
		/* drained: asking again gives AGAIN again */
		CHECK_EQ(pft_pkt_decoder_next_batch(d, out, 4, sizeof(out[0])), -PFT_E_AGAIN);
	}
	CHECK_EQ(r, -PFT_E_EOS);
	CHECK_EQ(pft_pkt_decoder_next_batch(d, out, 4, sizeof(out[0])), -PFT_E_EOS);
	CHECK_EQ(sum, len);
	pft_pkt_decoder_free(d);
	return n;
}

static void compare(const char *what, const struct pft_packet *a, int na,
		    const struct pft_packet *b, int nb)
{
	int i, bad = 0;

	CHECK_EQ(na, nb);
	for (i = 0; i < na && i < nb; i++) {
		if (memcmp(&a[i], &b[i], sizeof(a[i])) && !bad++) {
			fprintf(stderr, "%s: item %d differs\n  ", what, i);
			pkt_print(stderr, &a[i]);
			fprintf(stderr, "  ");
			pkt_print(stderr, &b[i]);
		}
	}
	CHECK_EQ(bad, 0);
}

static void check_misuse(void)
{
	struct pft_config c = pkt_cfg(0x10001000u, CCER_A15, IDR_V11);
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(&c);
	struct pft_packet p[4];
	static const uint8_t bytes[] = { 0, 0, 0, 0, 0, 0x80, 0x84, 0x88 };

	CHECK(d != NULL);
	CHECK_EQ(pft_pkt_decoder_next_batch(NULL, p, 4, sizeof(p[0])), -PFT_E_INVAL);
	CHECK_EQ(pft_pkt_decoder_next_batch(d, NULL, 4, sizeof(p[0])), -PFT_E_INVAL);
	CHECK_EQ(pft_pkt_decoder_next_batch(d, p, 0, sizeof(p[0])), -PFT_E_INVAL);
	CHECK_EQ(pft_pkt_decoder_next_batch(d, p, 4, 0), -PFT_E_INVAL);
	/* nothing fed yet */
	CHECK_EQ(pft_pkt_decoder_next_batch(d, p, 4, sizeof(p[0])), -PFT_E_AGAIN);
	CHECK_EQ(pft_pkt_decoder_feed(d, bytes, sizeof(bytes)), 0);
	CHECK_EQ(pft_pkt_decoder_end(d), 0);
	CHECK_EQ(pft_pkt_decoder_next_batch(d, p, 4, sizeof(p[0])), 3);
	CHECK_EQ(p[0].type, PFT_PKT_ASYNC);
	CHECK_EQ(p[1].type, PFT_PKT_ATOM);
	CHECK_EQ(p[1].offset, 6);
	CHECK_EQ(p[2].type, PFT_PKT_ATOM);
	CHECK_EQ(p[2].cycles, 2);
	CHECK_EQ(pft_pkt_decoder_next_batch(d, p, 4, sizeof(p[0])), -PFT_E_EOS);
	pft_pkt_decoder_free(d);
}

int main(void)
{
	uint64_t rng = check_seed(0xba7c4001);
	unsigned k, nconf = 0;

	check_misuse();
	for (k = 0; k < PKT_CFG_CLASSES; k++) {
		struct pft_config c = pkt_cfg_class(k);
		size_t len = pkt_gen_stream(&c, &rng, stream, LEN);
		int nref = decode_bytewise(&c, stream, len, ref), n;

		CHECK(nref > (int)(len / 8));
		if (nref <= (int)(len / 8))
		{
			int h[PFT_PKT_NR_TYPES] = { 0 }, q;
			for (q = 0; q < nref; q++)
				h[ref[q].type]++;
			fprintf(stderr, "%d items from %zu bytes:", nref, len);
			for (q = 0; q < PFT_PKT_NR_TYPES; q++)
				fprintf(stderr, " %d", h[q]);
			fprintf(stderr, "\n");
		}
		n = decode_batch(&c, stream, len, &rng, 0, sizeof(got[0]), got);
		compare("batch, one chunk", ref, nref, got, n);
		n = decode_batch(&c, stream, len, &rng, 1, sizeof(got[0]), got);
		compare("batch, random chunks", ref, nref, got, n);
		n = decode_batch(&c, stream, len, &rng, 1, sizeof(got[0]) + 24,
				 got);
		compare("batch, larger stride", ref, nref, got, n);
		nconf++;
	}
	printf("%u configurations\n", nconf);
	return check_report();
}
