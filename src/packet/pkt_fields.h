/* SPDX-License-Identifier: BSD-3-Clause */
/* Packet layer internals: the header table and the sub-field readers and
 * writers shared by every packet type (cycle count, address bytes, exception
 * bytes, context ID, timestamp value, Gray code).  Written once, used by the
 * decoder's readers (pkt_read.c, pkt_fast.h) and the encoder (pkt_encoder.c).
 * Layouts: spec §4.5.2 to §4.5.9, written out in doc/packets.md (Byte
 * layouts).  A1 to A22 in the packet layer's comments are the choices
 * listed in doc/packets.md (Choices) where the spec is silent or ambiguous. */
#ifndef PFT_PACKET_PKT_FIELDS_H
#define PFT_PACKET_PKT_FIELDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pft/packet.h"

/* Header byte -> enum pft_pkt_type; PFT_PKT_NONE = reserved header, and
 * PFT_PKT_ASYNC for 0x00 (the start of a zero run).  Configuration-dependent
 * refinements (0x80/0x82 without CA, 0x6E with no context ID, 0x3C on v1.0)
 * are made by the per-type readers. */
extern const uint8_t pft_pkt_header_type[256];

/* Non-cycle-accurate atom headers: count (1..5, 0 = reserved) in bits 7:5,
 * E-atom mask (bit 0 = oldest) in bits 4:0. */
extern const uint8_t pft_pkt_atom_table[256];

/* Instruction-set layout class used for address compression. */
static inline unsigned pkt_isa_shift(unsigned isa)
{
	/* ARM: 2 (A1:A0 not sent); Thumb/ThumbEE: 1; Jazelle: 0; unknown: ARM. */
	static const uint8_t shift[5] = { 2, 1, 1, 0, 2 };
	return shift[isa < 5 ? isa : 4];
}

static inline unsigned pkt_isa_class(unsigned isa)
{
	static const uint8_t cls[5] = { 0, 1, 1, 2, 3 };
	return cls[isa < 5 ? isa : 4];
}

/* Address bits replaced by an n-byte compressed address (n = 1..4), for an
 * ISA whose alignment shift is s: s+6, s+12, s+19, s+26. */
static inline unsigned pkt_addr_bits(unsigned s, unsigned n)
{
	static const uint8_t k[5] = { 0, 6, 12, 19, 26 };
	return n >= 5 ? 32 : s + k[n];
}

/* ---- cycle count (spec §4.4, Table 4-8) --------------------------------
 * p[0] is cycle-count byte 0 (or a cycle-accurate atom header).  Returns the
 * number of bytes (1..5), or 0 if avail is too short. */
static inline unsigned pkt_read_cc(const uint8_t *p, size_t avail, uint32_t *val)
{
	uint32_t v = (p[0] >> 2) & 0xFu;
	unsigned i;

	if (!(p[0] & 0x40)) {
		*val = v;
		return 1;
	}
	for (i = 1; i < 5; i++) {
		uint8_t b;
		if (i >= avail)
			return 0;
		b = p[i];
		v |= (uint32_t)(b & 0x7Fu) << (4 + 7 * (i - 1));
		if (!(b & 0x80) || i == 4)
			break;
	}
	*val = v;
	return i + 1;
}

/* Fast paths: when at least PKT_FAST_AVAIL bytes are readable, sub-fields
 * are read with 8-byte loads and the field length found from the
 * continuation bits with one count-trailing-zeros, without a loop.  Needs a
 * little-endian host and GCC/clang builtins; elsewhere PKT_FAST is 0 and
 * only the byte-by-byte readers are used. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PKT_FAST 1
#define PKT_INLINE inline __attribute__((always_inline))
#else
#define PKT_FAST 0
#define PKT_INLINE inline
#endif
#define PKT_FAST_AVAIL 16 /* > longest packet (15) */

static inline uint64_t pkt_ld64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

#if PKT_FAST
/* Length (1..5) of the cycle count starting in the low byte of w: a set
 * bit in `stop` marks the last byte: byte 0 with C (b6) clear, bytes 1-3
 * with C (b7) clear, byte 4 always. */
static PKT_INLINE unsigned pkt_cc_len(uint64_t w)
{
	uint64_t stop = (~w & 0x80808040ull) | 0x100000000ull;
	return ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
}

/* The cycle count of the n-byte field in the low bytes of w, given w with
 * the bytes above the field cleared. */
static PKT_INLINE uint32_t pkt_cc_value(uint64_t w)
{
	return (uint32_t)((w >> 2) & 0xF) | (uint32_t)((w >> 4) & 0x7F0) |
	       (uint32_t)((w >> 5) & 0x3F800) | (uint32_t)((w >> 6) & 0x1FC0000) |
	       (uint32_t)((w >> 7) & 0xFE000000u);
}

/* The low n bytes of a 64-bit word, n = 0..8. */
static const uint64_t pkt_byte_mask[9] = {
	0, 0xFFull, 0xFFFFull, 0xFFFFFFull, 0xFFFFFFFFull, 0xFFFFFFFFFFull, 0xFFFFFFFFFFFFull,
	0xFFFFFFFFFFFFFFull, ~0ull
};

/* pkt_read_cc with 8 readable bytes at p. */
static PKT_INLINE unsigned pkt_read_cc_fast(const uint8_t *p, uint32_t *val)
{
	uint64_t w = pkt_ld64(p);
	unsigned n = pkt_cc_len(w);
	*val = pkt_cc_value(w & pkt_byte_mask[n]);
	return n;
}
#endif

/* Fewest cycle-count bytes that hold v (Table 4-8). */
static inline unsigned pkt_cc_size(uint32_t v)
{
	if (v < (1u << 4))
		return 1;
	if (v < (1u << 11))
		return 2;
	if (v < (1u << 18))
		return 3;
	if (v < (1u << 25))
		return 4;
	return 5;
}

/* Writes an n-byte cycle count (n >= pkt_cc_size(v), n <= 5); b0 holds the
 * bits of byte 0 outside Count[3:0] and C (M for I-sync, F for an atom). */
static inline unsigned pkt_write_cc(uint8_t *out, uint32_t v, unsigned n, uint8_t b0)
{
	unsigned i;

	out[0] = (uint8_t)(b0 | ((v & 0xFu) << 2) | (n > 1 ? 0x40 : 0));
	v >>= 4;
	for (i = 1; i < n; i++) {
		out[i] = (uint8_t)((v & 0x7Fu) | (i + 1 < n ? 0x80 : 0));
		v >>= 7;
	}
	return n;
}

/* ---- timestamp value (spec §4.5.9) -------------------------------------- */
static inline uint64_t pkt_gray_to_bin(uint64_t g)
{
	g ^= g >> 1;
	g ^= g >> 2;
	g ^= g >> 4;
	g ^= g >> 8;
	g ^= g >> 16;
	g ^= g >> 32;
	return g;
}

static inline uint64_t pkt_bin_to_gray(uint64_t b)
{
	return b ^ (b >> 1);
}

/* Timestamp value bytes: max_bytes 7 (48-bit) or 9 (64-bit).  Returns the
 * number of value bytes (1..max), or 0 if avail is too short. */
static inline unsigned pkt_read_ts(const uint8_t *p, size_t avail, unsigned max_bytes,
				   uint64_t *val)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < max_bytes; i++) {
		uint8_t b;
		if (i >= avail)
			return 0;
		b = p[i];
		if (i == max_bytes - 1) {
			/* the last possible byte: 48-bit TS[47:42] in b5..b0;
			 * 64-bit TS[63:56], all 8 bits data */
			if (max_bytes == 9)
				v |= (uint64_t)b << 56;
			else
				v |= (uint64_t)(b & 0x3Fu) << 42;
			break;
		}
		v |= (uint64_t)(b & 0x7Fu) << (7 * i);
		if (!(b & 0x80))
			break;
	}
	*val = v;
	return i + 1;
}

/* Merge n value bytes into the running (coded) timestamp. */
static inline uint64_t pkt_ts_merge(uint64_t prev, uint64_t v, unsigned n, unsigned max_bytes)
{
	uint64_t mask;

	if (n >= max_bytes)
		return v;
	mask = (1ull << (7 * n)) - 1;
	return (prev & ~mask) | v;
}

#endif
