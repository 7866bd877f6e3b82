/* SPDX-License-Identifier: BSD-3-Clause */
/* 16-bit Thumb and ThumbEE classifier (spec Tables 2-3 and 2-5): one
 * halfword to its PTM waypoint class.  A switch on the top five bits. */
#include "isa/isa_internal.h"

#define BIT(op, n) (((op) >> (n)) & 1u)
#define FIELD(op, lo, w) (((op) >> (lo)) & ((1u << (w)) - 1u))

static unsigned popcount8(unsigned v)
{
	v = v - ((v >> 1) & 0x55u);
	v = (v & 0x33u) + ((v >> 2) & 0x33u);
	return (v + (v >> 4)) & 0x0Fu;
}

/* Special data processing and branch exchange: 0100 01xx xxxx xxxx */
static void t16_special(uint32_t hw, struct pft_insn_info *o)
{
	unsigned rm = FIELD(hw, 3, 4);
	unsigned rd = (BIT(hw, 7) << 3) | FIELD(hw, 0, 3);

	switch (FIELD(hw, 8, 2)) {
	case 0: /* ADD (register), high registers; ALUWritePC does not interwork in Thumb */
		if (rd == 15)
			pft_isa_indirect(o, 0);
		if (rd == 15 && rm == 15)
			pft_isa_unpred(o);
		return;
	case 1: /* CMP (register), high registers */
		if ((rd < 8 && rm < 8) || rd == 15 || rm == 15)
			pft_isa_unpred(o);
		return;
	case 2: /* MOV (register) */
		if (rd == 15)
			pft_isa_indirect(o, 0);
		return;
	default: /* BX, BLX (register) */
		if (BIT(hw, 7)) {
			pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA | PFT_INSN_F_LINK);
			if (rm == 15)
				pft_isa_unpred(o);
		} else {
			pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
		}
		if (hw & 7)
			pft_isa_unpred(o);
		return;
	}
}

/* Miscellaneous 16-bit instructions: 1011 xxxx xxxx xxxx */
static void t16_misc(uint32_t hw, uint64_t addr, struct pft_insn_info *o)
{
	switch (FIELD(hw, 8, 4)) {
	case 0x0: /* ADD/SUB SP, SP, #imm */
	case 0x2: /* SXTH, SXTB, UXTH, UXTB */
		return;
	case 0x1: case 0x3: case 0x9: case 0xB: { /* CBZ, CBNZ */
		unsigned imm = (BIT(hw, 9) << 6) | (FIELD(hw, 3, 5) << 1);
		pft_isa_direct(o, addr + 4 + imm, PFT_ISA_THUMB);
		o->cond = BIT(hw, 11) ? 1 : 0; /* CBNZ: NE, CBZ: EQ */
		o->flags |= PFT_INSN_F_COND;
		return;
	}
	case 0x4: case 0x5: /* PUSH */
		if ((hw & 0x1FF) == 0)
			pft_isa_unpred(o);
		return;
	case 0x6:
		if ((hw & 0xFFF7) == 0xB650) /* SETEND */
			return;
		if ((hw & 0xFFE8) == 0xB660) { /* CPS */
			if ((hw & 7) == 0)
				pft_isa_unpred(o);
			return;
		}
		if ((hw & 0xFFE0) == 0xB640 || (hw & 0xFFE0) == 0xB660 || (hw & 0xFFF0) == 0xB650)
			pft_isa_unpred(o); /* SETEND / CPS with bad should-be bits */
		else
			pft_isa_undef(o);
		return;
	case 0xA: /* REV, REV16, REVSH */
		if (FIELD(hw, 6, 2) == 2)
			pft_isa_undef(o);
		return;
	case 0xC: case 0xD: /* POP */
		if (BIT(hw, 8))
			pft_isa_indirect(o, PFT_INSN_F_PC_READ_ISA);
		if ((hw & 0x1FF) == 0)
			pft_isa_unpred(o);
		return;
	case 0xE: /* BKPT */
		o->flags |= PFT_INSN_F_BKPT;
		return;
	case 0xF: /* IT, hints */
		if (hw & 0xF) {
			unsigned fc = FIELD(hw, 4, 4), mask = hw & 0xF;
			o->flags |= PFT_INSN_F_IT;
			o->cond = (uint8_t)fc;
			o->it_mask = (uint8_t)mask;
			if (fc == 15 || (fc == 14 && popcount8(mask) != 1))
				pft_isa_unpred(o);
			return;
		}
		if (FIELD(hw, 4, 4) == 2 || FIELD(hw, 4, 4) == 3)
			o->flags |= PFT_INSN_F_WFI;
		return;
	default: /* 0x7, 0x8 */
		pft_isa_undef(o);
		return;
	}
}

/* ThumbEE 16-bit instructions in the Thumb LDM/STM space 1100 xxxx. */
static void t16_thumbee(uint32_t hw, struct pft_insn_info *o)
{
	switch (FIELD(hw, 8, 4)) {
	case 0x0: /* HBP #imm3, #handler */
		pft_isa_indirect(o, 0);
		return;
	case 0x1:
		pft_isa_undef(o);
		return;
	case 0x2: /* HB #handler */
		pft_isa_indirect(o, 0);
		return;
	case 0x3: /* HBL #handler */
		pft_isa_indirect(o, PFT_INSN_F_LINK);
		return;
	case 0x4: case 0x5: case 0x6: case 0x7: /* HBLP #imm5, #handler */
		pft_isa_indirect(o, PFT_INSN_F_LINK);
		return;
	case 0xA: /* CHKA Rn, Rm: a failed check is an exception, not a waypoint */
		if (((BIT(hw, 7) << 3) | FIELD(hw, 0, 3)) == 15 || FIELD(hw, 3, 4) >= 13)
			pft_isa_unpred(o);
		return;
	default: /* LDR/STR relative to R9/R10, negative offsets */
		return;
	}
}

void pft_isa_decode_t16(uint32_t hw, uint64_t addr, enum pft_isa isa, unsigned opts,
                        struct pft_insn_info *o)
{
	(void)opts;
	switch (hw >> 11) {
	case 0x08: /* 0100 0: data processing, special, BX */
		if (BIT(hw, 10))
			t16_special(hw, o);
		return;
	case 0x16: case 0x17:
		t16_misc(hw, addr, o);
		if ((o->flags & PFT_INSN_F_TARGET))
			o->target_isa = (uint8_t)isa;
		return;
	case 0x18: case 0x19: /* STM, LDM */
		if (isa == PFT_ISA_THUMBEE) {
			t16_thumbee(hw, o);
			return;
		}
		if ((hw & 0xFF) == 0)
			pft_isa_unpred(o);
		return;
	case 0x1A: case 0x1B: { /* B<cond>, UDF, SVC */
		unsigned cond = FIELD(hw, 8, 4);
		if (cond == 14) {
			pft_isa_undef(o);
			return;
		}
		if (cond == 15) {
			o->flags |= PFT_INSN_F_SVC;
			return;
		}
		pft_isa_direct(o, addr + 4 + (uint64_t)(pft_isa_sext(hw & 0xFF, 8) * 2), isa);
		o->cond = (uint8_t)cond;
		o->flags |= PFT_INSN_F_COND;
		return;
	}
	case 0x1C: /* B (T2) */
		pft_isa_direct(o, addr + 4 + (uint64_t)(pft_isa_sext(hw & 0x7FF, 11) * 2), isa);
		return;
	default:
		return;
	}
}
