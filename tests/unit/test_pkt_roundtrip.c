/* SPDX-License-Identifier: BSD-3-Clause */
/* Round-trip property test: random packet sequences under every
 * configuration variant (PFTv1.0 / v1.1, cycle-accurate on/off, context ID
 * 0/1/2/4 bytes, VMID on/off, timestamps 48/64-bit, Gray/binary) are encoded,
 * decoded, and must come back with the same fields; re-encoding the decoded
 * packets must give the same bytes again.  Seeded (PFT_SEED), reproducible;
 * over 10^6 packets per run. */
#include <string.h>

#include "check.h"
#include "pkt_util.h"

#define PACKETS_PER_CONFIG 20000
#define BATCH 4000

struct gen {
	uint64_t rng;
	struct pft_features f;
	uint32_t addr;
	uint8_t isa;
	uint8_t ns, hyp;
	uint64_t ts;
};

static uint64_t rnd(struct gen *g)
{
	return check_rand(&g->rng);
}

static uint32_t rnd_cycles(struct gen *g)
{
	uint64_t x = rnd(g);
	switch (x & 7) {
	case 0: return 0xFFFFFFFFu;                 /* overflow */
	case 1: return (uint32_t)(x >> 32);         /* any */
	case 2: return (uint32_t)(x >> 40) & 0x7FF; /* 2 bytes */
	default: return (uint32_t)(x >> 40) & 0xF;  /* 1 byte */
	}
}

static uint32_t align(uint32_t a, unsigned isa)
{
	if (isa == PFT_ISA_ARM)
		return a & ~3u;
	if (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE)
		return a & ~1u;
	return a;
}

/* An address near the base: flip random bits below a random height. */
static uint32_t near_addr(struct gen *g, unsigned isa)
{
	uint64_t x = rnd(g);
	unsigned k = 1 + (unsigned)(x % 32);
	uint32_t flip = (uint32_t)(x >> 32) & (k >= 32 ? ~0u : (1u << k) - 1);
	if ((x >> 8) % 16 == 0)
		flip = 0; /* same address again */
	return align(g->addr ^ flip, isa);
}

static unsigned rnd_isa(struct gen *g, int jazelle)
{
	for (;;) {
		unsigned i = (unsigned)(rnd(g) % 4);
		if (i != PFT_ISA_JAZELLE || jazelle)
			return i;
	}
}

static unsigned cid_mask_bits(const struct gen *g)
{
	return g->f.contextid_bytes * 8u;
}

static uint32_t rnd_cid(struct gen *g)
{
	unsigned b = cid_mask_bits(g);
	uint32_t v = (uint32_t)rnd(g);
	return b >= 32 ? v : v & ((1u << b) - 1);
}

/* One random packet valid under the configuration, with the fields the
 * decoder will report (flags = state after the packet). */
static void gen_packet(struct gen *g, struct pft_packet *p, int first)
{
	uint64_t x = rnd(g);
	unsigned kind = (unsigned)(x % 100);
	unsigned ca = g->f.cycle_accurate;

	memset(p, 0, sizeof(*p));
	if (first == 1 || (!first && kind < 1)) {
		p->type = PFT_PKT_ASYNC;
		p->size = 6 + (uint32_t)((x >> 8) % 4);
		return;
	}
	if (first == 2 || kind < 5) {
		p->type = PFT_PKT_ISYNC;
		p->isa = (uint8_t)rnd_isa(g, 0);
		p->address = align((uint32_t)rnd(g), p->isa);
		p->reason = (uint8_t)((x >> 8) & 3);
		g->ns = (x >> 10) & 1;
		g->hyp = g->f.minor ? (x >> 11) & 1 : 0;
		if (ca && p->reason != PFT_ISYNC_PERIODIC) {
			p->cycles = rnd_cycles(g);
			p->flags |= PFT_PKT_F_CC;
		}
		if (g->f.contextid_bytes) {
			p->context_id = rnd_cid(g);
			p->flags |= PFT_PKT_F_CID;
		}
		g->addr = (uint32_t)p->address;
		g->isa = p->isa;
		goto state_flags;
	}
	if (kind < 50) {
		p->type = PFT_PKT_ATOM;
		if (ca) {
			p->atom_count = 1;
			p->atoms = (x >> 8) & 1;
			p->cycles = rnd_cycles(g);
			p->flags = PFT_PKT_F_CC;
		} else {
			p->atom_count = (uint8_t)(1 + (x >> 8) % 5);
			p->atoms = (uint32_t)(x >> 16) & ((1u << p->atom_count) - 1);
		}
		return;
	}
	if (kind < 75) {
		unsigned isa = g->isa;
		uint64_t y = rnd(g);
		p->type = PFT_PKT_BRANCH;
		if (y % 8 == 0)
			isa = rnd_isa(g, 1);
		else if (y % 8 == 1 && (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE))
			isa = isa == PFT_ISA_THUMB ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
		p->isa = (uint8_t)isa;
		p->address = near_addr(g, isa);
		switch ((y >> 8) % 10) {
		case 0: p->exception = (uint16_t)(1 + (y >> 16) % 15); break;
		case 1: p->exception = (uint16_t)((y >> 16) % 512); break;
		default: break;
		}
		if ((y >> 24) % 10 == 0)
			g->ns ^= 1;
		if (g->f.minor && (y >> 32) % 16 == 0)
			g->hyp ^= 1;
		if (ca) {
			p->cycles = rnd_cycles(g);
			p->flags = PFT_PKT_F_CC;
		}
		g->addr = (uint32_t)p->address;
		g->isa = p->isa;
		goto state_flags;
	}
	if (kind < 80) {
		unsigned isa = g->isa;
		uint64_t y = rnd(g);
		p->type = PFT_PKT_WAYPOINT_UPDATE;
		if (isa == PFT_ISA_JAZELLE || y % 8 == 0)
			isa = rnd_isa(g, 0);
		else if (y % 8 == 1 && (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE))
			isa = isa == PFT_ISA_THUMB ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
		p->isa = (uint8_t)isa;
		p->address = near_addr(g, isa);
		g->addr = (uint32_t)p->address;
		g->isa = p->isa;
		if (isa == PFT_ISA_THUMBEE)
			p->flags = PFT_PKT_F_ALTIS;
		return;
	}
	if (kind < 90) {
		uint64_t y = rnd(g), mask = g->f.ts_bits == 64 ? ~0ull : (1ull << 48) - 1;
		p->type = PFT_PKT_TIMESTAMP;
		switch (y % 10) {
		case 0: g->ts = rnd(g); break;
		case 1: g->ts ^= rnd(g) >> (y >> 8) % 64; break;
		case 2: break;
		default: g->ts += (y >> 8) % 100000; break;
		}
		g->ts &= mask;
		p->timestamp = g->ts;
		if ((y >> 40) % 10 == 0)
			p->flags |= PFT_PKT_F_TS_R;
		if (ca) {
			p->cycles = rnd_cycles(g);
			p->flags |= PFT_PKT_F_CC;
		}
		return;
	}
	switch (kind) {
	case 90: case 91: case 92:
		if (g->f.contextid_bytes) {
			p->type = PFT_PKT_CONTEXT_ID;
			p->context_id = rnd_cid(g);
			return;
		}
		break;
	case 93: case 94:
		if (g->f.minor) {
			p->type = PFT_PKT_VMID;
			p->vmid = (uint8_t)(x >> 8);
			return;
		}
		break;
	case 95: case 96:
		p->type = PFT_PKT_EXCEPTION_RETURN;
		return;
	case 97:
		p->type = PFT_PKT_IGNORE;
		return;
	default:
		break;
	}
	p->type = PFT_PKT_TRIGGER;
	return;

state_flags:
	p->flags |= (g->ns ? PFT_PKT_F_NS : 0) | (g->hyp ? PFT_PKT_F_HYP : 0) |
		    (p->isa == PFT_ISA_THUMBEE ? PFT_PKT_F_ALTIS : 0);
}

#define CMP_FLAGS (PFT_PKT_F_CC | PFT_PKT_F_NS | PFT_PKT_F_HYP | PFT_PKT_F_ALTIS | \
		   PFT_PKT_F_TS_R | PFT_PKT_F_CID)

static int same(const struct pft_packet *a, const struct pft_packet *b)
{
	if (a->type != b->type || (a->flags & CMP_FLAGS) != (b->flags & CMP_FLAGS))
		return 0;
	if (a->type == PFT_PKT_ASYNC)
		return a->size == b->size;
	return a->address == b->address && a->isa == b->isa && a->exception == b->exception &&
	       a->cycles == b->cycles && a->atoms == b->atoms &&
	       a->atom_count == b->atom_count && a->timestamp == b->timestamp &&
	       a->context_id == b->context_id && a->vmid == b->vmid && a->reason == b->reason;
}

static struct pft_packet want[BATCH], got[BATCH + 8];
static uint8_t bytes[BATCH * 16], again[BATCH * 16];

static uint64_t run_config(const struct pft_config *c, uint64_t seed)
{
	struct gen g;
	struct pft_pkt_encoder *e = pft_pkt_encoder_alloc(c), *e2 = pft_pkt_encoder_alloc(c);
	uint64_t done = 0;
	int batch;

	CHECK(e && e2);
	if (!e || !e2)
		return 0;
	memset(&g, 0, sizeof(g));
	g.rng = seed;
	pft_config_features(c, &g.f);
	for (batch = 0; done < PACKETS_PER_CONFIG; batch++) {
		size_t n = 0, o = 0, o2 = 0;
		int i, k, bad = 0;

		/* each batch is a stream of its own, starting with sync */
		pft_pkt_encoder_reset(e);
		pft_pkt_encoder_reset(e2);
		for (i = 0; i < BATCH; i++) {
			int r;
			gen_packet(&g, &want[i], i < 2 ? i + 1 : 0);
			r = pft_pkt_encoder_encode(e, &want[i], bytes + o, sizeof(bytes) - o);
			CHECK(r > 0);
			if (r <= 0) {
				pkt_print(stderr, &want[i]);
				goto out;
			}
			o += (size_t)r;
			n++;
		}
		k = pkt_decode_all(c, bytes, o, got, BATCH + 8);
		CHECK_EQ(k, (int)n);
		for (i = 0; i < k && i < (int)n; i++) {
			if (!same(&want[i], &got[i]) && !bad++) {
				fprintf(stderr, "packet %d differs (seed 0x%llx, batch %d):\n  want ",
					i, (unsigned long long)seed, batch);
				pkt_print(stderr, &want[i]);
				fprintf(stderr, "  got  ");
				pkt_print(stderr, &got[i]);
			}
			/* the decoded packet re-encodes to the same bytes */
			if (got[i].type != PFT_PKT_ERROR && got[i].type != PFT_PKT_UNSYNCED) {
				int r = pft_pkt_encoder_encode(e2, &got[i], again + o2, sizeof(again) - o2);
				if (r > 0)
					o2 += (size_t)r;
			}
		}
		CHECK_EQ(bad, 0);
		CHECK_EQ(o2, o);
		CHECK(!memcmp(again, bytes, o));
		if (bad || o2 != o)
			goto out;
		done += n;
	}
out:
	pft_pkt_encoder_free(e);
	pft_pkt_encoder_free(e2);
	return done;
}

int main(void)
{
	uint64_t seed = check_seed(0x9f7a11ce), total = 0;
	static const uint8_t cid_sel[4] = { 0, 1, 2, 3 };
	unsigned minor, ca, cid, tsv, vmid, nconf = 0;

	for (minor = 0; minor < 2; minor++)
		for (ca = 0; ca < 2; ca++)
			for (cid = 0; cid < 4; cid++)
				for (tsv = 0; tsv < (minor ? 4u : 1u); tsv++)
					for (vmid = 0; vmid < (minor ? 2u : 1u); vmid++) {
						/* tsv: bit 0 = binary (CCER[28]), bit 1 = 64-bit (CCER[29]) */
						uint32_t cr = 0x10000000u | (ca ? 0x1000u : 0) |
							      (uint32_t)cid_sel[cid] << 14 |
							      (vmid ? 0x40000000u : 0);
						uint32_t ccer = minor ? (0x04C01AC2u | (tsv & 1) << 28 |
									 (tsv >> 1) << 29)
								      : CCER_V10;
						struct pft_config c =
							pkt_cfg(cr, ccer, minor ? IDR_V11 : IDR_V10);
						struct pft_features f;
						CHECK_EQ(pft_config_features(&c, &f), 0);
						if (minor)
							CHECK_EQ(f.ts_bits, tsv & 2 ? 64 : 48);
						total += run_config(&c, seed + nconf * 0x1000193u);
						nconf++;
					}
	printf("%u configurations, %llu packets round-tripped\n", nconf,
	       (unsigned long long)total);
	CHECK_EQ(nconf, 72);
	CHECK(total >= 1000000);
	return check_report();
}
