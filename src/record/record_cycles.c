/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: the cycle model.  Every retired instruction costs a number of
 * processor cycles that depends on its class (taken branch, load, store,
 * multiply, condition failed, other) and every exception entry costs the
 * "exception" class.  The pipeline accumulates them into the cycle counter
 * the PTM sees (cycle-accurate counts) and the timestamp clock derives from. */
#include <stdlib.h>
#include <string.h>

#include "pft/record.h"

static const char *const class_names[PFT_REC_CYC_NR] = {
	"other", "branch", "load", "store", "mul", "failed", "exception"
};

void pft_rec_cycles_default(struct pft_rec_cycles *m)
{
	unsigned i;

	for (i = 0; i < PFT_REC_CYC_NR; i++)
		m->cost[i] = 1;
}

int pft_rec_cycles_parse(struct pft_rec_cycles *m, const char *spec)
{
	uint64_t v;
	const char *p = spec;
	unsigned i;

	pft_rec_cycles_default(m);
	if (pft_rec_parse_u64(spec, &v) == 0) {
		if (v == 0 || v > 0xffff)
			return -PFT_E_INVAL;
		for (i = 0; i < PFT_REC_CYC_NR; i++)
			m->cost[i] = (uint32_t)v;
		return 0;
	}
	while (*p) {
		const char *eq = strchr(p, '='), *end = strchr(p, ',');
		char num[32];
		size_t nlen;

		if (!end)
			end = p + strlen(p);
		if (!eq || eq > end)
			return -PFT_E_INVAL;
		for (i = 0; i < PFT_REC_CYC_NR; i++)
			if (strlen(class_names[i]) == (size_t)(eq - p) &&
			    !strncmp(p, class_names[i], (size_t)(eq - p)))
				break;
		nlen = (size_t)(end - eq - 1);
		if (i == PFT_REC_CYC_NR || nlen == 0 || nlen >= sizeof(num))
			return -PFT_E_INVAL;
		memcpy(num, eq + 1, nlen);
		num[nlen] = 0;
		if (pft_rec_parse_u64(num, &v) || v > 0xffff || (v == 0 && i != PFT_REC_CYC_FAILED))
			return -PFT_E_INVAL;
		m->cost[i] = (uint32_t)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* Loads, stores and multiplies by encoding; branches are decided by the
 * pipeline (a waypoint whose successor is not the next instruction). */
const char *pft_rec_cycle_class_name(enum pft_rec_cycle_class c)
{
	switch (c) {
	case PFT_REC_CYC_OTHER: return "other";
	case PFT_REC_CYC_BRANCH: return "branch";
	case PFT_REC_CYC_LOAD: return "load";
	case PFT_REC_CYC_STORE: return "store";
	case PFT_REC_CYC_MUL: return "mul";
	case PFT_REC_CYC_FAILED: return "failed";
	case PFT_REC_CYC_EXCEPTION: return "exception";
	default: return "?";
	}
}

enum pft_rec_cycle_class pft_rec_cycles_classify(enum pft_isa isa, uint32_t op, unsigned size)
{
	if (isa == PFT_ISA_ARM) {
		if ((op >> 28) == 15)
			return PFT_REC_CYC_OTHER;
		if ((op & 0x0c000000u) == 0x04000000u)       /* LDR/STR (imm/reg) */
			return (op & 0x00100000u) ? PFT_REC_CYC_LOAD : PFT_REC_CYC_STORE;
		if ((op & 0x0e000000u) == 0x08000000u)       /* LDM/STM */
			return (op & 0x00100000u) ? PFT_REC_CYC_LOAD : PFT_REC_CYC_STORE;
		if ((op & 0x0f0000f0u) == 0x00000090u)       /* MUL/MLA/UMULL... */
			return PFT_REC_CYC_MUL;
		if ((op & 0x0e000090u) == 0x00000090u && (op & 0x60u))  /* LDRH/STRH/LDRD/STRD */
			return (op & 0x00100000u) || ((op >> 5) & 3u) == 2 ? PFT_REC_CYC_LOAD : PFT_REC_CYC_STORE;
		return PFT_REC_CYC_OTHER;
	}
	if (size == 2) {
		if ((op >> 12) == 5)                            /* reg offset: opB >= 3 loads */
			return ((op >> 9) & 7u) >= 3 ? PFT_REC_CYC_LOAD : PFT_REC_CYC_STORE;
		if ((op >> 13) == 3 || (op >> 12) == 8 || (op >> 12) == 9)
			return (op & 0x0800u) ? PFT_REC_CYC_LOAD : PFT_REC_CYC_STORE;
		if ((op >> 11) == 9)                            /* LDR literal */
			return PFT_REC_CYC_LOAD;
		if ((op >> 12) == 0xc)                          /* LDM/STM */
			return (op & 0x0800u) ? PFT_REC_CYC_LOAD : PFT_REC_CYC_STORE;
		if ((op & 0xfe00u) == 0xbc00u)                  /* POP */
			return PFT_REC_CYC_LOAD;
		if ((op & 0xfe00u) == 0xb400u)                  /* PUSH */
			return PFT_REC_CYC_STORE;
		if ((op & 0xffc0u) == 0x4340u)                  /* MULS */
			return PFT_REC_CYC_MUL;
		return PFT_REC_CYC_OTHER;
	}
	if ((op >> 25) == 0x7c)                                 /* 1111100x: ld/st single */
		return (op & 0x00100000u) ? PFT_REC_CYC_LOAD : PFT_REC_CYC_STORE;
	if ((op >> 25) == 0x74)                                 /* 1110100x: ldm/stm/ldrd */
		return (op & 0x00100000u) ? PFT_REC_CYC_LOAD : PFT_REC_CYC_STORE;
	if ((op >> 23) == 0x1f6 || (op >> 23) == 0x1f7)        /* 11111011x: multiply */
		return PFT_REC_CYC_MUL;
	return PFT_REC_CYC_OTHER;
}
