/* SPDX-License-Identifier: BSD-3-Clause */
/* ISA layer entry points: instruction fetch from the caller's bytes,
 * dispatch to the A32 / T32 classifiers, names, condition evaluation. */
#include "isa/isa_internal.h"

const char *pft_wp_class_name(enum pft_wp_class c)
{
	switch (c) {
	case PFT_WP_NONE: return "none";
	case PFT_WP_DIRECT: return "direct";
	case PFT_WP_INDIRECT: return "indirect";
	case PFT_WP_ISB: return "isb";
	case PFT_WP_BARRIER: return "barrier";
	case PFT_WP_ISA_CHANGE: return "isa_change";
	default: return "?";
	}
}

int pft_isa_thumb_size(uint32_t hw1)
{
	return pft_isa_t32_is_32bit(hw1) ? 4 : 2;
}

int pft_isa_decode(enum pft_isa isa, uint64_t addr, const uint8_t *bytes, size_t avail,
                   unsigned opts, struct pft_insn_info *out)
{
	uint32_t hw1, hw2;

	if (!out)
		return -PFT_E_INVAL;
	out->opcode = 0;
	out->size = 0;
	out->wp_class = PFT_WP_NONE;
	out->cond = PFT_COND_AL;
	out->target_isa = (uint8_t)isa;
	out->flags = 0;
	out->it_mask = 0;
	out->reserved = 0;
	out->target = 0;
	if (!bytes && avail)
		return -PFT_E_INVAL;

	switch (isa) {
	case PFT_ISA_ARM:
		if (avail < 4) {
			out->size = 4;
			return -PFT_E_NOMAP;
		}
		out->opcode = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 |
		              (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
		out->size = 4;
		pft_isa_decode_a32(out->opcode, addr, opts, out);
		return 0;
	case PFT_ISA_THUMB:
	case PFT_ISA_THUMBEE:
		if (avail < 2) {
			out->size = 2;
			return -PFT_E_NOMAP;
		}
		hw1 = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8;
		if (!pft_isa_t32_is_32bit(hw1)) {
			out->opcode = hw1;
			out->size = 2;
			pft_isa_decode_t16(hw1, addr, isa, opts, out);
			return 0;
		}
		if (avail < 4) {
			out->size = 4;
			return -PFT_E_NOMAP;
		}
		hw2 = (uint32_t)bytes[2] | (uint32_t)bytes[3] << 8;
		out->opcode = hw1 << 16 | hw2;
		out->size = 4;
		pft_isa_decode_t32(hw1, hw2, addr, isa, opts, out);
		return 0;
	case PFT_ISA_JAZELLE:
		return -PFT_E_UNSUPPORTED;
	default:
		return -PFT_E_INVAL;
	}
}

int pft_isa_cond_passed(unsigned cond, uint32_t cpsr)
{
	unsigned n = (cpsr >> 31) & 1, z = (cpsr >> 30) & 1;
	unsigned c = (cpsr >> 29) & 1, v = (cpsr >> 28) & 1;
	int r;

	switch ((cond >> 1) & 7) {
	case 0: r = z; break;                   /* EQ / NE */
	case 1: r = c; break;                   /* CS / CC */
	case 2: r = n; break;                   /* MI / PL */
	case 3: r = v; break;                   /* VS / VC */
	case 4: r = c && !z; break;             /* HI / LS */
	case 5: r = n == v; break;              /* GE / LT */
	case 6: r = n == v && !z; break;        /* GT / LE */
	default: return 1;                      /* AL (and 1111) */
	}
	return (cond & 1) ? !r : r;
}
