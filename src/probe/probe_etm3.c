/* SPDX-License-Identifier: BSD-3-Clause */
/* Does a stream decode as ETMv3 (pft/etm3.h)?  PFT and ETMv3 share the
 * A-sync; a stream that derails a PFT decoder is only called ETMv3 for
 * certain when an ETMv3 decoder reads it: the best of 16 candidate
 * configurations of an ETMv3.5 (cycle-accurate off / on x context ID of 0,
 * 1, 2, 4 bytes x the original or the alternative branch encoding, with
 * timestamps; no data trace), scored like the PFT candidates by the bytes
 * after the first A-sync lost to errors plus 8 per odd I-sync (an ARM-state
 * address that is not word aligned: bytes of other packets read as one). */
#include "pft/etm3.h"
#include "probe_int.h"

struct e3score {
	uint64_t len, first_async, lost, errors, isyncs, odd, phdrs, far, atoms;
	int pending;
	uint32_t hi;
};

static int account(const struct pft_etm3_packet *p, void *arg)
{
	struct e3score *s = arg;

	switch (p->type) {
	case PFT_ETM3_ASYNC:
		if (s->first_async == PFT_PROBE_NO_ASYNC)
			s->first_async = p->offset;
		break;
	case PFT_ETM3_ISYNC:
		s->isyncs++;
		/* an ARM-state address is word aligned; no Cortex-A core
		 * executes Jazelle bytecode (its Jazelle is the trivial one) */
		s->odd += (p->isa == PFT_ISA_ARM && (p->address & 3)) || p->isa == PFT_ISA_JAZELLE;
		s->pending = 1;
		s->hi = (uint32_t)(p->address >> 16) & 0xFFFF;
		break;
	case PFT_ETM3_BRANCH:
		if (s->pending && p->addr_bytes >= 5) {
			s->far += ((uint32_t)(p->address >> 16) & 0xFFFF) != s->hi;
			s->pending = 0;
		}
		break;
	case PFT_ETM3_PHDR:
		s->phdrs++;
		s->atoms += p->atom_count;
		break;
	case PFT_ETM3_ERROR:
		if (p->reason == PFT_E3ERR_TRUNCATED && p->offset + p->size >= s->len)
			break;
		s->errors++;
		/* fall through */
	case PFT_ETM3_UNSYNCED:
		if (s->first_async != PFT_PROBE_NO_ASYNC)
			s->lost += p->size;
		break;
	default:
		break;
	}
	return 0;
}

int probe_etm3(const uint8_t *buf, size_t len, struct probe_e3 *r)
{
	unsigned c;
	int found = 0;

	for (c = 0; c < 16; c++) {
		struct pft_config cfg;
		struct e3score s = { len, PFT_PROBE_NO_ASYNC, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

		pft_config_init(&cfg);
		cfg.etmidr = 0x410CF250u | ((c & 8) ? 1u << 20 : 0); /* ETMv3.5 (Cortex-A7) */
		cfg.etmccer = 0x344008F2u;
		cfg.etmcr = (1u << 28) | ((c & 4) ? 1u << 12 : 0) | ((uint32_t)(c & 3) << 14);
		if (pft_etm3_decode_buffer(&cfg, buf, len, account, &s) < 0)
			continue;
		if (!found || s.lost + 8 * s.odd < r->lost + 8 * r->odd ||
		    (s.lost + 8 * s.odd == r->lost + 8 * r->odd && s.errors < r->errors)) {
			r->lost = s.lost;
			r->errors = s.errors;
			r->isyncs = s.isyncs;
			r->odd = s.odd;
			r->phdrs = s.phdrs;
			r->far = s.far;
			r->atoms = s.atoms;
			found = 1;
		}
	}
	return found ? 0 : -PFT_E_INTERNAL;
}
