/* SPDX-License-Identifier: BSD-3-Clause */
/* PFT packet encoder: packets -> bytes, the exact inverse of the readers in
 * pkt_read.c.  It keeps the decoder's compression state (pkt_state.h:
 * address base and ISA, NS and Hyp last sent, coded timestamp) and applies
 * the compression rules of the spec: address bytes (Table 4-5), exception
 * bytes (§4.5.4, A6), cycle counts (Table 4-8), timestamps (§4.5.9, Gray code
 * when configured).  A field that asks for more bytes than needed
 * (addr_bytes, cc_bytes, ts_bytes) is honoured, so that re-encoding decoded
 * packets gives the original bytes. */
#include <stdlib.h>
#include <string.h>

#include "packet/pkt_state.h"
#include "packet/pkt_fields.h"

struct pft_pkt_encoder {
	struct pkt_dec_cfg cfg;
	struct pkt_dec_state st;
	uint8_t ts_full; /* the next timestamp carries every byte */
};

struct pft_pkt_encoder *pft_pkt_encoder_alloc(const struct pft_config *cfg)
{
	struct pft_features f;
	struct pft_pkt_encoder *e;

	if (pft_config_features(cfg, &f) < 0)
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	pkt_dec_cfg_init(&e->cfg, &f);
	pft_pkt_encoder_reset(e);
	return e;
}

void pft_pkt_encoder_free(struct pft_pkt_encoder *enc)
{
	free(enc);
}

void pft_pkt_encoder_reset(struct pft_pkt_encoder *enc)
{
	if (!enc)
		return;
	pkt_dec_state_reset(&enc->st);
	enc->ts_full = 1;
}

static int highest_bit(uint64_t v)
{
	int h = -1;
	while (v) {
		h++;
		v >>= 1;
	}
	return h;
}

/* The AltIS bit sent for a target: Thumb/ThumbEE say it by their ISA; for
 * ARM and Jazelle it is the raw F_ALTIS flag (normally 0).  prev is the
 * value the decoder assumes when no E0 / info byte is sent. */
static unsigned altis_bit(const struct pft_packet *p)
{
	if (p->isa == PFT_ISA_THUMB || p->isa == PFT_ISA_THUMBEE)
		return p->isa == PFT_ISA_THUMBEE;
	return !!(p->flags & PFT_PKT_F_ALTIS);
}

static unsigned altis_prev(const struct pkt_dec_state *st, const struct pft_packet *p)
{
	if (p->isa == PFT_ISA_THUMB || p->isa == PFT_ISA_THUMBEE)
		return st->base_isa == PFT_ISA_THUMBEE;
	return 0;
}

/* Address bytes of a branch or WPU target.  min_n: at least this many
 * (addr_bytes, or 2 when an exception / info byte follows).  x: the X / I
 * bit.  Returns the byte count, or -PFT_E_INVAL. */
static int put_addr(const struct pkt_dec_state *st, const struct pft_packet *p, unsigned min_n,
		    unsigned x, uint8_t *out)
{
	unsigned isa = p->isa, s, n, i, k;
	uint32_t a;

	if (p->address > 0xFFFFFFFFull || isa > PFT_ISA_UNKNOWN)
		return -PFT_E_INVAL;
	a = (uint32_t)p->address;
	s = pkt_isa_shift(isa);
	if (a & ((1u << s) - 1))
		return -PFT_E_INVAL; /* not aligned for its instruction set */
	if (min_n > 5)
		return -PFT_E_INVAL;
	if (pkt_isa_class(isa) != pkt_isa_class(st->base_isa)) {
		/* a change of alignment class, or no base yet */
		if (isa == PFT_ISA_UNKNOWN)
			return -PFT_E_INVAL;
		n = 5;
	} else {
		int h = highest_bit(a ^ st->base_addr);
		for (n = 1; n < 5; n++)
			if (h < (int)pkt_addr_bits(s, n))
				break;
	}
	if (n < min_n)
		n = min_n;
	if (n == 5 && isa == PFT_ISA_UNKNOWN)
		return -PFT_E_INVAL; /* a full address needs an instruction set */
	out[0] = (uint8_t)(1u | ((a >> s) & 0x3Fu) << 1 | (n > 1 ? 0x80u : 0));
	k = s + 6;
	for (i = 1; i < n && i < 4; i++) {
		if (i == n - 1) {
			out[i] = (uint8_t)(((a >> k) & 0x3Fu) | (x << 6));
			k += 6;
		} else {
			out[i] = (uint8_t)(0x80u | ((a >> k) & 0x7Fu));
			k += 7;
		}
	}
	if (n == 5) {
		static const uint8_t marker[4] = { 0x08, 0x10, 0x10, 0x20 };
		out[4] = (uint8_t)(marker[isa] | (x << 6) |
				   ((a >> (s + 27)) & ((1u << (5 - s)) - 1)));
	}
	return (int)n;
}

static unsigned put_cc(const struct pft_packet *p, uint8_t *out, uint8_t b0)
{
	uint32_t v = p->cycles;
	unsigned n = pkt_cc_size(v);

	if (p->cc_bytes > n && p->cc_bytes <= 5)
		n = p->cc_bytes;
	return pkt_write_cc(out, v, n, b0);
}

static int enc_branch(struct pft_pkt_encoder *e, const struct pft_packet *p, uint8_t *out,
		      struct pkt_dec_state *st)
{
	unsigned ns = !!(p->flags & PFT_PKT_F_NS), hyp = !!(p->flags & PFT_PKT_F_HYP);
	unsigned altis = altis_bit(p), exc = p->exception;
	unsigned need_e1, need_e0, min_n;
	int n;

	if (exc > 0x1FF)
		return -PFT_E_INVAL;
	need_e1 = (p->flags & PFT_PKT_F_E1) || exc > 15 || hyp != st->hyp;
	need_e0 = need_e1 || (p->flags & PFT_PKT_F_E0) || exc != 0 || ns != st->ns ||
		  altis != altis_prev(st, p);
	min_n = p->addr_bytes;
	if (need_e0 && min_n < 2)
		min_n = 2;
	n = put_addr(st, p, min_n, need_e0, out);
	if (n < 0)
		return n;
	if (need_e0) {
		out[n++] = (uint8_t)((need_e1 ? 0x80u : 0) | altis << 6 | (exc & 0xFu) << 1 | ns);
		if (need_e1)
			out[n++] = (uint8_t)(hyp << 5 | ((exc >> 4) & 0x1Fu));
		st->ns = (uint8_t)ns;
		if (need_e1)
			st->hyp = (uint8_t)hyp;
	}
	if (e->cfg.ca)
		n += (int)put_cc(p, out + n, 0);
	st->base_addr = (uint32_t)p->address;
	st->base_isa = p->isa;
	return n;
}

static int enc_wpu(const struct pft_packet *p, uint8_t *out, struct pkt_dec_state *st)
{
	unsigned altis = altis_bit(p), info;
	unsigned min_n = p->addr_bytes;
	int n;

	if (p->isa == PFT_ISA_JAZELLE)
		return -PFT_E_INVAL;
	info = (p->flags & PFT_PKT_F_INFO) || altis != altis_prev(st, p);
	if (info && min_n < 2)
		min_n = 2;
	out[0] = 0x72;
	n = put_addr(st, p, min_n, info, out + 1);
	if (n < 0)
		return n;
	n++;
	if (info)
		out[n++] = (uint8_t)(altis << 6);
	st->base_addr = (uint32_t)p->address;
	st->base_isa = p->isa;
	return n;
}

static int enc_isync(struct pft_pkt_encoder *e, const struct pft_packet *p, uint8_t *out,
		     struct pkt_dec_state *st)
{
	unsigned isa = p->isa, t, altis, ns, hyp, info, n = 6, i;
	uint32_t a;

	if (p->address > 0xFFFFFFFFull || p->reason > 3 || isa > PFT_ISA_THUMBEE)
		return -PFT_E_INVAL; /* an I-sync never points at Jazelle code */
	a = (uint32_t)p->address;
	if (a & 1)
		return -PFT_E_INVAL;
	t = isa != PFT_ISA_ARM;
	altis = t ? isa == PFT_ISA_THUMBEE : !!(p->flags & PFT_PKT_F_ALTIS);
	ns = !!(p->flags & PFT_PKT_F_NS);
	hyp = !!(p->flags & PFT_PKT_F_HYP);
	if (e->cfg.cid_bytes < 4 && (p->context_id >> (8 * e->cfg.cid_bytes)))
		return -PFT_E_INVAL;
	info = (unsigned)p->reason << 5 | ns << 3 | altis << 2 | hyp << 1 | 1u; /* A7 */
	out[0] = 0x08;
	out[1] = (uint8_t)((a & 0xFEu) | t);
	out[2] = (uint8_t)(a >> 8);
	out[3] = (uint8_t)(a >> 16);
	out[4] = (uint8_t)(a >> 24);
	out[5] = (uint8_t)info;
	if (e->cfg.ca && p->reason != PFT_ISYNC_PERIODIC)
		n += put_cc(p, out + n, 0x80); /* M = 1 (A8) */
	for (i = 0; i < e->cfg.cid_bytes; i++)
		out[n++] = (uint8_t)(p->context_id >> (8 * i));
	st->base_addr = a;
	st->base_isa = (uint8_t)isa;
	st->ns = (uint8_t)ns;
	st->hyp = (uint8_t)hyp;
	return (int)n;
}

static int enc_timestamp(struct pft_pkt_encoder *e, const struct pft_packet *p, uint8_t *out,
			 struct pkt_dec_state *st)
{
	unsigned max = e->cfg.ts_max, n, i;
	uint64_t coded;

	if (e->cfg.ts_bits == 48 && (p->timestamp >> 48))
		return -PFT_E_INVAL;
	coded = e->cfg.ts_gray ? pkt_bin_to_gray(p->timestamp) : p->timestamp;
	if (e->ts_full && !p->ts_bytes) {
		n = max; /* T-sync after a reset, unless told otherwise */
	} else {
		int h = highest_bit(coded ^ st->ts);
		n = h < 0 ? 1 : (unsigned)h / 7 + 1;
		if (n > max)
			n = max;
	}
	if (p->ts_bytes > n && p->ts_bytes <= max)
		n = p->ts_bytes;
	out[0] = (uint8_t)(0x42 | ((p->flags & PFT_PKT_F_TS_R) ? 0x04 : 0));
	for (i = 0; i < n; i++) {
		if (i == max - 1)
			out[1 + i] = (uint8_t)(max == 9 ? coded >> 56 : (coded >> 42) & 0x3F);
		else
			out[1 + i] = (uint8_t)(((coded >> (7 * i)) & 0x7F) | (i + 1 < n ? 0x80 : 0));
	}
	n++;
	if (e->cfg.ca)
		n += put_cc(p, out + n, 0);
	st->ts = coded;
	return (int)n;
}

static int enc_one(struct pft_pkt_encoder *e, const struct pft_packet *p, uint8_t *out,
		   struct pkt_dec_state *st, uint8_t *ts_full)
{
	unsigned i;

	switch (p->type) {
	case PFT_PKT_ISYNC:
		return enc_isync(e, p, out, st);
	case PFT_PKT_ATOM:
		if (p->atom_count == 0 || (p->atoms >> p->atom_count))
			return -PFT_E_INVAL;
		if (e->cfg.ca) {
			if (p->atom_count != 1)
				return -PFT_E_INVAL;
			return (int)put_cc(p, out, (uint8_t)(0x80 | ((p->atoms & 1) ? 0 : 0x02)));
		}
		if (p->atom_count > 5)
			return -PFT_E_INVAL;
		out[0] = (uint8_t)(0x80 | 1u << (p->atom_count + 1));
		for (i = 0; i < p->atom_count; i++)
			if (!((p->atoms >> i) & 1))
				out[0] |= (uint8_t)(1u << (p->atom_count - i));
		return 1;
	case PFT_PKT_BRANCH:
		return enc_branch(e, p, out, st);
	case PFT_PKT_WAYPOINT_UPDATE:
		return enc_wpu(p, out, st);
	case PFT_PKT_TIMESTAMP: {
		int n = enc_timestamp(e, p, out, st);
		if (n > 0)
			*ts_full = 0;
		return n;
	}
	case PFT_PKT_CONTEXT_ID:
		if (!e->cfg.cid_bytes ||
		    (e->cfg.cid_bytes < 4 && (p->context_id >> (8 * e->cfg.cid_bytes))))
			return -PFT_E_INVAL;
		out[0] = 0x6E;
		for (i = 0; i < e->cfg.cid_bytes; i++)
			out[1 + i] = (uint8_t)(p->context_id >> (8 * i));
		return 1 + e->cfg.cid_bytes;
	case PFT_PKT_VMID:
		if (!e->cfg.v11)
			return -PFT_E_INVAL;
		out[0] = 0x3C;
		out[1] = p->vmid;
		return 2;
	case PFT_PKT_TRIGGER:
		out[0] = 0x0C;
		return 1;
	case PFT_PKT_EXCEPTION_RETURN:
		out[0] = 0x76;
		return 1;
	case PFT_PKT_IGNORE:
		out[0] = 0x66;
		return 1;
	default:
		return -PFT_E_INVAL;
	}
}

int pft_pkt_encoder_encode(struct pft_pkt_encoder *enc, const struct pft_packet *pkt, uint8_t *out,
		   size_t cap)
{
	struct pkt_dec_state st;
	uint8_t tmp[PFT_PKT_MAX_BYTES], ts_full;
	int n;

	if (!enc || !pkt || (!out && cap))
		return -PFT_E_INVAL;
	if (pkt->type == PFT_PKT_ASYNC) {
		uint32_t size = pkt->size ? pkt->size : 6;
		if (size < 6)
			return -PFT_E_INVAL;
		if (cap < size)
			return -PFT_E_NOSPC;
		if (size > 0x7FFFFFFFu)
			return -PFT_E_INVAL;
		memset(out, 0, size - 1);
		out[size - 1] = 0x80;
		return (int)size;
	}
	st = enc->st;
	ts_full = enc->ts_full;
	n = enc_one(enc, pkt, tmp, &st, &ts_full);
	if (n < 0)
		return n;
	if ((size_t)n > cap)
		return -PFT_E_NOSPC;
	memcpy(out, tmp, (size_t)n);
	enc->st = st;
	enc->ts_full = ts_full;
	return n;
}
