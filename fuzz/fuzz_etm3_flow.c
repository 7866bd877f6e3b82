/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: random bytes through the ETMv3 packet decoder and the
 * ETMv3 instruction flow, against a fixed small image of pseudo-random code
 * at 0x1000 (so every branch class occurs).  Byte 0 picks the
 * configuration (bit 0 cycle-accurate, bits 2:1 context ID size, bit 3 data
 * values, bit 4 data addresses, bit 6 alternative branch encoding, bit 7
 * 64-bit timestamps).  Checks: no crash or hang; every flow item of a
 * packet is pulled before the next packet; ranges are one instruction
 * long, at the address the instruction says, and end inside the image;
 * indexes count the instructions. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/etm3flow.h"
#include "pft/image.h"

#define ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)

static uint8_t code[1024];
static struct pft_image *img;

static void init_image(void)
{
	uint32_t x = 0x9E3779B9u;
	size_t i;

	for (i = 0; i < sizeof(code); i++) {
		x = x * 1103515245u + 12345u;
		code[i] = (uint8_t)(x >> 16);
	}
	img = pft_image_alloc();
	pft_image_add_buffer(img, 0x1000, code, sizeof(code));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t cid[4] = { 0, 0x4000, 0x8000, 0xC000 };
	struct pft_config cfg;
	struct pft_etm3_decoder *d;
	struct pft_etm3_flow_decoder *fl;
	struct pft_etm3_packet p;
	struct pft_flow_item it;
	uint64_t insns = 0;
	uint8_t sel;

	if (!img)
		init_image();
	if (size < 1)
		return 0;
	sel = data[0];
	pft_config_init(&cfg);
	cfg.etmcr = ((sel & 1) ? 0x1000u : 0) | cid[(sel >> 1) & 3] | ((sel & 8) ? 0x4u : 0) |
		    ((sel & 16) ? 0x8u : 0) | 0x10000000u;
	cfg.etmidr = 0x410CF250u | ((sel & 64) ? 1u << 20 : 0);
	cfg.etmccer = (sel & 128) ? 1u << 29 : 0;
	d = pft_etm3_decoder_alloc(&cfg);
	fl = pft_etm3_flow_decoder_alloc(&cfg, img);
	ASSERT(d && fl);
	pft_etm3_decoder_feed(d, data + 1, size - 1);
	pft_etm3_decoder_end(d);
	for (;;) {
		int more = pft_etm3_decoder_next(d, &p, sizeof p) == 0;
		if (more)
			ASSERT(pft_etm3_flow_decoder_put_packet(fl, &p) == 0);
		else
			ASSERT(pft_etm3_flow_decoder_end(fl) == 0);
		while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0) {
			ASSERT(it.index == insns);
			if (it.kind != PFT_FLOW_RANGE)
				continue;
			ASSERT(it.ninsns == 1 && it.insns && it.insns[0].addr == it.addr);
			ASSERT(it.end == it.addr + it.insns[0].size);
			ASSERT(it.addr >= 0x1000 && it.end <= 0x1000 + sizeof(code));
			insns++;
		}
		if (!more)
			break;
	}
	ASSERT(pft_etm3_flow_decoder_next(fl, &it, sizeof it) == -PFT_E_EOS);
	pft_etm3_flow_decoder_free(fl);
	pft_etm3_decoder_free(d);
	return 0;
}
