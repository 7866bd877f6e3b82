/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target for the packet decoder and encoder.
 *
 * Input: byte 0 picks the configuration (bit 0 cycle-accurate, bits 2:1
 * context ID size, bit 3 VMID, bit 4 PFTv1.0, bit 5 64-bit timestamps, bit 6
 * binary timestamps), byte 1 seeds the chunking; the rest is the PFT stream.
 *
 * Checks:
 *   - decoding in one buffer and in random chunks gives the same items,
 *     UNSYNCED ones included, nothing crashes or hangs;
 *   - every byte is reported once: offsets are contiguous, sizes add up to
 *     the input length, and bytes[] equals the input at the item's offset;
 *   - pft_pkt_decoder_count, in random chunks, counts exactly the items of
 *     the whole-buffer decode (types, bytes, first error offset);
 *   - the encoder accepts every decoded packet (reset where the decoder
 *     discarded its state), and decoding what it wrote gives the same
 *     packets again, field for field. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/packet.h"

#include "fuzz_pkt.h"

/* struct items, decode(), count_check() and decode_checks() for this decoder. */
FUZZ_PKT_CHECKS(pkt, struct pft_packet, struct pft_pkt_counts, PFT_PKT_ERROR, PFT_PKT_MAX_BYTES)

static int same_fields(const struct pft_packet *a, const struct pft_packet *b)
{
	return a->type == b->type && a->flags == b->flags && a->address == b->address &&
	       a->timestamp == b->timestamp && a->cycles == b->cycles &&
	       a->context_id == b->context_id && a->atoms == b->atoms &&
	       a->exception == b->exception && a->isa == b->isa &&
	       a->atom_count == b->atom_count && a->addr_bytes == b->addr_bytes &&
	       a->cc_bytes == b->cc_bytes && a->ts_bytes == b->ts_bytes &&
	       a->reason == b->reason && a->vmid == b->vmid && a->size == b->size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t cid[4] = { 0, 0x4000, 0x8000, 0xC000 };
	struct pft_config cfg;
	struct items whole, again;
	struct pft_pkt_encoder *enc;
	uint8_t *buf;
	size_t len, i, j, o = 0;
	uint8_t sel, seed;

	if (size < 2)
		return 0;
	sel = data[0];
	seed = data[1];
	data += 2;
	len = size - 2;

	pft_config_init(&cfg);
	cfg.etmcr = ((sel & 1) ? 0x1000u : 0) | cid[(sel >> 1) & 3] |
		    ((sel & 8) ? 0x40000000u : 0) | 0x10000000u;
	cfg.etmidr = (sel & 16) ? 0x411CF301u : 0x411CF312u;
	cfg.etmccer = 0x04C01AC2u | ((sel & 32) ? 1u << 29 : 0) | ((sel & 64) ? 1u << 28 : 0);

	whole.cap = len + 1;
	again.cap = 2 * len + 16;
	whole.v = malloc(whole.cap * sizeof(struct pft_packet));
	again.v = malloc(again.cap * sizeof(struct pft_packet));
	buf = malloc(len * 2 + 16);
	if (!whole.v || !again.v || !buf)
		FAIL();
	whole.n = again.n = 0;
	decode_checks(&cfg, data, len, seed, &whole);

	/* Re-encode.  Where the decoder reported an error (and discarded its
	 * state), reset the encoder and write a reserved header so that the
	 * second decoder discards its state at the same point. */
	enc = pft_pkt_encoder_alloc(&cfg);
	if (!enc)
		FAIL();
	for (i = 0; i < whole.n; i++) {
		const struct pft_packet *p = &whole.v[i];
		int r;
		if (p->type == PFT_PKT_UNSYNCED)
			continue;
		if (p->type == PFT_PKT_ERROR) {
			pft_pkt_encoder_reset(enc);
			buf[o++] = 0x02;
			continue;
		}
		r = pft_pkt_encoder_encode(enc, p, buf + o, len * 2 + 16 - o);
		if (r <= 0 || (uint32_t)r != p->size)
			FAIL();
		o += (size_t)r;
	}
	pft_pkt_encoder_free(enc);
	decode(&cfg, buf, o, 0, &again);
	for (i = 0, j = 0; i < whole.n; i++) {
		const struct pft_packet *p = &whole.v[i];
		if (p->type == PFT_PKT_UNSYNCED || p->type == PFT_PKT_ERROR)
			continue;
		while (j < again.n && (again.v[j].type == PFT_PKT_UNSYNCED ||
				       again.v[j].type == PFT_PKT_ERROR))
			j++;
		if (j >= again.n || !same_fields(p, &again.v[j]))
			FAIL();
		j++;
	}
	free(whole.v);
	free(again.v);
	free(buf);
	return 0;
}
