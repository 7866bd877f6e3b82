/* SPDX-License-Identifier: BSD-3-Clause */
#include "pkt_gen.h"

#include <string.h>

#include "check.h"

static uint32_t rnd_cycles(uint64_t *rng)
{
	uint64_t x = check_rand(rng);
	static const uint32_t lim[] = { 16, 16, 2048, 2048, 1u << 18, 1u << 25, 0xFFFFFFFFu };
	return (uint32_t)((x >> 8) % lim[(x & 0xFF) % 7]);
}

/* A stream of random packets written by the encoder (so nearly all of it is
 * well-formed), with a few bytes of junk now and then (errors and resyncs),
 * each followed by an A-sync and an I-sync. */
size_t pkt_gen_stream(const struct pft_config *c, uint64_t *rng, uint8_t *out, size_t len)
{
	struct pft_features f;
	struct pft_pkt_encoder *e = pft_pkt_encoder_alloc(c);
	uint32_t addr = 0x80001000u;
	unsigned isa = PFT_ISA_ARM;
	size_t n = 0;
	int start = 1;

	CHECK(e != NULL);
	if (!e || pft_config_features(c, &f) < 0)
		return 0;
	while (n + 64 < len) {
		struct pft_packet p;
		uint64_t x = check_rand(rng), y = check_rand(rng);
		unsigned k = (unsigned)(x % 1000);
		int r;

		memset(&p, 0, sizeof(p));
		if (!start && k < 5) {
			unsigned i, j = 1 + (unsigned)(y % 6);
			for (i = 0; i < j; i++)
				out[n++] = (uint8_t)(y >> (8 + 8 * i));
			start = 1;
			continue;
		}
		if (start == 1) {
			p.type = PFT_PKT_ASYNC;
			p.size = 6 + (uint32_t)(y % 3);
			pft_pkt_encoder_reset(e);
			start = 2;
		} else if (start == 2 || k < 80) {
			p.type = PFT_PKT_ISYNC;
			isa = (y & 3) == 3 ? PFT_ISA_ARM : (unsigned)(y & 3);
			addr = (uint32_t)(y >> 16) & (isa == PFT_ISA_ARM ? ~3u : ~1u);
			p.isa = (uint8_t)isa;
			p.address = addr;
			p.reason = (uint8_t)((y >> 8) & 3);
			p.flags = (uint16_t)(((y >> 10) & 1 ? PFT_PKT_F_NS : 0) |
					     (f.minor && ((y >> 11) & 1) ? PFT_PKT_F_HYP : 0));
			if (f.cycle_accurate && p.reason) {
				p.cycles = rnd_cycles(rng);
				p.flags |= PFT_PKT_F_CC;
			}
			p.context_id = (uint32_t)(x >> 32);
			if (f.contextid_bytes < 4)
				p.context_id &= (1u << (8 * f.contextid_bytes)) - 1;
			start = 0;
		} else if (k < 650) {
			p.type = PFT_PKT_ATOM;
			if (f.cycle_accurate) {
				p.atom_count = 1;
				p.atoms = y & 1;
				p.cycles = rnd_cycles(rng);
			} else {
				p.atom_count = (uint8_t)(1 + (y >> 8) % 5);
				p.atoms = (uint32_t)(y >> 16) & ((1u << p.atom_count) - 1);
			}
		} else if (k < 900) {
			unsigned sh = 2 + 7 * (unsigned)((y >> 8) % 5);
			p.type = PFT_PKT_BRANCH;
			if ((y & 63) == 0)
				isa = (y >> 6) & 1 ? PFT_ISA_THUMB : PFT_ISA_ARM;
			addr ^= (uint32_t)(y >> 20) & ((sh >= 32 ? 0 : 1u << sh) - 1u);
			addr &= isa == PFT_ISA_ARM ? ~3u : ~1u;
			p.address = addr;
			p.isa = (uint8_t)isa;
			if ((y & 31) == 1)
				p.exception = (uint16_t)((y >> 40) % 16);
			if ((y & 255) == 2)
				p.exception = (uint16_t)(16 + (y >> 40) % 100);
			p.flags = (uint16_t)((y >> 48) & 1 ? PFT_PKT_F_NS : 0);
			if (f.cycle_accurate)
				p.cycles = rnd_cycles(rng);
		} else if (k < 940) {
			p.type = PFT_PKT_TIMESTAMP;
			p.timestamp = y >> (x % 64);
			if (f.ts_bits == 48)
				p.timestamp &= (1ull << 48) - 1;
			p.flags = (uint16_t)((x >> 8) & 1 ? PFT_PKT_F_TS_R : 0);
			if (f.cycle_accurate)
				p.cycles = rnd_cycles(rng);
		} else if (k < 955 && f.contextid_bytes) {
			p.type = PFT_PKT_CONTEXT_ID;
			p.context_id = (uint32_t)y;
			if (f.contextid_bytes < 4)
				p.context_id &= (1u << (8 * f.contextid_bytes)) - 1;
		} else if (k < 965 && f.minor) {
			p.type = PFT_PKT_VMID;
			p.vmid = (uint8_t)y;
		} else if (k < 975) {
			p.type = PFT_PKT_WAYPOINT_UPDATE;
			addr ^= (uint32_t)(y >> 20) & 0xFFF;
			addr &= isa == PFT_ISA_ARM ? ~3u : ~1u;
			p.address = addr;
			p.isa = (uint8_t)isa;
		} else {
			static const uint8_t t[] = { PFT_PKT_TRIGGER, PFT_PKT_EXCEPTION_RETURN,
						     PFT_PKT_IGNORE };
			p.type = t[y % 3];
		}
		if (f.cycle_accurate && p.type != PFT_PKT_ISYNC && p.type != PFT_PKT_ASYNC &&
		    p.type != PFT_PKT_BRANCH && p.type != PFT_PKT_TIMESTAMP && p.type != PFT_PKT_ATOM)
			p.cycles = 0;
		if (p.cycles || p.type == PFT_PKT_ATOM)
			p.flags |= f.cycle_accurate ? PFT_PKT_F_CC : 0;
		r = pft_pkt_encoder_encode(e, &p, out + n, len - n);
		if (r > 0)
			n += (size_t)r;
	}
	pft_pkt_encoder_free(e);
	return n;
}

