/* SPDX-License-Identifier: BSD-3-Clause */
/* A32 (ARM state) classifier: one 32-bit word to its PTM waypoint class
 * (spec Tables 2-2 and 2-4), following the ARMv7-A/R encoding tables.
 * A decision tree on the fixed opcode fields: no table walks. */
#include "isa/isa_internal.h"

#define BIT(op, n) (((op) >> (n)) & 1u)
#define FIELD(op, lo, w) (((op) >> (lo)) & ((1u << (w)) - 1u))

/* A destination register field that may name the PC in an instruction
 * whose PC write is UNPREDICTABLE. */
static void a32_unpred_dest(struct pft_insn_info *o, unsigned rd)
{
	if (rd == 15)
		pft_isa_unpred_pc(o);
}

/* Data processing with Rd = PC (opcode op4, S bit s). */
static void a32_dp_pc(struct pft_insn_info *o, unsigned op4, unsigned s, unsigned opts)
{
	if (op4 >= 8 && op4 <= 11) {
		/* TST/TEQ/CMP/CMN: Rd is should-be-zero; no register written. */
		pft_isa_unpred(o);
		return;
	}
	if (s) {
		/* SUBS PC, LR and related: copies SPSR to CPSR.  UNDEFINED in
		 * Hyp mode (spec 2.2 note). */
		if (opts & PFT_ISA_OPT_HYP) {
			pft_isa_undef(o);
			return;
		}
		pft_isa_indirect(o, PFT_INSN_F_EXC_RETURN);
		return;
	}
	/* ALUWritePC: interworking in ARM state from ARMv7. */
	pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
}

/* Should-be-zero fields of data processing: Rn of MOV/MVN, Rd of the
 * compares. */
static void a32_dp_sb(uint32_t op, struct pft_insn_info *o)
{
	unsigned op4 = FIELD(op, 21, 4);
	if ((op4 == 0xD || op4 == 0xF) && FIELD(op, 16, 4) != 0)
		pft_isa_unpred(o);
	else if (op4 >= 8 && op4 <= 11 && FIELD(op, 12, 4) != 0)
		pft_isa_unpred(o);
}

/* LDC/STC (and the "2" forms) with writeback to a PC base. */
static void a32_ldc_wb(uint32_t op, struct pft_insn_info *o)
{
	if (BIT(op, 21) && FIELD(op, 16, 4) == 15)
		pft_isa_unpred(o);
}

/* cond == 0b1111: the unconditional instruction space. */
static void a32_uncond(uint32_t op, uint64_t addr, unsigned opts, struct pft_insn_info *o)
{
	o->cond = PFT_COND_AL;
	switch (FIELD(op, 25, 3)) {
	case 0: /* CPS, SETEND */
		if ((op & 0x0FF10020) == 0x01000000) /* CPS */
			return;
		if ((op & 0x0FFFFDFF) == 0x01010000) /* SETEND */
			return;
		pft_isa_undef(o);
		return;
	case 1: /* Advanced SIMD data processing */
		return;
	case 2: /* SIMD element load/store (bit 20 = 0), hints, barriers */
		if (!BIT(op, 20)) { /* Advanced SIMD element/structure load/store */
			if (BIT(op, 24))
				pft_isa_undef(o);
			else if (FIELD(op, 16, 4) == 15)
				pft_isa_unpred(o);
			return;
		}
		if ((op & 0x0FFFFF00) == 0x057FF000) {
			switch (FIELD(op, 4, 4)) {
			case 1: /* CLREX */
				if ((op & 0xF) != 0xF)
					pft_isa_unpred(o);
				return;
			case 4: /* DSB */
			case 5: /* DMB */
				o->wp_class = PFT_WP_BARRIER;
				return;
			case 6: /* ISB */
				o->wp_class = PFT_WP_ISB;
				return;
			default:
				pft_isa_undef(o);
				return;
			}
		}
		if ((op & 0x0FF00000) == 0x05700000) { /* barriers with bad should-be bits */
			unsigned o4 = FIELD(op, 4, 4);
			if (o4 == 4 || o4 == 5 || o4 == 6) {
				o->wp_class = o4 == 6 ? PFT_WP_ISB : PFT_WP_BARRIER;
				pft_isa_unpred(o);
				return;
			}
			if (o4 == 1) {
				pft_isa_unpred(o);
				return;
			}
			pft_isa_undef(o);
			return;
		}
		/* PLI (0100 x101), PLD/PLDW (0101 x001 / 0101 x101) immediate */
		if ((op & 0x0F700000) == 0x04500000 || (op & 0x0F300000) == 0x05100000)
			return;
		pft_isa_undef(o);
		return;
	case 3: /* PLI/PLD register forms (bit 4 = 0) */
		if (BIT(op, 4)) {
			pft_isa_undef(o);
			return;
		}
		if ((op & 0x0F700000) == 0x06500000 || (op & 0x0F300000) == 0x07100000)
			return;
		pft_isa_undef(o);
		return;
	case 4: /* SRS / RFE */
		if ((op & 0x0E50FFFF) == 0x08100A00) { /* RFE{DA,DB,IA,IB} Rn{!} */
			if (opts & PFT_ISA_OPT_HYP) {
				pft_isa_undef(o);
				return;
			}
			pft_isa_indirect(o, PFT_INSN_F_EXC_RETURN);
			if (FIELD(op, 16, 4) == 15)
				pft_isa_unpred(o);
			return;
		}
		if ((op & 0x0E5FFFE0) == 0x084D0500) /* SRS */
			return;
		if (BIT(op, 20)) { /* RFE with bad should-be bits */
			if (opts & PFT_ISA_OPT_HYP) {
				pft_isa_undef(o);
				return;
			}
			pft_isa_indirect(o, PFT_INSN_F_EXC_RETURN | PFT_INSN_F_UNPRED);
			return;
		}
		pft_isa_undef(o);
		return;
	case 5: { /* BLX (immediate): to Thumb, H gives bit 1 */
		int64_t off = pft_isa_sext(op & 0x00FFFFFF, 24) * 4 + (int64_t)(BIT(op, 24) << 1);
		pft_isa_direct(o, addr + 8 + (uint64_t)off, PFT_ISA_THUMB);
		o->flags |= PFT_INSN_F_LINK;
		return;
	}
	case 6: /* STC2/LDC2, MCRR2/MRRC2 */
		if ((op & 0x0FA00000) == 0x0C000000) { /* 1100 0x0x: MCRR2/MRRC2 or UNDEFINED */
			if (BIT(op, 22)) {
				if (BIT(op, 20) && (FIELD(op, 12, 4) == 15 || FIELD(op, 16, 4) == 15))
					pft_isa_unpred_pc(o);
				return;
			}
			pft_isa_undef(o);
			return;
		}
		a32_ldc_wb(op, o);
		return;
	default: /* CDP2, MCR2, MRC2 (MRC2 to PC writes the flags) */
		if (BIT(op, 24))
			pft_isa_undef(o);
		return;
	}
}

/* Miscellaneous instructions: cond 0001 0xx0 .... .... .... 0xxx .... */
static void a32_misc(uint32_t op, struct pft_insn_info *o, unsigned opts)
{
	unsigned mop = FIELD(op, 21, 2);
	(void)opts;
	switch (FIELD(op, 4, 3)) {
	case 0: /* MRS / MSR (register), banked forms */
		if (!(mop & 1))
			a32_unpred_dest(o, FIELD(op, 12, 4)); /* MRS to the PC */
		return;
	case 1:
		if (mop == 1) { /* BX */
			pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
			if ((op & 0x000FFF00) != 0x000FFF00)
				pft_isa_unpred(o);
			return;
		}
		if (mop == 3) { /* CLZ */
			a32_unpred_dest(o, FIELD(op, 12, 4));
			return;
		}
		pft_isa_undef(o);
		return;
	case 2:
		if (mop == 1) { /* BXJ: to Jazelle, or BX when Jazelle is trivial */
			pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
			if ((op & 0x000FFF00) != 0x000FFF00 || FIELD(op, 0, 4) == 15)
				pft_isa_unpred(o);
			return;
		}
		pft_isa_undef(o);
		return;
	case 3:
		if (mop == 1) { /* BLX (register) */
			pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA | PFT_INSN_F_LINK);
			if ((op & 0x000FFF00) != 0x000FFF00 || FIELD(op, 0, 4) == 15)
				pft_isa_unpred(o);
			return;
		}
		pft_isa_undef(o);
		return;
	case 5: /* QADD, QSUB, QDADD, QDSUB */
		a32_unpred_dest(o, FIELD(op, 12, 4));
		return;
	case 6:
		if (mop == 3) { /* ERET */
			pft_isa_indirect(o, PFT_INSN_F_EXC_RETURN);
			if ((op & 0x000FFF0F) != 0x0000000E)
				pft_isa_unpred(o);
			return;
		}
		pft_isa_undef(o);
		return;
	case 7:
		switch (mop) {
		case 1:
			o->flags |= PFT_INSN_F_BKPT;
			if (o->cond != PFT_COND_AL)
				pft_isa_unpred(o);
			return;
		case 2:
			o->flags |= PFT_INSN_F_HVC;
			if (o->cond != PFT_COND_AL)
				pft_isa_unpred(o);
			return;
		case 3:
			o->flags |= PFT_INSN_F_SMC;
			if (op & 0x000FFF00)
				pft_isa_unpred(o);
			return;
		default:
			pft_isa_undef(o);
			return;
		}
	default:
		pft_isa_undef(o);
		return;
	}
}

/* cond 000x with bit 7 = bit 4 = 1: multiplies, synchronisation
 * primitives, extra loads and stores. */
static void a32_extra(uint32_t op, struct pft_insn_info *o)
{
	unsigned rn = FIELD(op, 16, 4), rt = FIELD(op, 12, 4);
	unsigned op2 = FIELD(op, 5, 2);

	if (op2 == 0) {
		if (!BIT(op, 24)) { /* multiply and multiply-accumulate */
			if (FIELD(op, 8, 4) == 15 || FIELD(op, 0, 4) == 15 ||
			    (FIELD(op, 21, 3) == 0 ? rt != 0 : rt == 15))
				pft_isa_unpred(o); /* PC operand; MUL's [15:12] is SBZ */
			switch (FIELD(op, 21, 3)) {
			case 0: case 1: case 3:      /* MUL, MLA, MLS */
				if (FIELD(op, 21, 3) == 3 && BIT(op, 20)) {
					pft_isa_undef(o);
					return;
				}
				a32_unpred_dest(o, rn);
				return;
			case 2:                      /* UMAAL */
				if (BIT(op, 20)) {
					pft_isa_undef(o);
					return;
				}
				/* fall through */
			default:                     /* UMULL, UMLAL, SMULL, SMLAL */
				if (rn == 15 || rt == 15)
					pft_isa_unpred_pc(o);
				return;
			}
		}
		/* synchronisation primitives */
		switch (FIELD(op, 20, 4)) {
		case 0x0: case 0x4: /* SWP, SWPB */
			a32_unpred_dest(o, rt);
			return;
		case 0x8: case 0xA: case 0xC: case 0xE: /* STREX{,D,B,H} */
			a32_unpred_dest(o, rt); /* status register */
			return;
		case 0x9: case 0xD: case 0xF: /* LDREX, LDREXB, LDREXH */
			a32_unpred_dest(o, rt);
			return;
		case 0xB: /* LDREXD */
			if (rt >= 14)
				pft_isa_unpred_pc(o);
			else if (rt & 1)
				pft_isa_unpred(o);
			return;
		default:
			pft_isa_undef(o);
			return;
		}
	}
	/* extra load/store: STRH/LDRH, LDRD/LDRSB, STRD/LDRSH */
	if ((!BIT(op, 24) || BIT(op, 21)) && rn == 15)
		pft_isa_unpred(o); /* writeback to the PC */
	if (BIT(op, 20)) { /* LDRH, LDRSB, LDRSH (and the T forms) */
		a32_unpred_dest(o, rt);
		return;
	}
	if (op2 == 2) { /* LDRD: Rt even, Rt2 = Rt + 1 */
		if (rt >= 14)
			pft_isa_unpred_pc(o);
		else if (rt & 1)
			pft_isa_unpred(o);
		return;
	}
	/* STRH (Rt = PC), STRD (Rt odd or Rt2 = PC) */
	if (op2 == 1 ? rt == 15 : (rt & 1) || rt == 14)
		pft_isa_unpred(o);
}

/* Allocated media encodings (ARM ARM A5.4): op1 = [24:20], op2 = [7:5]. */
static int a32_media_defined(unsigned op1, unsigned op2)
{
	switch (op1 >> 3) {
	case 0: /* parallel add/subtract, signed (000xx) and unsigned (001xx) */
		return (op1 & 3) != 0 && op2 != 5 && op2 != 6;
	case 1: /* packing, unpacking, saturation, reversal */
		switch (op1 & 7) {
		case 0: return !(op2 & 1) || op2 == 3 || op2 == 5; /* PKH, SXTAB16, SEL */
		case 1: return 0;
		case 2: return !(op2 & 1) || op2 == 1 || op2 == 3;  /* SSAT, SSAT16, SXTAB */
		case 3: return !(op2 & 1) || op2 == 1 || op2 == 3 || op2 == 5; /* SSAT, REV, SXTAH, REV16 */
		case 4: return op2 == 3;                            /* UXTAB16 */
		case 5: return 0;
		case 6: return !(op2 & 1) || op2 == 1 || op2 == 3;  /* USAT, USAT16, UXTAB */
		default: return !(op2 & 1) || op2 == 1 || op2 == 3 || op2 == 5; /* USAT, RBIT, UXTAH, REVSH */
		}
	case 2: /* signed multiplies, divide */
		switch (op1 & 7) {
		case 0: return op2 <= 3;               /* SMLAD, SMLSD */
		case 1: case 3: return op2 == 0;       /* SDIV, UDIV */
		case 4: return op2 <= 3;               /* SMLALD, SMLSLD */
		case 5: return op2 <= 1 || op2 >= 6;   /* SMMLA, SMMLS */
		default: return 0;
		}
	default:
		if (op1 == 0x18)
			return op2 == 0;                   /* USAD8, USADA8 */
		if ((op1 & 0x1E) == 0x1A || (op1 & 0x1E) == 0x1E)
			return (op2 & 3) == 2;             /* SBFX, UBFX */
		if ((op1 & 0x1E) == 0x1C)
			return (op2 & 3) == 0;             /* BFC, BFI */
		return 0;
	}
}

/* Media instructions: cond 011x xxxx xxxx xxxx xxxx xxx1 xxxx */
static void a32_media(uint32_t op, struct pft_insn_info *o)
{
	unsigned op1 = FIELD(op, 20, 5);
	if (op1 == 0x1F && FIELD(op, 5, 3) == 7) { /* UDF (permanently UNDEFINED) */
		pft_isa_undef(o);
		return;
	}
	if (!a32_media_defined(op1, FIELD(op, 5, 3))) {
		pft_isa_undef(o);
		return;
	}
	if (op1 == 0x14) { /* SMLALD, SMLSLD: RdHi [19:16], RdLo [15:12] */
		if (FIELD(op, 16, 4) == 15 || FIELD(op, 12, 4) == 15)
			pft_isa_unpred_pc(o);
		return;
	}
	if ((op1 & 0x18) == 0x10 || op1 == 0x18) /* signed multiplies, USAD8: Rd [19:16] */
		a32_unpred_dest(o, FIELD(op, 16, 4));
	else
		a32_unpred_dest(o, FIELD(op, 12, 4));
}

/* LDR/STR/LDRB/STRB and their T forms (immediate and register). */
static void a32_ldst(uint32_t op, struct pft_insn_info *o)
{
	unsigned rn = FIELD(op, 16, 4), rt = FIELD(op, 12, 4);
	unsigned p = BIT(op, 24), w = BIT(op, 21);
	unsigned wback = !p || w, tform = !p && w;

	if (BIT(op, 25) && FIELD(op, 0, 4) == 15)
		pft_isa_unpred(o);
	if (!BIT(op, 20)) { /* stores */
		if (wback && rn == 15)
			pft_isa_unpred(o);
		return;
	}
	if (rt == 15) {
		if (BIT(op, 22) || tform) /* LDRB to PC, LDRT/LDRBT to PC */
			pft_isa_unpred_pc(o);
		else
			pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
		if (tform && !BIT(op, 22))
			o->flags |= PFT_INSN_F_PC_READ_ISA;
	}
	if (wback && (rn == 15 || rn == rt))
		pft_isa_unpred(o);
}

/* LDM/STM (incl. POP, LDM exception return, LDM user registers). */
static void a32_ldstm(uint32_t op, struct pft_insn_info *o, unsigned opts)
{
	unsigned rn = FIELD(op, 16, 4);
	uint32_t list = op & 0xFFFF;
	unsigned w = BIT(op, 21);

	if (rn == 15 || list == 0)
		pft_isa_unpred(o);
	if (!BIT(op, 20)) { /* STM */
		if (BIT(op, 22) && w)
			pft_isa_unpred(o);
		return;
	}
	if (!(list & 0x8000)) {
		if (BIT(op, 22) && w) /* LDM (user registers) with writeback */
			pft_isa_unpred(o);
		else if (w && (list & (1u << rn)))
			pft_isa_unpred(o);
		return;
	}
	if (BIT(op, 22)) { /* LDM (exception return) */
		if (opts & PFT_ISA_OPT_HYP) {
			pft_isa_undef(o);
			return;
		}
		pft_isa_indirect(o, PFT_INSN_F_EXC_RETURN);
	} else {
		pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
	}
	if (w && (list & (1u << rn)))
		pft_isa_unpred(o);
}

/* Coprocessor, SVC (cond != 1111). */
static void a32_coproc(uint32_t op, struct pft_insn_info *o)
{
	unsigned cp = FIELD(op, 8, 4);

	if ((op & 0x0F000000) == 0x0F000000) {
		o->flags |= PFT_INSN_F_SVC;
		return;
	}
	if ((op & 0x0E000000) == 0x0C000000) { /* 110x: LDC/STC, MCRR/MRRC, VFP/SIMD ld/st */
		if ((op & 0x0FA00000) == 0x0C000000) {
			if (!BIT(op, 22)) {
				pft_isa_undef(o);
				return;
			}
			/* MCRR/MRRC, VMOV two core registers */
			if (BIT(op, 20) && (FIELD(op, 12, 4) == 15 || FIELD(op, 16, 4) == 15))
				pft_isa_unpred_pc(o);
			return;
		}
		a32_ldc_wb(op, o);
		return;
	}
	/* 1110: CDP, MCR, MRC (and the VFP/SIMD register transfers) */
	if (!BIT(op, 4))
		return;
	if (!BIT(op, 20)) { /* MCR */
		if (cp == 15) {
			enum pft_wp_class c = pft_isa_cp15_barrier(op & 0x00EF0FFF);
			if (c != PFT_WP_NONE)
				o->wp_class = (uint8_t)c;
		}
		return;
	}
	/* MRC: Rt = 15 writes APSR.NZCV, except for the VFP/SIMD transfers
	 * (VMOV core register from scalar / single), where it is UNPREDICTABLE. */
	if ((cp & 0xE) == 0xA && FIELD(op, 12, 4) == 15) {
		if ((op & 0x00EF0F00) == 0x00E10A00) /* VMRS APSR_nzcv, FPSCR */
			return;
		pft_isa_unpred_pc(o);
	}
}

void pft_isa_decode_a32(uint32_t op, uint64_t addr, unsigned opts, struct pft_insn_info *o)
{
	unsigned cond = op >> 28;

	if (cond == 0xF) {
		a32_uncond(op, addr, opts, o);
		return;
	}
	o->cond = (uint8_t)cond;
	if (cond != PFT_COND_AL)
		o->flags |= PFT_INSN_F_COND;

	switch (FIELD(op, 25, 3)) {
	case 0:
		if (BIT(op, 4) && BIT(op, 7)) {
			a32_extra(op, o);
			return;
		}
		if ((op & 0x01900000) == 0x01000000) { /* misc / halfword multiply */
			if (BIT(op, 7)) { /* SMLAxy etc.: Rd [19:16]; SMLALxy also RdLo [15:12] */
				a32_unpred_dest(o, FIELD(op, 16, 4));
				if (FIELD(op, 21, 2) == 2)
					a32_unpred_dest(o, FIELD(op, 12, 4));
			}
			else
				a32_misc(op, o, opts);
			return;
		}
		a32_dp_sb(op, o);
		if (FIELD(op, 12, 4) == 15) {
			a32_dp_pc(o, FIELD(op, 21, 4), BIT(op, 20), opts);
			if (BIT(op, 4) && o->wp_class != PFT_WP_NONE) /* register-shifted register */
				pft_isa_unpred(o);
		}
		return;
	case 1:
		switch (FIELD(op, 20, 5)) {
		case 0x10: case 0x14: /* MOVW, MOVT */
			a32_unpred_dest(o, FIELD(op, 12, 4));
			return;
		case 0x12: case 0x16: /* MSR (immediate), hints */
			if ((op & 0x004F0000) == 0) { /* hints */
				unsigned h = op & 0xFF;
				if (h == 2 || h == 3)
					o->flags |= PFT_INSN_F_WFI;
				if ((op & 0x0000FF00) != 0x0000F000)
					pft_isa_unpred(o);
			}
			return;
		default:
			a32_dp_sb(op, o);
			if (FIELD(op, 12, 4) == 15)
				a32_dp_pc(o, FIELD(op, 21, 4), BIT(op, 20), opts);
			return;
		}
	case 2:
		a32_ldst(op, o);
		return;
	case 3:
		if (BIT(op, 4))
			a32_media(op, o);
		else
			a32_ldst(op, o);
		return;
	case 4:
		a32_ldstm(op, o, opts);
		return;
	case 5: { /* B, BL */
		int64_t off = pft_isa_sext(op & 0x00FFFFFF, 24) * 4;
		pft_isa_direct(o, addr + 8 + (uint64_t)off, PFT_ISA_ARM);
		if (BIT(op, 24))
			o->flags |= PFT_INSN_F_LINK;
		return;
	}
	default:
		a32_coproc(op, o);
		return;
	}
}
