/* SPDX-License-Identifier: BSD-3-Clause */
/* pft_pkt_decoder_count: the items pft_pkt_decoder_next gives, counted per
 * type (items and bytes), the first error's offset, and the decoder state
 * after.  The reference is pft_pkt_decoder_next over the whole buffer.
 * Streams: random packets of every type written by the encoder with junk
 * now and then (every configuration class), the same with bytes flipped,
 * random bytes (resynchronisation at I-syncs on), and the real captures
 * (TC2 ID 0x13, trace_cov_a15).  Each is counted in one chunk, and in
 * random chunks where each chunk is either counted or pulled with
 * pft_pkt_decoder_next: the pulled items must be the reference's items at
 * their place, which checks the compression state the counting left.  Also
 * a shorter struct (an older header's) and misuse. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/frame.h"
#include "count_check.h"
#include "pkt_gen.h"
#include "pkt_util.h"

#define LEN 60000
#define MAXI (LEN + 16)

static uint8_t stream[LEN + 64];
#define REFMAX (LEN * 8) /* items of the real captures too */
static struct pft_packet ref[REFMAX];

/* The PFT packet decoder's calls for the count checks (count_check.h);
 * mode is the I-sync resynchronisation. */
static void *dec_alloc(const struct pft_config *c, int mode)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(c);

	CHECK(d != NULL);
	if (d)
		CHECK_EQ(pft_pkt_decoder_set_isync_resync(d, (enum pft_isync_resync)mode), 0);
	return d;
}
static int dec_feed(void *d, const uint8_t *buf, size_t len)
{
	return pft_pkt_decoder_feed(d, buf, len);
}
static int dec_end(void *d)
{
	return pft_pkt_decoder_end(d);
}
static int dec_next(void *d, void *item)
{
	return pft_pkt_decoder_next(d, item, sizeof(struct pft_packet));
}
static int dec_count(void *d, uint64_t *counts, size_t size)
{
	return pft_pkt_decoder_count(d, (struct pft_pkt_counts *)(void *)counts, size);
}
static uint64_t dec_offset(void *d)
{
	return pft_pkt_decoder_get_offset(d);
}
static void dec_free(void *d)
{
	pft_pkt_decoder_free(d);
}
static void item_info(const void *item, unsigned *type, uint64_t *offset, uint64_t *size)
{
	const struct pft_packet *p = item;

	*type = p->type;
	*offset = p->offset;
	*size = p->size;
}
static const char *type_name(unsigned t)
{
	return pft_pkt_type_name((enum pft_pkt_type)t);
}
static void print_item(FILE *f, const void *item)
{
	pkt_print(f, item);
}

static const struct count_ops ops = {
	PFT_PKT_COUNT_TYPES, sizeof(struct pft_packet), dec_alloc, dec_feed, dec_end, dec_next,
	dec_count, dec_offset, dec_free, item_info, type_name, PFT_PKT_ERROR, print_item,
};

/* The reference: pft_pkt_decoder_next over one chunk, into ref[]. */
static int decode_ref(const struct pft_config *c, int mode, const uint8_t *buf, size_t len,
		      int max)
{
	return count_ref(&ops, c, mode, buf, len, ref, max);
}

static void check_stream(const char *what, const struct pft_config *c, int mode,
			 const uint8_t *buf, size_t len, int nref, uint64_t *rng)
{
	count_check_stream(&ops, what, c, mode, buf, len, ref, nref, rng);
}

static void check_misuse(void)
{
	struct pft_config c = pkt_cfg(C_TC2);
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(&c);
	struct pft_pkt_counts k;
	static const uint8_t bytes[] = { 0, 0, 0, 0, 0, 0x80, 0x84, 0x88, 0x02 };

	CHECK(d != NULL);
	memset(&k, 0, sizeof(k));
	CHECK_EQ(pft_pkt_decoder_count(NULL, &k, sizeof(k)), -PFT_E_INVAL);
	CHECK_EQ(pft_pkt_decoder_count(d, NULL, sizeof(k)), -PFT_E_INVAL);
	CHECK_EQ(pft_pkt_decoder_count(d, &k, 0), -PFT_E_INVAL);
	CHECK_EQ(pft_pkt_decoder_count(d, &k, sizeof(k)), -PFT_E_AGAIN); /* nothing fed */
	CHECK_EQ(pft_pkt_decoder_feed(d, bytes, sizeof(bytes)), 0);
	CHECK_EQ(pft_pkt_decoder_end(d), 0);
	CHECK_EQ(pft_pkt_decoder_count(d, &k, sizeof(k)), -PFT_E_EOS);
	CHECK_EQ(k.items[PFT_PKT_ASYNC], 1);
	CHECK_EQ(k.bytes[PFT_PKT_ASYNC], 6);
	CHECK_EQ(k.items[PFT_PKT_ATOM], 2);
	CHECK_EQ(k.items[PFT_PKT_ERROR], 1); /* 0x02: reserved */
	CHECK_EQ(k.first_error, 8);
	pft_pkt_decoder_free(d);
}

/* The real captures: TC2 ID 0x13 (CoreSight frames) and trace_cov_a15. */
static void check_real(uint64_t *rng)
{
	static const struct {
		const char *file;
		uint32_t etmcr;
		int frames;
	} caps[] = {
		{ "TC2/cstrace.bin", 0x10001000u, 1 },
		{ "trace_cov_a15/PTM_0_2.bin", 0x20000400u, 0 },
	};
	unsigned i;

	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		char path[1024];
		size_t len = 0;
		uint8_t *cap = check_read_file(check_data_path(path, sizeof(path), caps[i].file), &len);
		uint8_t *s = cap;
		int64_t n = (int64_t)len;
		struct pft_config c = pkt_cfg(caps[i].etmcr, CCER_A15, IDR_V11);
		int nref;

		CHECK(cap != NULL);
		if (!cap)
			continue;
		if (caps[i].frames) {
			s = malloc(len);
			n = s ? pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, cap, len, s, len, NULL) : -1;
			CHECK(n > 1000);
		}
		if (n > 0) {
			nref = decode_ref(&c, PFT_ISYNC_RESYNC_LOST, s, (size_t)n, REFMAX);
			CHECK(nref > (caps[i].frames ? 1000 : 5));
			check_stream(caps[i].file, &c, PFT_ISYNC_RESYNC_LOST, s, (size_t)n, nref, rng);
		}
		if (s != cap)
			free(s);
		free(cap);
	}
}

int main(void)
{
	uint64_t rng = check_seed(0xc0a47001);
	unsigned k, nconf = 0;

	check_misuse();
	for (k = 0; k < PKT_CFG_CLASSES; k++) {
		struct pft_config c = pkt_cfg_class(k);
		size_t len = pkt_gen_stream(&c, &rng, stream, LEN), i;
		int nref = decode_ref(&c, PFT_ISYNC_RESYNC_LOST, stream, len, MAXI);
		int mode;

		CHECK(nref > (int)(len / 8));
		check_stream("random packets", &c, PFT_ISYNC_RESYNC_LOST, stream, len, nref, &rng);
		if (!nconf)
			count_check_short_struct(&ops, &c, PFT_ISYNC_RESYNC_LOST, stream, len, nref);
		/* bytes flipped: errors anywhere */
		for (i = 0; i < len / 500; i++)
			stream[check_rand(&rng) % len] ^= (uint8_t)(1u << (check_rand(&rng) % 8));
		for (mode = 0; mode <= PFT_ISYNC_RESYNC_ALWAYS; mode++) {
			nref = decode_ref(&c, mode, stream, len, MAXI);
			check_stream("flipped bytes", &c, mode, stream, len, nref, &rng);
		}
		/* random bytes */
		for (i = 0; i < LEN; i++)
			stream[i] = (uint8_t)(check_rand(&rng) >> 24);
		nref = decode_ref(&c, PFT_ISYNC_RESYNC_ALWAYS, stream, LEN, MAXI);
		check_stream("random bytes", &c, PFT_ISYNC_RESYNC_ALWAYS, stream, LEN, nref, &rng);
		nconf++;
	}
	check_real(&rng);
	printf("%u configurations\n", nconf);
	return check_report();
}
