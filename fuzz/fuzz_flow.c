/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: random bytes through the packet decoder and the flow
 * decoder, against a fixed small image of ARM and Thumb code (1 KiB of
 * pseudo-random words, so branches of every class occur, and a vector
 * table).  Byte 0 picks the ETMCR features and the chunk size.  Checks: no
 * crash, no hang (every walk is bounded), every stream byte accounted for,
 * ranges well formed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flow/flow_int.h"
#include "pft/pft.h"

#include "fuzz_util.h"


static uint8_t code[1024], vectors[64];
static struct pft_image *img;

static void init_image(void)
{
	img = fuzz_code_image(0x12345678u, code, sizeof(code), vectors, sizeof(vectors));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t variants[8] = FUZZ_FLOW_ETMCR_VARIANTS;
	struct pft_config cfg;
	struct pft_flow_decoder *d;
	struct pft_flow_item it;
	struct pft_flow_stats st;
	size_t pos = 1, chunk;
	uint64_t items = 0;
	int r;

	if (!img)
		init_image();
	if (size < 1)
		return 0;
	pft_config_init(&cfg);
	cfg.etmcr = variants[data[0] & 7];
	if (data[0] & 8)
		cfg.etmidr = 0x411CF301u; /* PFTv1.0 */
	if (data[0] & 0x10)
		cfg.etmccer |= 1u << 24;  /* DMB/DSB are waypoints */
	chunk = 1 + (data[0] >> 5) * 7;
	d = pft_flow_alloc_cache(&cfg, img, 16);
	ASSERT(d);
	for (;;) {
		fuzz_flow_feed(d, data, size, &pos, chunk);
		while ((r = pft_flow_decoder_next(d, &it, sizeof(it))) == 0) {
			items++;
			if (it.kind == PFT_FLOW_RANGE) {
				uint32_t i;

				ASSERT(it.ninsns > 0 && it.insns);
				ASSERT(it.insns[0].addr == it.addr);
				for (i = 0; i + 1 < it.ninsns; i++)
					ASSERT(it.insns[i].addr + it.insns[i].size == it.insns[i + 1].addr);
				ASSERT(it.insns[it.ninsns - 1].addr + it.insns[it.ninsns - 1].size == it.end);
			} else {
				ASSERT(it.kind == PFT_FLOW_EVENT && it.type > 0 && it.type < PFT_EV_NR);
			}
			ASSERT(items < 64u * 1024 * 1024);
		}
		if (r == -PFT_E_EOS)
			break;
		ASSERT(r == -PFT_E_AGAIN && pos <= size);
	}
	ASSERT(pft_flow_decoder_get_stats(d, &st, sizeof(st)) == 0);
	ASSERT(st.bytes == size - 1);
	pft_flow_decoder_free(d);
	return 0;
}
