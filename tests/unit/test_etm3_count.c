/* SPDX-License-Identifier: BSD-3-Clause */
/* pft_etm3_decoder_count: the items pft_etm3_decoder_next gives, counted per
 * type (items and bytes), the first error's offset, and the decoder state
 * after.  The reference is pft_etm3_decoder_next over the whole buffer.
 * Streams: TC2's three ETMv3.5 sources (IDs 0x10-0x12), the same with bytes
 * flipped, and made-up streams (an A-sync, then bytes that are mostly
 * one-byte P-headers, the rest random: long runs cut by every other
 * packet, errors and resynchronisations) under several configurations
 * (cycle-accurate or not, data trace, context ID, alternative branch
 * encoding).  Each is counted in one chunk, and in random chunks where
 * each chunk is either counted or pulled with pft_etm3_decoder_next: the
 * pulled items must be the reference's items at their place (which checks
 * the compression state the counting left).  Also a shorter struct and
 * misuse. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/etm3.h"
#include "pft/frame.h"

#define LEN 40000
#define REFMAX (LEN + 64)

static uint8_t stream[LEN];
static struct pft_etm3_packet ref[REFMAX];

static struct pft_config cfg(uint32_t etmcr, uint32_t etmidr)
{
	struct pft_config c;

	pft_config_init(&c);
	c.etmcr = etmcr;
	c.etmidr = etmidr;
	c.etmccer = 0x344008F2u;
	c.etmtraceidr = 0x10;
	return c;
}

static int decode_ref(const struct pft_config *c, const uint8_t *buf, size_t len)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(c);
	int n = 0;

	CHECK(d != NULL);
	if (!d)
		return 0;
	CHECK_EQ(pft_etm3_decoder_feed(d, buf, len), 0);
	pft_etm3_decoder_end(d);
	while (n < REFMAX && pft_etm3_decoder_next(d, &ref[n], sizeof(ref[n])) == 0)
		n++;
	CHECK(n < REFMAX);
	pft_etm3_decoder_free(d);
	return n;
}

static void add(struct pft_etm3_counts *k, const struct pft_etm3_packet *p)
{
	if (p->type == PFT_ETM3_ERROR && !k->items[PFT_ETM3_ERROR])
		k->first_error = p->offset;
	k->items[p->type]++;
	k->bytes[p->type] += p->size;
}

static void same_counts(const char *what, const struct pft_etm3_counts *a,
			const struct pft_etm3_counts *b)
{
	int t;

	if (!memcmp(a, b, sizeof(*a)))
		return;
	fprintf(stderr, "%s: counts differ\n", what);
	for (t = 0; t < PFT_ETM3_COUNT_TYPES; t++)
		if (a->items[t] != b->items[t] || a->bytes[t] != b->bytes[t])
			fprintf(stderr, "  %-16s %llu/%llu items, %llu/%llu bytes\n",
				pft_etm3_pkt_type_name((enum pft_etm3_pkt_type)t),
				(unsigned long long)a->items[t], (unsigned long long)b->items[t],
				(unsigned long long)a->bytes[t], (unsigned long long)b->bytes[t]);
	CHECK(0);
}

static void check_stream(const char *what, const struct pft_config *c, const uint8_t *buf,
			 size_t len, uint64_t *rng)
{
	struct pft_etm3_counts want, got, part;
	struct pft_etm3_decoder *d;
	struct pft_etm3_packet p;
	int nref = decode_ref(c, buf, len), i, r, idx = 0, bad = 0;
	size_t pos = 0;

	memset(&want, 0, sizeof(want));
	for (i = 0; i < nref; i++)
		add(&want, &ref[i]);

	d = pft_etm3_decoder_alloc(c);
	CHECK(d != NULL);
	if (!d)
		return;
	memset(&got, 0, sizeof(got));
	CHECK_EQ(pft_etm3_decoder_feed(d, buf, len), 0);
	CHECK_EQ(pft_etm3_decoder_count(d, &got, sizeof(got)), -PFT_E_AGAIN);
	pft_etm3_decoder_end(d);
	CHECK_EQ(pft_etm3_decoder_count(d, &got, sizeof(got)), -PFT_E_EOS);
	CHECK_EQ(pft_etm3_decoder_get_offset(d), len);
	same_counts(what, &want, &got);
	pft_etm3_decoder_free(d);

	d = pft_etm3_decoder_alloc(c);
	if (!d)
		return;
	memset(&got, 0, sizeof(got));
	for (;;) {
		uint64_t x = check_rand(rng);
		size_t k = (x & 1) ? (x >> 8) % 20 : (x >> 8) % 3000;
		if (k > len - pos)
			k = len - pos;
		CHECK_EQ(pft_etm3_decoder_feed(d, buf + pos, k), 0);
		pos += k;
		if (pos == len)
			pft_etm3_decoder_end(d);
		if ((x >> 40) % 3 == 0) {
			while ((r = pft_etm3_decoder_next(d, &p, sizeof(p))) == 0) {
				if ((idx >= nref || memcmp(&p, &ref[idx], sizeof(p))) && !bad++)
					fprintf(stderr, "%s: item %d pulled after counting differs (type %u at %llu)\n",
						what, idx, p.type, (unsigned long long)p.offset);
				add(&got, &p);
				idx++;
			}
		} else {
			int t;
			memset(&part, 0, sizeof(part));
			r = pft_etm3_decoder_count(d, &part, sizeof(part));
			for (t = 0; t < PFT_ETM3_COUNT_TYPES; t++) {
				if (part.items[t] && t == PFT_ETM3_ERROR && !got.items[t])
					got.first_error = part.first_error;
				got.items[t] += part.items[t];
				got.bytes[t] += part.bytes[t];
				idx += (int)part.items[t];
			}
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	CHECK_EQ(r, -PFT_E_EOS);
	CHECK_EQ(bad, 0);
	CHECK_EQ(idx, nref);
	same_counts(what, &want, &got);
	pft_etm3_decoder_free(d);
}

/* An A-sync, then bytes that are one-byte P-headers with probability
 * pct/100 (drawn from the configuration's valid ones), else random; an
 * A-sync again now and then. */
static size_t gen(const struct pft_config *c, uint64_t *rng, unsigned pct)
{
	static const uint8_t async[6] = { 0, 0, 0, 0, 0, 0x80 };
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(c);
	uint8_t ph[128];
	unsigned nph = 0, b;
	size_t n = 0;

	/* the valid one-byte P-headers: those a decoder reads as a PHDR */
	for (b = 0x80; b < 0x100; b += 2) {
		struct pft_etm3_packet p;
		uint8_t one[7];
		memcpy(one, async, 6);
		one[6] = (uint8_t)b;
		pft_etm3_decoder_resync(d);
		pft_etm3_decoder_feed(d, one, 7);
		while (pft_etm3_decoder_next(d, &p, sizeof(p)) == 0)
			if (p.type == PFT_ETM3_PHDR)
				ph[nph++] = (uint8_t)b;
	}
	pft_etm3_decoder_free(d);
	CHECK(nph > 10);
	while (n + 6 < LEN) {
		uint64_t x = check_rand(rng);
		if (!n || x % 2000 == 0) {
			memcpy(stream + n, async, 6);
			n += 6;
		} else if ((x >> 16) % 100 < pct) {
			stream[n++] = ph[(x >> 32) % nph];
		} else {
			stream[n++] = (uint8_t)(x >> 40);
		}
	}
	return n;
}

static void check_short_struct(const struct pft_config *c, const uint8_t *buf, size_t len)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(c);
	uint64_t small[PFT_ETM3_COUNT_TYPES + 1], total = 0;
	int nref = decode_ref(c, buf, len), t;

	if (!d)
		return;
	memset(small, 0, sizeof(small));
	small[PFT_ETM3_COUNT_TYPES] = 0xA5A5A5A5A5A5A5A5ull;
	pft_etm3_decoder_feed(d, buf, len);
	pft_etm3_decoder_end(d);
	CHECK_EQ(pft_etm3_decoder_count(d, (struct pft_etm3_counts *)(void *)small,
					sizeof(small) - sizeof(small[0])),
		 -PFT_E_EOS);
	for (t = 0; t < PFT_ETM3_COUNT_TYPES; t++)
		total += small[t];
	CHECK_EQ(total, (uint64_t)nref);
	CHECK_EQ(small[PFT_ETM3_COUNT_TYPES], 0xA5A5A5A5A5A5A5A5ull);
	pft_etm3_decoder_free(d);
}

static void check_misuse(void)
{
	struct pft_config c = cfg(0x10001860u, 0x410CF250u);
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(&c);
	struct pft_etm3_counts k;
	/* A-sync, two P-headers, a reserved P-header encoding (0x80 with CA) */
	static const uint8_t bytes[] = { 0, 0, 0, 0, 0, 0x80, 0x84, 0x88, 0x80 };

	CHECK(d != NULL);
	memset(&k, 0, sizeof(k));
	CHECK_EQ(pft_etm3_decoder_count(NULL, &k, sizeof(k)), -PFT_E_INVAL);
	CHECK_EQ(pft_etm3_decoder_count(d, NULL, sizeof(k)), -PFT_E_INVAL);
	CHECK_EQ(pft_etm3_decoder_count(d, &k, 0), -PFT_E_INVAL);
	CHECK_EQ(pft_etm3_decoder_feed(d, bytes, sizeof(bytes)), 0);
	pft_etm3_decoder_end(d);
	CHECK_EQ(pft_etm3_decoder_count(d, &k, sizeof(k)), -PFT_E_EOS);
	CHECK_EQ(k.items[PFT_ETM3_ASYNC], 1);
	CHECK_EQ(k.items[PFT_ETM3_PHDR], 2);
	CHECK_EQ(k.items[PFT_ETM3_ERROR], 1);
	CHECK_EQ(k.first_error, 8);
	pft_etm3_decoder_free(d);
}

int main(void)
{
	static const uint32_t crs[] = {
		0x10001860u,                          /* TC2's: CA, timestamps, CID 0 */
		0x10000860u,                          /* not cycle-accurate */
		0x1000C00Cu,                          /* CID 4, data values and addresses */
		0x1000D004u,                          /* CA, CID 4, data values */
	};
	static const uint32_t idrs[] = { 0x410CF250u, 0x411CF250u /* alternative branches */ };
	uint64_t rng = check_seed(0xe73c0a71);
	char path[1024];
	size_t len = 0, i, j;
	uint8_t *cap;
	unsigned id;

	check_misuse();
	for (i = 0; i < sizeof(crs) / sizeof(crs[0]); i++)
		for (j = 0; j < 2; j++) {
			struct pft_config c = cfg(crs[i], idrs[j]);
			unsigned pct;
			for (pct = 50; pct <= 98; pct += 16) {
				size_t n = gen(&c, &rng, pct);
				check_stream("made-up stream", &c, stream, n, &rng);
				if (!i && !j && pct == 50)
					check_short_struct(&c, stream, n);
			}
		}
	cap = check_read_file(check_data_path(path, sizeof(path), "TC2/cstrace.bin"), &len);
	CHECK(cap != NULL);
	for (id = 0x10; cap && id <= 0x12; id++) {
		struct pft_config c = cfg(0x10001860u, 0x410CF250u);
		int64_t n = pft_frame_extract(PFT_FRAME_CORESIGHT, (uint8_t)id, cap, len, stream,
					      sizeof(stream), NULL);
		CHECK(n > 1000);
		if (n <= 0)
			continue;
		c.etmtraceidr = id;
		check_stream("TC2", &c, stream, (size_t)n, &rng);
		for (i = 0; i < (size_t)n / 300; i++)
			stream[check_rand(&rng) % (size_t)n] ^= (uint8_t)(1u << (check_rand(&rng) % 8));
		check_stream("TC2, bytes flipped", &c, stream, (size_t)n, &rng);
	}
	free(cap);
	return check_report();
}
