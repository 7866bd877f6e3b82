/* SPDX-License-Identifier: BSD-3-Clause */
/* PFT packet decoder, in sync: the per-type readers (one header-table
 * lookup and one reader per packet type), the fast path that reads packets
 * in place in the middle of a chunk, and pft_pkt_next() /
 * pft_pkt_next_batch().  Everything else (A-sync, unsynchronised bytes,
 * packets cut by a chunk end, errors) is in pkt_sync.c.  Readers never
 * change the decoder state unless they return a complete packet, so a
 * reader can be retried when more bytes arrive. */
#include <limits.h>
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

struct addr_res {
	uint32_t addr;
	uint8_t n;     /* address bytes */
	uint8_t x;     /* X / I bit of the last byte */
	uint8_t isa;   /* from byte 4, or the base ISA */
};

/* Address bytes of a branch or WPU (spec 7.1, 7.4).  Returns 1, NEED_MORE,
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
		} else
#endif
		{
			if (avail <= off)
				return NEED_MORE;
			n = pkt_read_cc(p + off, avail - off, &pkt->cycles);
			if (!n)
				return NEED_MORE;
		}
		off += n;
		pkt->cc_bytes = (uint8_t)n;
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
		unsigned n;
		if (avail <= off)
			return NEED_MORE;
		n = pkt_read_cc(p + off, avail - off, &pkt->cycles);
		if (!n)
			return NEED_MORE;
		off += n;
		pkt->cc_bytes = (uint8_t)n;
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
		unsigned c;
		if (avail <= off)
			return NEED_MORE;
		c = pkt_read_cc(p + off, avail - off, &pkt->cycles);
		if (!c)
			return NEED_MORE;
		off += c;
		pkt->cc_bytes = (uint8_t)c;
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

/* The raw bytes of a packet read in place; bytes[] beyond size stay 0. */
static inline void copy_raw(struct pft_packet *pkt, const uint8_t *p, size_t avail, unsigned size)
{
	pkt->nbytes = (uint8_t)size;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (avail >= PFT_PKT_MAX_BYTES) {
		/* two 8-byte loads and masks instead of a variable-length copy */
		uint64_t lo, hi;
		memcpy(&lo, p, 8);
		memcpy(&hi, p + 8, 8);
		if (size >= 8) {
			hi &= size >= 16 ? ~0ull : (1ull << (8 * (size - 8))) - 1;
		} else {
			lo &= (1ull << (8 * size)) - 1;
			hi = 0;
		}
		memcpy(pkt->bytes, &lo, 8);
		memcpy(pkt->bytes + 8, &hi, 8);
		return;
	}
#else
	(void)avail;
#endif
	memcpy(pkt->bytes, p, size);
}

#if PKT_FAST
#define PKT_NOINLINE __attribute__((noinline))
#else
#define PKT_NOINLINE
#endif

static PKT_NOINLINE int next_general(struct pft_pkt_decoder *dec, struct pft_packet *pkt,
				     size_t size);

#if PKT_FAST
/* A branch address packet with exception bytes or a 5-byte address, with
 * PKT_FAST_AVAIL bytes readable.  Returns the size, or 0 (bad address: the
 * general path reports it). */
static PKT_NOINLINE unsigned fast_branch_full(struct pft_pkt_decoder *d, const uint8_t *p,
					      uint64_t off, struct pft_packet *pkt)
{
	int r;

	memset(pkt, 0, sizeof(*pkt));
	r = rd_branch(d, p, PKT_FAST_AVAIL, pkt, 1);
	if (r <= 0)
		return 0;
	pkt->offset = off;
	copy_raw(pkt, p, PKT_FAST_AVAIL, (unsigned)r);
	return (unsigned)r;
}

/* Any other header with PKT_FAST_AVAIL bytes readable: the generic readers.
 * Returns 0 for an A-sync or an error (the general path reports those). */
static PKT_NOINLINE unsigned fast_other(struct pft_pkt_decoder *d, const uint8_t *p, uint64_t off,
					struct pft_packet *pkt)
{
	int r;

	memset(pkt, 0, sizeof(*pkt));
	r = decode_one(d, p, PKT_FAST_AVAIL, pkt);
	if (r <= 0)
		return 0;
	pkt->offset = off;
	copy_raw(pkt, p, PKT_FAST_AVAIL, (unsigned)r);
	return (unsigned)r;
}

/* One packet at p (PKT_FAST_AVAIL bytes readable, in sync, no partial
 * packet), at stream offset off.  Returns its size, or 0 to leave it to the
 * general path.  ca is constant after inlining. */
static PKT_INLINE unsigned fast_one(struct pft_pkt_decoder *d, const uint8_t *p, uint64_t off,
				    struct pft_packet *pkt, const int ca)
{
	uint64_t w = pkt_ld64(p);
	unsigned h = (uint8_t)w, n;

	if (PKT_LIKELY((h & 0x81) == 0x80))
		return ca ? pkt_fast_atom_ca(w, off, pkt) : pkt_fast_atom(h, off, pkt);
	if (h & 1) {
		n = pkt_fast_branch(&d->st, p, w, off, pkt, ca);
		return PKT_LIKELY(n) ? n : fast_branch_full(d, p, off, pkt);
	}
	if (h == 0x08)
		return pkt_fast_isync(&d->cfg, &d->st, p, off, pkt);
	return fast_other(d, p, off, pkt);
}
#endif

#if PKT_FAST
/* pft_pkt_next() for everything but the atoms it reads itself. */
static PKT_NOINLINE int next_other(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	size_t pos = dec->pos;

	if (PKT_LIKELY(pos < dec->fast_lim)) {
		const uint8_t *p = dec->buf + pos;
		uint64_t off = dec->buf_off + pos;
		unsigned n = dec->cfg.ca ? fast_one(dec, p, off, pkt, 1) : fast_one(dec, p, off, pkt, 0);
		if (PKT_LIKELY(n)) {
			dec->pos = pos + n;
			return 0;
		}
	}
	return next_general(dec, pkt, size);
}
#endif

#if PKT_FAST
/* pft_pkt_next() for one configuration class (ca constant): atoms in the
 * middle of a chunk are read here, other packets by next_other().  Only
 * tail calls, so that no register needs saving. */
static PKT_INLINE int next_atom(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size,
				const int ca)
{
	size_t pos = dec->pos;

	if (PKT_LIKELY(pos < dec->fast_lim)) {
		uint64_t w = pkt_ld64(dec->buf + pos);
		if (PKT_LIKELY((w & 0x81) == 0x80)) {
			unsigned n = ca ? pkt_fast_atom_ca(w, dec->buf_off + pos, pkt)
					: pkt_fast_atom((uint8_t)w, dec->buf_off + pos, pkt);
			if (PKT_LIKELY(n)) {
				dec->pos = pos + n;
				return 0;
			}
		}
	}
	return next_other(dec, pkt, size);
}

static PKT_NOINLINE int next_ca(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	return next_atom(dec, pkt, size, 1);
}

static PKT_NOINLINE int next_nca(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	return next_atom(dec, pkt, size, 0);
}
#endif

/* The hot path: packets in the middle of a chunk are read in place (see
 * next_atom() and fast_one()); anything else (A-sync, errors, chunk ends,
 * partial packets, unsynchronised bytes) goes to next_general(). */
int pft_pkt_next(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	if (PKT_UNLIKELY(!dec || !pkt || size < sizeof(*pkt)))
		return -PFT_E_INVAL;
#if PKT_FAST
	return dec->cfg.ca ? next_ca(dec, pkt, size) : next_nca(dec, pkt, size);
#else
	return next_general(dec, pkt, size);
#endif
}

#if PKT_FAST
/* pft_pkt_next_batch's inner loop: fast_one() while it can. */
static PKT_INLINE size_t batch_fast(struct pft_pkt_decoder *dec, struct pft_packet *pkts,
				    size_t max, const int ca)
{
	const uint8_t *p = dec->buf + dec->pos, *lim = dec->buf + dec->fast_lim;
	uint64_t delta = dec->buf_off - (uint64_t)(uintptr_t)dec->buf; /* offset - address */
	struct pft_packet *pkt = pkts;

	/* every packet is at least one byte: while fewer than max - i bytes
	 * have been read, fewer than max - i packets have been written */
	while (p < lim) {
		size_t left = max - (size_t)(pkt - pkts);
		const uint8_t *stop = (size_t)(lim - p) > left ? p + left : lim;
		if (!left)
			break;
		do {
			unsigned n = fast_one(dec, p, (uint64_t)(uintptr_t)p + delta, pkt, ca);
			if (PKT_UNLIKELY(!n))
				goto out;
			p += n;
			pkt++;
		} while (p < stop);
	}
out:
	dec->pos = (size_t)(p - dec->buf);
	return (size_t)(pkt - pkts);
}
#endif

int pft_pkt_next_batch(struct pft_pkt_decoder *dec, struct pft_packet *pkts, size_t max,
		       size_t size)
{
	size_t i = 0;
	int r;

	if (!dec || !pkts || !max || size < sizeof(*pkts))
		return -PFT_E_INVAL;
	if (max > INT_MAX)
		max = INT_MAX;
	for (;;) {
#if PKT_FAST
		if (size == sizeof(*pkts) && dec->pos < dec->fast_lim) {
			i += dec->cfg.ca ? batch_fast(dec, pkts + i, max - i, 1)
					 : batch_fast(dec, pkts + i, max - i, 0);
			if (i == max)
				break;
		}
#endif
		r = next_general(dec, (struct pft_packet *)(void *)((char *)pkts + i * size), size);
		if (r < 0)
			return i ? (int)i : r;
		if (++i == max)
			break;
	}
	return (int)i;
}

static int next_general_impl(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size);

static int next_general(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	int r = next_general_impl(dec, pkt, size);
	if (dec)
		upd_fast(dec);
	return r;
}

static int next_general_impl(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	if (!dec || !pkt || size < sizeof(*pkt))
		return -PFT_E_INVAL;
	if (dec->mode == M_SYNC && !dec->part_len && !dec->has_pend && dec->pos < dec->len) {
		const uint8_t *p = dec->buf + dec->pos;
		size_t avail = dec->len - dec->pos;
		int r;

		memset(pkt, 0, sizeof(*pkt));
		if (avail >= PKT_FAST_AVAIL)
			r = decode_fast(dec, p, avail, pkt);
		else
			r = decode_one(dec, p, avail, pkt);
		if (r > 0) {
			pkt->offset = dec->buf_off + dec->pos;
			copy_raw(pkt, p, avail, (unsigned)r);
			dec->pos += (size_t)r;
			return 0;
		}
		if (r == R_ERROR) {
			uint64_t off = dec->buf_off + dec->pos;
			dec->pos += pkt->size;
			return pkt_dec_on_error(dec, pkt, off, p);
		}
		if (r == NEED_MORE) {
			/* the packet continues in the next chunk */
			dec->part_off = dec->buf_off + dec->pos;
			dec->part_len = (uint8_t)avail;
			memcpy(dec->part, p, avail);
			dec->pos = dec->len;
		} else {
			dec->mode = M_ZEROS;
			dec->run_off = dec->buf_off + dec->pos;
			dec->zrun = 0;
		}
	}
	return pkt_dec_next_slow(dec, pkt);
}

int pkt_dec_read_one(struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
		     struct pft_packet *pkt)
{
	return decode_one(d, p, avail, pkt);
}

int pkt_dec_next_in_sync(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	return next_general_impl(d, pkt, sizeof(*pkt));
}
