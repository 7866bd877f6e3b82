/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: small instruction facts the execution sources need (opcode
 * assembly, condition codes, IT state, BKPT) and number parsing. */
#include <errno.h>
#include <stdlib.h>

#include "pft/record.h"

uint32_t pft_rec_opcode(enum pft_isa isa, const uint8_t *b, unsigned size)
{
	if (isa == PFT_ISA_ARM)
		return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		       (uint32_t)b[3] << 24;
	if (size == 2)
		return (uint32_t)b[0] | (uint32_t)b[1] << 8;
	return ((uint32_t)b[0] | (uint32_t)b[1] << 8) << 16 | (uint32_t)b[2] |
	       (uint32_t)b[3] << 8;
}

unsigned pft_rec_insn_cond(enum pft_isa isa, uint32_t op, unsigned size)
{
	if (isa == PFT_ISA_ARM) {
		unsigned c = op >> 28;
		return c == 15 ? 14 : c;
	}
	if (size == 2) {
		/* B<cond> T1: 1101 cccc; cccc 1110 is UDF, 1111 is SVC */
		if ((op & 0xf000u) == 0xd000u && ((op >> 8) & 0xeu) != 0xeu)
			return (op >> 8) & 0xfu;
		return 14;
	}
	/* B<cond>.W T3: 11110 S cccc imm6 : 10 J1 0 J2 imm11 */
	if ((op & 0xf800d000u) == 0xf0008000u && ((op >> 22) & 0xeu) != 0xeu)
		return (op >> 22) & 0xfu;
	return 14;
}

int pft_rec_is_it(uint32_t op, unsigned size, uint8_t *itstate)
{
	if (size != 2 || (op & 0xff00u) != 0xbf00u || (op & 0xfu) == 0)
		return 0;
	*itstate = (uint8_t)(op & 0xffu);
	return 1;
}

int pft_rec_is_svc(enum pft_isa isa, uint32_t op, unsigned size)
{
	if (isa == PFT_ISA_ARM)
		return (op >> 28) != 15 && (op & 0x0f000000u) == 0x0f000000u;
	return size == 2 && (op & 0xff00u) == 0xdf00u;
}

int pft_rec_is_bkpt(enum pft_isa isa, uint32_t op, unsigned size)
{
	if (isa == PFT_ISA_ARM)
		return (op & 0x0ff000f0u) == 0x01200070u;
	return size == 2 && (op & 0xff00u) == 0xbe00u;
}

int pft_rec_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

const char *pft_rec_exc_type_name(unsigned type)
{
	switch (type) {
	case PFT_REC_EXC_RESET: return "reset";
	case PFT_REC_EXC_UNDEF: return "undef";
	case PFT_REC_EXC_SVC: return "svc";
	case PFT_REC_EXC_PABT: return "pabt";
	case PFT_REC_EXC_DABT: return "dabt";
	case PFT_REC_EXC_IRQ: return "irq";
	case PFT_REC_EXC_FIQ: return "fiq";
	default: return "?";
	}
}

uint64_t pft_rec_ts_of_cycle(uint64_t cycle, uint64_t cpu_freq, uint64_t ts_freq)
{
	__extension__ typedef unsigned __int128 u128;

	if (!cpu_freq || cpu_freq == ts_freq)
		return cycle;
	return (uint64_t)((u128)cycle * ts_freq / cpu_freq); /* the low 64 bits */
}
