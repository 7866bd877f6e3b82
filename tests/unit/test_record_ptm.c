/* SPDX-License-Identifier: BSD-3-Clause */
/* The PTM sink of the record part (pft_rec_ptm): a small ARM loop delivered
 * as an execution source would (conditions unknown, as from a log) through
 * the pipeline into the sink, raw and in CoreSight frames, cycle-accurate
 * or not; the trace it drains, decoded by the flow decoder against the same
 * code, gives back exactly the instructions delivered (so the sink marked
 * the not-taken BNE as condition failed from its successor), and with
 * cycle-accurate trace the cycle counts add up to the pipeline's.  An IRQ
 * taken before the first instruction of a BLX's target (A32 to T32): the
 * BLX completed, so it is traced taken and the exception's return address
 * is the target, in Thumb state. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pft/flow.h"
#include "pft/frame.h"
#include "pft/image.h"
#include "pft/ptm.h"
#include "pft/record.h"

static const uint32_t code[] = {
	0xe3a00003, /* 8000: mov r0, #3 */
	0xe2500001, /* 8004: subs r0, r0, #1 */
	0x1afffffd, /* 8008: bne 8004 */
	0xeafffffe, /* 800c: b 800c (a waypoint: the trace shows up to the last one) */
};
static const uint64_t run[] = { 0x8000, 0x8004, 0x8008, 0x8004, 0x8008, 0x8004, 0x8008, 0x800c };
#define NRUN (sizeof run / sizeof run[0])

static void check_config(int frames, int ca)
{
	struct pft_config cfg;
	struct pft_ptm *ptm;
	struct pft_rec_ptm *rp;
	struct pft_rec_consumer cons;
	struct pft_rec_cycles cycles;
	struct pft_rec_pipe pipe;
	struct pft_rec_sink sink;
	struct pft_image *img;
	struct pft_flow_decoder *dec;
	struct pft_flow_item it;
	uint8_t bytes[sizeof code], raw[4096];
	const uint8_t *trace;
	uint64_t got[64], cyc = 0;
	size_t len, n = 0, i;
	int64_t rawlen;
	uint32_t k;

	for (i = 0; i < sizeof code / 4; i++)
		for (k = 0; k < 4; k++)
			bytes[4 * i + k] = (uint8_t)(code[i] >> (8 * k));
	pft_config_init(&cfg);
	cfg.etmtraceidr = 0x10;
	if (ca)
		cfg.etmcr |= PFT_ETMCR_CYCLE_ACCURATE;
	ptm = pft_ptm_alloc(&cfg, NULL);
	CHECK(ptm != NULL);
	CHECK_EQ(pft_rec_ptm_alloc(&rp, ptm, frames, 1000, 1000), 0);
	pft_rec_ptm_consumer(rp, &cons);
	pft_rec_cycles_default(&cycles);
	pft_rec_pipe_init(&pipe, &cycles, NULL, &cons);
	pft_rec_pipe_sink(&pipe, &sink);
	for (i = 0; i < NRUN; i++) {
		struct pft_rec_insn in;

		memset(&in, 0, sizeof in);
		in.addr = run[i];
		in.opcode = code[(run[i] - 0x8000) / 4];
		in.isa = PFT_ISA_ARM;
		in.size = 4;
		in.cond = -1; /* not known: the sink decides from the successor */
		in.condcode = (uint8_t)(in.opcode >> 28);
		CHECK_EQ(sink.insn(sink.ctx, &in), 0);
	}
	CHECK_EQ(pft_rec_pipe_end(&pipe, 0, PFT_ISA_ARM, 0), 0);
	trace = pft_rec_ptm_trace(rp, &len);
	CHECK(len > 0);
	if (frames) {
		rawlen = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x10, trace, len, raw, sizeof raw, NULL);
		CHECK(rawlen > 0);
	} else {
		CHECK(len <= sizeof raw);
		memcpy(raw, trace, len);
		rawlen = (int64_t)len;
	}
	img = pft_image_alloc();
	CHECK_EQ(pft_image_add_buffer(img, 0x8000, bytes, sizeof bytes), 0);
	dec = pft_flow_decoder_alloc(&cfg, img);
	CHECK(dec != NULL);
	pft_flow_decoder_feed(dec, raw, (size_t)(rawlen > 0 ? rawlen : 0));
	pft_flow_decoder_end(dec);
	while (pft_flow_decoder_next(dec, &it, sizeof it) == 0) {
		if (it.flags & PFT_FLOW_F_CC) /* ranges, and the I-sync's count */
			cyc += it.cycles;
		if (it.kind == PFT_FLOW_RANGE)
			for (k = 0; k < it.ninsns && n < 64; k++)
				got[n++] = it.insns[k].addr;
	}
	CHECK_EQ(n, NRUN);
	for (i = 0; i < n && i < NRUN; i++)
		CHECK_EQ(got[i], run[i]);
	if (ca) /* the counts traced add up to what the pipeline charged */
		CHECK_EQ(cyc, pipe.cycle);
	printf("sink %s%s: %zu trace bytes, %zu instructions decoded as delivered%s\n",
	       frames ? "frames" : "raw", ca ? ", cycle-accurate" : "", len, n,
	       ca ? ", cycles add up" : "");
	pft_flow_decoder_free(dec);
	pft_image_free(img);
	pft_rec_ptm_free(rp);
}

/* 8000: blx #0x9000 (A32 -> T32), an IRQ taken before 9000 runs; the
 * handler at 0x18 spins (b 0x18). */
static void check_blx_then_irq(void)
{
	static const uint32_t blx = 0xfa0003fe, spin = 0xeafffffe;
	struct pft_config cfg;
	struct pft_ptm *ptm;
	struct pft_rec_ptm *rp;
	struct pft_rec_consumer cons;
	struct pft_rec_cycles cycles;
	struct pft_rec_pipe pipe;
	struct pft_rec_sink sink;
	struct pft_rec_insn in;
	struct pft_rec_exc x;
	struct pft_image *img;
	struct pft_flow_decoder *dec;
	struct pft_flow_item it;
	uint8_t b1[4], b2[4];
	const uint8_t *trace;
	size_t len;
	int blx_seen = 0, blx_taken = 0, exc_seen = 0, i;
	uint64_t ret = 0;
	unsigned ret_isa = 9;

	for (i = 0; i < 4; i++) {
		b1[i] = (uint8_t)(blx >> (8 * i));
		b2[i] = (uint8_t)(spin >> (8 * i));
	}
	pft_config_init(&cfg);
	cfg.etmtraceidr = 0x10;
	ptm = pft_ptm_alloc(&cfg, NULL);
	CHECK(ptm != NULL);
	CHECK_EQ(pft_rec_ptm_alloc(&rp, ptm, 0, 1000, 1000), 0);
	pft_rec_ptm_consumer(rp, &cons);
	pft_rec_cycles_default(&cycles);
	pft_rec_pipe_init(&pipe, &cycles, NULL, &cons);
	pft_rec_pipe_sink(&pipe, &sink);
	memset(&in, 0, sizeof in);
	in.addr = 0x8000;
	in.opcode = blx;
	in.isa = PFT_ISA_ARM;
	in.size = 4;
	in.cond = 1;
	in.condcode = 14;
	CHECK_EQ(sink.insn(sink.ctx, &in), 0);
	memset(&x, 0, sizeof x);
	x.pref_return = 0x9000;
	x.return_isa = PFT_ISA_THUMB;
	x.vector = 0x18;
	x.type = PFT_REC_EXC_IRQ;
	x.isa = PFT_ISA_ARM;
	CHECK_EQ(sink.exception(sink.ctx, &x), 0);
	for (i = 0; i < 3; i++) {
		in.addr = 0x18;
		in.opcode = spin;
		CHECK_EQ(sink.insn(sink.ctx, &in), 0);
	}
	CHECK_EQ(pft_rec_pipe_end(&pipe, 0, PFT_ISA_ARM, 0), 0);
	trace = pft_rec_ptm_trace(rp, &len);
	img = pft_image_alloc();
	CHECK_EQ(pft_image_add_buffer(img, 0x8000, b1, sizeof b1), 0);
	CHECK_EQ(pft_image_add_buffer(img, 0x18, b2, sizeof b2), 0);
	dec = pft_flow_decoder_alloc(&cfg, img);
	CHECK(dec != NULL);
	pft_flow_decoder_feed(dec, trace, len);
	pft_flow_decoder_end(dec);
	while (pft_flow_decoder_next(dec, &it, sizeof it) == 0) {
		if (it.kind == PFT_FLOW_RANGE && it.ninsns && it.insns[it.ninsns - 1].addr == 0x8000) {
			blx_seen = 1;
			blx_taken = it.end_kind == PFT_RANGE_TAKEN;
		}
		if (it.kind == PFT_FLOW_EVENT && it.type == PFT_EV_EXCEPTION) {
			exc_seen = 1;
			ret = it.next;
			ret_isa = it.next_isa;
		}
	}
	CHECK(blx_seen);
	CHECK(blx_taken); /* an N atom here loses the call */
	CHECK(exc_seen);
	CHECK_EQ(ret, 0x9000);
	CHECK_EQ(ret_isa, PFT_ISA_THUMB);
	printf("blx then irq: blx %s, return 0x%llx %s\n", blx_taken ? "taken" : "NOT taken",
	       (unsigned long long)ret, ret_isa == PFT_ISA_THUMB ? "T32" : "A32");
	pft_flow_decoder_free(dec);
	pft_image_free(img);
	pft_rec_ptm_free(rp);
}

int main(void)
{
	check_config(0, 0);
	check_config(1, 0);
	check_config(0, 1);
	check_config(1, 1);
	check_blx_then_irq();
	return check_report();
}
