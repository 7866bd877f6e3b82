/* SPDX-License-Identifier: BSD-3-Clause */
/* Small helpers shared by the fuzz targets that decode against an image. */
#ifndef PFT_FUZZ_UTIL_H
#define PFT_FUZZ_UTIL_H

#include <stdint.h>
#include <string.h>

#include "pft/flow.h"
#include "pft/image.h"

#define ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)

/* An image of pseudo-random code (so that branches of every class occur):
 * code[0..ncode) filled from SEED and mapped at 0x1000, and, if VECTORS is
 * not NULL, vectors[0..nvec) at 0 holding "b 0x1000" in each word.  The
 * buffers must outlive the image (static in the target). */
static inline struct pft_image *fuzz_code_image(uint32_t seed, uint8_t *code, size_t ncode,
						uint8_t *vectors, size_t nvec)
{
	struct pft_image *img;
	uint32_t x = seed;
	size_t i;

	for (i = 0; i < ncode; i++) {
		x = x * 1103515245u + 12345u;
		code[i] = (uint8_t)(x >> 16);
	}
	for (i = 0; vectors && i + 4 <= nvec; i += 4) { /* b 0x1000 from each vector */
		uint32_t w = 0xEA000000u | (((0x1000u - (uint32_t)i - 8u) >> 2) & 0xFFFFFFu);

		memcpy(vectors + i, &w, 4);
	}
	img = pft_image_alloc();
	pft_image_add_buffer(img, 0x1000, code, ncode);
	if (vectors)
		pft_image_add_buffer(img, 0x0, vectors, nvec);
	return img;
}

/* The ETMCR settings byte 0's low three bits pick in the flow targets:
 * none, cycle-accurate, timestamps, both, context IDs, and mixes. */
#define FUZZ_FLOW_ETMCR_VARIANTS                                                                   \
	{ 0x00000000u, 0x00001000u, 0x20000000u, 0x10001000u,                                      \
	  0x0000C100u, 0x5000D000u, 0x30004000u, 0x20001000u }

/* The ETMv3 configuration byte SEL picks in the ETMv3 targets: bit 0
 * cycle-accurate, bits 2:1 context ID size, bit 3 data values, bit 4 data
 * addresses, bit 6 the alternative branch encoding, bit 7 64-bit
 * timestamps; ETMv3.5 with timestamps on. */
static inline void fuzz_etm3_config(struct pft_config *cfg, uint8_t sel)
{
	static const uint32_t cid[4] = { 0, 0x4000, 0x8000, 0xC000 };

	pft_config_init(cfg);
	cfg->etmcr = ((sel & 1) ? 0x1000u : 0) | cid[(sel >> 1) & 3] | ((sel & 8) ? 0x4u : 0) |
		     ((sel & 16) ? 0x8u : 0) | 0x10000000u;
	cfg->etmidr = 0x410CF250u | ((sel & 64) ? 1u << 20 : 0);
	cfg->etmccer = (sel & 128) ? 1u << 29 : 0;
}

/* One step of feeding the flow decoder D: the next CHUNK bytes of
 * data[*pos..size) (*pos advanced), or, once all are given, its end. */
static inline void fuzz_flow_feed(struct pft_flow_decoder *d, const uint8_t *data, size_t size,
				  size_t *pos, size_t chunk)
{
	if (*pos < size) {
		size_t c = size - *pos < chunk ? size - *pos : chunk;

		ASSERT(pft_flow_decoder_feed(d, data + *pos, c) == 0);
		*pos += c;
	} else {
		ASSERT(pft_flow_decoder_end(d) == 0);
	}
}

#endif
