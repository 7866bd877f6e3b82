/* SPDX-License-Identifier: BSD-3-Clause */
/* The ETMv3 sink of the record part (pft_rec_etm3): a small ARM loop
 * delivered as an execution source would (conditions unknown, as from a
 * log) through the pipeline into the sink, raw and in CoreSight frames,
 * cycle-accurate or not; the trace, decoded by the ETMv3 packet decoder and
 * flow against the same code, gives back exactly the instructions delivered
 * (the not-taken BNE an N atom from its successor), and with cycle-accurate
 * trace the cycle counts add up to the pipeline's.  A data abort on a load:
 * the load is traced and cancelled, so the flow gives the instructions
 * delivered, and the exception's return address is the load.  With data
 * trace, the transfers delivered with an instruction are its normal data
 * packets. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pft/etm3.h"
#include "pft/etm3flow.h"
#include "pft/frame.h"
#include "pft/image.h"
#include "pft/record.h"

static const uint32_t code[] = {
	0xe3a00003, /* 8000: mov r0, #3 */
	0xe2500001, /* 8004: subs r0, r0, #1 */
	0x1afffffd, /* 8008: bne 8004 */
	0xe5910000, /* 800c: ldr r0, [r1] (aborts in the second case) */
	0xeafffffe, /* 8010: b 8010 */
};

struct run {
	uint64_t got[64];
	size_t n;
	uint64_t cycles;
	int exceptions;
	uint64_t ret;
};

static void decode(const struct pft_config *cfg, const uint8_t *trace, size_t len, int frames,
		   struct run *r)
{
	static uint8_t raw[8192];
	uint8_t bytes[sizeof code];
	struct pft_image *img;
	struct pft_etm3_decoder *pd;
	struct pft_etm3_flow_decoder *fl;
	struct pft_etm3_packet pkt;
	struct pft_flow_item it;
	int64_t rawlen = (int64_t)len;
	size_t i;
	unsigned k;

	for (i = 0; i < sizeof code / 4; i++)
		for (k = 0; k < 4; k++)
			bytes[4 * i + k] = (uint8_t)(code[i] >> (8 * k));
	if (frames) {
		rawlen = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x10, trace, len, raw, sizeof raw, NULL);
		CHECK(rawlen > 0);
	} else {
		CHECK(len <= sizeof raw);
		memcpy(raw, trace, len);
	}
	img = pft_image_alloc();
	CHECK_EQ(pft_image_add_buffer(img, 0x8000, bytes, sizeof bytes), 0);
	pd = pft_etm3_decoder_alloc(cfg);
	fl = pft_etm3_flow_decoder_alloc(cfg, img);
	CHECK(pd != NULL && fl != NULL);
	memset(r, 0, sizeof *r);
	pft_etm3_decoder_feed(pd, raw, (size_t)(rawlen > 0 ? rawlen : 0));
	pft_etm3_decoder_end(pd);
	for (;;) {
		int more = pft_etm3_decoder_next(pd, &pkt, sizeof pkt) == 0;

		if (more) {
			CHECK(pkt.type != PFT_ETM3_ERROR && pkt.type != PFT_ETM3_UNSYNCED);
			CHECK_EQ(pft_etm3_flow_decoder_put_packet(fl, &pkt), 0);
		} else {
			pft_etm3_flow_decoder_end(fl);
		}
		while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0) {
			if (it.flags & PFT_FLOW_F_CC)
				r->cycles += it.cycles;
			if (it.kind == PFT_FLOW_RANGE)
				for (k = 0; k < it.ninsns && r->n < 64; k++)
					r->got[r->n++] = it.insns[k].addr;
			if (it.kind == PFT_FLOW_EVENT && it.type == PFT_EV_EXCEPTION) {
				r->exceptions++;
				r->ret = it.next;
			}
		}
		if (!more)
			break;
	}
	pft_etm3_flow_decoder_free(fl);
	pft_etm3_decoder_free(pd);
	pft_image_free(img);
}

static void deliver(const struct pft_rec_sink *sink, uint64_t addr)
{
	struct pft_rec_insn in;

	memset(&in, 0, sizeof in);
	in.addr = addr;
	in.opcode = code[(addr - 0x8000) / 4];
	in.isa = PFT_ISA_ARM;
	in.size = 4;
	in.cond = -1; /* not known: the sink decides from the successor */
	in.condcode = (uint8_t)(in.opcode >> 28);
	CHECK_EQ(sink->insn(sink->ctx, &in), 0);
}

static void check_config(int frames, int ca, int abort)
{
	static const uint64_t loop[] = { 0x8000, 0x8004, 0x8008, 0x8004, 0x8008, 0x8004, 0x8008,
					 0x800c, 0x8010, 0x8010 };
	/* with the abort: ... 0x8008, [0x800c aborts], 0x8010 as the handler */
	static const uint64_t aborted[] = { 0x8000, 0x8004, 0x8008, 0x8004, 0x8008, 0x8004, 0x8008,
					    0x8010, 0x8010 };
	const uint64_t *want = abort ? aborted : loop;
	size_t nwant = abort ? sizeof aborted / sizeof aborted[0] : sizeof loop / sizeof loop[0];
	struct pft_config cfg;
	struct pft_rec_etm3 *re;
	struct pft_rec_consumer cons;
	struct pft_rec_cycles cycles;
	struct pft_rec_pipe pipe;
	struct pft_rec_sink sink;
	const uint8_t *trace;
	struct run r;
	size_t len, i;

	pft_config_init(&cfg);
	cfg.etmidr = 0x410CF250;
	cfg.etmccer = 0x344008F2;
	cfg.etmtraceidr = 0x10;
	if (ca)
		cfg.etmcr |= PFT_ETMCR_CYCLE_ACCURATE;
	CHECK_EQ(pft_rec_etm3_alloc(&re, &cfg, frames, 1u << PFT_REC_EXC_DABT, 1000, 1000), 0);
	pft_rec_etm3_consumer(re, &cons);
	pft_rec_cycles_default(&cycles);
	CHECK_EQ(pft_rec_cycles_parse(&cycles, "other=2,branch=3,load=4,exception=7"), 0);
	pft_rec_pipe_init(&pipe, &cycles, NULL, &cons);
	pft_rec_pipe_sink(&pipe, &sink);
	for (i = 0; i < nwant; i++) {
		if (abort && want[i] == 0x8010 && want[i - 1] == 0x8008) {
			struct pft_rec_exc x;

			memset(&x, 0, sizeof x);
			x.pref_return = 0x800c;
			x.return_isa = PFT_ISA_ARM;
			x.vector = 0x8010;
			x.isa = PFT_ISA_ARM;
			x.type = PFT_REC_EXC_DABT;
			CHECK_EQ(sink.exception(sink.ctx, &x), 0);
		}
		deliver(&sink, want[i]);
	}
	CHECK_EQ(pft_rec_pipe_end(&pipe, 0, PFT_ISA_ARM, 0), 0);
	trace = pft_rec_etm3_trace(re, &len);
	CHECK(len > 0);
	CHECK(!frames || len % 16 == 0);
	decode(&cfg, trace, len, frames, &r);
	CHECK_EQ(r.n, nwant);
	for (i = 0; i < r.n && i < nwant; i++)
		CHECK_EQ(r.got[i], want[i]);
	CHECK_EQ(r.exceptions, abort);
	if (abort)
		CHECK_EQ(r.ret, 0x800c);
	if (ca) /* the counts traced add up to what the pipeline charged */
		CHECK_EQ(r.cycles, pipe.cycle);
	printf("sink %s%s%s: %zu trace bytes, %zu instructions decoded as delivered%s\n",
	       frames ? "frames" : "raw", ca ? ", cycle-accurate" : "", abort ? ", data abort" : "",
	       len, r.n, ca ? ", cycles add up" : "");
	pft_rec_etm3_free(re);
}

struct dpk {
	struct pft_etm3_packet p[8];
	size_t n;
};

static int collect_data(const struct pft_etm3_packet *pkt, void *arg)
{
	struct dpk *d = arg;

	CHECK(pkt->type != PFT_ETM3_ERROR);
	if (pkt->type == PFT_ETM3_DATA && d->n < 8)
		d->p[d->n++] = *pkt;
	return 0;
}

/* Data trace (ETMCR[3:2] = 11): the load's transfers, a 64-bit one among
 * them, become normal data packets (two for the 64-bit one, the second
 * without an address), the instructions still decode as delivered; too
 * many transfers for the source's array are refused. */
static void data_sink(void)
{
	static const uint64_t want[] = { 0x8000, 0x8004, 0x8008, 0x800c, 0x8010, 0x8010 };
	struct pft_config cfg;
	struct pft_rec_etm3 *re;
	struct pft_rec_consumer cons;
	struct pft_rec_cycles cycles;
	struct pft_rec_pipe pipe;
	struct pft_rec_sink sink;
	struct pft_rec_full f;
	struct pft_rec_insn in;
	const uint8_t *trace;
	struct dpk d;
	struct run r;
	size_t len, i;

	pft_config_init(&cfg);
	cfg.etmidr = 0x410CF250;
	cfg.etmccer = 0x344008F2;
	cfg.etmtraceidr = 0x10;
	cfg.etmcr = PFT_ETM3_ETMCR_DATA_VALUE | PFT_ETM3_ETMCR_DATA_ADDRESS;
	CHECK_EQ(pft_rec_etm3_alloc(&re, &cfg, 0, 0, 1000, 1000), 0);
	pft_rec_etm3_consumer(re, &cons);
	pft_rec_cycles_default(&cycles);
	pft_rec_pipe_init(&pipe, &cycles, NULL, &cons);
	pft_rec_pipe_sink(&pipe, &sink);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		memset(&in, 0, sizeof in);
		in.addr = want[i];
		in.opcode = code[(want[i] - 0x8000) / 4];
		in.isa = PFT_ISA_ARM;
		in.size = 4;
		in.cond = 1;
		in.condcode = 14;
		if (want[i] == 0x800c) {
			in.naccess = 2;
			in.access[0].addr = 0x20000000;
			in.access[0].size = 8;
			in.access[0].value = 0x1122334455667788ull;
			in.access[1].addr = 0x20000100;
			in.access[1].size = 1;
			in.access[1].write = 1;
			in.access[1].value = 0x9a;
		}
		if (want[i] == 0x8004 || want[i] == 0x8008) /* the loop once */
			in.cond = want[i] == 0x8008 ? 0 : 1;
		CHECK_EQ(sink.insn(sink.ctx, &in), 0);
	}
	CHECK_EQ(pft_rec_pipe_end(&pipe, 0, PFT_ISA_ARM, 0), 0);
	trace = pft_rec_etm3_trace(re, &len);
	memset(&d, 0, sizeof d);
	CHECK_EQ(pft_etm3_decode_buffer(&cfg, trace, len, collect_data, &d), 0);
	CHECK_EQ(d.n, 3u);
	CHECK(d.p[0].flags & PFT_E3F_DADDR);
	CHECK_EQ(d.p[0].address, 0x20000000u);
	CHECK_EQ(d.p[0].data_value, 0x55667788u);
	CHECK(!(d.p[1].flags & PFT_E3F_DADDR)); /* 0x20000004 follows on */
	CHECK_EQ(d.p[1].data_value, 0x11223344u);
	CHECK(d.p[2].flags & PFT_E3F_DADDR);
	CHECK_EQ(d.p[2].address, 0x20000100u);
	CHECK_EQ(d.p[2].data_value, 0x9au);
	CHECK_EQ(d.p[2].data_size, 1u);
	decode(&cfg, trace, len, 0, &r);
	CHECK_EQ(r.n, sizeof want / sizeof want[0]);
	for (i = 0; i < r.n && i < sizeof want / sizeof want[0]; i++)
		CHECK_EQ(r.got[i], want[i]);
	pft_rec_etm3_free(re);

	/* more transfers than the source kept */
	CHECK_EQ(pft_rec_etm3_alloc(&re, &cfg, 0, 0, 1000, 1000), 0);
	pft_rec_etm3_consumer(re, &cons);
	memset(&f, 0, sizeof f);
	f.in.addr = 0x800c;
	f.in.opcode = code[3];
	f.in.isa = PFT_ISA_ARM;
	f.in.size = 4;
	f.in.cond = 1;
	f.in.condcode = 14;
	f.next_addr = 0x8010;
	f.next_isa = PFT_ISA_ARM;
	f.in.naccess = PFT_REC_MAX_ACCESS + 1;
	CHECK_EQ(cons.insn(cons.ctx, &f), -PFT_E_UNSUPPORTED);
	pft_rec_etm3_free(re);
	printf("sink data trace: %zu normal data packets as delivered\n", d.n);
}

int main(void)
{
	struct pft_rec_etm3 *re;
	struct pft_config cfg;
	int f, ca, ab;

	data_sink();

	for (f = 0; f < 2; f++)
		for (ca = 0; ca < 2; ca++)
			for (ab = 0; ab < 2; ab++)
				check_config(f, ca, ab);
	pft_config_init(&cfg); /* a PTM's registers */
	cfg.etmtraceidr = 0x10;
	CHECK_EQ(pft_rec_etm3_alloc(&re, &cfg, 0, 0, 1000, 1000), -PFT_E_BAD_CONFIG);
	CHECK_EQ(pft_rec_etm3_alloc(&re, NULL, 0, 0, 1000, 1000), -PFT_E_INVAL);
	return check_report();
}
