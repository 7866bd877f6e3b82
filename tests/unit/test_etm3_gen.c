/* SPDX-License-Identifier: BSD-3-Clause */
/* The ETMv3 generator (pft_etm3_gen_*): instructions and exceptions in,
 * the bytes read back with the layer's decoder, packet by packet, against
 * the rules of doc/etm3.md ("Generator"): A-sync and I-sync first, atoms as
 * P-headers of the mode's formats, the branch address of an executed
 * indirect branch (and of a BLX immediate) after its P-header, exception
 * packets with the vector and the cancel bit, exception return packets,
 * timestamps at I-syncs and exception returns, context ID changes,
 * periodic A-sync/I-sync by ETMSYNCFR, cycle counts as W marks, normal
 * data packets, and the arguments refused. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pft/etm3.h"
#include "pft/etm3gen.h"
#include "pft/packet.h"

#define MAXP 4096

struct pkts {
	struct pft_etm3_packet p[MAXP];
	size_t n;
};

static int collect(const struct pft_etm3_packet *pkt, void *arg)
{
	struct pkts *ps = arg;

	if (ps->n < MAXP)
		ps->p[ps->n++] = *pkt;
	return 0;
}

static void config(struct pft_config *cfg, uint32_t etmcr, uint32_t syncfr)
{
	pft_config_init(cfg);
	cfg->etmidr = 0x410CF250;
	cfg->etmccer = 0x344008F2;
	cfg->etmtraceidr = 0x10;
	cfg->etmcr = etmcr;
	cfg->etmsyncfr = syncfr;
}

/* Read everything back. */
static void decode(struct pft_etm3_gen *g, const struct pft_config *cfg, struct pkts *ps)
{
	static uint8_t buf[1 << 16];
	size_t len;

	CHECK_EQ(pft_etm3_gen_flush(g), 0);
	len = pft_etm3_gen_read(g, buf, sizeof buf);
	CHECK(len > 0 && len < sizeof buf);
	CHECK_EQ(pft_etm3_gen_pending(g), 0);
	ps->n = 0;
	CHECK_EQ(pft_etm3_decode_buffer(cfg, buf, len, collect, ps), 0);
}

static void insn(struct pft_etm3_gen *g, uint64_t addr, unsigned isa, uint64_t next,
		 unsigned next_isa, unsigned flags, uint32_t cycles)
{
	struct pft_etm3_gen_insn in;

	memset(&in, 0, sizeof in);
	in.addr = addr;
	in.isa = (uint8_t)isa;
	in.next_addr = next;
	in.next_isa = (uint8_t)next_isa;
	in.flags = (uint8_t)flags;
	in.cycles = cycles;
	in.timestamp = 1000 + addr;
	CHECK_EQ(pft_etm3_gen_insn(g, &in), 0);
}

static void basic(void)
{
	struct pft_config cfg;
	struct pft_etm3_gen *g;
	struct pft_etm3_gen_exception x;
	struct pft_etm3_gen_stats st;
	static struct pkts ps;
	size_t i = 0;

	config(&cfg, 0, 0);
	g = pft_etm3_gen_alloc(&cfg);
	CHECK(g != NULL);
	insn(g, 0x8000, PFT_ISA_ARM, 0x8004, PFT_ISA_ARM, 0, 1);
	insn(g, 0x8004, PFT_ISA_ARM, 0x8008, PFT_ISA_ARM, PFT_ETM3_GEN_I_FAILED, 1);
	insn(g, 0x8008, PFT_ISA_ARM, 0x9000, PFT_ISA_THUMB, PFT_ETM3_GEN_I_INDIRECT, 1); /* bx r0 */
	insn(g, 0x9000, PFT_ISA_THUMB, 0x9002, PFT_ISA_THUMB, 0, 1);
	/* an IRQ after 0x9000: no branch, the exception packet */
	memset(&x, 0, sizeof x);
	x.vector = 0x18;
	x.isa = PFT_ISA_ARM;
	x.number = 14;
	CHECK_EQ(pft_etm3_gen_exception(g, &x), 0);
	insn(g, 0x18, PFT_ISA_ARM, 0x9002, PFT_ISA_THUMB,
	     PFT_ETM3_GEN_I_INDIRECT | PFT_ETM3_GEN_I_EXC_RETURN, 1); /* subs pc, lr, #4 */
	insn(g, 0x9002, PFT_ISA_THUMB, 0x9004, PFT_ISA_THUMB, 0, 1);
	/* a data abort on 0x9004: traced, then cancelled */
	x.vector = 0x10;
	x.number = 12;
	x.flags = PFT_ETM3_GEN_E_CANCEL;
	x.cancel_addr = 0x9004;
	x.cancel_isa = PFT_ISA_THUMB;
	CHECK_EQ(pft_etm3_gen_exception(g, &x), 0);
	insn(g, 0x10, PFT_ISA_ARM, 0x8000, PFT_ISA_ARM, PFT_ETM3_GEN_I_DIRECT, 1); /* b 0x8000 */
	decode(g, &cfg, &ps);

	CHECK_EQ(ps.p[i].type, PFT_ETM3_ASYNC); i++;
	CHECK_EQ(ps.p[i].type, PFT_ETM3_ISYNC);
	CHECK_EQ(ps.p[i].address, 0x8000);
	CHECK_EQ(ps.p[i].reason, PFT_ISYNC_TRACE_ON);
	CHECK_EQ(ps.p[i].isa, PFT_ISA_ARM); i++;
	/* E N E (the BX) */
	CHECK_EQ(ps.p[i].type, PFT_ETM3_PHDR);
	CHECK_EQ(ps.p[i].atom_count, 2);
	CHECK_EQ(ps.p[i].atoms, 1); i++;   /* format 1: E then N */
	CHECK_EQ(ps.p[i].type, PFT_ETM3_PHDR);
	CHECK_EQ(ps.p[i].atom_count, 1);
	CHECK_EQ(ps.p[i].atoms, 1); i++;
	CHECK_EQ(ps.p[i].type, PFT_ETM3_BRANCH);
	CHECK_EQ(ps.p[i].address, 0x9000);
	CHECK_EQ(ps.p[i].isa, PFT_ISA_THUMB);
	CHECK(!(ps.p[i].flags & PFT_E3F_EXC)); i++;
	CHECK_EQ(ps.p[i].type, PFT_ETM3_PHDR);
	CHECK_EQ(ps.p[i].atom_count, 1); i++;
	CHECK_EQ(ps.p[i].type, PFT_ETM3_BRANCH);
	CHECK_EQ(ps.p[i].address, 0x18);
	CHECK(ps.p[i].flags & PFT_E3F_EXC);
	CHECK(!(ps.p[i].flags & PFT_E3F_CANCEL));
	CHECK_EQ(ps.p[i].exception, 14); i++;
	CHECK_EQ(ps.p[i].type, PFT_ETM3_PHDR); i++;
	CHECK_EQ(ps.p[i].type, PFT_ETM3_EXCEPTION_RETURN); i++;
	CHECK_EQ(ps.p[i].type, PFT_ETM3_BRANCH);
	CHECK_EQ(ps.p[i].address, 0x9002);
	CHECK_EQ(ps.p[i].isa, PFT_ISA_THUMB); i++;
	/* 0x9002 and the cancelled 0x9004: two E atoms */
	CHECK_EQ(ps.p[i].type, PFT_ETM3_PHDR);
	CHECK_EQ(ps.p[i].atom_count, 2);
	CHECK_EQ(ps.p[i].atoms, 3); i++;
	CHECK_EQ(ps.p[i].type, PFT_ETM3_BRANCH);
	CHECK_EQ(ps.p[i].address, 0x10);
	CHECK(ps.p[i].flags & PFT_E3F_CANCEL);
	CHECK_EQ(ps.p[i].exception, 12); i++;
	CHECK_EQ(ps.p[i].type, PFT_ETM3_PHDR); i++; /* the b, no address (not broadcast) */
	CHECK_EQ(ps.n, i);
	CHECK_EQ(pft_etm3_gen_get_stats(g, &st, sizeof st), 0);
	CHECK_EQ(st.insns, 7);
	CHECK_EQ(st.atoms, 8);
	CHECK_EQ(st.exceptions, 2);
	CHECK_EQ(st.cancels, 1);
	CHECK_EQ(st.exc_returns, 1);
	CHECK_EQ(st.timestamps, 0);
	CHECK_EQ(st.packets, ps.n);
	printf("basic: %zu packets as expected\n", ps.n);
	pft_etm3_gen_free(g);
}

/* Cycle-accurate: the W marks of the P-headers add up to the cycles given,
 * each atom's count as the flow decoder counts them. */
static void cycles(void)
{
	static const uint32_t cyc[] = { 1, 1, 3, 0, 1, 12, 1, 0, 9, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 17 };
	struct pft_config cfg;
	struct pft_etm3_gen *g;
	static struct pkts ps;
	uint32_t got[32], w = 0;
	size_t i, n = 0;

	config(&cfg, PFT_ETMCR_CYCLE_ACCURATE, 0);
	g = pft_etm3_gen_alloc(&cfg);
	CHECK(g != NULL);
	for (i = 0; i < sizeof cyc / sizeof cyc[0]; i++)
		insn(g, 0x8000 + 4 * i, PFT_ISA_ARM, 0x8004 + 4 * i, PFT_ISA_ARM,
		     (i % 5 == 2) ? PFT_ETM3_GEN_I_FAILED : 0, cyc[i]);
	decode(g, &cfg, &ps);
	CHECK_EQ(ps.p[1].type, PFT_ETM3_ISYNC);
	CHECK(ps.p[1].flags & PFT_E3F_CC); /* trace on in cycle-accurate mode: 0x70 */
	for (i = 2; i < ps.n; i++) {
		const struct pft_etm3_packet *p = &ps.p[i];
		unsigned k;

		CHECK_EQ(p->type, PFT_ETM3_PHDR);
		switch (p->format) {
		case 1:
			for (k = 0; k < p->atom_count && n < 32; k++, w = 0)
				got[n++] = w + 1;
			break;
		case 2:
			got[n++] = w + 1;
			got[n++] = 0;
			w = 0;
			break;
		case 3:
			w += p->cycles;
			if (p->atom_count) {
				got[n++] = w;
				w = 0;
			}
			break;
		default:
			got[n++] = w;
			w = 0;
		}
	}
	CHECK_EQ(n, sizeof cyc / sizeof cyc[0]);
	for (i = 0; i < n; i++)
		CHECK_EQ(got[i], cyc[i]);
	printf("cycles: %zu atoms with their counts in %zu P-headers\n", n, ps.n - 2);
	pft_etm3_gen_free(g);
}

/* Periodic sync, timestamps and context IDs. */
static void sync_ts_cid(void)
{
	struct pft_config cfg;
	struct pft_etm3_gen *g;
	struct pft_etm3_gen_insn in;
	static struct pkts ps;
	size_t i, asyncs = 0, periodic = 0, ts = 0, cids = 0;

	config(&cfg, PFT_ETMCR_TIMESTAMP | (3u << 14), 40);
	g = pft_etm3_gen_alloc(&cfg);
	CHECK(g != NULL);
	memset(&in, 0, sizeof in);
	for (i = 0; i < 400; i++) {
		in.addr = 0x8000 + 4 * (i % 8);
		in.isa = PFT_ISA_ARM;
		in.next_addr = i % 8 == 7 ? 0x8000 : in.addr + 4;
		in.next_isa = PFT_ISA_ARM;
		in.flags = i % 8 == 7 ? PFT_ETM3_GEN_I_INDIRECT : 0;
		in.context_id = (uint32_t)(i / 100) * 0x11111111u;
		in.timestamp = 5000 + i;
		CHECK_EQ(pft_etm3_gen_insn(g, &in), 0);
	}
	decode(g, &cfg, &ps);
	for (i = 0; i < ps.n; i++) {
		const struct pft_etm3_packet *p = &ps.p[i];

		CHECK(p->type != PFT_ETM3_ERROR);
		if (p->type == PFT_ETM3_ASYNC)
			asyncs++;
		if (p->type == PFT_ETM3_ISYNC) {
			CHECK(p->flags & PFT_E3F_CID);
			CHECK(i + 1 < ps.n && ps.p[i + 1].type == PFT_ETM3_TIMESTAMP);
			if (p->reason == PFT_ISYNC_PERIODIC)
				periodic++;
			/* the address of the next atom: the instructions run in
			 * eights from 0x8000 and the context ID in hundreds */
			CHECK_EQ(p->context_id & 0xf, (p->context_id >> 4) & 0xf);
		}
		if (p->type == PFT_ETM3_TIMESTAMP) {
			ts++;
			CHECK(p->timestamp >= 5000 && p->timestamp < 5400);
		}
		if (p->type == PFT_ETM3_CONTEXT_ID) {
			cids++;
			CHECK_EQ(p->context_id, (uint32_t)cids * 0x11111111u);
		}
	}
	CHECK(asyncs > 5);
	CHECK_EQ(periodic, asyncs - 1);
	CHECK_EQ(ts, asyncs);
	CHECK_EQ(cids, 3);
	printf("sync: %zu A-syncs (%zu periodic I-syncs), %zu timestamps, %zu context IDs\n", asyncs,
	       periodic, ts, cids);
	pft_etm3_gen_free(g);
}

static void refused(void)
{
	struct pft_config cfg;
	struct pft_etm3_gen *g;
	struct pft_etm3_gen_insn in;
	struct pft_etm3_gen_exception x;

	config(&cfg, 0, 0);
	cfg.etmidr = 0x411CF312; /* a PTM */
	CHECK(pft_etm3_gen_alloc(&cfg) == NULL);
	config(&cfg, 0, 0);
	g = pft_etm3_gen_alloc(&cfg);
	CHECK(g != NULL);
	memset(&in, 0, sizeof in);
	in.addr = 0x8002; /* ARM, not aligned */
	in.isa = PFT_ISA_ARM;
	CHECK_EQ(pft_etm3_gen_insn(g, &in), -PFT_E_INVAL);
	in.isa = PFT_ISA_UNKNOWN;
	CHECK_EQ(pft_etm3_gen_insn(g, &in), -PFT_E_INVAL);
	memset(&x, 0, sizeof x);
	x.isa = PFT_ISA_ARM;
	x.number = 512;
	CHECK_EQ(pft_etm3_gen_exception(g, &x), -PFT_E_INVAL);
	CHECK_EQ(pft_etm3_gen_insn(NULL, &in), -PFT_E_INVAL);
	CHECK_EQ(pft_etm3_gen_pending(g), 0);
	pft_etm3_gen_free(g);
	pft_etm3_gen_free(NULL);
}

static void data(struct pft_etm3_gen *g, uint64_t addr, uint32_t value, unsigned size, int rc)
{
	struct pft_etm3_gen_data d;

	memset(&d, 0, sizeof d);
	d.address = addr;
	d.value = value;
	d.size = (uint8_t)size;
	CHECK_EQ(pft_etm3_gen_data(g, &d), rc);
}

/* Normal data packets (doc/etm3.md, "Data trace") under ETMCR[3:2] = 11,
 * 10 and 01: after the P-header holding the data instruction's atom; an
 * address on an instruction's first transfer and on one that does not
 * follow on (whole after the A-sync, compressed after); values in the
 * fewest bytes; nothing with data trace off; misuse refused. */
static void data_trace(void)
{
	static const uint32_t modes[3] = { 0xc, 0x8, 0x4 };
	static const unsigned abytes[7] = { 5, 2, 0, 0, 2, 1, 1 };
	struct pft_config cfg;
	struct pft_etm3_gen *g;
	struct pft_etm3_gen_stats st;
	struct pkts ps;
	unsigned m, i, k, nd;

	for (m = 0; m < 3; m++) {
		int addr_on = (modes[m] & 8) != 0, val_on = (modes[m] & 4) != 0;
		static const struct { uint32_t a, v; unsigned size, need, vbytes; } want[] = {
			{ 0x20001000, 0x12345678, 4, 1, 4 }, /* LDR: first of its instruction */
			{ 0x20001100, 0x0, 4, 1, 0 },        /* LDM: first, value 0 */
			{ 0x20001104, 0xab, 4, 0, 1 },       /*      follows on: no address */
			{ 0x20001108, 0xbeef, 4, 0, 2 },
			{ 0x20001200, 0x7f, 4, 1, 1 },       /*      does not follow on */
			{ 0x20001202, 0xffff, 2, 1, 2 },     /* STRH */
			{ 0x20001203, 0x80, 1, 1, 1 },       /* STRB */
		};

		config(&cfg, modes[m], 0);
		g = pft_etm3_gen_alloc(&cfg);
		CHECK(g != NULL);
		insn(g, 0x8000, PFT_ISA_ARM, 0x8004, PFT_ISA_ARM, 0, 0);
		insn(g, 0x8004, PFT_ISA_ARM, 0x8008, PFT_ISA_ARM, 0, 0);
		data(g, want[0].a, want[0].v, want[0].size, 0);
		insn(g, 0x8008, PFT_ISA_ARM, 0x800c, PFT_ISA_ARM, 0, 0);
		for (k = 1; k < 5; k++)
			data(g, want[k].a, want[k].v, want[k].size, 0);
		insn(g, 0x800c, PFT_ISA_ARM, 0x8010, PFT_ISA_ARM, PFT_ETM3_GEN_I_FAILED, 0);
		data(g, 0x1000, 1, 4, -PFT_E_INVAL); /* condition failed: no transfer */
		insn(g, 0x8010, PFT_ISA_ARM, 0x8014, PFT_ISA_ARM, 0, 0);
		data(g, want[5].a, want[5].v, want[5].size, 0);
		insn(g, 0x8014, PFT_ISA_ARM, 0x8018, PFT_ISA_ARM, 0, 0);
		data(g, want[6].a, want[6].v, want[6].size, 0);
		data(g, 0x1000, 1, 3, -PFT_E_INVAL);
		data(g, 0x100000000ull, 1, 4, -PFT_E_INVAL);
		decode(g, &cfg, &ps);
		/* atoms before each data packet: 2, 1, then the N and 1, then 1 */
		nd = 0;
		for (i = 0, k = 0; i < ps.n; i++) {
			const struct pft_etm3_packet *p = &ps.p[i];

			CHECK(p->type != PFT_ETM3_ERROR);
			if (p->type == PFT_ETM3_PHDR)
				k += p->atom_count;
			if (p->type != PFT_ETM3_DATA)
				continue;
			CHECK(nd < 7);
			if (nd >= 7)
				break;
			CHECK_EQ(k, nd == 0 ? 2u : nd <= 4 ? 3u : nd == 5 ? 5u : 6u);
			CHECK_EQ(!!(p->flags & PFT_E3F_DADDR), addr_on && want[nd].need);
			CHECK_EQ(!!(p->flags & PFT_E3F_VARIANT), !addr_on && want[nd].need);
			if (addr_on && want[nd].need)
				CHECK_EQ(p->address, want[nd].a);
			/* whole after the A-sync, then the bits that changed */
			CHECK_EQ(p->addr_bytes, addr_on ? abytes[nd] : 0u);
			CHECK_EQ(p->data_value, val_on ? want[nd].v : 0u);
			CHECK_EQ(p->data_size, val_on ? want[nd].vbytes : 0u);
			nd++;
		}
		CHECK_EQ(nd, 7u);
		CHECK_EQ(pft_etm3_gen_get_stats(g, &st, sizeof st), 0);
		CHECK_EQ(st.data, 7u);
		CHECK_EQ(st.data_addresses, addr_on ? 5u : 0u);
		pft_etm3_gen_free(g);
	}
	/* data trace off: transfers counted, nothing written */
	config(&cfg, 0, 0);
	g = pft_etm3_gen_alloc(&cfg);
	CHECK(g != NULL);
	insn(g, 0x8000, PFT_ISA_ARM, 0x8004, PFT_ISA_ARM, 0, 0);
	data(g, 0x1000, 5, 4, 0);
	decode(g, &cfg, &ps);
	for (i = 0; i < ps.n; i++)
		CHECK(ps.p[i].type != PFT_ETM3_DATA);
	CHECK_EQ(pft_etm3_gen_get_stats(g, &st, sizeof st), 0);
	CHECK_EQ(st.data, 0u);
	CHECK_EQ(st.data_ignored, 1u);
	pft_etm3_gen_free(g);
	/* before any instruction, and after an exception */
	config(&cfg, 0xc, 0);
	g = pft_etm3_gen_alloc(&cfg);
	data(g, 0x1000, 5, 4, -PFT_E_INVAL);
	CHECK_EQ(pft_etm3_gen_data(NULL, NULL), -PFT_E_INVAL);
	CHECK_EQ(pft_etm3_gen_data(g, NULL), -PFT_E_INVAL);
	pft_etm3_gen_free(g);
}

/* Nothing written yet (no instruction, or only an exception while trace
 * is off): read and flush give nothing (fuzz_etm3_gen's first finding, a
 * copy from a buffer never allocated). */
static void read_nothing(void)
{
	struct pft_config cfg;
	struct pft_etm3_gen *g;
	struct pft_etm3_gen_exception x;
	uint8_t b[16];

	config(&cfg, 0, 0);
	g = pft_etm3_gen_alloc(&cfg);
	CHECK(g != NULL);
	if (!g)
		return;
	CHECK_EQ(pft_etm3_gen_read(g, b, sizeof b), 0);
	memset(&x, 0, sizeof x);
	x.vector = 0x18;
	x.number = 14;
	CHECK_EQ(pft_etm3_gen_exception(g, &x), 0);
	CHECK_EQ(pft_etm3_gen_flush(g), 0);
	CHECK_EQ(pft_etm3_gen_pending(g), 0);
	CHECK_EQ(pft_etm3_gen_read(g, b, sizeof b), 0);
	pft_etm3_gen_free(g);
}

int main(void)
{
	basic();
	cycles();
	sync_ts_cid();
	refused();
	data_trace();
	read_nothing();
	return check_report();
}
