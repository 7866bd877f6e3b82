/* SPDX-License-Identifier: BSD-3-Clause */
/* One ETMv3 packet from contiguous bytes: header classification and the
 * payload layouts of IHI 0014 chapter 7 (doc/etm3.md).  No stream state
 * beyond the compression state; the stream decoder (etm3_decoder.c) handles
 * A-sync, resynchronisation and chunking. */
#include <string.h>

#include "common/struct_size.h"
#include "etm3/etm3_internal.h"

#define NEED(k) do { if ((size_t)(k) > n) return 0; } while (0)
#define FAIL(len, why) do { pkt->reason = (why); return -(int)(len); } while (0)

/* A branch-format address (branch packets and the LSiP address of I-sync). */
struct baddr {
	uint32_t value;   /* address bits, before the ISA shift */
	unsigned bits;    /* bits carried (before the shift) */
	unsigned nbytes;  /* address bytes 1..5 */
	int exc_follow;   /* exception information bytes follow */
	int full;         /* 5 bytes: byte 5 gives the ISA */
	int isa_fam;      /* full: PFT_ISA_ARM, PFT_ISA_THUMB (family) or PFT_ISA_JAZELLE */
	int old_exc;      /* full: original byte-5 exception form (bit 7 set) */
	uint8_t b5;       /* full: byte 5 */
};

/* >0 bytes read, 0 need more, <0 -len malformed (reason in *why). */
static int read_baddr(int alt, const uint8_t *p, size_t n, struct baddr *b, uint8_t *why)
{
	unsigned k = 1;
	uint8_t c;

	memset(b, 0, sizeof(*b));
	if (n < 1)
		return 0;
	b->value = (p[0] >> 1) & 0x3F;
	b->bits = 6;
	c = p[0] & 0x80;
	while (c && k < 4) {
		uint8_t x;
		if (k >= n)
			return 0;
		x = p[k++];
		c = x & 0x80;
		if (alt && !c) {
			b->value |= (uint32_t)(x & 0x3F) << b->bits;
			b->bits += 6;
			b->exc_follow = (x & 0x40) != 0;
		} else {
			b->value |= (uint32_t)(x & 0x7F) << b->bits;
			b->bits += 7;
		}
	}
	if (c) {
		uint8_t x;
		if (k >= n)
			return 0;
		x = p[k++];
		b->full = 1;
		b->b5 = x;
		if (x & 0x80) {
			b->old_exc = 1;
			b->isa_fam = PFT_ISA_ARM;
			b->value |= (uint32_t)(x & 0x07) << b->bits;
			b->bits += 3;
		} else {
			b->exc_follow = (x & 0x40) != 0;
			if ((x & 0x38) == 0x08) {
				b->isa_fam = PFT_ISA_ARM;
				b->value |= (uint32_t)(x & 0x07) << b->bits;
				b->bits += 3;
			} else if ((x & 0x30) == 0x10) {
				b->isa_fam = PFT_ISA_THUMB;
				b->value |= (uint32_t)(x & 0x0F) << b->bits;
				b->bits += 4;
			} else if (x & 0x20) {
				b->isa_fam = PFT_ISA_JAZELLE;
				b->value |= (uint32_t)(x & 0x1F) << b->bits;
				b->bits += 5;
			} else {
				*why = PFT_E3ERR_BAD_ADDRESS;
				return -(int)k;
			}
		}
	}
	b->nbytes = k;
	return (int)k;
}

/* Cycle count field: 1..5 bytes, 7 bits each with bit 7 = more, byte 5
 * carries bits [31:28] in its low nibble.  >0 bytes, 0 need more, <0 bad. */
static int read_cc(const uint8_t *p, size_t n, uint32_t *out)
{
	uint32_t v = 0;
	unsigned k;

	for (k = 0; k < 5; k++) {
		if (k >= n)
			return 0;
		if (k == 4) {
			if (p[4] & 0xF0)
				return -5;
			v |= (uint32_t)p[4] << 28;
			*out = v;
			return 5;
		}
		v |= (uint32_t)(p[k] & 0x7F) << (7 * k);
		if (!(p[k] & 0x80)) {
			*out = v;
			return (int)k + 1;
		}
	}
	return -5; /* not reached */
}

/* Data address field: 1..5 bytes, 7 bits each with bit 7 = more; byte 5
 * carries bits [31:28] in [3:0], [7:4] are reported as daddr_hi. */
static int read_daddr(struct etm3_state *st, const uint8_t *p, size_t n,
		      struct pft_etm3_packet *pkt)
{
	uint32_t v = 0;
	unsigned k, bits = 0;

	for (k = 0; k < 5; k++) {
		if (k >= n)
			return 0;
		if (k == 4) {
			v |= (uint32_t)(p[4] & 0x0F) << 28;
			pkt->daddr_hi = p[4] >> 4;
			bits = 32;
			k = 5;
			break;
		}
		v |= (uint32_t)(p[k] & 0x7F) << (7 * k);
		bits += 7;
		if (!(p[k] & 0x80)) {
			k++;
			break;
		}
	}
	pkt->flags |= PFT_E3F_DADDR;
	pkt->addr_bytes = (uint8_t)k;
	pkt->address = etm3_merge32(st->daddr, v, bits);
	return (int)k;
}

int etm3_read_phdr(const struct pft_etm3_features *f, uint8_t b, struct pft_etm3_packet *pkt)
{
	unsigned e, nn;

	pkt->type = PFT_ETM3_PHDR;
	if (!f->cycle_accurate) {
		if ((b & 0x83) == 0x80) {
			e = (b >> 2) & 0xF;
			nn = (b >> 6) & 1;
			pkt->format = 1;
			pkt->atom_count = (uint8_t)(e + nn);
			pkt->atoms = (1u << e) - 1u;
			return 1;
		}
		if ((b & 0xF3) == 0x82) {
			pkt->format = 2;
			pkt->atom_count = 2;
			pkt->atoms = ((b & 0x08) ? 0u : 1u) | ((b & 0x04) ? 0u : 2u);
			return 1;
		}
		return 0;
	}
	if ((b & 0xA3) == 0x80) {
		e = (b >> 2) & 0x7;
		nn = (b >> 6) & 1;
		if (e + nn == 0)
			return 0;
		pkt->format = 1;
		pkt->atom_count = (uint8_t)(e + nn);
		pkt->atoms = (1u << e) - 1u;
		pkt->cycles = e + nn;
		return 1;
	}
	if ((b & 0xF3) == 0x82) {
		pkt->format = 2;
		pkt->atom_count = 2;
		pkt->atoms = ((b & 0x08) ? 0u : 1u) | ((b & 0x04) ? 0u : 2u);
		pkt->cycles = 1;
		return 1;
	}
	if ((b & 0xFB) == 0x92) {
		pkt->format = 4;
		pkt->atom_count = 1;
		pkt->atoms = (b & 0x04) ? 0u : 1u;
		pkt->cycles = 0;
		return 1;
	}
	if ((b & 0xA3) == 0xA0) {
		pkt->format = 3;
		pkt->cycles = ((b >> 2) & 7) + 1u;
		pkt->atom_count = (b >> 6) & 1;
		pkt->atoms = pkt->atom_count;
		return 1;
	}
	return 0;
}

int pft_etm3_phdr_byte(const struct pft_etm3_features *f, uint8_t b, struct pft_etm3_packet *pkt,
		       size_t size)
{
	struct pft_etm3_packet p;
	int r;

	if (!f || !pkt || !size)
		return -PFT_E_INVAL;
	memset(&p, 0, sizeof(p));
	r = (b & 0x81) == 0x80 && etm3_read_phdr(f, b, &p);
	if (r) {
		p.size = 1;
		p.nbytes = 1;
		p.bytes[0] = b;
	} else {
		memset(&p, 0, sizeof(p));
	}
	pft_copy_out(pkt, size, &p, sizeof(p));
	return r;
}

/* Exception information bytes 0..2 at p[0..n).  >0 bytes, 0 more, <0 bad. */
static int read_exc(const uint8_t *p, size_t n, struct pft_etm3_packet *pkt)
{
	unsigned k = 1;
	uint8_t x;

	if (n < 1)
		return 0;
	x = p[0];
	pkt->flags |= PFT_E3F_EXC;
	if (x & 0x01)
		pkt->flags |= PFT_E3F_NS;
	if (x & 0x20)
		pkt->flags |= PFT_E3F_CANCEL;
	if (x & 0x40)
		pkt->flags |= PFT_E3F_ALTIS;
	pkt->exception = (x >> 1) & 0xF;
	if (x & 0x80) {
		if (k >= n)
			return 0;
		x = p[k++];
		if (!(x & 0x40)) {
			pkt->flags |= PFT_E3F_E1;
			pkt->exception |= (uint16_t)((x & 0x1F) << 4);
			if (x & 0x20)
				pkt->flags |= PFT_E3F_HYP;
			if (!(x & 0x80))
				goto done;
			if (k >= n)
				return 0;
			x = p[k++];
		}
		/* byte 2: b0100RRRR */
		if ((x & 0xF0) != 0x40)
			return -(int)k;
		pkt->resume = x & 0x0F;
	}
done:
	pkt->exc_bytes = (uint8_t)k;
	return (int)k;
}

static int read_branch(const struct pft_etm3_features *f, struct etm3_state *st,
		       const uint8_t *p, size_t n, struct pft_etm3_packet *pkt)
{
	struct baddr b;
	uint8_t why = 0;
	int r, len, isa, altis = st->altis;
	unsigned sh;

	pkt->type = PFT_ETM3_BRANCH;
	r = read_baddr(f->alt_branch, p, n, &b, &why);
	if (r <= 0) {
		pkt->reason = why;
		return r;
	}
	len = r;
	if (b.old_exc) {
		pkt->flags |= PFT_E3F_EXC | PFT_E3F_EXC_OLD;
		if (b.b5 & 0x40)
			pkt->flags |= PFT_E3F_CANCEL;
		pkt->exception = (b.b5 >> 3) & 7;
	} else if (b.exc_follow) {
		r = read_exc(p + len, n - (size_t)len, pkt);
		if (r == 0)
			return 0;
		if (r < 0)
			FAIL(len - r, PFT_E3ERR_BAD_EXCEPTION);
		len += r;
		altis = (pkt->flags & PFT_E3F_ALTIS) != 0;
	}
	if (b.full) {
		isa = b.isa_fam;
		if (isa == PFT_ISA_THUMB && altis)
			isa = PFT_ISA_THUMBEE;
	} else {
		isa = st->isa;
	}
	sh = etm3_addr_shift((unsigned)isa);
	pkt->addr_bytes = (uint8_t)b.nbytes;
	pkt->isa = (uint8_t)isa;
	pkt->address = etm3_merge32(st->addr, b.value << sh, b.bits + sh);
	if (b.full)
		pkt->address &= ~((1u << sh) - 1u);
	st->addr = (uint32_t)pkt->address;
	st->isa = (uint8_t)isa;
	st->altis = (uint8_t)altis;
	return len;
}

static int read_isync(const struct pft_etm3_features *f, struct etm3_state *st,
		      const uint8_t *p, size_t n, struct pft_etm3_packet *pkt)
{
	size_t i = 1;
	uint8_t info;
	uint32_t a;
	int r, isa;

	pkt->type = PFT_ETM3_ISYNC;
	if (p[0] == 0x70) {
		r = read_cc(p + 1, n - 1, &pkt->cycles);
		if (r == 0)
			return 0;
		if (r < 0)
			FAIL(1 - r, PFT_E3ERR_BAD_FIELD);
		pkt->flags |= PFT_E3F_CC;
		pkt->cc_bytes = (uint8_t)r;
		i += (size_t)r;
	}
	if (f->contextid_bytes) {
		unsigned k;
		NEED(i + f->contextid_bytes);
		for (k = 0; k < f->contextid_bytes; k++)
			pkt->context_id |= (uint32_t)p[i + k] << (8 * k);
		pkt->flags |= PFT_E3F_CID;
		i += f->contextid_bytes;
	}
	NEED(i + 1);
	info = p[i++];
	pkt->reason = (info >> 5) & 3;
	if (info & 0x80)
		pkt->flags |= PFT_E3F_LSIP;
	if (info & 0x10)
		pkt->flags |= PFT_E3F_JAZELLE;
	if (info & 0x08)
		pkt->flags |= PFT_E3F_NS;
	if (info & 0x04)
		pkt->flags |= PFT_E3F_ALTIS;
	if (info & 0x02)
		pkt->flags |= PFT_E3F_HYP;
	if (info & 0x01)
		pkt->flags |= PFT_E3F_INFO0;
	if (f->data_only) {
		pkt->flags |= PFT_E3F_NOADDR;
		pkt->isa = st->isa;
		return (int)i;
	}
	NEED(i + 4);
	a = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
	    (uint32_t)p[i + 3] << 24;
	i += 4;
	if (info & 0x10) {
		isa = PFT_ISA_JAZELLE;
	} else if (a & 1) {
		isa = (f->minor >= 3 && (info & 0x04)) ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
		a &= ~1u;
	} else {
		isa = PFT_ISA_ARM;
	}
	if (info & 0x80) {
		struct baddr b;
		uint8_t why = 0;
		unsigned sh = etm3_addr_shift((unsigned)isa);
		int fam = isa == PFT_ISA_THUMBEE ? PFT_ISA_THUMB : isa;
		r = read_baddr(f->alt_branch, p + i, n - i, &b, &why);
		if (r == 0)
			return 0;
		if (r < 0)
			FAIL(i - (size_t)r, why);
		if (b.exc_follow || b.old_exc || (b.full && b.isa_fam != fam))
			FAIL(i + (size_t)r, PFT_E3ERR_BAD_FIELD);
		if (p[i] & 1)
			pkt->flags |= PFT_E3F_VARIANT;
		pkt->addr_bytes = (uint8_t)r;
		pkt->lsip_address = etm3_merge32(a, b.value << sh, b.bits + sh);
		i += (size_t)r;
	}
	pkt->address = a;
	pkt->isa = (uint8_t)isa;
	st->addr = a;
	st->isa = (uint8_t)isa;
	st->altis = (info & 0x04) && f->minor >= 3;
	return (int)i;
}

static int read_timestamp(const struct pft_etm3_features *f, struct etm3_state *st,
			  const uint8_t *p, size_t n, struct pft_etm3_packet *pkt)
{
	unsigned max = f->ts_bits == 64 ? 9 : 7, k, bits = 0;
	uint64_t v = 0;

	pkt->type = PFT_ETM3_TIMESTAMP;
	if (p[0] & 0x04)
		pkt->flags |= PFT_E3F_TS_R;
	for (k = 0; k < max; k++) {
		uint8_t x;
		NEED(2 + k);
		x = p[1 + k];
		if (k == max - 1) {
			if (max == 7 && (x & 0xC0))
				FAIL(2 + k, PFT_E3ERR_BAD_FIELD);
			v |= (uint64_t)x << (7 * k);
			bits = f->ts_bits;
			k++;
			break;
		}
		v |= (uint64_t)(x & 0x7F) << (7 * k);
		bits += 7;
		if (!(x & 0x80)) {
			k++;
			break;
		}
	}
	{
		uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1ull);
		pkt->timestamp = (st->ts & ~mask) | (v & mask);
	}
	pkt->ts_bytes = (uint8_t)k;
	st->ts = pkt->timestamp;
	return (int)(1 + k);
}

/* Normal data, out-of-order data / placeholder, value not traced. */
static int read_data(const struct pft_etm3_features *f, struct etm3_state *st,
		     const uint8_t *p, size_t n, struct pft_etm3_packet *pkt, int has_addr,
		     unsigned size_code)
{
	static const uint8_t vbytes[4] = { 0, 1, 2, 4 };
	size_t i = 1;
	unsigned k;
	int r;

	(void)f;
	if (has_addr) {
		r = read_daddr(st, p + 1, n - 1, pkt);
		if (r == 0)
			return 0;
		i += (size_t)r;
	}
	if (size_code < 4) {
		pkt->data_size = vbytes[size_code];
		NEED(i + pkt->data_size);
		for (k = 0; k < pkt->data_size; k++)
			pkt->data_value |= (uint32_t)p[i + k] << (8 * k);
		i += pkt->data_size;
	}
	if (has_addr)
		st->daddr = (uint32_t)pkt->address;
	return (int)i;
}

int etm3_read(const struct pft_etm3_features *f, struct etm3_state *st, const uint8_t *p,
	      size_t n, struct pft_etm3_packet *pkt)
{
	uint8_t b;
	int data = f->data_value || f->data_address;
	int r;

	if (n < 1)
		return 0;
	b = p[0];
	if (b & 1)
		return read_branch(f, st, p, n, pkt);
	if ((b & 0x81) == 0x80) {
		if (!etm3_read_phdr(f, b, pkt))
			FAIL(1, PFT_E3ERR_RESERVED_HEADER);
		return 1;
	}
	switch (b) {
	case 0x04:
		pkt->type = PFT_ETM3_CYCLE_COUNT;
		r = read_cc(p + 1, n - 1, &pkt->cycles);
		if (r < 0)
			FAIL(1 - r, PFT_E3ERR_BAD_FIELD);
		if (r == 0)
			return 0;
		pkt->flags |= PFT_E3F_CC;
		pkt->cc_bytes = (uint8_t)r;
		return 1 + r;
	case 0x08:
	case 0x70:
		return read_isync(f, st, p, n, pkt);
	case 0x0C:
		pkt->type = PFT_ETM3_TRIGGER;
		return 1;
	case 0x3C:
		pkt->type = PFT_ETM3_VMID;
		NEED(2);
		pkt->vmid = p[1];
		return 2;
	case 0x42:
	case 0x46:
		return read_timestamp(f, st, p, n, pkt);
	case 0x50:
		if (!f->data_value)
			FAIL(1, PFT_E3ERR_NO_DATA_TRACE);
		pkt->type = PFT_ETM3_STORE_FAILED;
		return 1;
	case 0x62:
		if (!data)
			FAIL(1, PFT_E3ERR_NO_DATA_TRACE);
		pkt->type = PFT_ETM3_DATA_SUPPRESSED;
		return 1;
	case 0x66:
		pkt->type = PFT_ETM3_IGNORE;
		return 1;
	case 0x6E: {
		unsigned k, nb = f->contextid_bytes;
		pkt->type = PFT_ETM3_CONTEXT_ID;
		if (!nb)
			FAIL(1, PFT_E3ERR_NO_CONTEXT_ID);
		NEED(1 + nb);
		for (k = 0; k < nb; k++)
			pkt->context_id |= (uint32_t)p[1 + k] << (8 * k);
		return (int)(1 + nb);
	}
	case 0x76:
		pkt->type = PFT_ETM3_EXCEPTION_RETURN;
		return 1;
	case 0x7E:
		pkt->type = PFT_ETM3_EXCEPTION_ENTRY;
		return 1;
	default:
		break;
	}
	if ((b & 0xEF) == 0x6A) {
		if (!data)
			FAIL(1, PFT_E3ERR_NO_DATA_TRACE);
		pkt->type = PFT_ETM3_VALUE_NOT_TRACED;
		if (b & 0x10)
			pkt->flags |= PFT_E3F_VARIANT;
		return read_data(f, st, p, n, pkt, f->data_address, 4);
	}
	if ((b & 0xD3) == 0x02) {
		if (!data)
			FAIL(1, PFT_E3ERR_NO_DATA_TRACE);
		pkt->type = PFT_ETM3_DATA;
		if ((b & 0x20) && !f->data_address)
			pkt->flags |= PFT_E3F_VARIANT;
		return read_data(f, st, p, n, pkt, (b & 0x20) && f->data_address, (b >> 2) & 3);
	}
	if ((b & 0xD3) == 0x50 && (b & 0x0C)) {
		if (!data)
			FAIL(1, PFT_E3ERR_NO_DATA_TRACE);
		pkt->type = PFT_ETM3_OOO_PLACEHOLDER;
		pkt->tag = (b >> 2) & 3;
		if ((b & 0x20) && !f->data_address)
			pkt->flags |= PFT_E3F_VARIANT;
		return read_data(f, st, p, n, pkt, (b & 0x20) && f->data_address, 4);
	}
	if ((b & 0x93) == 0x00 && (b & 0x60)) {
		if (!f->data_value)
			FAIL(1, PFT_E3ERR_NO_DATA_TRACE);
		pkt->type = PFT_ETM3_OOO_DATA;
		pkt->tag = (b >> 5) & 3;
		return read_data(f, st, p, n, pkt, 0, (b >> 2) & 3);
	}
	FAIL(1, PFT_E3ERR_RESERVED_HEADER);
}
