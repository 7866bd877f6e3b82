/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the record part's log readers (qemu "-d exec" logs and
 * plain executed-instruction logs, pft/record.h) on arbitrary text, with a
 * program image of 64 bytes at 0x8000 taken from the input, through the
 * pipeline.  Byte 0 picks the reader; bytes 1-64 are the code; the rest is
 * the log.  Traps if a reader accepts a log and delivers an instruction
 * outside the image, or fails without saying why. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft/record.h"

#define ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)

static int on_insn(void *ctx, const struct pft_rec_full *f)
{
	(void)ctx;
	ASSERT(f->in.addr >= 0x8000 && f->in.addr + f->in.size <= 0x8040);
	ASSERT(f->in.size == 2 || f->in.size == 4);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t code[64];
	struct pft_rec_segment seg = { 0x8000, sizeof code, sizeof code, code, 5 };
	struct pft_rec_elf elf = { NULL, 0x8000, &seg, 1, NULL, 0 };
	const struct pft_rec_elf *elfs[1] = { &elf };
	struct pft_rec_consumer cons = { on_insn, NULL, NULL, NULL };
	struct pft_rec_cycles cycles;
	struct pft_rec_pipe pipe;
	struct pft_rec_sink sink;
	struct pft_rec_src_stats st;
	char msg[256] = "";
	FILE *f;
	int r;

	if (size < 1 + sizeof code)
		return 0;
	memcpy(code, data + 1, sizeof code);
	f = fmemopen((void *)(uintptr_t)(data + 1 + sizeof code), size - 1 - sizeof code, "r");
	if (!f)
		return 0;
	pft_rec_cycles_default(&cycles);
	pft_rec_pipe_init(&pipe, &cycles, NULL, &cons);
	pft_rec_pipe_sink(&pipe, &sink);
	if (data[0] & 1)
		r = pft_rec_qemu_run(f, elfs, 1, 100000, &sink, &st, msg, sizeof msg);
	else
		r = pft_rec_plain_run(f, elfs, 1, 100000, &sink, &st, msg, sizeof msg);
	if (r < 0)
		ASSERT(msg[0]);
	else
		(void)pft_rec_pipe_end(&pipe, 0, PFT_ISA_ARM, 0);
	fclose(f);
	return 0;
}
