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

#include "fuzz_pkt.h"
#include "fuzz_util.h"

/* struct items, decode(), count_check() and decode_checks() for this decoder. */
FUZZ_PKT_CHECKS(etm3, struct pft_etm3_packet, struct pft_etm3_counts, PFT_ETM3_ERROR,
		PFT_ETM3_MAX_BYTES)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t minors[4] = { 0, 3, 4, 5 };
	struct pft_config cfg;
	struct items whole;
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

	fuzz_etm3_config(&cfg, sel);
	if ((sel & 32) && (sel & 24))
		cfg.etmcr |= 1u << 20;
	cfg.etmidr = 0x410CF200u | ((uint32_t)minors[seed & 3] << 4) | ((sel & 64) ? 1u << 20 : 0);

	whole.cap = len + 1;
	whole.n = 0;
	whole.v = malloc(whole.cap * sizeof(struct pft_etm3_packet));
	if (!whole.v)
		FAIL();
	decode_checks(&cfg, data, len, seed, &whole);

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
	return 0;
}
