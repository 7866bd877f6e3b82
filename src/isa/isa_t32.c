/* SPDX-License-Identifier: BSD-3-Clause */
/* 32-bit Thumb (T32) and ThumbEE classifier (spec Tables 2-3 and 2-5):
 * a halfword pair to its PTM waypoint class, by the ARMv7 T32 encoding
 * tables (op1 = hw1[12:11], op2 = hw1[10:4], op = hw2[15]). */
#include "isa/isa_internal.h"

#define BIT(op, n) (((op) >> (n)) & 1u)
#define FIELD(op, lo, w) (((op) >> (lo)) & ((1u << (w)) - 1u))

static unsigned popcount16(unsigned v)
{
	v = v - ((v >> 1) & 0x5555u);
	v = (v & 0x3333u) + ((v >> 2) & 0x3333u);
	v = (v + (v >> 4)) & 0x0F0Fu;
	return (v + (v >> 8)) & 0x1Fu;
}

static void t32_unpred_dest(struct pft_insn_info *o, unsigned rd)
{
	if (rd == 15)
		pft_isa_unpred_pc(o);
}

/* Load/store multiple, RFE, SRS: 1110 100x x0xx */
static void t32_ldstm(uint32_t hw1, uint32_t hw2, struct pft_insn_info *o, unsigned opts)
{
	unsigned mode = FIELD(hw1, 7, 2), l = BIT(hw1, 4), w = BIT(hw1, 5);
	unsigned rn = FIELD(hw1, 0, 4);

	if (mode == 0 || mode == 3) { /* SRS, RFE */
		if (!l) {
			if ((hw2 & 0xFFE0) != 0xC000 || rn != 13)
				pft_isa_unpred(o);
			return;
		}
		if (opts & PFT_ISA_OPT_HYP) {
			pft_isa_undef(o);
			return;
		}
		pft_isa_indirect(o, PFT_INSN_F_EXC_RETURN);
		if (hw2 != 0xC000 || rn == 15)
			pft_isa_unpred(o);
		return;
	}
	if (rn == 15 || popcount16(hw2) < 2)
		pft_isa_unpred(o);
	if (!l) { /* STM, PUSH */
		if (hw2 & 0xA000)
			pft_isa_unpred(o);
		if (w && (hw2 & (1u << rn)))
			pft_isa_unpred(o);
		return;
	}
	if (hw2 & 0x8000) /* LDM with the PC: LoadWritePC interworks */
		pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
	if ((hw2 & 0xC000) == 0xC000 || (hw2 & 0x2000))
		pft_isa_unpred(o);
	if (w && (hw2 & (1u << rn)))
		pft_isa_unpred(o);
}

/* Load/store dual, exclusive, table branch: 1110 100x x1xx */
static void t32_dual(uint32_t hw1, uint32_t hw2, struct pft_insn_info *o)
{
	unsigned p = BIT(hw1, 8), w = BIT(hw1, 5), l = BIT(hw1, 4);
	unsigned rn = FIELD(hw1, 0, 4), rt = FIELD(hw2, 12, 4), rt2 = FIELD(hw2, 8, 4);

	if (p || w) { /* LDRD / STRD (immediate, literal) */
		if (l) {
			if (rt == 15 || rt2 == 15)
				pft_isa_unpred_pc(o);
			else if (rt == 13 || rt2 == 13 || rt == rt2)
				pft_isa_unpred(o);
		} else if (rt >= 13 || rt2 >= 13 || rn == 15) {
			pft_isa_unpred(o);
		}
		if (w && (rn == rt || rn == rt2 || rn == 15))
			pft_isa_unpred(o);
		return;
	}
	if (!BIT(hw1, 7)) { /* STREX, LDREX */
		if (l) {
			t32_unpred_dest(o, rt);
			if (rt2 != 15)
				pft_isa_unpred(o);
		} else {
			t32_unpred_dest(o, rt2); /* status register Rd */
			if (rt == 15)
				pft_isa_unpred(o);
		}
		return;
	}
	if (!l) { /* STREXB/H/D: status register Rd = hw2[3:0] */
		unsigned op3 = FIELD(hw2, 4, 4);
		if (op3 != 4 && op3 != 5 && op3 != 7) {
			pft_isa_undef(o);
			return;
		}
		t32_unpred_dest(o, FIELD(hw2, 0, 4));
		return;
	}
	switch (FIELD(hw2, 4, 4)) {
	case 0: case 1: { /* TBB, TBH */
		unsigned rm = FIELD(hw2, 0, 4);
		pft_isa_indirect(o, 0);
		if ((hw2 & 0xFF00) != 0xF000 || rm == 13 || rm == 15 || rn == 13)
			pft_isa_unpred(o);
		return;
	}
	case 4: case 5: /* LDREXB, LDREXH */
		t32_unpred_dest(o, rt);
		return;
	case 7: /* LDREXD */
		if (rt == 15 || rt2 == 15)
			pft_isa_unpred_pc(o);
		return;
	default:
		pft_isa_undef(o);
		return;
	}
}

/* Data processing (shifted register or modified immediate) with a
 * destination field Rd = hw2[11:8]; op = hw1[8:5], S = hw1[4]. */
static void t32_dp(uint32_t hw1, uint32_t hw2, struct pft_insn_info *o, int shifted)
{
	unsigned op = FIELD(hw1, 5, 4), s = BIT(hw1, 4), rd = FIELD(hw2, 8, 4);

	switch (op) {
	case 0x0: case 0x4: case 0x8: case 0xD: /* AND/TST, EOR/TEQ, ADD/CMN, SUB/CMP */
		if (rd == 15 && !s)
			pft_isa_unpred_pc(o);
		return;
	case 0x1: case 0x2: case 0x3: case 0xA: case 0xB: case 0xE:
		t32_unpred_dest(o, rd);
		return;
	case 0x6: /* PKHBT/PKHTB (register only) */
		if (!shifted || s) {
			pft_isa_undef(o);
			return;
		}
		t32_unpred_dest(o, rd);
		return;
	default:
		pft_isa_undef(o);
		return;
	}
	(void)hw2;
}

/* Data processing (plain binary immediate): 1111 0x1x xxxx, hw2[15] = 0 */
static void t32_plain_imm(uint32_t hw1, uint32_t hw2, struct pft_insn_info *o)
{
	unsigned op = FIELD(hw1, 4, 5), rd = FIELD(hw2, 8, 4);

	switch (op) {
	case 0x00: case 0x04: case 0x0A: case 0x0C: /* ADDW, MOVW, SUBW, MOVT */
	case 0x10: case 0x12: case 0x14: case 0x16: /* SSAT, SSAT16, SBFX, BFI/BFC */
	case 0x18: case 0x1A: case 0x1C:             /* USAT, USAT16, UBFX */
		t32_unpred_dest(o, rd);
		return;
	default:
		pft_isa_undef(o);
		return;
	}
}

/* Branches and miscellaneous control: 1111 0xxx xxxx xxxx 1xxx xxxx xxxx xxxx */
static void t32_branch_misc(uint32_t hw1, uint32_t hw2, uint64_t addr, enum pft_isa isa,
                            unsigned opts, struct pft_insn_info *o)
{
	unsigned s = BIT(hw1, 10), j1 = BIT(hw2, 13), j2 = BIT(hw2, 11);

	if (BIT(hw2, 12) || BIT(hw2, 14)) {
		/* B (T4), BL, BLX (immediate): imm = S:I1:I2:imm10:imm11:0 */
		unsigned i1 = !(j1 ^ s), i2 = !(j2 ^ s);
		uint32_t imm = (s << 24) | (i1 << 23) | (i2 << 22) |
		               (FIELD(hw1, 0, 10) << 12) | (FIELD(hw2, 0, 11) << 1);
		int64_t off = pft_isa_sext(imm, 25);
		if (BIT(hw2, 12)) { /* B.W or BL */
			pft_isa_direct(o, addr + 4 + (uint64_t)off, isa);
			if (BIT(hw2, 14))
				o->flags |= PFT_INSN_F_LINK;
			return;
		}
		/* BLX (immediate): to ARM, target Align(PC, 4) + imm */
		if (isa == PFT_ISA_THUMBEE || (hw2 & 1)) {
			pft_isa_undef(o);
			return;
		}
		pft_isa_direct(o, ((addr + 4) & ~(uint64_t)3) + (uint64_t)off, PFT_ISA_ARM);
		o->flags |= PFT_INSN_F_LINK;
		return;
	}
	if (FIELD(hw1, 7, 3) != 7) { /* B<cond> (T3): imm = S:J2:J1:imm6:imm11:0 */
		uint32_t imm = (s << 20) | (j2 << 19) | (j1 << 18) |
		               (FIELD(hw1, 0, 6) << 12) | (FIELD(hw2, 0, 11) << 1);
		pft_isa_direct(o, addr + 4 + (uint64_t)pft_isa_sext(imm, 21), isa);
		o->cond = (uint8_t)FIELD(hw1, 6, 4);
		o->flags |= PFT_INSN_F_COND;
		return;
	}
	if (BIT(hw2, 13)) { /* op1 = 0x1 handled above; 010 with op 1111111 is UDF */
		pft_isa_undef(o);
		return;
	}
	switch (FIELD(hw1, 4, 7)) {
	case 0x38: case 0x39: /* MSR (register), banked */
		return;
	case 0x3A: /* CPS, hints */
		if (FIELD(hw2, 8, 3) == 0) {
			unsigned h = hw2 & 0xFF;
			if (h == 2 || h == 3)
				o->flags |= PFT_INSN_F_WFI;
		}
		if ((hw1 & 0xF) != 0xF)
			pft_isa_unpred(o);
		return;
	case 0x3B: { /* misc control: ENTERX/LEAVEX, CLREX, DSB, DMB, ISB */
		int bad = (hw1 & 0xF) != 0xF || (hw2 & 0x2F00) != 0x0F00;
		switch (FIELD(hw2, 4, 4)) {
		case 0: /* LEAVEX */
		case 1: /* ENTERX */
			if ((hw2 & 0xF) != 0xF)
				bad = 1;
			o->wp_class = PFT_WP_ISA_CHANGE;
			o->target = pft_isa_addr32(addr + 4);
			o->target_isa = BIT(hw2, 4) ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
			o->flags |= PFT_INSN_F_TARGET;
			break;
		case 2: /* CLREX */
			if ((hw2 & 0xF) != 0xF)
				bad = 1;
			break;
		case 4: case 5: /* DSB, DMB */
			o->wp_class = PFT_WP_BARRIER;
			break;
		case 6: /* ISB */
			o->wp_class = PFT_WP_ISB;
			break;
		default:
			pft_isa_undef(o);
			return;
		}
		if (bad)
			pft_isa_unpred(o);
		return;
	}
	case 0x3C: { /* BXJ */
		unsigned rm = FIELD(hw1, 0, 4);
		pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
		if (rm == 13 || rm == 15 || (hw2 & 0x3FFF) != 0x0F00)
			pft_isa_unpred(o);
		return;
	}
	case 0x3D: /* SUBS PC, LR, #imm8 (ERET when imm8 = 0) */
		if ((opts & PFT_ISA_OPT_HYP) && (hw2 & 0xFF) != 0) {
			pft_isa_undef(o);
			return;
		}
		pft_isa_indirect(o, PFT_INSN_F_EXC_RETURN);
		if ((hw1 & 0xF) != 0xE || (hw2 & 0x3F00) != 0x0F00)
			pft_isa_unpred(o);
		return;
	case 0x3E: case 0x3F: /* MRS, banked */
		t32_unpred_dest(o, FIELD(hw2, 8, 4));
		return;
	case 0x7E: /* HVC */
		if (BIT(hw2, 12) || BIT(hw2, 13)) {
			pft_isa_undef(o);
			return;
		}
		o->flags |= PFT_INSN_F_HVC;
		return;
	case 0x7F: /* SMC */
		o->flags |= PFT_INSN_F_SMC;
		return;
	default:
		pft_isa_undef(o);
		return;
	}
}

/* Load word: 1111 1000 x101 */
static void t32_ldr(uint32_t hw1, uint32_t hw2, struct pft_insn_info *o)
{
	unsigned rn = FIELD(hw1, 0, 4), rt = FIELD(hw2, 12, 4);

	if (BIT(hw1, 8)) { /* LDRSW does not exist */
		pft_isa_undef(o);
		return;
	}
	if (rn == 15 || BIT(hw1, 7)) { /* literal, or imm12 */
		if (rt == 15)
			pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
		return;
	}
	if ((hw2 & 0x0FC0) == 0) { /* register */
		unsigned rm = FIELD(hw2, 0, 4);
		if (rt == 15)
			pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
		if (rm == 13 || rm == 15)
			pft_isa_unpred(o);
		return;
	}
	if (!BIT(hw2, 11)) {
		pft_isa_undef(o);
		return;
	}
	switch (FIELD(hw2, 8, 3)) { /* P U W */
	case 0: case 2:
		pft_isa_undef(o);
		return;
	case 6: /* LDRT */
		if (rt == 15) {
			pft_isa_unpred_pc(o);
			o->flags |= PFT_INSN_F_PC_READ_ISA;
		}
		if (rt == 13)
			pft_isa_unpred(o);
		return;
	case 4: /* negative offset, no writeback */
		if (rt == 15)
			pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
		return;
	default: /* pre/post-indexed with writeback */
		if (rt == 15)
			pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
		if (rn == rt)
			pft_isa_unpred(o);
		return;
	}
}

/* Load byte / halfword (signed or not): Rt = 15 is a memory hint in the
 * non-writeback forms and UNPREDICTABLE in the others. */
static void t32_ldbh(uint32_t hw1, uint32_t hw2, struct pft_insn_info *o)
{
	unsigned rn = FIELD(hw1, 0, 4), rt = FIELD(hw2, 12, 4);

	if (rn == 15 || BIT(hw1, 7)) /* literal, imm12 */
		return;
	if ((hw2 & 0x0FC0) == 0) { /* register */
		unsigned rm = FIELD(hw2, 0, 4);
		if (rm == 13 || rm == 15)
			pft_isa_unpred(o);
		return;
	}
	if (!BIT(hw2, 11)) {
		pft_isa_undef(o);
		return;
	}
	switch (FIELD(hw2, 8, 3)) {
	case 0: case 2:
		pft_isa_undef(o);
		return;
	case 4: /* negative offset: Rt = 15 is PLD/PLI/NOP hint */
		return;
	case 6: /* LDRBT, LDRHT, LDRSBT, LDRSHT */
		if (rt == 15)
			pft_isa_unpred_pc(o);
		else if (rt == 13)
			pft_isa_unpred(o);
		return;
	default: /* writeback forms */
		if (rt == 15)
			pft_isa_unpred_pc(o);
		else if (rt == 13 || rn == rt)
			pft_isa_unpred(o);
		return;
	}
}

/* Allocated encodings of 1111 1010 (data processing, register): shifts,
 * extends, parallel add/subtract, miscellaneous (ARM ARM A6.3.12-A6.3.16). */
static int t32_dp_reg_defined(uint32_t hw1, uint32_t hw2)
{
	unsigned op1 = FIELD(hw1, 4, 4), op2 = FIELD(hw2, 4, 4);

	if (FIELD(hw2, 12, 4) != 0xF)
		return 0;
	if (!(op1 & 8)) {
		if (op2 == 0)
			return 1;                         /* LSL/LSR/ASR/ROR (register) */
		if (op2 & 8)
			return (op1 >> 1) != 3;           /* SXTAH ... UXTAB */
		return 0;
	}
	if (!(op2 & 8)) {                         /* parallel add/subtract */
		unsigned op = FIELD(hw1, 4, 3), kind = FIELD(hw2, 4, 2);
		return op != 3 && op != 7 && kind != 3;
	}
	if ((op2 & 0xC) == 0x8 && (op1 & 0xC) == 0x8) { /* miscellaneous */
		unsigned a = FIELD(hw1, 4, 2), b = FIELD(hw2, 4, 2);
		return a <= 1 || b == 0;
	}
	return 0;
}

/* Allocated encodings of 1111 1011 0 (multiply, multiply accumulate,
 * absolute difference; ARM ARM A6.3.16). */
static int t32_mul_defined(uint32_t hw1, uint32_t hw2)
{
	unsigned op1 = FIELD(hw1, 4, 3), op2 = FIELD(hw2, 4, 2);

	if (FIELD(hw2, 6, 2) != 0)
		return 0;
	switch (op1) {
	case 0: return op2 <= 1;   /* MLA/MUL, MLS */
	case 1: return 1;          /* SMLA<x><y>, SMUL<x><y> */
	case 7: return op2 == 0;   /* USAD8, USADA8 */
	default: return op2 <= 1;  /* SMLAD, SMLAW/SMULW, SMLSD, SMMLA, SMMLS */
	}
}

/* Allocated encodings of 1111 1011 1 (long multiply, divide; A6.3.17). */
static int t32_lmul_defined(uint32_t hw1, uint32_t hw2)
{
	unsigned op2 = FIELD(hw2, 4, 4);

	switch (FIELD(hw1, 4, 3)) {
	case 0: case 2: return op2 == 0;           /* SMULL, UMULL */
	case 1: case 3: return op2 == 0xF;         /* SDIV, UDIV */
	case 4: return op2 == 0 || (op2 & 0xC) == 0x8 || (op2 & 0xE) == 0xC; /* SMLAL, SMLALxy, SMLALD */
	case 5: return (op2 & 0xE) == 0xC;         /* SMLSLD */
	case 6: return op2 == 0 || op2 == 6;       /* UMLAL, UMAAL */
	default: return 0;
	}
}

/* Store single data item: 1111 1000 xxx0 */
static void t32_store(uint32_t hw1, uint32_t hw2, struct pft_insn_info *o)
{
	unsigned size = FIELD(hw1, 5, 2), rn = FIELD(hw1, 0, 4), rt = FIELD(hw2, 12, 4);

	if (size == 3 || rn == 15) {
		pft_isa_undef(o);
		return;
	}
	if (!BIT(hw1, 7) && (hw2 & 0x0FC0) != 0 && !BIT(hw2, 11)) {
		pft_isa_undef(o);
		return;
	}
	if (!BIT(hw1, 7) && BIT(hw2, 11) && (FIELD(hw2, 8, 3) == 0 || FIELD(hw2, 8, 3) == 2)) {
		pft_isa_undef(o);
		return;
	}
	if (rt == 15 || (size != 2 && rt == 13))
		pft_isa_unpred(o);
}

/* Coprocessor and Advanced SIMD space: 111x 11xx xxxx xxxx */
static void t32_coproc(uint32_t hw1, uint32_t hw2, struct pft_insn_info *o)
{
	unsigned cp = FIELD(hw2, 8, 4);
	int t2 = BIT(hw1, 12); /* 1111 11xx: the "2" forms (MCR2 ...) */

	if ((hw1 & 0x0300) == 0x0300) /* 111x 1111: Advanced SIMD data processing */
		return;
	if ((hw1 & 0x0E00) == 0x0C00) { /* 111x 110x: LDC/STC, MCRR/MRRC, VFP ld/st */
		if ((hw1 & 0x01A0) == 0) { /* 1100 0x0x */
			if (!BIT(hw1, 6)) {
				pft_isa_undef(o);
				return;
			}
			if (BIT(hw1, 4) && (FIELD(hw2, 12, 4) == 15 || FIELD(hw1, 0, 4) == 15))
				pft_isa_unpred_pc(o);
			return;
		}
		if (BIT(hw1, 5) && FIELD(hw1, 0, 4) == 15) /* LDC/STC writeback to the PC */
			pft_isa_unpred(o);
		return;
	}
	/* 111x 1110: CDP, MCR, MRC */
	if (!BIT(hw2, 4))
		return;
	if (!BIT(hw1, 4)) { /* MCR */
		if (!t2 && cp == 15) {
			uint32_t f = ((hw1 & 0xEF) << 16) | (hw2 & 0x0FFF);
			enum pft_wp_class c = pft_isa_cp15_barrier(f);
			if (c != PFT_WP_NONE)
				o->wp_class = (uint8_t)c;
		}
		return;
	}
	if (!t2 && (cp & 0xE) == 0xA && FIELD(hw2, 12, 4) == 15) {
		if ((hw1 & 0xEF) == 0xE1 && cp == 0xA) /* VMRS APSR_nzcv, FPSCR */
			return;
		pft_isa_unpred_pc(o);
	}
}

void pft_isa_decode_t32(uint32_t hw1, uint32_t hw2, uint64_t addr, enum pft_isa isa,
                        unsigned opts, struct pft_insn_info *o)
{
	switch (FIELD(hw1, 11, 2)) {
	case 1: /* 1110 1 */
		if (BIT(hw1, 10)) {
			t32_coproc(hw1, hw2, o);
			return;
		}
		if (BIT(hw1, 9)) { /* 1110 101: data processing (shifted register) */
			if (BIT(hw2, 15))
				pft_isa_unpred(o);
			t32_dp(hw1, hw2, o, 1);
			return;
		}
		if (BIT(hw1, 6))
			t32_dual(hw1, hw2, o);
		else
			t32_ldstm(hw1, hw2, o, opts);
		return;
	case 2: /* 1111 0 */
		if (BIT(hw2, 15)) {
			t32_branch_misc(hw1, hw2, addr, isa, opts, o);
			return;
		}
		if (BIT(hw1, 9))
			t32_plain_imm(hw1, hw2, o);
		else
			t32_dp(hw1, hw2, o, 0);
		return;
	default: /* 1111 1 */
		if (BIT(hw1, 10)) {
			t32_coproc(hw1, hw2, o);
			return;
		}
		if (!BIT(hw1, 9)) { /* 1111 100x: loads and stores */
			if (!BIT(hw1, 4)) {
				if (BIT(hw1, 8)) { /* Advanced SIMD element/structure load/store */
					if (FIELD(hw1, 0, 4) == 15)
						pft_isa_unpred(o);
					return;
				}
				t32_store(hw1, hw2, o);
				return;
			}
			switch (FIELD(hw1, 5, 2)) {
			case 0: case 1:
				t32_ldbh(hw1, hw2, o);
				return;
			case 2:
				t32_ldr(hw1, hw2, o);
				return;
			default:
				pft_isa_undef(o);
				return;
			}
		}
		if (!BIT(hw1, 8)) { /* 1111 1010: data processing (register) */
			if (!t32_dp_reg_defined(hw1, hw2)) {
				pft_isa_undef(o);
				return;
			}
			t32_unpred_dest(o, FIELD(hw2, 8, 4));
			return;
		}
		if (!BIT(hw1, 7)) { /* 1111 1011 0: multiply, multiply accumulate */
			if (!t32_mul_defined(hw1, hw2)) {
				pft_isa_undef(o);
				return;
			}
			t32_unpred_dest(o, FIELD(hw2, 8, 4));
			return;
		}
		/* 1111 1011 1: long multiply, divide */
		if (!t32_lmul_defined(hw1, hw2)) {
			pft_isa_undef(o);
			return;
		}
		if (FIELD(hw1, 4, 3) == 1 || FIELD(hw1, 4, 3) == 3) {
			t32_unpred_dest(o, FIELD(hw2, 8, 4)); /* SDIV, UDIV */
			return;
		}
		if (FIELD(hw2, 12, 4) == 15 || FIELD(hw2, 8, 4) == 15)
			pft_isa_unpred_pc(o);
		return;
	}
}
