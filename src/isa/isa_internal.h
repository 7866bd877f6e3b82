/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal helpers shared by the A32 and T32 classifiers. */
#ifndef PFT_ISA_INTERNAL_H
#define PFT_ISA_INTERNAL_H

#include "pft/isa.h"

#define PFT_COND_AL 14u

/* The T32 size rule (one place; pft_isa_thumb_size is its public face):
 * a first halfword of 0b11101, 0b11110 or 0b11111 starts a 32-bit
 * instruction. */
static inline int pft_isa_t32_is_32bit(uint32_t hw1)
{
	return (hw1 & 0xF800u) >= 0xE800u;
}

/* Sign-extend the low `bits` bits of v. */
static inline int64_t pft_isa_sext(uint32_t v, unsigned bits)
{
	uint32_t m = 1u << (bits - 1);
	v &= (bits < 32) ? ((1u << bits) - 1u) : 0xFFFFFFFFu;
	return (int64_t)(int32_t)((v ^ m) - m);
}

/* Addresses wrap at 32 bits: the cores traced by a PTM are 32-bit. */
static inline uint64_t pft_isa_addr32(uint64_t a)
{
	return a & 0xFFFFFFFFu;
}

static inline void pft_isa_direct(struct pft_insn_info *o, uint64_t target, enum pft_isa tisa)
{
	o->wp_class = PFT_WP_DIRECT;
	o->target = pft_isa_addr32(target);
	o->target_isa = (uint8_t)tisa;
	o->flags |= PFT_INSN_F_TARGET;
}

static inline void pft_isa_indirect(struct pft_insn_info *o, uint16_t flags)
{
	o->wp_class = PFT_WP_INDIRECT;
	o->flags |= flags;
}

/* An UNPREDICTABLE encoding whose natural operation writes the PC as its
 * destination: classified as the indirect branch it would be, and flagged. */
static inline void pft_isa_unpred_pc(struct pft_insn_info *o)
{
	o->wp_class = PFT_WP_INDIRECT;
	o->flags |= PFT_INSN_F_UNPRED;
}

static inline void pft_isa_unpred(struct pft_insn_info *o)
{
	o->flags |= PFT_INSN_F_UNPRED;
}

static inline void pft_isa_undef(struct pft_insn_info *o)
{
	o->wp_class = PFT_WP_NONE;
	o->flags = (uint16_t)((o->flags & PFT_INSN_F_COND) | PFT_INSN_F_UNDEFINED);
	o->target = 0;
}

/* CP15 barrier operations (MCR p15, 0, Rt, c7, CRm, opc2), from the
 * coprocessor fields opc1:CRn:coproc:opc2:1:CRm of the MCR encoding, which
 * are bits [23:21],[19:16],[11:5],[3:0] in both A32 and T32 (hw2 for T32).
 * Returns the waypoint class, or PFT_WP_NONE. */
static inline enum pft_wp_class pft_isa_cp15_barrier(uint32_t fields)
{
	/* fields = op & 0x00EF0FFF with bit 20 (L) already known to be 0 */
	switch (fields) {
	case 0x00070F95: return PFT_WP_ISB;     /* c7, c5, 4: ISB (flush prefetch buffer) */
	case 0x00070F9A: return PFT_WP_BARRIER; /* c7, c10, 4: DSB (drain write buffer) */
	case 0x00070FBA: return PFT_WP_BARRIER; /* c7, c10, 5: DMB */
	default: return PFT_WP_NONE;
	}
}

void pft_isa_decode_a32(uint32_t op, uint64_t addr, unsigned opts, struct pft_insn_info *o);
void pft_isa_decode_t16(uint32_t hw, uint64_t addr, enum pft_isa isa, unsigned opts,
                        struct pft_insn_info *o);
void pft_isa_decode_t32(uint32_t hw1, uint32_t hw2, uint64_t addr, enum pft_isa isa,
                        unsigned opts, struct pft_insn_info *o);

#endif
