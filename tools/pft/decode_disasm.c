/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode: disassembly with capstone, no allocation per instruction. */
#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

struct decode_disasm {
	csh arm, thumb;
	cs_insn *ia, *it;
	int ok_arm, ok_thumb;
};

struct decode_disasm *decode_disasm_open(void)
{
	struct decode_disasm *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	if (cs_open(CS_ARCH_ARM, CS_MODE_ARM, &d->arm) == CS_ERR_OK) {
		d->ia = cs_malloc(d->arm);
		d->ok_arm = d->ia != NULL;
	}
	if (cs_open(CS_ARCH_ARM, CS_MODE_THUMB, &d->thumb) == CS_ERR_OK) {
		d->it = cs_malloc(d->thumb);
		d->ok_thumb = d->it != NULL;
	}
	return d;
}

void decode_disasm_close(struct decode_disasm *d)
{
	if (!d)
		return;
	if (d->ia)
		cs_free(d->ia, 1);
	if (d->it)
		cs_free(d->it, 1);
	if (d->ok_arm || d->ia)
		cs_close(&d->arm);
	if (d->ok_thumb || d->it)
		cs_close(&d->thumb);
	free(d);
}

const char *decode_disasm(struct decode_disasm *d, const struct pft_insn *in,
			  enum pft_isa isa, char *buf, size_t cap)
{
	uint8_t bytes[4];
	const uint8_t *p = bytes;
	size_t n = in->size;
	uint64_t addr = in->addr;
	csh h;
	cs_insn *ci;

	if (isa == PFT_ISA_ARM) {
		if (!d->ok_arm)
			goto unknown;
		h = d->arm;
		ci = d->ia;
		bytes[0] = (uint8_t)in->opcode;
		bytes[1] = (uint8_t)(in->opcode >> 8);
		bytes[2] = (uint8_t)(in->opcode >> 16);
		bytes[3] = (uint8_t)(in->opcode >> 24);
	} else if (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE) {
		if (!d->ok_thumb)
			goto unknown;
		h = d->thumb;
		ci = d->it;
		if (in->size == 4) { /* hw1 first, each halfword little-endian */
			bytes[0] = (uint8_t)(in->opcode >> 16);
			bytes[1] = (uint8_t)(in->opcode >> 24);
			bytes[2] = (uint8_t)in->opcode;
			bytes[3] = (uint8_t)(in->opcode >> 8);
		} else {
			bytes[0] = (uint8_t)in->opcode;
			bytes[1] = (uint8_t)(in->opcode >> 8);
		}
	} else {
		goto unknown;
	}
	if (cs_disasm_iter(h, &p, &n, &addr, ci)) {
		if (ci->op_str[0])
			snprintf(buf, cap, "%s %s", ci->mnemonic, ci->op_str);
		else
			snprintf(buf, cap, "%s", ci->mnemonic);
		return buf;
	}
unknown:
	snprintf(buf, cap, "?");
	return buf;
}
