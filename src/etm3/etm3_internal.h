/* SPDX-License-Identifier: BSD-3-Clause */
/* ETMv3 packet layer internals shared by the reader, the stream decoder and
 * the encoder: the compression state and the address layouts
 * (doc/etm3.md, "Branch address packets"). */
#ifndef PFT_ETM3_INTERNAL_H
#define PFT_ETM3_INTERNAL_H

#include "pft/etm3.h"

/* Longest packet other than A-sync: I-sync with a 5-byte cycle count, a
 * 4-byte context ID, the information byte, 4 address bytes and a 5-byte
 * LSiP address (20 bytes). */
#define ETM3_MAX_PKT 20

/* Compression state of one byte stream (identical in decoder and encoder).
 * A field added here belongs in etm3_decoder_state() too (etm3_par.h). */
struct etm3_state {
	uint32_t addr;   /* last instruction address */
	uint32_t daddr;  /* last data address */
	uint64_t ts;     /* running timestamp */
	uint8_t isa;     /* enum pft_isa of the last I-sync / branch */
	uint8_t altis;   /* AltISA state: Thumb in byte 5 means ThumbEE */
};

static inline void etm3_state_reset(struct etm3_state *st)
{
	st->addr = 0;
	st->daddr = 0;
	st->ts = 0;
	st->isa = PFT_ISA_UNKNOWN;
	st->altis = 0;
}

/* Alignment shift of instruction addresses in a branch packet: ARM 2, Thumb
 * and ThumbEE 1, Jazelle 0; an unknown ISA (before the first I-sync) reads
 * as ARM. */
static inline unsigned etm3_addr_shift(unsigned isa)
{
	return isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE ? 1 : isa == PFT_ISA_JAZELLE ? 0 : 2;
}

/* Address bits (before the shift) carried by the first k (1..4) bytes of a
 * branch address that ends there. */
static inline unsigned etm3_short_bits(unsigned k, int alt)
{
	if (k == 1)
		return 6;
	return alt ? 6 + 7 * (k - 2) + 6 : 6 + 7 * (k - 1);
}

/* Merge `bits` low bits of value into old. */
static inline uint32_t etm3_merge32(uint32_t old, uint32_t value, unsigned bits)
{
	uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : ((1u << bits) - 1u);
	return (old & ~mask) | (value & mask);
}

/* Read one packet (not A-sync) at p[0..n).  Returns its length (> 0) and
 * fills pkt (offset/size/bytes left to the caller) and *st; 0 when more bytes
 * are needed; -len for a malformed packet covering len bytes, pkt->reason
 * set, *st untouched.  Looks only at the bytes the packet needs, so the result
 * does not depend on how many bytes follow. */
/* A P-header byte (b & 0x81 == 0x80): 1 and pkt's type, format, atoms,
 * atom_count, cycles set, or 0 for a reserved encoding. */
int etm3_read_phdr(const struct pft_etm3_features *f, uint8_t b, struct pft_etm3_packet *pkt);

int etm3_read(const struct pft_etm3_features *f, struct etm3_state *st, const uint8_t *p,
	      size_t n, struct pft_etm3_packet *pkt);

#endif
