/* SPDX-License-Identifier: BSD-3-Clause */
/* Resynchronisation at an I-sync (pft_pkt_decoder_set_isync_resync): after
 * an error the decoder goes on from the next I-sync whose fixed bits hold
 * (mode LOST, the default) or waits for an A-sync (OFF); before the first
 * A-sync only mode ALWAYS takes an I-sync.  Candidates that break a fixed
 * bit are passed over.  Items never depend on the chunking, in every mode. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/packet.h"

#define MAXI 4096

static const uint8_t ASYNC[] = { 0, 0, 0, 0, 0, 0x80 };
/* periodic I-sync, Thumb 0xc0018d82 (TC2) */
static const uint8_t ISYNC[] = { 0x08, 0x83, 0x8d, 0x01, 0xc0, 0x01 };

struct items {
	int n;
	struct pft_packet p[MAXI];
};

static void decode(const struct pft_config *c, enum pft_isync_resync mode, const uint8_t *b,
		   size_t len, uint64_t *rng, struct items *out)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(c);
	size_t pos = 0;
	uint64_t sum = 0;
	int r;

	out->n = 0;
	CHECK(d != NULL);
	if (!d)
		return;
	CHECK_EQ(pft_pkt_decoder_set_isync_resync(d, mode), 0);
	for (;;) {
		size_t chunk = len - pos;

		if (rng && chunk) {
			chunk = (size_t)(check_rand(rng) % 19);
			if (chunk > len - pos)
				chunk = len - pos;
		}
		CHECK_EQ(pft_pkt_decoder_feed(d, b + pos, chunk), 0);
		pos += chunk;
		if (pos == len)
			pft_pkt_decoder_end(d);
		while ((r = pft_pkt_decoder_next(d, &out->p[out->n < MAXI ? out->n : MAXI - 1],
						 sizeof(struct pft_packet))) == 0) {
			CHECK_EQ(out->p[out->n < MAXI ? out->n : MAXI - 1].offset, sum);
			sum += out->p[out->n < MAXI ? out->n : MAXI - 1].size;
			if (out->n < MAXI)
				out->n++;
		}
		if (r == -PFT_E_EOS)
			break;
		CHECK_EQ(r, -PFT_E_AGAIN);
		if (r != -PFT_E_AGAIN)
			break;
	}
	CHECK_EQ(sum, len);
	pft_pkt_decoder_free(d);
}

static int count(const struct items *it, unsigned type)
{
	int i, n = 0;

	for (i = 0; i < it->n; i++)
		n += it->p[i].type == type;
	return n;
}

static size_t put(uint8_t *b, size_t n, const uint8_t *x, size_t len)
{
	memcpy(b + n, x, len);
	return n + len;
}

/* A-sync, I-sync, atoms, a reserved header (an error), junk, I-sync, atoms. */
static void after_error(const struct pft_config *c)
{
	static const uint8_t atoms[] = { 0x84, 0x84, 0x88 };
	static const uint8_t junk[] = { 0x04, 0x33, 0x91, 0x12 };
	uint8_t b[128];
	size_t n = 0;
	struct items off, lost;

	n = put(b, n, ASYNC, sizeof ASYNC);
	n = put(b, n, ISYNC, sizeof ISYNC);
	n = put(b, n, atoms, sizeof atoms);
	n = put(b, n, junk, sizeof junk);
	n = put(b, n, ISYNC, sizeof ISYNC);
	n = put(b, n, atoms, sizeof atoms);
	decode(c, PFT_ISYNC_RESYNC_OFF, b, n, NULL, &off);
	decode(c, PFT_ISYNC_RESYNC_LOST, b, n, NULL, &lost);
	CHECK_EQ(count(&off, PFT_PKT_ERROR), 1);
	CHECK_EQ(count(&off, PFT_PKT_ISYNC), 1);  /* the second is skipped */
	CHECK_EQ(count(&lost, PFT_PKT_ERROR), 1);
	CHECK_EQ(count(&lost, PFT_PKT_ISYNC), 2); /* sync again at the second */
	CHECK_EQ(count(&lost, PFT_PKT_ATOM), 6);
	CHECK_EQ(lost.p[lost.n - 4].type, PFT_PKT_ISYNC);
	CHECK_EQ(lost.p[lost.n - 4].offset, n - sizeof atoms - sizeof ISYNC);
	CHECK_EQ(lost.p[lost.n - 4].address, 0xc0018d82u);
}

/* Before any A-sync: only ALWAYS takes the I-sync. */
static void first_sync(const struct pft_config *c)
{
	static const uint8_t lead[] = { 0x33, 0x91 };
	uint8_t b[64];
	size_t n = 0;
	struct items lost, always;

	n = put(b, n, lead, sizeof lead);
	n = put(b, n, ISYNC, sizeof ISYNC);
	b[n++] = 0x84;
	decode(c, PFT_ISYNC_RESYNC_LOST, b, n, NULL, &lost);
	decode(c, PFT_ISYNC_RESYNC_ALWAYS, b, n, NULL, &always);
	CHECK_EQ(lost.n, 1);
	CHECK_EQ(lost.p[0].type, PFT_PKT_UNSYNCED);
	CHECK_EQ(always.n, 3);
	CHECK_EQ(always.p[0].type, PFT_PKT_UNSYNCED);
	CHECK_EQ(always.p[0].size, sizeof lead);
	CHECK_EQ(always.p[1].type, PFT_PKT_ISYNC);
	CHECK_EQ(always.p[2].type, PFT_PKT_ATOM);
}

/* A fixed bit broken: no synchronisation there. */
static void fixed_bits(const struct pft_config *c)
{
	static const uint8_t bad[][6] = {
		{ 0x08, 0x83, 0x8d, 0x01, 0xc0, 0x81 }, /* info b7 */
		{ 0x08, 0x83, 0x8d, 0x01, 0xc0, 0x11 }, /* info b4 */
		{ 0x08, 0x83, 0x8d, 0x01, 0xc0, 0x00 }, /* info b0 */
		{ 0x08, 0x82, 0x8d, 0x01, 0xc0, 0x01 }, /* ARM address with bit 1 set */
	};
	size_t k;

	for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		struct items it;

		decode(c, PFT_ISYNC_RESYNC_ALWAYS, bad[k], sizeof bad[k], NULL, &it);
		CHECK_EQ(count(&it, PFT_PKT_ISYNC), 0);
	}
}

/* Random bytes with A-syncs and I-syncs sprinkled in: the same items
 * whatever the chunking, in every mode. */
static void chunking(const struct pft_config *c, uint64_t *rng)
{
	static uint8_t b[60000];
	static struct items ref, got;
	size_t n = 0;
	int mode, round, i;

	while (n < sizeof b - 16) {
		uint64_t x = check_rand(rng);

		if ((x & 255) == 0)
			n = put(b, n, ASYNC, sizeof ASYNC);
		else if ((x & 255) < 4)
			n = put(b, n, ISYNC, sizeof ISYNC);
		else
			b[n++] = (uint8_t)(x >> 16);
	}
	for (mode = PFT_ISYNC_RESYNC_OFF; mode <= PFT_ISYNC_RESYNC_ALWAYS; mode++) {
		decode(c, (enum pft_isync_resync)mode, b, n, NULL, &ref);
		for (round = 0; round < 3; round++) {
			int bad = 0;

			decode(c, (enum pft_isync_resync)mode, b, n, rng, &got);
			CHECK_EQ(got.n, ref.n);
			for (i = 0; i < ref.n && i < got.n; i++)
				bad += memcmp(&ref.p[i], &got.p[i], sizeof ref.p[i]) != 0;
			CHECK_EQ(bad, 0);
		}
	}
}

int main(void)
{
	uint64_t rng = check_seed(0x15e7c);
	struct pft_config c;

	pft_config_init(&c);
	c.etmcr = 0;
	after_error(&c);
	first_sync(&c);
	fixed_bits(&c);
	chunking(&c, &rng);
	c.etmcr = 0x10001000; /* cycle-accurate: the cycle count byte is checked too */
	chunking(&c, &rng);
	CHECK_EQ(pft_pkt_decoder_set_isync_resync(NULL, PFT_ISYNC_RESYNC_LOST), -PFT_E_INVAL);
	return check_report();
}
