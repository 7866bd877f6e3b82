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
	struct decode_it itb;      /* the Thumb disassembler's IT block (decode.h) */
	unsigned itb_slots;        /* its instructions (1-4) */
};

static void thumb_open(struct decode_disasm *d)
{
	if (cs_open(CS_ARCH_ARM, CS_MODE_THUMB, &d->thumb) == CS_ERR_OK) {
		d->it = cs_malloc(d->thumb);
		d->ok_thumb = d->it != NULL;
	}
}

static void thumb_close(struct decode_disasm *d)
{
	if (d->it)
		cs_free(d->it, 1);
	if (d->ok_thumb || d->it)
		cs_close(&d->thumb);
	d->it = NULL;
	d->ok_thumb = 0;
}

unsigned decode_it_slots(const struct pft_insn *in)
{
	unsigned mask = in->opcode & 0xF;

	if (in->size != 2 || (in->opcode & 0xFF00) != 0xBF00 || !mask)
		return 0; /* 0xBFx0: a hint */
	return mask & 1 ? 4 : mask & 2 ? 3 : mask & 4 ? 2 : 1; /* 4 less its trailing zeros */
}

/* After the Thumb disassembler saw in (decoded: ok): its IT block. */
static void track_it(struct decode_disasm *d, const struct pft_insn *in, int ok)
{
	unsigned slots = decode_it_slots(in);

	if (!ok)
		return;
	if (slots && !d->itb.n) {
		d->itb.insn[0] = *in;
		d->itb.n = 1;
		d->itb_slots = slots;
	} else if (slots) {
		/* an IT inside a block: capstone takes it (unpredictable, a
		   soft failure) without a slot and without a new block */
	} else if (d->itb.n == d->itb_slots) {
		d->itb.n = 0; /* its last slot taken: the block is over */
	} else if (d->itb.n) {
		d->itb.insn[d->itb.n++] = *in;
	}
}

void decode_disasm_get_it(const struct decode_disasm *d, struct decode_it *st)
{
	*st = d->itb;
}

void decode_disasm_set_it(struct decode_disasm *d, const struct decode_it *st)
{
	struct decode_it s = *st;
	char buf[160];
	uint32_t i;

	thumb_close(d);
	thumb_open(d);
	d->itb.n = 0;
	for (i = 0; i < s.n && i < 4; i++)
		decode_disasm(d, &s.insn[i], PFT_ISA_THUMB, buf, sizeof buf);
}

struct decode_disasm *decode_disasm_open(void)
{
	struct decode_disasm *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	if (cs_open(CS_ARCH_ARM, CS_MODE_ARM, &d->arm) == CS_ERR_OK) {
		d->ia = cs_malloc(d->arm);
		d->ok_arm = d->ia != NULL;
	}
	thumb_open(d);
	return d;
}

void decode_disasm_close(struct decode_disasm *d)
{
	if (!d)
		return;
	if (d->ia)
		cs_free(d->ia, 1);
	if (d->ok_arm || d->ia)
		cs_close(&d->arm);
	thumb_close(d);
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
	int ok;

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
	ok = cs_disasm_iter(h, &p, &n, &addr, ci);
	if (isa != PFT_ISA_ARM)
		track_it(d, in, ok);
	if (ok) {
		/* a text longer than cap is cut (the return value used: the
		   cut is meant, not a -Wformat-truncation finding) */
		if ((ci->op_str[0] ? snprintf(buf, cap, "%s %s", ci->mnemonic, ci->op_str)
				   : snprintf(buf, cap, "%s", ci->mnemonic)) < 0)
			buf[0] = '\0';
		return buf;
	}
unknown:
	snprintf(buf, cap, "?");
	return buf;
}
