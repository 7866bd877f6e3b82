/* SPDX-License-Identifier: BSD-3-Clause */
/* Small helpers shared by the fuzz targets that decode against an image. */
#ifndef PFT_FUZZ_UTIL_H
#define PFT_FUZZ_UTIL_H

#include <stdint.h>
#include <string.h>

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

#endif
