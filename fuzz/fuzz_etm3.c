/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target for the ETMv3 packet decoder and encoder.
 *
 * Input: byte 0 picks the configuration (bit 0 cycle-accurate, bits 2:1
 * context ID size, bit 3 data values, bit 4 data addresses, bit 5 data-only
 * mode (with data tracing), bit 6 alternative branch encoding, bit 7 64-bit
 * timestamps); byte 1 bits 1:0 pick ETMv3.0/3.3/3.4/3.5 and the rest seeds
 * the chunking; the rest is the ETMv3 stream.
 *
 * Checks:
 *   - decoding in one buffer and in random chunks gives the same items;
 *   - every byte is reported once: offsets are contiguous, sizes add up to
 *     the input length, and bytes[] equals the input at the item's offset;
 *   - pft_etm3_decoder_count, in random chunks, counts exactly the items of
 *     the whole-buffer decode (types, bytes, first error offset);
 *   - the encoder, reset where the decoder (re)synchronises, turns every
 *     decoded packet back into exactly the bytes it was decoded from. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/etm3.h"

#define FAIL() __builtin_trap()

struct items {
	struct pft_etm3_packet *v;
	size_t n, cap;
};

static void decode(const struct pft_config *cfg, const uint8_t *data, size_t len, uint32_t seed,
		   struct items *out)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(cfg);
	size_t pos = 0;
	uint64_t sum = 0;
	int r;

	if (!d)
		FAIL();
	for (;;) {
		size_t chunk = len - pos;
		if (seed) {
			seed = seed * 1103515245u + 12345u;
			chunk = (seed >> 16) % 24;
			if (chunk > len - pos)
				chunk = len - pos;
		}
		if (pft_etm3_decoder_feed(d, data + pos, chunk))
			FAIL();
		pos += chunk;
		if (pos == len)
			pft_etm3_decoder_end(d);
		while ((r = pft_etm3_decoder_next(d, &out->v[out->n < out->cap ? out->n : 0],
					  sizeof(struct pft_etm3_packet))) == 0) {
			const struct pft_etm3_packet *p = &out->v[out->n];
			if (out->n >= out->cap || p->offset != sum || !p->size ||
			    p->nbytes != (p->size < PFT_ETM3_MAX_BYTES ? p->size : PFT_ETM3_MAX_BYTES) ||
			    p->offset + p->size > len || memcmp(p->bytes, data + p->offset, p->nbytes))
				FAIL();
			sum += p->size;
			out->n++;
		}
		if (r == -PFT_E_EOS)
			break;
		if (r != -PFT_E_AGAIN)
			FAIL();
	}
	if (sum != len || pft_etm3_decoder_get_offset(d) != len)
		FAIL();
	pft_etm3_decoder_free(d);
}

/* pft_etm3_decoder_count over random chunks against the items in *want. */
static void count_check(const struct pft_config *cfg, const uint8_t *data, size_t len,
			uint32_t seed, const struct items *want)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(cfg);
	struct pft_etm3_counts got, exp;
	size_t pos = 0, i;
	int r;

	if (!d)
		FAIL();
	memset(&got, 0, sizeof(got));
	memset(&exp, 0, sizeof(exp));
	for (i = 0; i < want->n; i++) {
		const struct pft_etm3_packet *p = &want->v[i];
		if (p->type == PFT_ETM3_ERROR && !exp.items[PFT_ETM3_ERROR])
			exp.first_error = p->offset;
		exp.items[p->type]++;
		exp.bytes[p->type] += p->size;
	}
	for (;;) {
		size_t chunk;
		seed = seed * 1103515245u + 12345u;
		chunk = (seed >> 16) % 64;
		if (chunk > len - pos)
			chunk = len - pos;
		if (pft_etm3_decoder_feed(d, data + pos, chunk))
			FAIL();
		pos += chunk;
		if (pos == len)
			pft_etm3_decoder_end(d);
		r = pft_etm3_decoder_count(d, &got, sizeof(got));
		if (r == -PFT_E_EOS)
			break;
		if (r != -PFT_E_AGAIN)
			FAIL();
	}
	if (memcmp(&got, &exp, sizeof(got)))
		FAIL();
	pft_etm3_decoder_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t cid[4] = { 0, 0x4000, 0x8000, 0xC000 };
	static const uint8_t minors[4] = { 0, 3, 4, 5 };
	struct pft_config cfg;
	struct items whole, chunked;
	struct pft_etm3_encoder *enc;
	uint8_t out[64];
	size_t len, i;
	uint8_t sel, seed;
	int synced = 0;

	if (size < 2)
		return 0;
	sel = data[0];
	seed = data[1];
	data += 2;
	len = size - 2;

	pft_config_init(&cfg);
	cfg.etmcr = ((sel & 1) ? 0x1000u : 0) | cid[(sel >> 1) & 3] | ((sel & 8) ? 0x4u : 0) |
		    ((sel & 16) ? 0x8u : 0) | 0x10000000u;
	if ((sel & 32) && (sel & 24))
		cfg.etmcr |= 1u << 20;
	cfg.etmidr = 0x410CF200u | ((uint32_t)minors[seed & 3] << 4) | ((sel & 64) ? 1u << 20 : 0);
	cfg.etmccer = (sel & 128) ? 1u << 29 : 0;

	whole.cap = chunked.cap = len + 1;
	whole.v = malloc(whole.cap * sizeof(struct pft_etm3_packet));
	chunked.v = malloc(chunked.cap * sizeof(struct pft_etm3_packet));
	if (!whole.v || !chunked.v)
		FAIL();
	whole.n = chunked.n = 0;

	decode(&cfg, data, len, 0, &whole);
	decode(&cfg, data, len, 0x9e3779b9u * (seed + 1u), &chunked);
	if (whole.n != chunked.n)
		FAIL();
	for (i = 0; i < whole.n; i++)
		if (memcmp(&whole.v[i], &chunked.v[i], sizeof(struct pft_etm3_packet)))
			FAIL();

	count_check(&cfg, data, len, 0x85ebca6bu * (seed + 7u), &whole);

	enc = pft_etm3_encoder_alloc(&cfg);
	if (!enc)
		FAIL();
	for (i = 0; i < whole.n; i++) {
		const struct pft_etm3_packet *p = &whole.v[i];
		int r;
		if (p->type == PFT_ETM3_UNSYNCED)
			continue;
		if (p->type == PFT_ETM3_ERROR) {
			synced = 0;
			continue;
		}
		if (p->type == PFT_ETM3_ASYNC) {
			if (!synced)
				pft_etm3_encoder_reset(enc);
			synced = 1;
			continue;
		}
		r = pft_etm3_encoder_encode(enc, p, out, sizeof(out));
		if (r <= 0 || (uint32_t)r != p->size || memcmp(out, data + p->offset, p->size))
			FAIL();
	}
	pft_etm3_encoder_free(enc);
	free(whole.v);
	free(chunked.v);
	return 0;
}
