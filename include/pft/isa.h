/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft ISA layer: pure functions that classify one instruction the way a
 * PTM does (spec section 2.2, Tables 2-2 to 2-5).  No memory access, no
 * trace state: the caller hands in the bytes at the address.
 *
 *     struct pft_insn_info in;
 *     if (pft_isa_decode(PFT_ISA_THUMB, addr, bytes, avail, 0, &in) == 0)
 *         printf("%u bytes, %s\n", in.size, pft_wp_class_name(in.wp_class));
 *     ok = pft_isa_cond_passed(in.cond, cpsr); */
#ifndef PFT_ISA_H
#define PFT_ISA_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Waypoint class of an instruction. */
enum pft_wp_class {
	PFT_WP_NONE = 0,         /* not a waypoint */
	PFT_WP_DIRECT,           /* direct branch: B, B<cond>, BL, BLX imm, CBZ/CBNZ */
	PFT_WP_INDIRECT,         /* indirect branch: BX, BLX reg, LDR/LDM/POP to PC,
	                            data processing to PC, TBB/TBH, SUBS PC,LR, ERET,
	                            RFE, BXJ, and the ThumbEE handler branches
	                            HB/HBL/HBP/HBLP (target from TEEHBR, Table 2-5) */
	PFT_WP_ISB,              /* ISB (always a waypoint), incl. CP15 ISB */
	PFT_WP_BARRIER,          /* DMB/DSB incl. CP15 forms: a waypoint only with
	                            PFT_ISA_OPT_DMB_WAYPOINT (ETMCCER[24]) */
	PFT_WP_ISA_CHANGE,       /* ENTERX / LEAVEX (Thumb <-> ThumbEE) */
	PFT_WP_NR
};
PFT_API const char *pft_wp_class_name(enum pft_wp_class c);

/* pft_insn_info.flags */
#define PFT_INSN_F_LINK       0x0001u /* writes a return address to LR (BL, BLX, HBL...) */
#define PFT_INSN_F_COND       0x0002u /* has a condition other than AL (ARM cond field,
                                         Thumb B<cond>, CBZ/CBNZ); IT state is the caller's.
                                         CBZ reports cond 0 (EQ), CBNZ cond 1 (NE). */
#define PFT_INSN_F_EXC_RETURN 0x0004u /* exception return: SUBS PC,LR / MOVS PC / LDM ^ with PC,
                                         RFE, ERET */
#define PFT_INSN_F_UNPRED     0x0008u /* UNPREDICTABLE encoding.  Classified as the
                                         instruction it would be if the UNPREDICTABLE
                                         condition were ignored (a PC destination makes
                                         it PFT_WP_INDIRECT); spec 2.2.1 asks the tool to
                                         tell the user.  See doc/isa.md. */
#define PFT_INSN_F_UNDEFINED  0x0010u /* UNDEFINED / not decodable (class NONE) */
#define PFT_INSN_F_SVC        0x0020u /* SVC */
#define PFT_INSN_F_SMC        0x0040u /* SMC */
#define PFT_INSN_F_HVC        0x0080u /* HVC */
#define PFT_INSN_F_BKPT       0x0100u /* BKPT */
#define PFT_INSN_F_IT         0x0200u /* Thumb IT instruction (it_mask valid) */
#define PFT_INSN_F_WFI        0x0400u /* WFI or WFE */
#define PFT_INSN_F_TARGET     0x0800u /* target / target_isa valid (direct branch; for
                                         ENTERX/LEAVEX the next instruction and its ISA) */
#define PFT_INSN_F_PC_READ_ISA 0x1000u /* indirect branch whose target ISA comes from
                                         bit 0 of the target (BX, BLX, LDR/POP PC on v7) */

/* Classifier options */
#define PFT_ISA_OPT_DMB_WAYPOINT 0x1u /* ETMCCER[24]=1: DMB/DSB are waypoints */
#define PFT_ISA_OPT_HYP          0x2u /* the core is in Hyp mode (spec 2.2 note): RFE,
                                         T32 SUBS PC,LR,#N with N != 0, A32 flag-setting
                                         data processing to the PC and LDM (exception
                                         return) are UNDEFINED there, so class NONE with
                                         PFT_INSN_F_UNDEFINED and no F_EXC_RETURN */

struct pft_insn_info {
	uint32_t opcode;   /* A32: the word; T32 32-bit: hw1 << 16 | hw2; T16: hw */
	uint8_t size;      /* bytes: 4 (A32, 32-bit T32) or 2 (16-bit T32); 0 if too few bytes */
	uint8_t wp_class;  /* enum pft_wp_class */
	uint8_t cond;      /* condition 0..14 (14 = AL); IT: firstcond */
	uint8_t target_isa;/* enum pft_isa of a direct target */
	uint16_t flags;    /* PFT_INSN_F_* */
	uint8_t it_mask;   /* IT: the 4-bit mask */
	uint8_t reserved;
	uint64_t target;   /* direct branch target (F_TARGET) */
};

/* One instruction of a program, as classified at its address (the flow
 * decoder's ranges are arrays of these). */
struct pft_insn {
	uint64_t addr;
	uint32_t opcode;   /* A32 word; 32-bit T32 hw1 << 16 | hw2; 16-bit T32 hw */
	uint8_t size;      /* 2 or 4 */
	uint8_t wp_class;  /* enum pft_wp_class; PFT_WP_BARRIER counts as a
	                      waypoint only when ETMCCER[24] says so */
	uint16_t flags;    /* PFT_INSN_F_* */
};

/* Classify the instruction at addr in instruction set isa, whose bytes (in
 * memory order, little-endian) are bytes[0..avail).  Needs 4 bytes for A32,
 * 2 or 4 for T32/ThumbEE.  Returns 0, -PFT_E_NOMAP when avail is too small
 * (out->size says how many bytes are needed), -PFT_E_INVAL for a NULL
 * argument or an unknown isa, -PFT_E_UNSUPPORTED for Jazelle.  Every
 * encoding is classified (no error for UNDEFINED ones: see the flags).
 * opts: PFT_ISA_OPT_*.  Pure: same inputs, same output; no state. */
PFT_API int pft_isa_decode(enum pft_isa isa, uint64_t addr, const uint8_t *bytes,
                           size_t avail, unsigned opts, struct pft_insn_info *out);

/* Size in bytes (2 or 4) of the T32/ThumbEE instruction whose first
 * halfword is hw1. */
PFT_API int pft_isa_thumb_size(uint32_t hw1);

/* Does condition cond (0..15; 14 and 15 always pass) pass with the flags
 * N,Z,C,V in bits [31:28] of cpsr?  Returns 1 or 0. */
PFT_API int pft_isa_cond_passed(unsigned cond, uint32_t cpsr);

/* IT block state (the ITSTATE bits of the ARM ARM, firstcond:mask, shifted
 * as the block advances).  Use: after an instruction with PFT_INSN_F_IT,
 * pft_isa_it_start(); then for each following instruction read
 * pft_isa_it_cond() (14 = AL outside a block), and pft_isa_it_advance()
 * after it.  A Thumb instruction whose IT condition fails is still
 * executed as far as the trace is concerned: a waypoint gives an N atom,
 * a nonwaypoint leaves no trace, and either way the next address follows. */
struct pft_it_state {
	uint8_t itstate; /* 0 outside an IT block */
};

static inline void pft_isa_it_start(struct pft_it_state *st, const struct pft_insn_info *it)
{
	st->itstate = (it->flags & PFT_INSN_F_IT) ?
	              (uint8_t)(((it->cond & 0xFu) << 4) | (it->it_mask & 0xFu)) : 0;
}

/* Is the next instruction inside an IT block? */
static inline int pft_isa_it_active(const struct pft_it_state *st)
{
	return (st->itstate & 0xFu) != 0;
}

/* Is the next instruction the last of its IT block? */
static inline int pft_isa_it_last(const struct pft_it_state *st)
{
	return (st->itstate & 0xFu) == 0x8u;
}

/* Condition of the next instruction (14 = AL outside a block). */
static inline unsigned pft_isa_it_cond(const struct pft_it_state *st)
{
	return pft_isa_it_active(st) ? (unsigned)(st->itstate >> 4) : 14u;
}

/* Step past one instruction of the block. */
static inline void pft_isa_it_advance(struct pft_it_state *st)
{
	if ((st->itstate & 0x7u) == 0)
		st->itstate = 0;
	else
		st->itstate = (uint8_t)((st->itstate & 0xE0u) | ((st->itstate << 1) & 0x1Fu));
}

/* Number of instructions an IT instruction covers (1..4), 0 if not IT. */
static inline unsigned pft_isa_it_length(const struct pft_insn_info *it)
{
	unsigned m = it->it_mask & 0xFu;
	if (!(it->flags & PFT_INSN_F_IT) || !m)
		return 0;
	return (m & 1u) ? 4u : (m & 2u) ? 3u : (m & 4u) ? 2u : 1u;
}

/* Is the waypoint class a waypoint under these options? */
static inline int pft_isa_is_waypoint(const struct pft_insn_info *in, unsigned opts)
{
	return in->wp_class != PFT_WP_NONE &&
	       (in->wp_class != PFT_WP_BARRIER || (opts & PFT_ISA_OPT_DMB_WAYPOINT));
}

#ifdef __cplusplus
}
#endif
#endif
