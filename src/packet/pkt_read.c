/* SPDX-License-Identifier: BSD-3-Clause */
/* PFT packet decoder, floor 1: one reader per packet type (one header-table
 * lookup, then a bounds-checked reader), and the in-place variants used
 * when PKT_FAST_AVAIL bytes are readable.  Readers never change the
 * decoder state unless they return a complete packet, so a reader can be
 * retried when more bytes arrive.  See pkt_internal.h for the floors. */
#include <stddef.h>
#include <string.h>

#include "packet/pkt_internal.h"
#include "packet/pkt_fast.h"

/* ---- per-type readers --------------------------------------------------- */

static inline int perr(struct pft_packet *pkt, unsigned reason, unsigned size)
{
	pkt->type = PFT_PKT_ERROR;
	pkt->reason = (uint8_t)reason;
	pkt->size = size;
	return R_ERROR;
}

/* The cycle count that follows the first OFF bytes of a packet (spec
 * §4.4) into pkt->cycles and pkt->cc_bytes: its byte count, 0 if not all
 * of it is there yet. */
static inline unsigned rd_cc(const uint8_t *p, size_t avail, unsigned off,
			     struct pft_packet *pkt)
{
	unsigned n = avail > off ? pkt_read_cc(p + off, avail - off, &pkt->cycles) : 0;

	pkt->cc_bytes = (uint8_t)n;
	return n;
}

struct addr_res {
	uint32_t addr;
	uint8_t n;     /* address bytes */
	uint8_t x;     /* X / I bit of the last byte */
	uint8_t isa;   /* from byte 4, or the base ISA */
};

/* Address bytes of a branch or WPU (spec §4.5.4, §4.5.5).  Returns 1, NEED_MORE,
 * or R_ERROR for undefined ISA bits in byte 4 (ar->n = 5). */
static PKT_INLINE int rd_addr(const struct pkt_dec_state *st, const uint8_t *p, size_t avail,
			      struct addr_res *ar, const int fast)
{
	unsigned n, s, k;
	uint32_t v;

#if PKT_FAST
	if (fast) {
		/* the address ends at the first byte 0-3 with C clear, or at 4 */
		uint64_t w = pkt_ld64(p);
		uint64_t stop = (~w & 0x80808080ull) | 0x8000000000ull;
		n = ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
		if (n < 5) {
			static const uint8_t bits[5] = { 0, 6, 12, 19, 26 };
			unsigned nb = bits[n];
			s = pkt_isa_shift(st->base_isa);
			v = (uint32_t)(((w >> 1) & 0x3F) | ((w >> 8) & 0x7F) << 6 |
				       ((w >> 16) & 0x7F) << 13 | ((w >> 24) & 0x7F) << 20);
			v &= (1u << nb) - 1; /* drops the X bit of the last byte */
			ar->n = (uint8_t)n;
			ar->x = n > 1 ? (uint8_t)((w >> (8 * (n - 1) + 6)) & 1) : 0;
			ar->addr = (st->base_addr & ~((1u << (s + nb)) - 1)) | v << s;
			ar->isa = st->base_isa;
			return 1;
		}
		goto full;
	}
#else
	(void)fast;
#endif
	/* bytes 0-3 end the address when C is clear; byte 4 always ends it */
	for (n = 1; n < 5 && (p[n - 1] & 0x80); n++)
		if (avail < n + 1)
			return NEED_MORE;
	ar->n = (uint8_t)n;
	if (n == 5) {
		uint8_t b4;
#if PKT_FAST
full:
		ar->n = 5;
#endif
		b4 = p[4];
		unsigned isa;
		if (b4 & 0x20)
			isa = PFT_ISA_JAZELLE;
		else if (b4 & 0x10)
			isa = PFT_ISA_THUMB;
		else if (b4 & 0x08)
			isa = PFT_ISA_ARM;
		else
			return R_ERROR;
		s = pkt_isa_shift(isa);
		v = (uint32_t)((p[0] >> 1) & 0x3Fu) << s;
		v |= (uint32_t)(p[1] & 0x7Fu) << (s + 6);
		v |= (uint32_t)(p[2] & 0x7Fu) << (s + 13);
		v |= (uint32_t)(p[3] & 0x7Fu) << (s + 20);
		v |= (uint32_t)(b4 & ((1u << (5 - s)) - 1)) << (s + 27);
		ar->addr = v;
		ar->x = (b4 >> 6) & 1;
		ar->isa = (uint8_t)isa;
		return 1;
	}
	s = pkt_isa_shift(st->base_isa);
	v = (uint32_t)((p[0] >> 1) & 0x3Fu) << s;
	k = s + 6;
	ar->x = 0;
	if (n >= 2) {
		unsigned i;
		for (i = 1; i + 1 < n; i++) {
			v |= (uint32_t)(p[i] & 0x7Fu) << k;
			k += 7;
		}
		v |= (uint32_t)(p[n - 1] & 0x3Fu) << k;
		k += 6;
		ar->x = (p[n - 1] >> 6) & 1;
	}
	ar->addr = (st->base_addr & ~((1u << k) - 1)) | v;
	ar->isa = st->base_isa;
	return 1;
}

static PKT_INLINE int rd_branch(struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
				struct pft_packet *pkt, const int fast)
{
	struct addr_res ar;
	unsigned off, isa, ns = d->st.ns, hyp = d->st.hyp, altis;
	unsigned flags = 0, exc = 0;
	int r;

	r = rd_addr(&d->st, p, avail, &ar, fast);
	if (r <= 0)
		return r == R_ERROR ? perr(pkt, PFT_PERR_BAD_ADDRESS, 5) : r;
	off = ar.n;
	isa = ar.isa;
	/* AltIS after the packet when E0 does not say: unchanged (ThumbEE
	 * stays ThumbEE); it only exists for a Thumb-format target. */
	altis = d->st.base_isa == PFT_ISA_THUMBEE;
	if (ar.x) {
		uint8_t e0;
		if (avail <= off)
			return NEED_MORE;
		e0 = p[off++];
		flags |= PFT_PKT_F_E0;
		ns = e0 & 1;
		altis = (e0 >> 6) & 1;
		exc = (e0 >> 1) & 0xF;
		if (e0 & 0x80) {
			uint8_t e1;
			if (avail <= off)
				return NEED_MORE;
			e1 = p[off++];
			flags |= PFT_PKT_F_E1;
			hyp = (e1 >> 5) & 1;
			exc |= (unsigned)(e1 & 0x1F) << 4;
		}
	}
	if (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE) {
		isa = altis ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
	} else if (!(flags & PFT_PKT_F_E0)) {
		altis = 0;
	}
	if (d->cfg.ca) {
		unsigned n;
#if PKT_FAST
		if (fast) {
			n = pkt_read_cc_fast(p + off, &pkt->cycles);
			pkt->cc_bytes = (uint8_t)n;
		} else
#endif
			n = rd_cc(p, avail, off, pkt);
		if (!n)
			return NEED_MORE;
		off += n;
		flags |= PFT_PKT_F_CC;
	}
	flags |= (ns ? PFT_PKT_F_NS : 0) | (hyp ? PFT_PKT_F_HYP : 0) |
		 (altis ? PFT_PKT_F_ALTIS : 0);
	pkt->type = PFT_PKT_BRANCH;
	pkt->flags = (uint16_t)flags;
	pkt->address = ar.addr;
	pkt->isa = (uint8_t)isa;
	pkt->exception = (uint16_t)exc;
	pkt->addr_bytes = ar.n;
	pkt->size = off;
	d->st.base_addr = ar.addr;
	d->st.base_isa = (uint8_t)isa;
	d->st.ns = (uint8_t)ns;
	d->st.hyp = (uint8_t)hyp;
	return (int)off;
}

static int rd_wpu(struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
		  struct pft_packet *pkt)
{
	struct addr_res ar;
	unsigned off, isa, altis, flags = 0;
	int r;

	if (avail < 2)
		return NEED_MORE;
	r = rd_addr(&d->st, p + 1, avail - 1, &ar, 0);
	if (r <= 0)
		return r == R_ERROR ? perr(pkt, PFT_PERR_BAD_ADDRESS, 6) : r;
	off = 1u + ar.n;
	isa = ar.isa;
	if (isa == PFT_ISA_JAZELLE)
		return perr(pkt, PFT_PERR_BAD_ADDRESS, off); /* A19 */
	altis = d->st.base_isa == PFT_ISA_THUMBEE;
	if (ar.x) {
		if (avail <= off)
			return NEED_MORE;
		altis = (p[off++] >> 6) & 1;
		flags |= PFT_PKT_F_INFO;
	}
	if (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE)
		isa = altis ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
	else if (!(flags & PFT_PKT_F_INFO))
		altis = 0;
	pkt->type = PFT_PKT_WAYPOINT_UPDATE;
	pkt->flags = (uint16_t)(flags | (altis ? PFT_PKT_F_ALTIS : 0));
	pkt->address = ar.addr;
	pkt->isa = (uint8_t)isa;
	pkt->addr_bytes = ar.n;
	pkt->size = off;
	d->st.base_addr = ar.addr;
	d->st.base_isa = (uint8_t)isa;
	return (int)off;
}

static int rd_isync(struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
		    struct pft_packet *pkt)
{
	unsigned off = 6, info, reason, isa, flags = 0, i;
	uint32_t addr, cid = 0;

	if (avail < 6)
		return NEED_MORE;
	info = p[5];
	reason = (info >> 5) & 3;
	if (d->cfg.ca && reason != PFT_ISYNC_PERIODIC) {
		unsigned n = rd_cc(p, avail, off, pkt);
		if (!n)
			return NEED_MORE;
		off += n;
		flags |= PFT_PKT_F_CC;
	}
	if (d->cfg.cid_bytes) {
		if (avail < off + d->cfg.cid_bytes)
			return NEED_MORE;
		for (i = 0; i < d->cfg.cid_bytes; i++)
			cid |= (uint32_t)p[off + i] << (8 * i);
		off += d->cfg.cid_bytes;
		flags |= PFT_PKT_F_CID;
	}
	addr = (uint32_t)(p[1] & 0xFEu) | (uint32_t)p[2] << 8 | (uint32_t)p[3] << 16 |
	       (uint32_t)p[4] << 24;
	if (p[1] & 1)
		isa = (info & 0x04) ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
	else
		isa = PFT_ISA_ARM;
	flags |= ((info & 0x08) ? PFT_PKT_F_NS : 0) | ((info & 0x02) ? PFT_PKT_F_HYP : 0) |
		 ((info & 0x04) ? PFT_PKT_F_ALTIS : 0);
	pkt->type = PFT_PKT_ISYNC;
	pkt->flags = (uint16_t)flags;
	pkt->address = addr;
	pkt->isa = (uint8_t)isa;
	pkt->reason = (uint8_t)reason;
	pkt->context_id = cid;
	pkt->size = off;
	d->st.base_addr = addr;
	d->st.base_isa = (uint8_t)isa;
	d->st.ns = (info >> 3) & 1;
	d->st.hyp = (info >> 1) & 1;
	return (int)off;
}

static int rd_timestamp(struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
			struct pft_packet *pkt)
{
	unsigned n, off;
	uint64_t v, coded;

	if (avail < 2)
		return NEED_MORE;
	n = pkt_read_ts(p + 1, avail - 1, d->cfg.ts_max, &v);
	if (!n)
		return NEED_MORE;
	off = 1 + n;
	if (d->cfg.ca) {
		unsigned c = rd_cc(p, avail, off, pkt);
		if (!c)
			return NEED_MORE;
		off += c;
		pkt->flags = PFT_PKT_F_CC;
	}
	coded = pkt_ts_merge(d->st.ts, v, n, d->cfg.ts_max);
	d->st.ts = coded;
	pkt->type = PFT_PKT_TIMESTAMP;
	pkt->flags |= (p[0] & 0x04) ? PFT_PKT_F_TS_R : 0;
	pkt->timestamp = d->cfg.ts_gray ? pkt_gray_to_bin(coded) : coded;
	pkt->ts_bytes = (uint8_t)n;
	pkt->size = off;
	return (int)off;
}

/* One packet at p (avail >= 1 bytes).  pkt must be zeroed. */
static inline int decode_one(struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
			     struct pft_packet *pkt)
{
	uint8_t h = p[0];

	switch (pft_pkt_header_type[h]) {
	case PFT_PKT_ATOM:
		pkt->type = PFT_PKT_ATOM;
		if (!d->cfg.ca) {
			uint8_t a = pft_pkt_atom_table[h];
			if (!a)
				return perr(pkt, PFT_PERR_RESERVED_HEADER, 1); /* A3 */
			pkt->atom_count = a >> 5;
			pkt->atoms = a & 0x1Fu;
			pkt->size = 1;
			return 1;
		} else {
			unsigned n = pkt_read_cc(p, avail, &pkt->cycles);
			if (!n)
				return NEED_MORE;
			pkt->atom_count = 1;
			pkt->atoms = !(h & 2);
			pkt->cc_bytes = (uint8_t)n;
			pkt->flags = PFT_PKT_F_CC;
			pkt->size = n;
			return (int)n;
		}
	case PFT_PKT_BRANCH:
		return rd_branch(d, p, avail, pkt, 0);
	case PFT_PKT_ISYNC:
		return rd_isync(d, p, avail, pkt);
	case PFT_PKT_TIMESTAMP:
		return rd_timestamp(d, p, avail, pkt);
	case PFT_PKT_WAYPOINT_UPDATE:
		return rd_wpu(d, p, avail, pkt);
	case PFT_PKT_CONTEXT_ID: {
		unsigned i, n = d->cfg.cid_bytes;
		uint32_t cid = 0;
		if (!n)
			return perr(pkt, PFT_PERR_NO_CONTEXT_ID, 1);
		if (avail < 1 + n)
			return NEED_MORE;
		for (i = 0; i < n; i++)
			cid |= (uint32_t)p[1 + i] << (8 * i);
		pkt->type = PFT_PKT_CONTEXT_ID;
		pkt->context_id = cid;
		pkt->size = 1 + n;
		return (int)(1 + n);
	}
	case PFT_PKT_VMID:
		if (!d->cfg.v11)
			return perr(pkt, PFT_PERR_NO_VMID, 1);
		if (avail < 2)
			return NEED_MORE;
		pkt->type = PFT_PKT_VMID;
		pkt->vmid = p[1];
		pkt->size = 2;
		return 2;
	case PFT_PKT_TRIGGER:
	case PFT_PKT_EXCEPTION_RETURN:
	case PFT_PKT_IGNORE:
		pkt->type = pft_pkt_header_type[h];
		pkt->size = 1;
		return 1;
	case PFT_PKT_ASYNC:
		return R_ZEROS;
	default:
		return perr(pkt, PFT_PERR_RESERVED_HEADER, 1);
	}
}

#if PKT_FAST
/* decode_one with at least PKT_FAST_AVAIL readable bytes: atoms and branch
 * addresses (most packets) without bounds checks or loops. */
static PKT_INLINE int decode_fast(struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
				  struct pft_packet *pkt)
{
	uint8_t h = p[0];

	if (h & 1)
		return rd_branch(d, p, avail, pkt, 1);
	if ((h & 0x80) && d->cfg.ca) {
		unsigned n = pkt_read_cc_fast(p, &pkt->cycles);
		pkt->type = PFT_PKT_ATOM;
		pkt->atom_count = 1;
		pkt->atoms = !(h & 2);
		pkt->cc_bytes = (uint8_t)n;
		pkt->flags = PFT_PKT_F_CC;
		pkt->size = n;
		return (int)n;
	}
	return decode_one(d, p, avail, pkt);
}
#else
#define decode_fast decode_one
#endif

#if PKT_FAST
unsigned pkt_read_branch_full(struct pft_pkt_decoder *d, const uint8_t *p, uint64_t off,
			      struct pft_packet *pkt)
{
	int r;

	memset(pkt, 0, sizeof(*pkt));
	r = rd_branch(d, p, PKT_FAST_AVAIL, pkt, 1);
	if (r <= 0)
		return 0;
	pkt->offset = off;
	pkt_copy_raw(pkt, p, PKT_FAST_AVAIL, (unsigned)r);
	return (unsigned)r;
}

unsigned pkt_read_other(struct pft_pkt_decoder *d, const uint8_t *p, uint64_t off,
			struct pft_packet *pkt)
{
	int r;

	memset(pkt, 0, sizeof(*pkt));
	r = decode_one(d, p, PKT_FAST_AVAIL, pkt);
	if (r <= 0)
		return 0;
	pkt->offset = off;
	pkt_copy_raw(pkt, p, PKT_FAST_AVAIL, (unsigned)r);
	return (unsigned)r;
}
#endif

int pkt_read_packet(struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
		    struct pft_packet *pkt)
{
	return decode_one(d, p, avail, pkt);
}

int pkt_read_packet_fast(struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
			 struct pft_packet *pkt)
{
	return decode_fast(d, p, avail, pkt);
}
