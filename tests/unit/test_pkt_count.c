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
#include "pkt_gen.h"
#include "pkt_util.h"

#define LEN 60000
#define MAXI (LEN + 16)

static uint8_t stream[LEN + 64];
#define REFMAX (LEN * 8) /* items of the real captures too */
static struct pft_packet ref[REFMAX];

static struct pft_pkt_decoder *dec_alloc(const struct pft_config *c, int mode)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(c);

	CHECK(d != NULL);
	if (d)
		CHECK_EQ(pft_pkt_decoder_set_isync_resync(d, (enum pft_isync_resync)mode), 0);
	return d;
}

/* The reference: pft_pkt_decoder_next over one chunk. */
static int decode_ref(const struct pft_config *c, int mode, const uint8_t *buf, size_t len,
		      struct pft_packet *out, int max)
{
	struct pft_pkt_decoder *d = dec_alloc(c, mode);
	int n = 0, r;

	if (!d)
		return 0;
	CHECK_EQ(pft_pkt_decoder_feed(d, buf, len), 0);
	pft_pkt_decoder_end(d);
	while (n < max && (r = pft_pkt_decoder_next(d, &out[n], sizeof(out[n]))) == 0)
		n++;
	CHECK(n < max);
	pft_pkt_decoder_free(d);
	return n;
}

static void add_ref(struct pft_pkt_counts *k, const struct pft_packet *p)
{
	if (p->type == PFT_PKT_ERROR && !k->items[PFT_PKT_ERROR])
		k->first_error = p->offset;
	k->items[p->type]++;
	k->bytes[p->type] += p->size;
}

static void same_counts(const char *what, const struct pft_pkt_counts *a,
			const struct pft_pkt_counts *b)
{
	int t;

	if (!memcmp(a, b, sizeof(*a)))
		return;
	fprintf(stderr, "%s: counts differ\n", what);
	for (t = 0; t < PFT_PKT_COUNT_TYPES; t++)
		if (a->items[t] != b->items[t] || a->bytes[t] != b->bytes[t])
			fprintf(stderr, "  %-16s %llu/%llu items, %llu/%llu bytes\n",
				pft_pkt_type_name((enum pft_pkt_type)t),
				(unsigned long long)a->items[t], (unsigned long long)b->items[t],
				(unsigned long long)a->bytes[t], (unsigned long long)b->bytes[t]);
	CHECK(0);
}

/* Count buf against ref[0..nref): one chunk, then random chunks each
 * counted or pulled. */
static void check_stream(const char *what, const struct pft_config *c, int mode,
			 const uint8_t *buf, size_t len, int nref, uint64_t *rng)
{
	struct pft_pkt_counts want, got, part;
	struct pft_pkt_decoder *d;
	struct pft_packet p;
	size_t pos = 0;
	int i, r, idx = 0, bad = 0;
	uint64_t pulled = 0;

	memset(&want, 0, sizeof(want));
	for (i = 0; i < nref; i++)
		add_ref(&want, &ref[i]);

	/* one chunk */
	d = dec_alloc(c, mode);
	if (!d)
		return;
	memset(&got, 0, sizeof(got));
	CHECK_EQ(pft_pkt_decoder_feed(d, buf, len), 0);
	CHECK_EQ(pft_pkt_decoder_count(d, &got, sizeof(got)), -PFT_E_AGAIN);
	CHECK_EQ(pft_pkt_decoder_end(d), 0);
	CHECK_EQ(pft_pkt_decoder_count(d, &got, sizeof(got)), -PFT_E_EOS);
	CHECK_EQ(pft_pkt_decoder_get_offset(d), len);
	same_counts(what, &want, &got);
	pft_pkt_decoder_free(d);

	/* random chunks, each counted (into a fresh struct, added up after)
	 * or pulled one item at a time */
	d = dec_alloc(c, mode);
	if (!d)
		return;
	memset(&got, 0, sizeof(got));
	for (;;) {
		uint64_t x = check_rand(rng);
		size_t k = (x & 1) ? (x >> 8) % 20 : (x >> 8) % 3000;
		int pull = (x >> 40) % 3 == 0;
		if (k > len - pos)
			k = len - pos;
		CHECK_EQ(pft_pkt_decoder_feed(d, buf + pos, k), 0);
		pos += k;
		if (pos == len)
			pft_pkt_decoder_end(d);
		if (pull) {
			while ((r = pft_pkt_decoder_next(d, &p, sizeof(p))) == 0) {
				if (idx >= nref || memcmp(&p, &ref[idx], sizeof(p))) {
					if (!bad++) {
						fprintf(stderr, "%s: item %d pulled after counting differs\n  ", what, idx);
						pkt_print(stderr, &p);
						if (idx < nref) {
							fprintf(stderr, "  ");
							pkt_print(stderr, &ref[idx]);
						}
					}
				}
				add_ref(&got, &p);
				idx++;
				pulled++;
			}
		} else {
			uint64_t before = 0;
			int t;
			memset(&part, 0, sizeof(part));
			r = pft_pkt_decoder_count(d, &part, sizeof(part));
			for (t = 0; t < PFT_PKT_COUNT_TYPES; t++) {
				before += part.items[t];
				if (part.items[t] && t == PFT_PKT_ERROR && !got.items[t])
					got.first_error = part.first_error;
				got.items[t] += part.items[t];
				got.bytes[t] += part.bytes[t];
			}
			idx += (int)before;
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	CHECK_EQ(r, -PFT_E_EOS);
	CHECK_EQ(bad, 0);
	CHECK_EQ(idx, nref);
	same_counts(what, &want, &got);
	pft_pkt_decoder_free(d);
}

/* A struct of an older header: only items[]; nothing written beyond it. */
static void check_short_struct(const struct pft_config *c, const uint8_t *buf, size_t len,
			       int nref)
{
	struct pft_pkt_decoder *d = dec_alloc(c, PFT_ISYNC_RESYNC_LOST);
	uint64_t small[PFT_PKT_COUNT_TYPES + 1];
	uint64_t total = 0;
	int t;

	if (!d)
		return;
	memset(small, 0xA5, sizeof(small));
	memset(small, 0, sizeof(small) - sizeof(small[0]));
	CHECK_EQ(pft_pkt_decoder_feed(d, buf, len), 0);
	pft_pkt_decoder_end(d);
	CHECK_EQ(pft_pkt_decoder_count(d, (struct pft_pkt_counts *)(void *)small,
				       sizeof(small) - sizeof(small[0])),
		 -PFT_E_EOS);
	for (t = 0; t < PFT_PKT_COUNT_TYPES; t++)
		total += small[t];
	CHECK_EQ(total, (uint64_t)nref);
	CHECK_EQ(small[PFT_PKT_COUNT_TYPES], 0xA5A5A5A5A5A5A5A5ull);
	pft_pkt_decoder_free(d);
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
			nref = decode_ref(&c, PFT_ISYNC_RESYNC_LOST, s, (size_t)n, ref, REFMAX);
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
	unsigned minor, ca, cid, tsv, nconf = 0;

	check_misuse();
	for (minor = 0; minor < 2; minor++)
		for (ca = 0; ca < 2; ca++)
			for (cid = 0; cid < 4; cid++)
				for (tsv = 0; tsv < (minor ? 4u : 1u); tsv++) {
					uint32_t cr = 0x10000000u | (ca ? 0x1000u : 0) | cid << 14 |
						      (minor ? 0x40000000u : 0);
					uint32_t ccer = minor ? (0x04C01AC2u | (tsv & 1) << 28 |
								 (tsv >> 1) << 29)
							      : CCER_V10;
					struct pft_config c = pkt_cfg(cr, ccer, minor ? IDR_V11 : IDR_V10);
					size_t len = pkt_gen_stream(&c, &rng, stream, LEN), i;
					int nref = decode_ref(&c, PFT_ISYNC_RESYNC_LOST, stream, len, ref, MAXI);
					int mode;

					CHECK(nref > (int)(len / 8));
					check_stream("random packets", &c, PFT_ISYNC_RESYNC_LOST, stream, len, nref, &rng);
					if (!nconf)
						check_short_struct(&c, stream, len, nref);
					/* bytes flipped: errors anywhere */
					for (i = 0; i < len / 500; i++)
						stream[check_rand(&rng) % len] ^= (uint8_t)(1u << (check_rand(&rng) % 8));
					for (mode = 0; mode <= PFT_ISYNC_RESYNC_ALWAYS; mode++) {
						nref = decode_ref(&c, mode, stream, len, ref, MAXI);
						check_stream("flipped bytes", &c, mode, stream, len, nref, &rng);
					}
					/* random bytes */
					for (i = 0; i < LEN; i++)
						stream[i] = (uint8_t)(check_rand(&rng) >> 24);
					nref = decode_ref(&c, PFT_ISYNC_RESYNC_ALWAYS, stream, LEN, ref, MAXI);
					check_stream("random bytes", &c, PFT_ISYNC_RESYNC_ALWAYS, stream, LEN, nref, &rng);
					nconf++;
				}
	check_real(&rng);
	printf("%u configurations\n", nconf);
	return check_report();
}
