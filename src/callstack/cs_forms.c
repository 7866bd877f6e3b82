/* SPDX-License-Identifier: BSD-3-Clause */
/* Call-stack layer: the instruction forms that usually return (a hint, never
 * a rule by itself: see doc/profile.md).  Encodings from the ARM ARM v7-A. */
#include "pft/callstack.h"

static int a32_return_form(uint32_t op)
{
	if ((op >> 28) == 0xFu)
		return 0;                             /* unconditional space */
	op &= 0x0FFFFFFFu;
	if (op == 0x012FFF1Eu)                        /* BX LR */
		return 1;
	if (op == 0x01A0F00Eu)                        /* MOV PC, LR (not MOVS) */
		return 1;
	if ((op & 0x0FFFF000u) == 0x049DF000u)        /* LDR PC, [SP], #imm */
		return 1;
	if ((op & 0x0E508000u) == 0x08108000u)        /* LDM Rn{!}, {..., PC}, no ^ */
		return 1;
	return 0;
}

static int t32_return_form(uint32_t op, unsigned size)
{
	if (size == 2) {
		op &= 0xFFFFu;
		return op == 0x4770u ||                       /* BX LR */
		       op == 0x46F7u ||                       /* MOV PC, LR */
		       (op & 0xFF00u) == 0xBD00u;             /* POP {..., PC} */
	}
	if (((op >> 16) & 0xFFD0u) == 0xE890u ||             /* LDMIA Rn{!}, {..PC} (POP.W) */
	    ((op >> 16) & 0xFFD0u) == 0xE910u)               /* LDMDB */
		return (op & 0x8000u) != 0;
	if ((op & 0xFFFFFF00u) == 0xF85DFB00u)               /* LDR PC, [SP], #imm */
		return 1;
	return 0;
}

int pft_cs_is_return_form(enum pft_isa isa, uint32_t opcode, unsigned size)
{
	switch (isa) {
	case PFT_ISA_ARM:
		return size == 4 && a32_return_form(opcode);
	case PFT_ISA_THUMB:
	case PFT_ISA_THUMBEE:
		return t32_return_form(opcode, size);
	default:
		return 0;
	}
}

const char *pft_cs_frame_kind_name(enum pft_cs_frame_kind k)
{
	switch (k) {
	case PFT_CS_FRAME_CALL: return "call";
	case PFT_CS_FRAME_EXCEPTION: return "exception";
	case PFT_CS_FRAME_UNKNOWN: return "unknown";
	default: return "?";
	}
}

const char *pft_cs_kind_name(enum pft_cs_kind k)
{
	static const char *const n[PFT_CS_KIND_NR] = {
		[PFT_CS_RUN] = "run", [PFT_CS_CALL] = "call", [PFT_CS_RETURN] = "return",
		[PFT_CS_EXC_ENTRY] = "exception", [PFT_CS_EXC_RETURN] = "exception_return",
		[PFT_CS_GAP] = "gap", [PFT_CS_CONTEXT] = "context",
	};
	return (unsigned)k < PFT_CS_KIND_NR && n[k] ? n[k] : "?";
}

const char *pft_cs_how_name(enum pft_cs_how h)
{
	static const char *const n[PFT_CS_HOW_NR] = {
		"matched", "skipped", "tail", "unmatched", "exception", "gap", "end",
	};
	return (unsigned)h < PFT_CS_HOW_NR ? n[h] : "?";
}
