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
#include "count_check.h"
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

/* The ETMv3 decoder's calls for the count checks (count_check.h). */
static void *dec_alloc(const struct pft_config *c, int mode)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(c);

	(void)mode;
	CHECK(d != NULL);
	return d;
}
static int dec_feed(void *d, const uint8_t *buf, size_t len)
{
	return pft_etm3_decoder_feed(d, buf, len);
}
static int dec_end(void *d)
{
	return pft_etm3_decoder_end(d);
}
static int dec_next(void *d, void *item)
{
	return pft_etm3_decoder_next(d, item, sizeof(struct pft_etm3_packet));
}
static int dec_count(void *d, uint64_t *counts, size_t size)
{
	return pft_etm3_decoder_count(d, (struct pft_etm3_counts *)(void *)counts, size);
}
static uint64_t dec_offset(void *d)
{
	return pft_etm3_decoder_get_offset(d);
}
static void dec_free(void *d)
{
	pft_etm3_decoder_free(d);
}
static void item_info(const void *item, unsigned *type, uint64_t *offset, uint64_t *size)
{
	const struct pft_etm3_packet *p = item;

	*type = p->type;
	*offset = p->offset;
	*size = p->size;
}
static const char *type_name(unsigned t)
{
	return pft_etm3_pkt_type_name((enum pft_etm3_pkt_type)t);
}

static const struct count_ops ops = {
	PFT_ETM3_COUNT_TYPES, sizeof(struct pft_etm3_packet), dec_alloc, dec_feed, dec_end,
	dec_next, dec_count, dec_offset, dec_free, item_info, type_name, PFT_ETM3_ERROR, NULL,
};

/* Count buf against pft_etm3_decoder_next over the whole of it. */
static void check_stream(const char *what, const struct pft_config *c, const uint8_t *buf,
			 size_t len, uint64_t *rng)
{
	int nref = count_ref(&ops, c, 0, buf, len, ref, REFMAX);

	count_check_stream(&ops, what, c, 0, buf, len, ref, nref, rng);
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
				int nref = count_ref(&ops, &c, 0, stream, n, ref, REFMAX);
				count_check_stream(&ops, "made-up stream", &c, 0, stream, n, ref, nref, &rng);
				if (!i && !j && pct == 50)
					count_check_short_struct(&ops, &c, 0, stream, n, nref);
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
