/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: the step rule of the log readers.  An execution log claims
 * that one instruction retired after another; the architecture says where
 * the one before can send the processor:
 *   - any instruction that is not a taken branch falls through to the next
 *     address in its own instruction set (a conditional branch either);
 *   - a direct branch (B, BL, BLX imm, CBZ/CBNZ, B<cond>) goes to its target
 *     exactly, in the target's instruction set (BLX imm changes it);
 *   - an indirect branch (BX, BLX reg, LDR/LDM/POP to the PC, data
 *     processing to the PC, TBB/TBH, exception returns) goes anywhere, and
 *     changes the instruction set only if it interworks (BX, BLX, loads to
 *     the PC, A32 data processing to the PC from ARMv7: the classifier's
 *     PFT_INSN_F_PC_READ_ISA) or returns from an exception (SUBS PC, LR,
 *     MOVS PC, LDM ^, RFE: the state comes from the SPSR).
 * Exceptions are the reader's business: pft_rec_is_vector says where one
 * can enter.  The classification is pft_isa_decode's (pft/isa.h). */
#include <stdio.h>

#include "pft/isa.h"
#include "pft/record.h"

static int classify(const struct pft_rec_insn *in, struct pft_insn_info *info)
{
	uint8_t b[4];
	uint32_t op = in->opcode;

	if (in->isa == PFT_ISA_THUMB && in->size == 4)
		op = op >> 16 | op << 16; /* hw1 first in memory */
	b[0] = (uint8_t)op;
	b[1] = (uint8_t)(op >> 8);
	b[2] = (uint8_t)(op >> 16);
	b[3] = (uint8_t)(op >> 24);
	return pft_isa_decode((enum pft_isa)in->isa, in->addr, b, in->size, 0, info);
}

static const char *isa_str(unsigned isa)
{
	return pft_isa_name((enum pft_isa)isa);
}

int pft_rec_can_follow(const struct pft_rec_insn *prev, uint64_t addr, enum pft_isa isa,
                       char *why, size_t cap)
{
	struct pft_insn_info in;
	uint64_t fall;
	int cond;
	char dummy[1];

	if (!why || !cap) {
		why = dummy;
		cap = sizeof dummy;
	}
	why[0] = 0;
	if (!prev || classify(prev, &in) < 0) {
		snprintf(why, cap, "not an instruction");
		return 0;
	}
	fall = prev->addr + prev->size;
	cond = prev->condcode < 14 || (in.flags & PFT_INSN_F_COND);
	switch (in.wp_class) {
	case PFT_WP_DIRECT:
		if (addr == in.target && isa == (enum pft_isa)in.target_isa)
			return 1;
		if (cond && addr == fall && isa == (enum pft_isa)prev->isa)
			return 1;
		if (cond)
			snprintf(why, cap, "%s 0x%08x, a conditional direct branch: to 0x%08llx %s "
			         "or on to 0x%08llx", isa_str(prev->isa), (unsigned)prev->opcode,
			         (unsigned long long)in.target, isa_str(in.target_isa),
			         (unsigned long long)fall);
		else
			snprintf(why, cap, "%s 0x%08x, a direct branch: to 0x%08llx %s only",
			         isa_str(prev->isa), (unsigned)prev->opcode,
			         (unsigned long long)in.target, isa_str(in.target_isa));
		return 0;
	case PFT_WP_INDIRECT:
		if (isa == (enum pft_isa)prev->isa ||
		    (in.flags & (PFT_INSN_F_PC_READ_ISA | PFT_INSN_F_EXC_RETURN)))
			return 1;
		snprintf(why, cap, "%s 0x%08x, an indirect branch that does not interwork: stays in %s",
		         isa_str(prev->isa), (unsigned)prev->opcode, isa_str(prev->isa));
		return 0;
	case PFT_WP_ISA_CHANGE:
		if ((in.flags & PFT_INSN_F_TARGET) && addr == in.target &&
		    isa == (enum pft_isa)in.target_isa)
			return 1;
		if (cond && addr == fall && isa == (enum pft_isa)prev->isa)
			return 1;
		snprintf(why, cap, "%s 0x%08x, ENTERX/LEAVEX: on to 0x%08llx %s",
		         isa_str(prev->isa), (unsigned)prev->opcode, (unsigned long long)in.target,
		         isa_str(in.target_isa));
		return 0;
	default:
		if (addr == fall && isa == (enum pft_isa)prev->isa)
			return 1;
		snprintf(why, cap, "%s 0x%08x, not a branch: falls through to 0x%08llx %s",
		         isa_str(prev->isa), (unsigned)prev->opcode, (unsigned long long)fall,
		         isa_str(prev->isa));
		return 0;
	}
}

int pft_rec_vector_offset(unsigned type)
{
	switch (type) {
	case PFT_REC_EXC_RESET: return 0x00;
	case PFT_REC_EXC_UNDEF: return 0x04;
	case PFT_REC_EXC_SVC: return 0x08;
	case PFT_REC_EXC_PABT: return 0x0c;
	case PFT_REC_EXC_DABT: return 0x10;
	case PFT_REC_EXC_IRQ: return 0x18;
	case PFT_REC_EXC_FIQ: return 0x1c;
	default: return -1;
	}
}

int pft_rec_is_vector(unsigned type, uint64_t vector)
{
	int off = pft_rec_vector_offset(type);

	/* VBAR/MVBAR/HVBAR keep bits [4:0] zero; the low (0) and high
	 * (0xFFFF0000) bases are 32-byte aligned too */
	return off >= 0 && vector <= 0xffffffffu && (vector & 0x1fu) == (unsigned)off;
}
