/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft ISA layer: pure functions that classify one instruction the way a
 * PTM does (spec section 2.2, Tables 2-2 to 2-5).  No memory access, no
 * trace state: the caller hands in the bytes at the address. */
#ifndef PFT_ISA_H
#define PFT_ISA_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Waypoint class of an instruction. */
enum pft_wp_class {
	PFT_WP_NONE = 0,         /* not a waypoint */
	PFT_WP_DIRECT,           /* direct branch: B, BL, BLX imm, CBZ/CBNZ, HB/HBL */
	PFT_WP_INDIRECT,         /* indirect branch: BX, BLX reg, LDR/LDM/POP to PC,
	                            data processing to PC, TBB/TBH, SUBS PC,LR, ERET,
	                            RFE, HBP/HBLP, BXJ */
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
                                         Thumb B<cond>, CBZ/CBNZ); IT state is the caller's */
#define PFT_INSN_F_EXC_RETURN 0x0004u /* exception return: SUBS PC,LR / MOVS PC / LDM ^ with PC,
                                         RFE, ERET */
#define PFT_INSN_F_UNPRED     0x0008u /* UNPREDICTABLE encoding (classified as the spec recommends) */
#define PFT_INSN_F_UNDEFINED  0x0010u /* UNDEFINED / not decodable */
#define PFT_INSN_F_SVC        0x0020u /* SVC */
#define PFT_INSN_F_SMC        0x0040u /* SMC */
#define PFT_INSN_F_HVC        0x0080u /* HVC */
#define PFT_INSN_F_BKPT       0x0100u /* BKPT */
#define PFT_INSN_F_IT         0x0200u /* Thumb IT instruction (it_mask valid) */
#define PFT_INSN_F_WFI        0x0400u /* WFI or WFE */
#define PFT_INSN_F_TARGET     0x0800u /* target / target_isa valid (direct branch) */
#define PFT_INSN_F_PC_READ_ISA 0x1000u /* indirect branch whose target ISA comes from
                                         bit 0 of the target (BX, BLX, LDR/POP PC on v7) */

/* Classifier options */
#define PFT_ISA_OPT_DMB_WAYPOINT 0x1u /* ETMCCER[24]=1: DMB/DSB are waypoints */

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

/* Classify the instruction at addr in instruction set isa, whose bytes (in
 * memory order, little-endian) are bytes[0..avail).  Needs 4 bytes for A32,
 * 2 or 4 for T32/ThumbEE.  Returns 0, -PFT_E_NOMAP when avail is too small
 * (out->size says how many bytes are needed), -PFT_E_INVAL for a NULL
 * argument, -PFT_E_UNSUPPORTED for Jazelle. */
PFT_API int pft_isa_decode(enum pft_isa isa, uint64_t addr, const uint8_t *bytes,
                           size_t avail, unsigned opts, struct pft_insn_info *out);

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
