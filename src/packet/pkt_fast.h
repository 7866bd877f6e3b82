/* SPDX-License-Identifier: BSD-3-Clause */
/* The packet decoder's fast readers: the common packets (atoms, branch
 * addresses with a compressed address and no exception bytes, I-syncs) read
 * in place when at least PKT_FAST_AVAIL bytes of the chunk are left, so
 * that no length check is needed inside the packet.  Field lengths come
 * from the continuation bits with one count-trailing-zeros, and the whole
 * struct pft_packet is written as nine 8-byte words composed in registers:
 * every field, the zeros of the fields that do not apply and the raw bytes
 * (fewer instructions than clearing the struct and setting fields one by
 * one, and never a partial write).  Only included by pkt_read.c and pkt_next.c; needs
 * PKT_FAST (pkt_fields.h). */
#ifndef PFT_PACKET_PKT_FAST_H
#define PFT_PACKET_PKT_FAST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "packet/pkt_state.h"
#include "packet/pkt_fields.h"

#if defined(__GNUC__)
#define PKT_LIKELY(x) __builtin_expect(!!(x), 1)
#define PKT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define PKT_LIKELY(x) (x)
#define PKT_UNLIKELY(x) (x)
#endif

#if PKT_FAST

/* struct pft_packet as nine little-endian words:
 *   w0 offset            w1 size | type << 32 | flags << 48
 *   w2 address           w3 timestamp
 *   w4 cycles | context_id << 32
 *   w5 atoms | exception << 32 | isa << 48 | atom_count << 56
 *   w6 addr_bytes | cc_bytes << 8 | ts_bytes << 16 | reason << 24 |
 *      vmid << 32 | nbytes << 40 | bytes[0..1] << 48
 *   w7 bytes[2..9]       w8 bytes[10..15] | 2 bytes of padding (0)
 * The assertion pins the layout this relies on. */
_Static_assert(offsetof(struct pft_packet, offset) == 0 &&
	       offsetof(struct pft_packet, size) == 8 && offsetof(struct pft_packet, type) == 12 &&
	       offsetof(struct pft_packet, flags) == 14 &&
	       offsetof(struct pft_packet, address) == 16 &&
	       offsetof(struct pft_packet, timestamp) == 24 &&
	       offsetof(struct pft_packet, cycles) == 32 &&
	       offsetof(struct pft_packet, context_id) == 36 &&
	       offsetof(struct pft_packet, atoms) == 40 &&
	       offsetof(struct pft_packet, exception) == 44 &&
	       offsetof(struct pft_packet, isa) == 46 &&
	       offsetof(struct pft_packet, atom_count) == 47 &&
	       offsetof(struct pft_packet, addr_bytes) == 48 &&
	       offsetof(struct pft_packet, cc_bytes) == 49 &&
	       offsetof(struct pft_packet, ts_bytes) == 50 &&
	       offsetof(struct pft_packet, reason) == 51 &&
	       offsetof(struct pft_packet, vmid) == 52 &&
	       offsetof(struct pft_packet, nbytes) == 53 &&
	       offsetof(struct pft_packet, bytes) == 54 && sizeof(struct pft_packet) == 72,
	       "struct pft_packet layout");

#define PKT_W1(size, type, flags) \
	((uint64_t)(size) | (uint64_t)(type) << 32 | (uint64_t)(flags) << 48)
#define PKT_W4(cycles, cid) ((uint64_t)(cycles) | (uint64_t)(cid) << 32)
#define PKT_W5(atoms, exc, isa, count) \
	((uint64_t)(atoms) | (uint64_t)(exc) << 32 | (uint64_t)(isa) << 48 | (uint64_t)(count) << 56)
#define PKT_W6(ab, ccb, tsb, reason, nbytes) \
	((uint64_t)(ab) | (uint64_t)(ccb) << 8 | (uint64_t)(tsb) << 16 | (uint64_t)(reason) << 24 | \
	 (uint64_t)(nbytes) << 40)

/* Write the packet: w0..w6 as above (w6 without the raw bytes), r0 / r1 the
 * raw bytes 0-7 / 8-15 with the bytes beyond the packet cleared. */
static PKT_INLINE void pkt_put(struct pft_packet *pkt, uint64_t w0, uint64_t w1, uint64_t w2,
			       uint64_t w3, uint64_t w4, uint64_t w5, uint64_t w6, uint64_t r0,
			       uint64_t r1)
{
	unsigned char *q = (unsigned char *)pkt;
	uint64_t w7 = r0 >> 16 | r1 << 48, w8 = r1 >> 16;

	uint32_t w1lo = (uint32_t)w1, w1hi = (uint32_t)(w1 >> 32);
	uint32_t w5lo = (uint32_t)w5, w5hi = (uint32_t)(w5 >> 32);

	w6 |= r0 << 48;
	/* w1 and w5 in halves: type, flags, ISA and atom count are often
	 * constants (an immediate store instead of building the word) */
	memcpy(q, &w0, 8);
	memcpy(q + 8, &w1lo, 4);
	memcpy(q + 12, &w1hi, 4);
	memcpy(q + 16, &w2, 8);
	memcpy(q + 24, &w3, 8);
	memcpy(q + 32, &w4, 8);
	memcpy(q + 40, &w5lo, 4);
	memcpy(q + 44, &w5hi, 4);
	memcpy(q + 48, &w6, 8);
	memcpy(q + 56, &w7, 8);
	memcpy(q + 64, &w8, 8);
}

/* Raw bytes 8..15 of an n-byte packet (n <= 16) whose bytes 8.. are in w. */
static PKT_INLINE uint64_t pkt_raw_hi(uint64_t w, unsigned n)
{
	return n > 8 ? w & pkt_byte_mask[n - 8] : 0;
}

/* w6 of a packet of n bytes that are all cycle count (CA atom). */
static const uint64_t pkt_w6_cc[6] = {
	0, PKT_W6(0, 1, 0, 0, 1), PKT_W6(0, 2, 0, 0, 2), PKT_W6(0, 3, 0, 0, 3),
	PKT_W6(0, 4, 0, 0, 4), PKT_W6(0, 5, 0, 0, 5)
};

/* Cycle count of a field (1..5 bytes) given its bytes with those beyond the
 * field cleared; counts above 2047 (three bytes or more) are rare. */
static PKT_INLINE uint32_t pkt_cc_value_fast(uint64_t r)
{
	uint32_t v = (uint32_t)((r >> 2) & 0xF) | (uint32_t)((r >> 4) & 0x7F0);

	if (PKT_UNLIKELY(r >> 16))
		v |= (uint32_t)((r >> 5) & 0x3F800) | (uint32_t)((r >> 6) & 0x1FC0000) |
		     (uint32_t)((r >> 7) & 0xFE000000u);
	return v;
}

/* Cycle-accurate atom: header 1xxxxxF0 with a cycle count in place.  The
 * common one- and two-byte forms (counts below 2048) take a short path:
 * the next packet's position then depends on one bit of the header only. */
static PKT_INLINE unsigned pkt_fast_atom_ca(uint64_t w, uint64_t off, struct pft_packet *pkt)
{
	unsigned n;
	uint64_t r;
	uint32_t cyc;

	if (PKT_LIKELY((w & 0x8040) != 0x8040)) { /* not C in byte 0 and byte 1 */
		n = 1 + ((unsigned)(w >> 6) & 1);
		r = w & pkt_byte_mask[n];
		cyc = (uint32_t)((r >> 2) & 0xF) | (uint32_t)((r >> 4) & 0x7F0);
	} else {
		n = pkt_cc_len(w);
		r = w & pkt_byte_mask[n];
		cyc = pkt_cc_value(r);
	}
	pkt_put(pkt, off, PKT_W1(n, PFT_PKT_ATOM, PFT_PKT_F_CC), 0, 0, cyc,
		PKT_W5(((unsigned)w >> 1 & 1) ^ 1, 0, 0, 1), pkt_w6_cc[n], r, 0);
	return n;
}

/* Atom without cycle accuracy: one byte; 0 for the reserved 0x80 / 0x82. */
static PKT_INLINE unsigned pkt_fast_atom(unsigned h, uint64_t off, struct pft_packet *pkt)
{
	unsigned a = pft_pkt_atom_table[h];

	if (PKT_UNLIKELY(!a))
		return 0;
	pkt_put(pkt, off, PKT_W1(1, PFT_PKT_ATOM, 0), 0, 0, 0, PKT_W5(a & 0x1F, 0, 0, a >> 5),
		PKT_W6(0, 0, 0, 0, 1), h, 0);
	return 1;
}

/* Branch address packet in its common form: 1-4 address bytes, no
 * exception bytes (so ISA, NS and Hyp stay as they are).  Returns 0 for
 * the other forms. */
static PKT_INLINE unsigned pkt_fast_branch(struct pkt_dec_state *st, const uint8_t *p, uint64_t w,
					   uint64_t off, struct pft_packet *pkt, const int ca)
{
	static const uint8_t bits[5] = { 0, 6, 12, 19, 26 };
	/* the address ends at the first byte 0-3 with C clear, or at 4 */
	uint64_t stop = (~w & 0x80808080ull) | 0x8000000000ull;
	unsigned na = ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
	unsigned isa, s, nb, total, ncc = 0, flags = 0;
	uint32_t cyc = 0, addr, v;
	uint64_t r0, r1 = 0;

	/* 5 bytes, or an X bit (exception bytes follow) in the last of 2-4:
	 * one test, no short-circuit branches */
	if (PKT_UNLIKELY((na == 5) | ((na > 1) & (unsigned)(w >> (8 * na - 2)))))
		return 0;
	isa = st->base_isa;
	s = pkt_isa_shift(isa);
	nb = bits[na];
	v = (uint32_t)(((w >> 1) & 0x3F) | ((w >> 2) & 0x1FC0) | ((w >> 3) & 0xFE000) |
		       ((w >> 4) & 0x7F00000));
	v &= (1u << nb) - 1; /* drops the X bit of the last byte */
	addr = (st->base_addr & ~((1u << (s + nb)) - 1)) | v << s;
	total = na;
	if (ca) {
		uint64_t c = pkt_ld64(p + na);
		ncc = pkt_cc_len(c);
		cyc = pkt_cc_value_fast(c & pkt_byte_mask[ncc]);
		total += ncc;
		flags = PFT_PKT_F_CC;
		if (PKT_UNLIKELY(total > 8))
			r1 = pkt_ld64(p + 8) & pkt_byte_mask[total - 8];
		r0 = w & pkt_byte_mask[total < 8 ? total : 8];
	} else {
		r0 = w & pkt_byte_mask[total];
	}
	flags |= (st->ns ? PFT_PKT_F_NS : 0) | (st->hyp ? PFT_PKT_F_HYP : 0) |
		 (isa == PFT_ISA_THUMBEE ? PFT_PKT_F_ALTIS : 0);
	pkt_put(pkt, off, PKT_W1(total, PFT_PKT_BRANCH, flags), addr, 0, cyc,
		PKT_W5(0, 0, isa, 0), PKT_W6(na, ncc, 0, 0, total), r0, r1);
	st->base_addr = addr;
	return total;
}

/* I-sync (header 0x08): 4 address bytes, the information byte, a cycle
 * count if cycle-accurate and the reason is not periodic, then the context
 * ID.  At most 15 bytes, all inside the 16 readable. */
static PKT_INLINE unsigned pkt_fast_isync(const struct pkt_dec_cfg *cfg, struct pkt_dec_state *st,
					  const uint8_t *p, uint64_t off, struct pft_packet *pkt)
{
	uint64_t w = pkt_ld64(p);
	unsigned info = (unsigned)(w >> 40) & 0xFF, reason = (info >> 5) & 3;
	unsigned n = 6, ncc = 0, nc = cfg->cid_bytes, flags = 0, isa;
	uint32_t cyc = 0, cid = 0, addr = (uint32_t)(w >> 8) & 0xFFFFFFFEu;

	if (cfg->ca && reason != PFT_ISYNC_PERIODIC) {
		uint64_t c = pkt_ld64(p + 6);
		ncc = pkt_cc_len(c);
		cyc = pkt_cc_value_fast(c & pkt_byte_mask[ncc]);
		n += ncc;
		flags = PFT_PKT_F_CC;
	}
	if (nc) {
		uint32_t c; /* p[n..n+3], n <= 11 */
		memcpy(&c, p + n, 4);
		cid = (uint32_t)(c & pkt_byte_mask[nc]);
		n += nc;
		flags |= PFT_PKT_F_CID;
	}
	if ((w >> 8) & 1)
		isa = (info & 0x04) ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
	else
		isa = PFT_ISA_ARM;
	flags |= ((info & 0x08) ? PFT_PKT_F_NS : 0) | ((info & 0x02) ? PFT_PKT_F_HYP : 0) |
		 ((info & 0x04) ? PFT_PKT_F_ALTIS : 0);
	pkt_put(pkt, off, PKT_W1(n, PFT_PKT_ISYNC, flags), addr, 0, PKT_W4(cyc, cid),
		PKT_W5(0, 0, isa, 0), PKT_W6(0, ncc, 0, reason, n),
		w & pkt_byte_mask[n < 8 ? n : 8], pkt_raw_hi(pkt_ld64(p + 8), n));
	st->base_addr = addr;
	st->base_isa = (uint8_t)isa;
	st->ns = (info >> 3) & 1;
	st->hyp = (info >> 1) & 1;
	return n;
}

#endif /* PKT_FAST */
#endif
