/* SPDX-License-Identifier: BSD-3-Clause */
/* PFT packet decoder: bytes -> packets, streaming and pull-style.
 *
 * Three modes:
 *   SEARCH  unsynchronised: scan for >= 5 x 0x00 followed by 0x80; the bytes
 *           passed over come out as one PFT_PKT_UNSYNCED item when the A-sync
 *           is found, at the end of the stream, or at RUN_MAX bytes.  The run
 *           is counted across chunks, not copied: only its first 16 bytes are
 *           kept (head[]), so the item is the same however the input is cut.
 *   ZEROS   inside a run of 0x00 bytes that should end in 0x80 (A-sync); the
 *           run is only counted, never copied, so it may be any length.
 *   SYNC    one header-table lookup and one reader per packet type.  When the
 *           whole packet is inside the current chunk it is read in place (the
 *           fast path); a packet cut by the end of a chunk is copied into
 *           part[] (at most one packet, < 16 bytes) and completed from the
 *           next chunk.
 * Every byte fed is reported in exactly one item.  Readers never change the
 * decoder state unless they return a complete packet, so a reader can be
 * retried when more bytes arrive. */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "packet/pkt_decoder.h"
#include "packet/pkt_fields.h"
#include "packet/pkt_fast.h"

enum { M_SEARCH, M_ZEROS, M_SYNC };

/* Readers return the packet length (> 0), NEED_MORE, or one of these. */
#define NEED_MORE 0
#define R_ERROR (-1)  /* pkt holds a PFT_PKT_ERROR item (reason, size) */
#define R_ZEROS (-2)  /* 0x00 header: an A-sync starts */

/* Longest zero run kept as one A-sync (longer: the zeros before the last
 * ZRUN_MAX are skipped bytes), and longest UNSYNCED item.  Both limits are
 * applied at exact stream positions, whatever the chunking. */
#define ZRUN_MAX (1u << 29)
#define RUN_MAX (1u << 30)

struct pft_pkt_decoder {
	struct pkt_dec_cfg cfg;
	struct pkt_dec_state st;

	const uint8_t *buf;   /* current chunk (borrowed) */
	size_t len, pos;
	size_t fast_lim;      /* pos < fast_lim: in sync, no partial packet, and
	                         PKT_FAST_AVAIL bytes readable (see upd_fast) */
	uint64_t buf_off;     /* stream offset of buf[0] */

	uint8_t mode;
	uint8_t ended;        /* pft_pkt_end() called */
	uint8_t drained;      /* next() returned AGAIN for this chunk */
	uint8_t has_pend;
	uint8_t part_len;
	uint8_t part[PFT_PKT_MAX_BYTES];
	uint64_t part_off;

	/* SEARCH: the bytes not yet reported (the search run) start at
	 * run_off: `carry` bytes from earlier chunks, whose first
	 * min(carry, 16) are in head[], then buf[run_start .. pos).  zrun is
	 * the number of trailing zeros of the run.  Whenever part of a run is
	 * reported, what is left of it is zeros only.
	 * ZEROS: zrun zero bytes from run_off on (counted only). */
	uint64_t run_off;
	uint64_t carry;
	size_t run_start;
	uint64_t zrun;
	uint8_t head[PFT_PKT_MAX_BYTES];

	struct pft_packet pend; /* one queued item (pft_pkt_resync) */
};

void pkt_dec_cfg_init(struct pkt_dec_cfg *c, const struct pft_features *f)
{
	c->ca = f->cycle_accurate;
	c->cid_bytes = f->contextid_bytes;
	c->v11 = f->minor >= 1;
	c->ts_max = f->ts_bits == 64 ? 9 : 7;
	c->ts_gray = f->ts_gray;
	c->ts_bits = f->ts_bits;
}

void pkt_dec_state_reset(struct pkt_dec_state *st)
{
	st->base_addr = 0;
	st->base_isa = PFT_ISA_UNKNOWN;
	st->ns = 0;
	st->hyp = 0;
	st->ts = 0;
}

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
	if (!(p[0] & 0x80)) {
		n = 1;
	} else {
		if (avail < 2)
			return NEED_MORE;
		if (!(p[1] & 0x80)) {
			n = 2;
		} else {
			if (avail < 3)
				return NEED_MORE;
			if (!(p[2] & 0x80)) {
				n = 3;
			} else {
				if (avail < 4)
					return NEED_MORE;
				if (!(p[3] & 0x80)) {
					n = 4;
				} else {
					if (avail < 5)
						return NEED_MORE;
					n = 5;
				}
			}
		}
	}
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

/* ---- public API --------------------------------------------------------- */

static inline void upd_fast(struct pft_pkt_decoder *d)
{
	d->fast_lim = (PKT_FAST && d->mode == M_SYNC && !d->part_len && d->len >= PKT_FAST_AVAIL)
			      ? d->len - PKT_FAST_AVAIL + 1
			      : 0;
}

struct pft_pkt_decoder *pft_pkt_decoder_alloc(const struct pft_config *cfg)
{
	struct pft_features f;
	struct pft_pkt_decoder *d;

	if (pft_config_features(cfg, &f) < 0)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	pkt_dec_cfg_init(&d->cfg, &f);
	pkt_dec_state_reset(&d->st);
	d->mode = M_SEARCH;
	d->drained = 1;
	return d;
}

void pft_pkt_decoder_free(struct pft_pkt_decoder *dec)
{
	free(dec);
}

int pft_pkt_feed(struct pft_pkt_decoder *dec, const uint8_t *buf, size_t len)
{
	if (!dec || (!buf && len))
		return -PFT_E_INVAL;
	if (dec->ended || !dec->drained || dec->has_pend)
		return -PFT_E_INVAL;
	dec->buf_off += dec->len;
	dec->buf = buf;
	dec->len = len;
	dec->pos = 0;
	dec->run_start = 0;
	dec->drained = 0;
	upd_fast(dec);
	return 0;
}

int pft_pkt_end(struct pft_pkt_decoder *dec)
{
	if (!dec)
		return -PFT_E_INVAL;
	dec->ended = 1;
	return 0;
}

uint64_t pft_pkt_get_offset(const struct pft_pkt_decoder *dec)
{
	if (!dec)
		return 0;
	if (dec->has_pend)
		return dec->pend.offset;
	if (dec->mode != M_SYNC)
		return dec->run_off;
	if (dec->part_len)
		return dec->part_off;
	return dec->buf_off + dec->pos;
}

static void enter_search(struct pft_pkt_decoder *d)
{
	pkt_dec_state_reset(&d->st);
	d->mode = M_SEARCH;
	d->run_off = d->buf_off + d->pos;
	d->carry = 0;
	d->run_start = d->pos;
	d->zrun = 0;
}

/* SEARCH, end of a chunk: the run's bytes in it become carry (the first 16
 * of the run are copied while buf is still valid). */
static void stash_run(struct pft_pkt_decoder *d)
{
	size_t n = d->pos - d->run_start;

	if (d->carry < PFT_PKT_MAX_BYTES) {
		size_t k = PFT_PKT_MAX_BYTES - (size_t)d->carry;
		if (k > n)
			k = n;
		if (k)
			memcpy(d->head + d->carry, d->buf + d->run_start, k);
	}
	d->carry += n;
	d->run_start = d->pos;
}

static void resync(struct pft_pkt_decoder *dec);

void pft_pkt_resync(struct pft_pkt_decoder *dec)
{
	if (!dec)
		return;
	resync(dec);
	upd_fast(dec);
}

static void resync(struct pft_pkt_decoder *dec)
{
	if (dec->mode == M_SYNC && dec->part_len && !dec->has_pend) {
		struct pft_packet *u = &dec->pend;
		memset(u, 0, sizeof(*u));
		u->type = PFT_PKT_UNSYNCED;
		u->offset = dec->part_off;
		u->size = dec->part_len;
		u->nbytes = dec->part_len;
		memcpy(u->bytes, dec->part, dec->part_len);
		dec->has_pend = 1;
		dec->part_len = 0;
	}
	if (dec->mode == M_SEARCH) {
		pkt_dec_state_reset(&dec->st);
		return;
	}
	if (dec->mode == M_ZEROS) {
		/* the zeros counted so far start the search run */
		pkt_dec_state_reset(&dec->st);
		dec->mode = M_SEARCH;
		dec->carry = dec->zrun; /* zero bytes before buf[pos] */
		memset(dec->head, 0, sizeof(dec->head));
		dec->run_start = dec->pos;
		return;
	}
	enter_search(dec);
}

/* Fill bytes[] of an item whose range is `zeros` zero bytes followed by src
 * (A-sync, zero runs). */
static void fill_bytes(struct pft_packet *pkt, uint64_t zeros, const uint8_t *src, uint64_t size)
{
	unsigned n = size < PFT_PKT_MAX_BYTES ? (unsigned)size : PFT_PKT_MAX_BYTES;
	unsigned z = zeros < n ? (unsigned)zeros : n;

	memset(pkt->bytes, 0, sizeof(pkt->bytes));
	if (n > z && src)
		memcpy(pkt->bytes + z, src, n - z);
	pkt->nbytes = (uint8_t)n;
}

static void item(struct pft_packet *pkt, unsigned type, uint64_t off, uint64_t size)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->type = (uint16_t)type;
	pkt->offset = off;
	pkt->size = (uint32_t)size;
}

/* Report the first n bytes of the search run as UNSYNCED: bytes[] from
 * head[] (the carried part) then from the chunk.  What is left of the run
 * is zeros only. */
static void emit_unsynced(struct pft_pkt_decoder *d, struct pft_packet *pkt, uint64_t n)
{
	unsigned nb = n < PFT_PKT_MAX_BYTES ? (unsigned)n : PFT_PKT_MAX_BYTES;
	unsigned h = d->carry < nb ? (unsigned)d->carry : nb;

	item(pkt, PFT_PKT_UNSYNCED, d->run_off, n);
	memcpy(pkt->bytes, d->head, h);
	if (nb > h)
		memcpy(pkt->bytes + h, d->buf + d->run_start, nb - h);
	pkt->nbytes = (uint8_t)nb;
	d->run_off += n;
	if (n <= d->carry) {
		d->carry -= n;
		memset(d->head, 0, sizeof(d->head));
	} else {
		d->run_start += (size_t)(n - d->carry);
		d->carry = 0;
	}
}

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

static int on_error(struct pft_pkt_decoder *d, struct pft_packet *pkt, uint64_t off,
		    const uint8_t *p)
{
	unsigned size = pkt->size;
	unsigned reason = pkt->reason;

	item(pkt, PFT_PKT_ERROR, off, size);
	pkt->reason = (uint8_t)reason;
	pkt->nbytes = (uint8_t)size;
	memcpy(pkt->bytes, p, size);
	enter_search(d);
	return 0;
}

static int next_slow(struct pft_pkt_decoder *d, struct pft_packet *pkt);

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
			return on_error(dec, pkt, off, p);
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
	return next_slow(dec, pkt);
}

static int next_slow(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	if (d->has_pend) {
		*pkt = d->pend;
		d->has_pend = 0;
		return 0;
	}
	for (;;) {
		switch (d->mode) {
		case M_SYNC: {
			unsigned old, total, take;
			int r;

			if (!d->part_len) {
				if (d->pos < d->len)
					return next_general_impl(d, pkt, sizeof(*pkt));
				goto chunk_done;
			}
			/* complete the packet cut at the end of the last chunk */
			old = d->part_len;
			take = PFT_PKT_MAX_BYTES - old;
			if (take > d->len - d->pos)
				take = (unsigned)(d->len - d->pos);
			if (!take && !d->ended)
				goto chunk_done;
			memcpy(d->part + old, d->buf + d->pos, take);
			total = old + take;
			memset(pkt, 0, sizeof(*pkt));
			r = decode_one(d, d->part, total, pkt);
			if (r > 0) {
				pkt->offset = d->part_off;
				pkt->nbytes = (uint8_t)r;
				memcpy(pkt->bytes, d->part, (size_t)r);
				d->pos += (size_t)r - old;
				d->part_len = 0;
				return 0;
			}
			if (r == R_ERROR) {
				unsigned esz = pkt->size < old ? old : pkt->size;
				pkt->size = esz;
				d->pos += esz - old;
				d->part_len = 0;
				return on_error(d, pkt, d->part_off, d->part);
			}
			/* still incomplete: everything left was taken */
			d->part_len = (uint8_t)total;
			d->pos = d->len;
			if (d->ended) {
				item(pkt, PFT_PKT_ERROR, d->part_off, total);
				pkt->reason = PFT_PERR_TRUNCATED;
				pkt->nbytes = (uint8_t)total;
				memcpy(pkt->bytes, d->part, total);
				d->part_len = 0;
				enter_search(d);
				return 0;
			}
			goto chunk_done;
		}
		case M_ZEROS: {
			const uint8_t *b = d->buf;
			size_t pos = d->pos, len = d->len, lim = len;
			/* stop at the zero that makes the run longer than ZRUN_MAX */
			if (lim - pos > ZRUN_MAX + 1 - d->zrun)
				lim = pos + (size_t)(ZRUN_MAX + 1 - d->zrun);
			while (pos < lim && b[pos] == 0)
				pos++;
			d->zrun += pos - d->pos;
			d->pos = pos;
			if (d->zrun > ZRUN_MAX) {
				/* absurdly long zero run: report all but the last
				 * five zeros as skipped and keep searching */
				uint64_t n = d->zrun - 5;
				pkt_dec_state_reset(&d->st);
				d->mode = M_SEARCH;
				d->carry = d->zrun;
				memset(d->head, 0, sizeof(d->head));
				d->run_start = d->pos;
				emit_unsynced(d, pkt, n);
				d->zrun = 5;
				return 0;
			}
			if (pos == len) {
				if (!d->ended)
					goto chunk_done;
				if (!d->zrun) {
					enter_search(d);
					continue;
				}
				/* the stream ends inside an A-sync */
				item(pkt, PFT_PKT_ERROR, d->run_off, d->zrun);
				pkt->reason = PFT_PERR_TRUNCATED;
				fill_bytes(pkt, d->zrun, NULL, d->zrun);
				enter_search(d);
				return 0;
			}
			if (b[pos] == 0x80 && d->zrun >= 5) {
				item(pkt, PFT_PKT_ASYNC, d->run_off, d->zrun + 1);
				fill_bytes(pkt, d->zrun, b + pos, d->zrun + 1);
				d->pos = pos + 1;
				d->mode = M_SYNC;
				return 0;
			}
			/* fewer than 5 zeros, or not followed by 0x80 */
			item(pkt, PFT_PKT_ERROR, d->run_off, d->zrun);
			pkt->reason = PFT_PERR_BAD_ASYNC;
			fill_bytes(pkt, d->zrun, NULL, d->zrun);
			enter_search(d);
			return 0;
		}
		case M_SEARCH: {
			const uint8_t *b = d->buf;
			size_t pos = d->pos, len = d->len, lim = len;
			uint64_t z = d->zrun, n, run = d->carry + (pos - d->run_start);

			/* stop where the run reaches RUN_MAX bytes */
			if (lim - pos > RUN_MAX - run)
				lim = pos + (size_t)(RUN_MAX - run);
			while (pos < lim) {
				uint8_t c = b[pos];
				if (c == 0) {
					z++;
				} else if (c == 0x80 && z >= 5) {
					break;
				} else {
					z = 0;
				}
				pos++;
			}
			d->zrun = z;
			d->pos = pos;
			run = d->carry + (pos - d->run_start);
			if (pos < lim) {
				/* A-sync found: its zeros (at most ZRUN_MAX) end the run */
				uint64_t zs = z > ZRUN_MAX ? ZRUN_MAX : z;
				n = run - zs;
				d->zrun = zs;
				d->mode = M_ZEROS;
				if (n) {
					emit_unsynced(d, pkt, n);
					return 0;
				}
				continue;
			}
			if (run == RUN_MAX) {
				/* longest item: report all but the trailing zeros
				 * (at most ZRUN_MAX), which an A-sync may end */
				uint64_t zs = z > ZRUN_MAX ? ZRUN_MAX : z;
				emit_unsynced(d, pkt, run - zs);
				d->zrun = zs;
				return 0;
			}
			/* pos == len */
			if (d->ended) {
				if (run) {
					emit_unsynced(d, pkt, run);
					d->zrun = 0;
					return 0;
				}
				return -PFT_E_EOS;
			}
			stash_run(d);
			goto chunk_done;
		}
		default:
			return -PFT_E_INTERNAL;
		}
	}
chunk_done:
	if (d->ended)
		return -PFT_E_EOS;
	d->drained = 1;
	return -PFT_E_AGAIN;
}

int pft_pkt_decode_buffer(const struct pft_config *cfg, const uint8_t *buf, size_t len,
			  int (*cb)(const struct pft_packet *pkt, void *arg), void *arg)
{
	struct pft_features f;
	struct pft_pkt_decoder *d;
	struct pft_packet pkt;
	int r;

	if (!cb || (!buf && len))
		return -PFT_E_INVAL;
	r = pft_config_features(cfg, &f);
	if (r < 0)
		return r;
	d = pft_pkt_decoder_alloc(cfg);
	if (!d)
		return -PFT_E_NOMEM;
	r = pft_pkt_feed(d, buf, len);
	if (!r)
		r = pft_pkt_end(d);
	while (!r) {
		r = pft_pkt_next(d, &pkt, sizeof(pkt));
		if (r == -PFT_E_EOS) {
			r = 0;
			break;
		}
		if (r < 0)
			break;
		r = cb(&pkt, arg);
		if (r)
			break;
	}
	pft_pkt_decoder_free(d);
	return r;
}
