/* SPDX-License-Identifier: BSD-3-Clause */
/* The ETMv3 packet encoder: the exact inverse of etm3_read() under the same
 * compression state (doc/etm3.md, "Encoder"). */
#include <stdlib.h>
#include <string.h>

#include "etm3/etm3_internal.h"

struct pft_etm3_encoder {
	struct pft_etm3_features f;
	struct etm3_state st;
};

struct pft_etm3_encoder *pft_etm3_encoder_alloc(const struct pft_config *cfg)
{
	struct pft_etm3_encoder *e;
	struct pft_etm3_features f;

	if (pft_etm3_config_features(cfg, &f, NULL, 0))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->f = f;
	etm3_state_reset(&e->st);
	return e;
}

void pft_etm3_encoder_free(struct pft_etm3_encoder *enc)
{
	free(enc);
}

void pft_etm3_encoder_reset(struct pft_etm3_encoder *enc)
{
	if (enc)
		etm3_state_reset(&enc->st);
}

static unsigned max_u(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

/* Cycle count field, at least `want` bytes.  Returns bytes written. */
static unsigned put_cc(uint8_t *o, uint32_t v, unsigned want)
{
	unsigned n = 1, k;

	while (n < 5 && (v >> (7 * n)) != 0)
		n++;
	n = max_u(n, want);
	if (n > 5)
		n = 5;
	for (k = 0; k < n; k++) {
		if (k == 4)
			o[4] = (uint8_t)(v >> 28);
		else
			o[k] = (uint8_t)(((v >> (7 * k)) & 0x7F) | (k + 1 < n ? 0x80 : 0));
	}
	return n;
}

/* Data address field relative to st->daddr.  Returns bytes written. */
static unsigned put_daddr(struct etm3_state *st, uint8_t *o, const struct pft_etm3_packet *pkt)
{
	uint32_t a = (uint32_t)pkt->address, diff = a ^ st->daddr;
	unsigned n = 1, k;

	while (n < 5 && (diff >> (7 * n)) != 0)
		n++;
	n = max_u(n, pkt->addr_bytes);
	if (n > 5 || pkt->daddr_hi)
		n = 5;
	for (k = 0; k < n; k++) {
		if (k == 4)
			o[4] = (uint8_t)(((a >> 28) & 0x0F) | (pkt->daddr_hi << 4));
		else
			o[k] = (uint8_t)(((a >> (7 * k)) & 0x7F) | (k + 1 < n ? 0x80 : 0));
	}
	st->daddr = etm3_merge32(st->daddr, a, n == 5 ? 32 : 7 * n);
	return n;
}

/* Branch-format address bytes of `addr` relative to `old` (ISA shift sh).
 * k: number of bytes (1..5) already chosen; exc: exception bytes follow;
 * fam_bits: byte-5 ISA pattern; b0: bit 0 of byte 1. */
static void put_baddr(uint8_t *o, uint32_t addr, unsigned sh, unsigned k, int alt, int exc,
		      uint8_t fam_bits, unsigned fam_width, uint8_t b0)
{
	uint32_t v = addr >> sh;
	unsigned j, pos = 6;

	o[0] = (uint8_t)(b0 | ((v & 0x3F) << 1) | (k > 1 ? 0x80 : 0));
	for (j = 1; j < k && j < 4; j++) {
		int last = j + 1 == k;
		if (alt && last) {
			o[j] = (uint8_t)(((v >> pos) & 0x3F) | (exc ? 0x40 : 0));
			pos += 6;
		} else {
			o[j] = (uint8_t)(((v >> pos) & 0x7F) | (last ? 0 : 0x80));
			pos += 7;
		}
	}
	if (k == 5)
		o[4] = (uint8_t)(fam_bits | ((v >> 27) & ((1u << fam_width) - 1u)) | (exc ? 0x40 : 0));
}

static unsigned fewest_baddr(uint32_t addr, uint32_t old, unsigned sh, int alt, int exc)
{
	unsigned k;

	for (k = exc && alt ? 2 : 1; k < 5; k++) {
		unsigned bits = etm3_short_bits(k, alt) + sh;
		uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : ((1u << bits) - 1u);
		if (exc && !alt)
			break;
		if (((addr ^ old) & ~mask) == 0)
			return k;
	}
	return 5;
}

static void isa_pattern(unsigned isa, uint8_t *bits, unsigned *width)
{
	if (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE) {
		*bits = 0x10;
		*width = 4;
	} else if (isa == PFT_ISA_JAZELLE) {
		*bits = 0x20;
		*width = 5;
	} else {
		*bits = 0x08;
		*width = 3;
	}
}

static int enc_branch(struct pft_etm3_encoder *e, const struct pft_etm3_packet *pkt, uint8_t *o)
{
	struct etm3_state *st = &e->st;
	unsigned isa = pkt->isa, sh, k, fw, n;
	uint32_t addr = (uint32_t)pkt->address;
	int alt = e->f.alt_branch, old = (pkt->flags & PFT_E3F_EXC_OLD) != 0;
	int exc = (pkt->flags & PFT_E3F_EXC) && !old;
	int altis = st->altis;
	uint8_t fb, x[3];
	unsigned nx = 0;

	if (isa > PFT_ISA_UNKNOWN || pkt->address > 0xFFFFFFFFu)
		return -PFT_E_INVAL;
	if (isa == PFT_ISA_UNKNOWN && (st->isa != PFT_ISA_UNKNOWN || old))
		return -PFT_E_INVAL;
	sh = etm3_addr_shift(isa);
	if (addr & ((1u << sh) - 1u))
		return -PFT_E_INVAL;
	if (exc) {
		unsigned num = pkt->exception;
		int e1 = (pkt->flags & (PFT_E3F_E1 | PFT_E3F_HYP)) || num > 15;
		int e2 = pkt->resume != 0 || pkt->exc_bytes > 1 + e1;
		if (num > 0x1FF || pkt->resume > 15 || pkt->exc_bytes > 3)
			return -PFT_E_INVAL;
		x[nx++] = (uint8_t)(((pkt->flags & PFT_E3F_NS) ? 1 : 0) | ((num & 0xF) << 1) |
				    ((pkt->flags & PFT_E3F_CANCEL) ? 0x20 : 0) |
				    ((pkt->flags & PFT_E3F_ALTIS) ? 0x40 : 0) | (e1 || e2 ? 0x80 : 0));
		if (e1)
			x[nx++] = (uint8_t)(((num >> 4) & 0x1F) |
					    ((pkt->flags & PFT_E3F_HYP) ? 0x20 : 0) | (e2 ? 0x80 : 0));
		if (e2)
			x[nx++] = (uint8_t)(0x40 | pkt->resume);
		altis = (pkt->flags & PFT_E3F_ALTIS) != 0;
	}
	if (old) {
		if (isa != PFT_ISA_ARM || pkt->exception > 7)
			return -PFT_E_INVAL;
		k = 5;
	} else {
		k = max_u(fewest_baddr(addr, st->addr, sh, alt, exc), pkt->addr_bytes);
		if (k > 5)
			k = 5;
		if (isa != st->isa)
			k = 5;
	}
	if (k == 5 && isa == PFT_ISA_UNKNOWN)
		return -PFT_E_INVAL;
	if (k == 5 && (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE) &&
	    (isa == PFT_ISA_THUMBEE) != (altis != 0))
		return -PFT_E_INVAL;
	isa_pattern(isa, &fb, &fw);
	put_baddr(o, addr, sh, k, alt, exc, fb, fw, 1);
	if (old)
		o[4] = (uint8_t)(0x80 | ((pkt->flags & PFT_E3F_CANCEL) ? 0x40 : 0) |
				 ((pkt->exception & 7) << 3) | ((addr >> 29) & 7));
	n = k;
	memcpy(o + n, x, nx);
	n += nx;
	st->addr = etm3_merge32(st->addr, addr, k == 5 ? 32 : etm3_short_bits(k, alt) + sh);
	st->isa = (uint8_t)isa;
	st->altis = (uint8_t)altis;
	return (int)n;
}

static int enc_isync(struct pft_etm3_encoder *e, const struct pft_etm3_packet *pkt, uint8_t *o)
{
	const struct pft_etm3_features *f = &e->f;
	unsigned n = 1, k, isa = pkt->isa;
	uint16_t fl = pkt->flags;
	uint32_t a = (uint32_t)pkt->address;
	int j, tee_ok = f->minor >= 3 && (fl & PFT_E3F_ALTIS);

	if (pkt->reason > 3)
		return -PFT_E_INVAL;
	o[0] = (fl & PFT_E3F_CC) ? 0x70 : 0x08;
	if (fl & PFT_E3F_CC)
		n += put_cc(o + 1, pkt->cycles, pkt->cc_bytes);
	for (k = 0; k < f->contextid_bytes; k++)
		o[n++] = (uint8_t)(pkt->context_id >> (8 * k));
	if (f->data_only) {
		j = (fl & PFT_E3F_JAZELLE) != 0; /* LSiP: the bit alone, no address */
	} else {
		if (isa >= PFT_ISA_UNKNOWN || pkt->address > 0xFFFFFFFFu)
			return -PFT_E_INVAL;
		j = isa == PFT_ISA_JAZELLE;
		if (isa == PFT_ISA_THUMBEE && !tee_ok)
			return -PFT_E_INVAL;
		if (isa == PFT_ISA_THUMB && tee_ok)
			return -PFT_E_INVAL;
		if ((isa == PFT_ISA_ARM || isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE) && (a & 1))
			return -PFT_E_INVAL;
	}
	o[n++] = (uint8_t)(((fl & PFT_E3F_LSIP) ? 0x80 : 0) | (pkt->reason << 5) | (j ? 0x10 : 0) |
			   ((fl & PFT_E3F_NS) ? 0x08 : 0) | ((fl & PFT_E3F_ALTIS) ? 0x04 : 0) |
			   ((fl & PFT_E3F_HYP) ? 0x02 : 0) | ((fl & PFT_E3F_INFO0) ? 0x01 : 0));
	if (f->data_only)
		return (int)n;
	{
		uint32_t w = a | ((isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE) ? 1u : 0u);
		for (k = 0; k < 4; k++)
			o[n++] = (uint8_t)(w >> (8 * k));
	}
	if (fl & PFT_E3F_LSIP) {
		unsigned sh = etm3_addr_shift(isa), fw, kk;
		uint8_t fb;
		uint32_t l = pkt->lsip_address;
		if (l & ((1u << sh) - 1u))
			return -PFT_E_INVAL;
		kk = max_u(fewest_baddr(l, a, sh, f->alt_branch, 0), pkt->addr_bytes);
		if (kk > 5)
			kk = 5;
		isa_pattern(isa, &fb, &fw);
		put_baddr(o + n, l, sh, kk, f->alt_branch, 0, fb, fw,
			  (fl & PFT_E3F_VARIANT) ? 1 : 0);
		n += kk;
	}
	e->st.addr = a;
	e->st.isa = (uint8_t)isa;
	e->st.altis = (uint8_t)tee_ok;
	return (int)n;
}

static int enc_phdr(const struct pft_etm3_features *f, const struct pft_etm3_packet *pkt,
		    uint8_t *o)
{
	unsigned cnt = pkt->atom_count, e = 0, nn;
	uint32_t at = pkt->atoms;

	if (cnt > 16 || (cnt < 32 && (at >> cnt)))
		return -PFT_E_INVAL;
	while (e < cnt && ((at >> e) & 1))
		e++;
	nn = cnt - e;
	switch (pkt->format) {
	case 1:
		if (nn > 1 || e > (f->cycle_accurate ? 7u : 15u))
			return -PFT_E_INVAL;
		if (f->cycle_accurate && (cnt == 0 || pkt->cycles != cnt))
			return -PFT_E_INVAL;
		o[0] = (uint8_t)(0x80 | (e << 2) | (nn << 6));
		return 1;
	case 2:
		if (cnt != 2 || pkt->cycles != (f->cycle_accurate ? 1u : 0u))
			return -PFT_E_INVAL;
		o[0] = (uint8_t)(0x82 | ((at & 1) ? 0 : 0x08) | ((at & 2) ? 0 : 0x04));
		return 1;
	case 3:
		if (!f->cycle_accurate || cnt > 1 || at != cnt || pkt->cycles < 1 || pkt->cycles > 8)
			return -PFT_E_INVAL;
		o[0] = (uint8_t)(0xA0 | ((pkt->cycles - 1) << 2) | (cnt << 6));
		return 1;
	case 4:
		if (!f->cycle_accurate || cnt != 1 || pkt->cycles != 0)
			return -PFT_E_INVAL;
		o[0] = (uint8_t)(0x92 | ((at & 1) ? 0 : 0x04));
		return 1;
	default:
		return -PFT_E_INVAL;
	}
}

static int enc_timestamp(struct pft_etm3_encoder *e, const struct pft_etm3_packet *pkt,
			 uint8_t *o)
{
	unsigned max = e->f.ts_bits == 64 ? 9 : 7, n = 1, k, bits;
	uint64_t v = pkt->timestamp, diff = v ^ e->st.ts;

	if (e->f.ts_bits == 48 && (v >> 48))
		return -PFT_E_INVAL;
	while (n < max && (diff >> (7 * n)) != 0)
		n++;
	n = max_u(n, pkt->ts_bytes);
	if (n > max)
		n = max;
	o[0] = (pkt->flags & PFT_E3F_TS_R) ? 0x46 : 0x42;
	for (k = 0; k < n; k++) {
		if (k == max - 1)
			o[1 + k] = (uint8_t)(v >> (7 * k));
		else
			o[1 + k] = (uint8_t)(((v >> (7 * k)) & 0x7F) | (k + 1 < n ? 0x80 : 0));
	}
	bits = n == max ? e->f.ts_bits : 7 * n;
	{
		uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1ull);
		e->st.ts = (e->st.ts & ~mask) | (v & mask);
	}
	return (int)(1 + n);
}

static int size_code(unsigned bytes)
{
	switch (bytes) {
	case 0: return 0;
	case 1: return 1;
	case 2: return 2;
	case 4: return 3;
	default: return -1;
	}
}

static int enc_data(struct pft_etm3_encoder *e, const struct pft_etm3_packet *pkt, uint8_t *o)
{
	const struct pft_etm3_features *f = &e->f;
	int data = f->data_value || f->data_address;
	int has_addr = (pkt->flags & PFT_E3F_DADDR) != 0;
	int abit = has_addr || (pkt->flags & PFT_E3F_VARIANT);
	int sc = size_code(pkt->data_size), with_value = 0;
	unsigned n = 1, k;

	if ((pkt->flags & PFT_E3F_VARIANT) && f->data_address && pkt->type != PFT_ETM3_VALUE_NOT_TRACED)
		return -PFT_E_INVAL;
	if (has_addr && (!f->data_address || pkt->address > 0xFFFFFFFFu || pkt->addr_bytes > 5 ||
			 pkt->daddr_hi > 15))
		return -PFT_E_INVAL;
	switch (pkt->type) {
	case PFT_ETM3_DATA:
		if (!data || sc < 0)
			return -PFT_E_INVAL;
		o[0] = (uint8_t)(0x02 | (abit ? 0x20 : 0) | (sc << 2));
		with_value = 1;
		break;
	case PFT_ETM3_OOO_DATA:
		if (!f->data_value || sc < 0 || pkt->tag < 1 || pkt->tag > 3 || has_addr)
			return -PFT_E_INVAL;
		o[0] = (uint8_t)((pkt->tag << 5) | (sc << 2));
		with_value = 1;
		break;
	case PFT_ETM3_OOO_PLACEHOLDER:
		if (!data || pkt->tag < 1 || pkt->tag > 3)
			return -PFT_E_INVAL;
		o[0] = (uint8_t)(0x50 | (abit ? 0x20 : 0) | (pkt->tag << 2));
		break;
	default: /* VALUE_NOT_TRACED: address exactly when data addresses are traced */
		if (!data || has_addr != (f->data_address != 0))
			return -PFT_E_INVAL;
		o[0] = (uint8_t)(0x6A | ((pkt->flags & PFT_E3F_VARIANT) ? 0x10 : 0));
		break;
	}
	if (has_addr)
		n += put_daddr(&e->st, o + 1, pkt);
	if (with_value)
		for (k = 0; k < pkt->data_size; k++)
			o[n++] = (uint8_t)(pkt->data_value >> (8 * k));
	return (int)n;
}

static int enc_one(struct pft_etm3_encoder *e, const struct pft_etm3_packet *pkt, uint8_t *o)
{
	const struct pft_etm3_features *f = &e->f;
	unsigned k;

	switch (pkt->type) {
	case PFT_ETM3_ISYNC:
		return enc_isync(e, pkt, o);
	case PFT_ETM3_PHDR:
		return enc_phdr(f, pkt, o);
	case PFT_ETM3_BRANCH:
		return enc_branch(e, pkt, o);
	case PFT_ETM3_CYCLE_COUNT:
		o[0] = 0x04;
		return 1 + (int)put_cc(o + 1, pkt->cycles, pkt->cc_bytes);
	case PFT_ETM3_TRIGGER:
		o[0] = 0x0C;
		return 1;
	case PFT_ETM3_CONTEXT_ID:
		if (!f->contextid_bytes)
			return -PFT_E_INVAL;
		o[0] = 0x6E;
		for (k = 0; k < f->contextid_bytes; k++)
			o[1 + k] = (uint8_t)(pkt->context_id >> (8 * k));
		return 1 + f->contextid_bytes;
	case PFT_ETM3_VMID:
		o[0] = 0x3C;
		o[1] = pkt->vmid;
		return 2;
	case PFT_ETM3_TIMESTAMP:
		return enc_timestamp(e, pkt, o);
	case PFT_ETM3_EXCEPTION_RETURN:
		o[0] = 0x76;
		return 1;
	case PFT_ETM3_EXCEPTION_ENTRY:
		o[0] = 0x7E;
		return 1;
	case PFT_ETM3_IGNORE:
		o[0] = 0x66;
		return 1;
	case PFT_ETM3_DATA_SUPPRESSED:
		if (!f->data_value && !f->data_address)
			return -PFT_E_INVAL;
		o[0] = 0x62;
		return 1;
	case PFT_ETM3_STORE_FAILED:
		if (!f->data_value)
			return -PFT_E_INVAL;
		o[0] = 0x50;
		return 1;
	case PFT_ETM3_DATA:
	case PFT_ETM3_OOO_DATA:
	case PFT_ETM3_OOO_PLACEHOLDER:
	case PFT_ETM3_VALUE_NOT_TRACED:
		return enc_data(e, pkt, o);
	default:
		return -PFT_E_INVAL;
	}
}

int pft_etm3_encoder_encode(struct pft_etm3_encoder *enc, const struct pft_etm3_packet *pkt,
			uint8_t *out, size_t cap)
{
	uint8_t tmp[ETM3_MAX_PKT + 8];
	struct etm3_state saved;
	int n;

	if (!enc || !pkt || (!out && cap))
		return -PFT_E_INVAL;
	if (pkt->type == PFT_ETM3_ASYNC) {
		uint32_t size = pkt->size ? pkt->size : 6;
		if (size < 6)
			return -PFT_E_INVAL;
		if (cap < size)
			return -PFT_E_NOSPC;
		memset(out, 0, size - 1);
		out[size - 1] = 0x80;
		return (int)size;
	}
	saved = enc->st;
	n = enc_one(enc, pkt, tmp);
	if (n < 0 || (size_t)n > cap) {
		enc->st = saved;
		return n < 0 ? n : -PFT_E_NOSPC;
	}
	memcpy(out, tmp, (size_t)n);
	return n;
}
