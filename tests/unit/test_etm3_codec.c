/* SPDX-License-Identifier: BSD-3-Clause */
/* ETMv3 encoder <-> decoder round trips under every configuration that
 * changes the byte stream: ETMv3.0/3.3/3.4/3.5, original and alternative
 * branch encoding, cycle-accurate or not, context ID 0/1/2/4 bytes, data
 * value / address trace, data-only mode, 48/64-bit timestamps.
 *
 * For each configuration random packets of every type the configuration
 * allows are encoded; decoding the bytes must give the same packets (no
 * error, no unsynced byte), re-encoding the decoded packets must give the
 * same bytes, and decoding in random chunks must give the same items. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/etm3.h"

#define NPKT 300

struct gen {
	uint64_t rng;
	const struct pft_etm3_features *f;
	uint8_t isa, altis;
	uint32_t addr;
	uint64_t ts;
};

static uint32_t rnd(struct gen *g, uint32_t n)
{
	return n ? (uint32_t)(check_rand(&g->rng) % n) : 0;
}

/* A value of a random bit width. */
static uint32_t rbits(struct gen *g)
{
	unsigned w = rnd(g, 33);
	uint32_t v = (uint32_t)check_rand(&g->rng);
	return w >= 32 ? v : v & ((1u << w) - 1u);
}

static uint32_t align(uint32_t a, unsigned isa)
{
	if (isa == PFT_ISA_ARM || isa == PFT_ISA_UNKNOWN)
		return a & ~3u;
	if (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE)
		return a & ~1u;
	return a;
}

static unsigned rand_isa(struct gen *g)
{
	static const uint8_t isas[4] = { PFT_ISA_ARM, PFT_ISA_THUMB, PFT_ISA_THUMBEE, PFT_ISA_JAZELLE };
	return isas[rnd(g, 4)];
}

static void gen_isync(struct gen *g, struct pft_etm3_packet *p)
{
	const struct pft_etm3_features *f = g->f;
	unsigned isa = rand_isa(g);

	p->type = PFT_ETM3_ISYNC;
	p->reason = (uint8_t)rnd(g, 4);
	p->flags = (uint16_t)(rnd(g, 2) ? PFT_E3F_NS : 0) | (rnd(g, 2) ? PFT_E3F_HYP : 0) |
		   (rnd(g, 2) ? PFT_E3F_INFO0 : 0) | (rnd(g, 2) ? PFT_E3F_ALTIS : 0);
	if (rnd(g, 2)) {
		p->flags |= PFT_E3F_CC;
		p->cycles = rbits(g);
	}
	if (f->contextid_bytes) {
		p->flags |= PFT_E3F_CID;
		p->context_id = (uint32_t)check_rand(&g->rng);
		if (f->contextid_bytes < 4)
			p->context_id &= (1u << (8 * f->contextid_bytes)) - 1u;
	}
	if (f->data_only) {
		p->flags |= PFT_E3F_NOADDR | (rnd(g, 2) ? PFT_E3F_JAZELLE : 0);
		p->isa = g->isa;
		return;
	}
	if (isa == PFT_ISA_THUMBEE && f->minor < 3)
		isa = PFT_ISA_THUMB;
	if (isa == PFT_ISA_THUMBEE)
		p->flags |= PFT_E3F_ALTIS;
	if (isa == PFT_ISA_THUMB && f->minor >= 3)
		p->flags &= (uint16_t)~PFT_E3F_ALTIS;
	if (isa == PFT_ISA_JAZELLE)
		p->flags |= PFT_E3F_JAZELLE;
	p->isa = (uint8_t)isa;
	p->address = align((uint32_t)check_rand(&g->rng), isa);
	if (rnd(g, 4) == 0) {
		p->flags |= PFT_E3F_LSIP | (rnd(g, 2) ? PFT_E3F_VARIANT : 0);
		p->lsip_address = align((uint32_t)p->address ^ rbits(g), isa);
	}
	g->isa = (uint8_t)isa;
	g->addr = (uint32_t)p->address;
	g->altis = f->minor >= 3 && (p->flags & PFT_E3F_ALTIS);
}

static void gen_branch(struct gen *g, struct pft_etm3_packet *p)
{
	unsigned isa = g->isa;

	p->type = PFT_ETM3_BRANCH;
	if (rnd(g, 4) == 0 || (isa == PFT_ISA_UNKNOWN && rnd(g, 2)))
		isa = rand_isa(g);
	if (isa == PFT_ISA_UNKNOWN && !g->f->alt_branch && rnd(g, 2))
		isa = rand_isa(g);
	if (rnd(g, 10) == 0) { /* original byte-5 exception form */
		isa = PFT_ISA_ARM;
		p->flags = PFT_E3F_EXC | PFT_E3F_EXC_OLD | (rnd(g, 2) ? PFT_E3F_CANCEL : 0);
		p->exception = (uint16_t)rnd(g, 8);
	} else if (rnd(g, 3) == 0) {
		p->flags = PFT_E3F_EXC | (rnd(g, 2) ? PFT_E3F_NS : 0) | (rnd(g, 2) ? PFT_E3F_CANCEL : 0) |
			   (rnd(g, 2) ? PFT_E3F_ALTIS : 0) | (rnd(g, 3) == 0 ? PFT_E3F_HYP : 0) |
			   (rnd(g, 4) == 0 ? PFT_E3F_E1 : 0);
		p->exception = (uint16_t)(rnd(g, 2) ? rnd(g, 16) : rnd(g, 512));
		if (rnd(g, 4) == 0)
			p->resume = (uint8_t)rnd(g, 16);
		if (p->exception > 15 || (p->flags & PFT_E3F_HYP))
			p->flags |= PFT_E3F_E1;
		if (isa == PFT_ISA_UNKNOWN && !g->f->alt_branch) {
			p->flags = 0;
			p->exception = 0;
			p->resume = 0;
		}
		if (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE) {
			p->flags &= (uint16_t)~PFT_E3F_ALTIS;
			if (isa == PFT_ISA_THUMBEE)
				p->flags |= PFT_E3F_ALTIS;
		}
	}
	if ((isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE) && !(p->flags & PFT_E3F_EXC) &&
	    (isa == PFT_ISA_THUMBEE) != (g->altis != 0))
		isa = g->altis ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
	if (isa == PFT_ISA_UNKNOWN)
		p->address = align(rbits(g) & 0x07FFFFFFu, isa);
	else
		p->address = align(g->addr ^ rbits(g), isa);
	p->isa = (uint8_t)isa;
	if (rnd(g, 4) == 0)
		p->addr_bytes = (uint8_t)(1 + rnd(g, isa == PFT_ISA_UNKNOWN ? 4 : 5));
}

static void gen_phdr(struct gen *g, struct pft_etm3_packet *p)
{
	int ca = g->f->cycle_accurate;
	unsigned fmt = ca ? 1 + rnd(g, 4) : 1 + rnd(g, 2), e, n;

	p->type = PFT_ETM3_PHDR;
	p->format = (uint8_t)fmt;
	switch (fmt) {
	case 1:
		e = rnd(g, ca ? 8 : 16);
		n = rnd(g, 2);
		if (ca && e + n == 0)
			e = 1;
		p->atom_count = (uint8_t)(e + n);
		p->atoms = (1u << e) - 1u;
		p->cycles = ca ? e + n : 0;
		break;
	case 2:
		p->atom_count = 2;
		p->atoms = rnd(g, 4);
		p->cycles = ca ? 1 : 0;
		break;
	case 3:
		p->cycles = 1 + rnd(g, 8);
		p->atom_count = (uint8_t)rnd(g, 2);
		p->atoms = p->atom_count;
		break;
	default:
		p->atom_count = 1;
		p->atoms = rnd(g, 2);
		break;
	}
}

static void gen_data(struct gen *g, struct pft_etm3_packet *p)
{
	static const uint8_t sizes[4] = { 0, 1, 2, 4 };
	const struct pft_etm3_features *f = g->f;
	unsigned k = rnd(g, 6);

	if (k == 1 && !f->data_value)
		k = 0;
	if (k == 5 && !f->data_value)
		k = 4;
	switch (k) {
	case 0:
		p->type = PFT_ETM3_DATA;
		break;
	case 1:
		p->type = PFT_ETM3_OOO_DATA;
		break;
	case 2:
		p->type = PFT_ETM3_OOO_PLACEHOLDER;
		break;
	case 3:
		p->type = PFT_ETM3_VALUE_NOT_TRACED;
		break;
	case 4:
		p->type = PFT_ETM3_DATA_SUPPRESSED;
		return;
	default:
		p->type = PFT_ETM3_STORE_FAILED;
		return;
	}
	if (p->type == PFT_ETM3_DATA || p->type == PFT_ETM3_OOO_DATA) {
		p->data_size = sizes[rnd(g, 4)];
		p->data_value = (uint32_t)check_rand(&g->rng);
		if (p->data_size < 4)
			p->data_value &= (1u << (8 * p->data_size)) - 1u;
	}
	if (p->type == PFT_ETM3_OOO_DATA || p->type == PFT_ETM3_OOO_PLACEHOLDER)
		p->tag = (uint8_t)(1 + rnd(g, 3));
	if (p->type == PFT_ETM3_OOO_DATA)
		return;
	if (p->type == PFT_ETM3_VALUE_NOT_TRACED) {
		if (rnd(g, 2))
			p->flags |= PFT_E3F_VARIANT;
		if (f->data_address)
			p->flags |= PFT_E3F_DADDR;
	} else if (rnd(g, 2)) {
		p->flags |= f->data_address ? PFT_E3F_DADDR : PFT_E3F_VARIANT;
	}
	if (p->flags & PFT_E3F_DADDR) {
		p->address = (uint32_t)check_rand(&g->rng);
		if (rnd(g, 4) == 0)
			p->daddr_hi = (uint8_t)rnd(g, 16);
		if (rnd(g, 4) == 0)
			p->addr_bytes = (uint8_t)(1 + rnd(g, 5));
	}
}

static void gen_packet(struct gen *g, struct pft_etm3_packet *p)
{
	const struct pft_etm3_features *f = g->f;
	unsigned k;

	memset(p, 0, sizeof(*p));
	for (;;) {
		k = rnd(g, 16);
		if (k >= 12 && !(f->data_value || f->data_address))
			continue;
		if (k == 7 && !f->contextid_bytes)
			continue;
		break;
	}
	switch (k) {
	case 0: gen_isync(g, p); break;
	case 1: case 2: case 3: gen_phdr(g, p); break;
	case 4: case 5: gen_branch(g, p); break;
	case 6:
		p->type = PFT_ETM3_CYCLE_COUNT;
		p->cycles = rbits(g);
		p->flags = PFT_E3F_CC;
		break;
	case 7:
		p->type = PFT_ETM3_CONTEXT_ID;
		p->context_id = (uint32_t)check_rand(&g->rng);
		if (f->contextid_bytes < 4)
			p->context_id &= (1u << (8 * f->contextid_bytes)) - 1u;
		break;
	case 8:
		p->type = PFT_ETM3_VMID;
		p->vmid = (uint8_t)rnd(g, 256);
		break;
	case 9:
		p->type = PFT_ETM3_TIMESTAMP;
		p->timestamp = rnd(g, 4) ? (g->ts ^ rbits(g)) : check_rand(&g->rng);
		if (f->ts_bits == 48)
			p->timestamp &= (1ull << 48) - 1ull;
		if (rnd(g, 2))
			p->flags = PFT_E3F_TS_R;
		g->ts = p->timestamp;
		break;
	case 10: {
		static const uint8_t simple[5] = { PFT_ETM3_TRIGGER, PFT_ETM3_EXCEPTION_RETURN,
						   PFT_ETM3_EXCEPTION_ENTRY, PFT_ETM3_IGNORE,
						   PFT_ETM3_ASYNC };
		p->type = simple[rnd(g, 5)];
		if (p->type == PFT_ETM3_ASYNC)
			p->size = 6 + rnd(g, 30);
		break;
	}
	case 11: gen_phdr(g, p); break;
	default: gen_data(g, p); break;
	}
	if (p->type == PFT_ETM3_BRANCH) {
		g->isa = p->isa;
		g->addr = (uint32_t)p->address;
		if ((p->flags & PFT_E3F_EXC) && !(p->flags & PFT_E3F_EXC_OLD))
			g->altis = (p->flags & PFT_E3F_ALTIS) != 0;
	}
}

/* The fields a packet of this type carries. */
static int same(const struct pft_etm3_packet *a, const struct pft_etm3_packet *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case PFT_ETM3_ASYNC:
		return a->size == b->size;
	case PFT_ETM3_ISYNC:
		return a->flags == b->flags && a->reason == b->reason && a->isa == b->isa &&
		       a->address == b->address && (!(a->flags & PFT_E3F_CC) || a->cycles == b->cycles) &&
		       a->context_id == b->context_id && a->lsip_address == b->lsip_address;
	case PFT_ETM3_BRANCH:
		return a->flags == b->flags && a->isa == b->isa && a->address == b->address &&
		       a->exception == b->exception && a->resume == b->resume;
	case PFT_ETM3_PHDR:
		return a->format == b->format && a->atoms == b->atoms &&
		       a->atom_count == b->atom_count && a->cycles == b->cycles;
	case PFT_ETM3_CYCLE_COUNT:
		return a->cycles == b->cycles;
	case PFT_ETM3_CONTEXT_ID:
		return a->context_id == b->context_id;
	case PFT_ETM3_VMID:
		return a->vmid == b->vmid;
	case PFT_ETM3_TIMESTAMP:
		return a->timestamp == b->timestamp && a->flags == b->flags;
	case PFT_ETM3_DATA:
	case PFT_ETM3_OOO_DATA:
	case PFT_ETM3_OOO_PLACEHOLDER:
	case PFT_ETM3_VALUE_NOT_TRACED:
		return a->flags == b->flags && a->address == b->address && a->daddr_hi == b->daddr_hi &&
		       a->data_value == b->data_value && a->data_size == b->data_size && a->tag == b->tag;
	default:
		return 1;
	}
}

struct items {
	struct pft_etm3_packet v[NPKT + 8];
	size_t n;
};

static int decode(const struct pft_config *cfg, const uint8_t *buf, size_t len, uint64_t *rng,
		  struct items *out)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(cfg);
	size_t pos = 0;
	int r;

	out->n = 0;
	if (!d)
		return -1;
	for (;;) {
		size_t n = len - pos;
		if (rng)
			n = (size_t)(check_rand(rng) % 12);
		if (n > len - pos)
			n = len - pos;
		if (pft_etm3_decoder_feed(d, buf + pos, n))
			break;
		pos += n;
		if (pos == len)
			pft_etm3_decoder_end(d);
		if (rng) { /* batches of random size: the same items as one at a time */
			while ((r = pft_etm3_decoder_next_batch(d, &out->v[out->n], 1 + check_rand(rng) % 7,
							sizeof(out->v[0]))) > 0) {
				out->n += (size_t)r;
				if (out->n > NPKT)
					return -1;
			}
			if (r == 0)
				r = -PFT_E_INVAL;
		} else {
			while ((r = pft_etm3_decoder_next(d, &out->v[out->n], sizeof(out->v[0]))) == 0)
				if (out->n < NPKT + 7)
					out->n++;
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	pft_etm3_decoder_free(d);
	return r == -PFT_E_EOS ? 0 : -1;
}

static int round_trip(const struct pft_config *cfg, uint64_t seed)
{
	static struct pft_etm3_packet gen[NPKT];
	static struct items dec, dec2;
	static uint8_t buf[NPKT * 40], buf2[NPKT * 40];
	struct pft_etm3_features f;
	struct pft_etm3_encoder *e = pft_etm3_encoder_alloc(cfg);
	struct gen g;
	size_t len = 0, len2 = 0, n = 0, i;
	int r, ok = 1;

	if (pft_etm3_config_features(cfg, &f, NULL, 0) || !e)
		return 0;
	memset(&g, 0, sizeof(g));
	g.rng = seed;
	g.f = &f;
	g.isa = PFT_ISA_UNKNOWN;
	/* start with an A-sync */
	memset(&gen[0], 0, sizeof(gen[0]));
	gen[0].type = PFT_ETM3_ASYNC;
	gen[0].size = 6;
	r = pft_etm3_encoder_encode(e, &gen[0], buf, sizeof(buf));
	len = (size_t)r;
	n = 1;
	while (n < NPKT) {
		struct pft_etm3_packet p;
		struct gen saved = g;
		gen_packet(&g, &p);
		r = pft_etm3_encoder_encode(e, &p, buf + len, sizeof(buf) - len);
		if (r < 0) {
			fprintf(stderr, "encoder refused type %s (minor %u ca %u alt %u): isa %u/%u flags %x exc %u addr %llx/%x\n",
				pft_etm3_pkt_type_name(p.type), f.minor, f.cycle_accurate, f.alt_branch,
				p.isa, saved.isa, p.flags, p.exception, (unsigned long long)p.address, saved.addr);
			g = saved;
			ok = 0;
			break;
		}
		len += (size_t)r;
		gen[n++] = p;
	}
	pft_etm3_encoder_free(e);
	if (decode(cfg, buf, len, NULL, &dec) || dec.n != n) {
		fprintf(stderr, "decode: %zu items for %zu packets\n", dec.n, n);
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (!same(&gen[i], &dec.v[i])) {
			fprintf(stderr, "packet %zu (%s, %s) differs after decoding (flags %x/%x addr %llx/%llx isa %u/%u)\n",
				i, pft_etm3_pkt_type_name(gen[i].type),
				pft_etm3_pkt_type_name(dec.v[i].type), gen[i].flags, dec.v[i].flags,
				(unsigned long long)gen[i].address,
				(unsigned long long)dec.v[i].address, gen[i].isa, dec.v[i].isa);
			return 0;
		}
	}
	e = pft_etm3_encoder_alloc(cfg);
	for (i = 0; i < n; i++) {
		r = pft_etm3_encoder_encode(e, &dec.v[i], buf2 + len2, sizeof(buf2) - len2);
		if (r < 0 || (size_t)r != dec.v[i].size || memcmp(buf2 + len2, buf + dec.v[i].offset, (size_t)r)) {
			fprintf(stderr, "re-encoding packet %zu (%s) gives %d bytes (%02x.. vs %02x..)\n", i,
				pft_etm3_pkt_type_name(dec.v[i].type), r, r > 0 ? buf2[len2] : 0, buf[dec.v[i].offset]);
			ok = 0;
			break;
		}
		len2 += (size_t)r;
	}
	pft_etm3_encoder_free(e);
	if (!ok || len2 != len || memcmp(buf, buf2, len)) {
		fprintf(stderr, "re-encoding differs\n");
		return 0;
	}
	{
		uint64_t rng = seed ^ 0x9E3779B97F4A7C15ull;
		if (decode(cfg, buf, len, &rng, &dec2) || dec2.n != dec.n ||
		    memcmp(dec2.v, dec.v, dec.n * sizeof(dec.v[0]))) {
			fprintf(stderr, "chunked decode differs\n");
			return 0;
		}
	}
	return ok;
}

int main(void)
{
	static const uint8_t minors[4] = { 0, 3, 4, 5 };
	uint64_t seed = check_seed(0xE73E73ull), rng = seed;
	unsigned mi, alt, ca, cid, dt, donly, ts64, nconf = 0;
	struct pft_config cfg;

	for (mi = 0; mi < 4; mi++)
	for (alt = 0; alt < 2; alt++)
	for (ca = 0; ca < 2; ca++)
	for (cid = 0; cid < 4; cid++)
	for (dt = 0; dt < 4; dt++)
	for (donly = 0; donly < 2; donly++)
	for (ts64 = 0; ts64 < 2; ts64++) {
		if (donly && !dt)
			continue;
		pft_config_init(&cfg);
		cfg.etmidr = 0x410CF200u | (minors[mi] << 4) | (alt << 20);
		cfg.etmccer = ts64 << 29;
		cfg.etmcr = (ca << 12) | (cid << 14) | (dt << 2) | (donly << 20) | (1u << 28);
		nconf++;
		if (!round_trip(&cfg, check_rand(&rng))) {
			fprintf(stderr, "  config ETMIDR %08X ETMCR %08X ETMCCER %08X\n",
				(unsigned)cfg.etmidr, (unsigned)cfg.etmcr, (unsigned)cfg.etmccer);
			CHECK(0);
		} else {
			CHECK(1);
		}
	}
	printf("%u configurations\n", nconf);
	return check_report();
}
