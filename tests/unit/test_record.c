/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of pft record's building blocks (src/record/, pft/record.h):
 * condition codes against the ARM ARM's definitions written out flag by
 * flag, ITSTATE advance for every IT mask, instruction facts on encodings
 * taken from the GNU assembler's output, the cycle model, the plain and
 * qemu log readers (line numbers in errors, Thumb bit, IT conditions,
 * system calls) and the pipeline (successors, cycles, the log format). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/isa.h"
#include "pft/record.h"

/* ---- condition codes: the ARM ARM table, one condition at a time ---- */
static int cond_ref(unsigned cond, int n, int z, int c, int v)
{
	switch (cond) {
	case 0: return z;            case 1: return !z;
	case 2: return c;            case 3: return !c;
	case 4: return n;            case 5: return !n;
	case 6: return v;            case 7: return !v;
	case 8: return c && !z;      case 9: return !c || z;
	case 10: return n == v;      case 11: return n != v;
	case 12: return !z && n == v; case 13: return z || n != v;
	default: return 1;
	}
}

static void test_conditions(void)
{
	unsigned cond, f;

	for (cond = 0; cond < 15; cond++)
		for (f = 0; f < 16; f++)
			CHECK_EQ(pft_isa_cond_passed(cond, f << 28),
			         cond_ref(cond, (f >> 3) & 1, (f >> 2) & 1, (f >> 1) & 1, f & 1));
}

/* ---- IT blocks ---- */
static void test_it(void)
{
	uint8_t it;
	/* ITTEE EQ = 0xbf07: EQ, EQ, NE, NE, then the block ends */
	static const unsigned want[] = { 0, 0, 1, 1 };
	unsigned i;

	CHECK(pft_rec_is_it(0xbf07, 2, &it));
	CHECK(!pft_rec_is_it(0xbf00, 2, &it)); /* NOP */
	CHECK(!pft_rec_is_it(0xbf07, 4, &it));
	CHECK(pft_rec_is_it(0xbf07, 2, &it));
	for (i = 0; i < 4; i++) {
		CHECK(it != 0);
		CHECK_EQ(it >> 4, want[i]);
		it = pft_rec_it_advance(it);
	}
	CHECK_EQ(it, 0);
	/* every mask: the block has 4 - (trailing zeros of the mask) instructions */
	for (i = 1; i < 16; i++) {
		unsigned len = 0, expect = 4;
		uint8_t s = (uint8_t)(0xa0 | i); /* GE */

		while (!(i & (1u << (4 - expect))))
			expect--;
		while (s) {
			len++;
			s = pft_rec_it_advance(s);
		}
		CHECK_EQ(len, expect);
	}
}

/* ---- instruction facts (encodings from arm-none-eabi-as) ---- */
static void test_insn_facts(void)
{
	const uint8_t ldrw[4] = { 0xd1, 0xf8, 0x00, 0x01 }; /* ldr.w r0, [r1, #256] */

	CHECK_EQ(pft_isa_thumb_size(0x6808), 2);
	CHECK_EQ(pft_isa_thumb_size(0xf8d1), 4);
	CHECK_EQ(pft_isa_thumb_size(0xe7fe), 2); /* b . (T2) */
	CHECK_EQ(pft_isa_thumb_size(0xe800), 4);
	CHECK_EQ(pft_rec_opcode(PFT_ISA_THUMB, ldrw, 4), 0xf8d10100u);
	CHECK_EQ(pft_rec_opcode(PFT_ISA_ARM, ldrw, 4), 0x0100f8d1u);
	CHECK_EQ(pft_rec_insn_cond(PFT_ISA_ARM, 0x0afffffe, 4), 0);   /* beq */
	CHECK_EQ(pft_rec_insn_cond(PFT_ISA_ARM, 0xfafffffe, 4), 14);  /* blx imm */
	CHECK_EQ(pft_rec_insn_cond(PFT_ISA_THUMB, 0xd0fe, 2), 0);     /* beq.n */
	CHECK_EQ(pft_rec_insn_cond(PFT_ISA_THUMB, 0xdf03, 2), 14);    /* svc */
	CHECK_EQ(pft_rec_insn_cond(PFT_ISA_THUMB, 0xf43faffe, 4), 0); /* beq.w */
	CHECK_EQ(pft_rec_insn_cond(PFT_ISA_THUMB, 0xf8d10100, 4), 14);
	CHECK(pft_rec_is_svc(PFT_ISA_ARM, 0xef000005, 4));
	CHECK(pft_rec_is_svc(PFT_ISA_THUMB, 0xdf03, 2));
	CHECK(!pft_rec_is_svc(PFT_ISA_ARM, 0xfafffffe, 4));
	CHECK(pft_rec_is_bkpt(PFT_ISA_ARM, 0xe1200071, 4));
	CHECK(pft_rec_is_bkpt(PFT_ISA_THUMB, 0xbe02, 2));
	CHECK(!pft_rec_is_bkpt(PFT_ISA_THUMB, 0xbf00, 2));
}

/* ---- cycle model ---- */
static void test_cycles(void)
{
	struct pft_rec_cycles m;
	static const struct { uint8_t isa, size; uint32_t op; enum pft_rec_cycle_class c; } t[] = {
		{ PFT_ISA_ARM, 4, 0xe5912000, PFT_REC_CYC_LOAD },   /* ldr r2, [r1] */
		{ PFT_ISA_ARM, 4, 0xe5812000, PFT_REC_CYC_STORE },  /* str r2, [r1] */
		{ PFT_ISA_ARM, 4, 0xe0000291, PFT_REC_CYC_MUL },    /* mul */
		{ PFT_ISA_ARM, 4, 0xe8900006, PFT_REC_CYC_LOAD },   /* ldm */
		{ PFT_ISA_ARM, 4, 0xe1c010b0, PFT_REC_CYC_STORE },  /* strh */
		{ PFT_ISA_ARM, 4, 0xe1c020d0, PFT_REC_CYC_LOAD },   /* ldrd */
		{ PFT_ISA_ARM, 4, 0xe0810002, PFT_REC_CYC_OTHER },  /* add */
		{ PFT_ISA_THUMB, 2, 0x6808, PFT_REC_CYC_LOAD },     /* ldr r0, [r1] */
		{ PFT_ISA_THUMB, 2, 0x6008, PFT_REC_CYC_STORE },    /* str */
		{ PFT_ISA_THUMB, 2, 0xb510, PFT_REC_CYC_STORE },    /* push */
		{ PFT_ISA_THUMB, 2, 0xbd10, PFT_REC_CYC_LOAD },     /* pop */
		{ PFT_ISA_THUMB, 2, 0x4802, PFT_REC_CYC_LOAD },     /* ldr literal */
		{ PFT_ISA_THUMB, 2, 0x5c88, PFT_REC_CYC_LOAD },     /* ldrb reg */
		{ PFT_ISA_THUMB, 2, 0x5488, PFT_REC_CYC_STORE },    /* strb reg */
		{ PFT_ISA_THUMB, 2, 0x4348, PFT_REC_CYC_MUL },      /* muls */
		{ PFT_ISA_THUMB, 2, 0x4608, PFT_REC_CYC_OTHER },    /* mov */
		{ PFT_ISA_THUMB, 4, 0xf8d10100, PFT_REC_CYC_LOAD }, /* ldr.w */
		{ PFT_ISA_THUMB, 4, 0xf8c10100, PFT_REC_CYC_STORE },/* str.w */
		{ PFT_ISA_THUMB, 4, 0xfb01f002, PFT_REC_CYC_MUL },  /* mul.w */
	};
	unsigned i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (pft_rec_cycles_classify((enum pft_isa)t[i].isa, t[i].op, t[i].size) != t[i].c) {
			fprintf(stderr, "classify %08x: %d, want %d\n", (unsigned)t[i].op,
			        pft_rec_cycles_classify((enum pft_isa)t[i].isa, t[i].op, t[i].size), t[i].c);
			CHECK(0);
		}
	CHECK_EQ(pft_rec_cycles_parse(&m, "3"), 0);
	CHECK_EQ(m.cost[PFT_REC_CYC_LOAD], 3);
	CHECK_EQ(m.cost[PFT_REC_CYC_EXCEPTION], 3);
	CHECK_EQ(pft_rec_cycles_parse(&m, "load=4,branch=7,failed=0"), 0);
	CHECK_EQ(m.cost[PFT_REC_CYC_LOAD], 4);
	CHECK_EQ(m.cost[PFT_REC_CYC_BRANCH], 7);
	CHECK_EQ(m.cost[PFT_REC_CYC_FAILED], 0);
	CHECK_EQ(m.cost[PFT_REC_CYC_OTHER], 1);
	CHECK(pft_rec_cycles_parse(&m, "load=0") < 0);
	CHECK(pft_rec_cycles_parse(&m, "lode=2") < 0);
	CHECK(pft_rec_cycles_parse(&m, "load=") < 0);
	CHECK(pft_rec_cycles_parse(&m, "0") < 0);
	CHECK(pft_rec_cycles_parse(&m, "load=2,") == 0);
}

/* ---- a program image in memory: ARM at 0x1000, Thumb at 0x2000 ---- */
static uint8_t code[0x2000];
static struct pft_rec_segment seg = { 0x1000, sizeof(code), sizeof(code), code, 5 };
static struct pft_rec_elf img;

static void put32(uint32_t a, uint32_t v)
{
	memcpy(code + (a - 0x1000), &v, 4); /* little-endian host */
}
static void put16(uint32_t a, uint16_t v)
{
	memcpy(code + (a - 0x1000), &v, 2);
}

struct collect {
	struct pft_rec_insn in[64];
	struct pft_rec_exc ex[8];
	unsigned n, nx, ex_before[8];
};
static int c_insn(void *ctx, const struct pft_rec_insn *in)
{
	struct collect *c = ctx;

	if (c->n < 64)
		c->in[c->n++] = *in;
	return 0;
}
static int c_exc(void *ctx, const struct pft_rec_exc *x)
{
	struct collect *c = ctx;

	if (c->nx < 8) {
		c->ex_before[c->nx] = c->n;
		c->ex[c->nx++] = *x;
	}
	return 0;
}

static FILE *text_file(const char *s)
{
	FILE *f = tmpfile();

	if (f) {
		fputs(s, f);
		rewind(f);
	}
	return f;
}

/* What the last log read gave: its instructions and exceptions, its
 * statistics and its error message. */
static struct collect c;
static struct pft_rec_src_stats st;
static char msg[256];

/* Reads the log TEXT with the plain reader, or qemu's if QEMU, at most MAX
 * instructions (0: all), into c, st and msg (cleared first); returns its
 * status. */
static int read_log(int qemu, const char *text, unsigned max)
{
	const struct pft_rec_elf *elfs[1] = { &img };
	struct pft_rec_sink sink = { c_insn, c_exc, &c };
	FILE *f = text_file(text);
	int rc;

	memset(&c, 0, sizeof(c));
	memset(&st, 0, sizeof(st));
	msg[0] = 0;
	CHECK(f != NULL);
	if (!f)
		return -PFT_E_IO;
	rc = qemu ? pft_rec_qemu_run(f, elfs, 1, max, &sink, &st, msg, sizeof(msg))
		  : pft_rec_plain_run(f, elfs, 1, max, &sink, &st, msg, sizeof(msg));
	fclose(f);
	return rc;
}

static int plain_log(const char *text)
{
	return read_log(0, text, 0);
}

static int qemu_log(const char *text)
{
	return read_log(1, text, 0);
}

static void test_logs(void)
{
	int rc;

	img.seg = &seg;
	img.nseg = 1;
	put32(0x1000, 0xe0810002);          /* add */
	put32(0x1004, 0x0afffffe);          /* beq . */
	put32(0x1008, 0xef000005);          /* svc */
	put32(0x100c, 0xe12fff10);          /* bx r0 */
	put32(0x1018, 0xe25ef004);          /* subs pc, lr, #4: the IRQ vector of a table at 0x1000 */
	put16(0x2000, 0xbf07);              /* ittee eq */
	put16(0x2002, 0x4608);
	put16(0x2004, 0xf8d1);              /* ldr.w r0, [r1, #256]: hw1 first */
	put16(0x2006, 0x0100);
	put16(0x2008, 0x4608);
	put16(0x200a, 0x4608);
	put16(0x200c, 0xbe02);              /* bkpt */

	/* plain: IT conditions tracked from the code, exception lines (an SVC
	 * whose handler is not listed, an IRQ at its vector), BKPT ends */
	rc = plain_log("# x\n00001000 A32\n00001004 A32 extra\n\n00001008 A32\n! svc 0000100c\n"
	               "0000100c A32\n00002000 T32\n00002002 T32\n! irq 00002004 T32\n00001018 A32\n"
	               "00002004 T32\n00002008 T32\n0000200a T32\n0000200c T32\n00001000 A32\n");
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.n, 10);
	CHECK_EQ(c.nx, 2);
	CHECK_EQ(c.ex_before[0], 3);
	CHECK_EQ(c.ex[0].type, PFT_REC_EXC_SVC);
	CHECK_EQ(c.ex_before[1], 6);
	CHECK_EQ(c.ex[1].type, PFT_REC_EXC_IRQ);
	CHECK_EQ(c.ex[1].pref_return, 0x2004);
	CHECK_EQ(c.ex[1].vector, 0x1018);
	CHECK_EQ(c.ex[1].return_isa, PFT_ISA_THUMB);
	CHECK_EQ(c.in[1].condcode, 0);      /* beq */
	CHECK_EQ(c.in[5].condcode, 0);      /* moveq in the IT block */
	CHECK_EQ(c.in[7].size, 4);
	CHECK_EQ(c.in[7].condcode, 14);     /* not in sequence after the IRQ: no IT */
	CHECK_EQ(st.lines, 15);             /* stopped at the BKPT */

	/* plain: an exception whose handler is not in the log ("untraced"):
	 * the next line is where it returned, anywhere; at the end of the log
	 * it never returned */
	rc = plain_log("00001008 A32\n! svc 0000100c A32 untraced\n00002000 T32\n"
	               "00002002 T32\n! irq 00002004 T32 untraced\n00001000 A32\n"
	               "00001004 A32\n00001008 A32\n! svc 0000100c A32 untraced\n");
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.n, 6);
	CHECK_EQ(c.nx, 3);
	CHECK(c.ex[0].untraced && c.ex[1].untraced && c.ex[2].untraced);
	CHECK_EQ(c.ex[0].vector, 0xffff0008u);
	CHECK_EQ(c.ex[1].vector, 0xffff0018u);
	CHECK_EQ(c.ex_before[2], 6);
	{
		char line[64];
		struct pft_rec_exc x = c.ex[1];

		pft_rec_log_exc_line(line, sizeof line, &x);
		CHECK(strcmp(line, "! irq 00002004 T32 untraced") == 0);
		x.untraced = 0;
		pft_rec_log_exc_line(line, sizeof line, &x);
		CHECK(strcmp(line, "! irq 00002004 T32") == 0);
	}
	rc = plain_log("00001000 A32\n! svc 00001004 A32 untraced\n00002000 T32\n");
	CHECK_EQ(rc, -PFT_E_FORMAT); /* the return address still follows an SVC */
	rc = plain_log("00001008 A32\n! svc 0000100c A32 traced\n00002000 T32\n");
	CHECK_EQ(rc, -PFT_E_FORMAT);
	CHECK(strstr(msg, "line 2: expected '! TYPE PREF_RETURN [ISA [untraced]]'") != NULL);

	/* plain: errors name the line */
	rc = plain_log("00001000 A32\n00001004 B32\n");
	CHECK_EQ(rc, -PFT_E_FORMAT);
	CHECK(strstr(msg, "line 2") != NULL);
	rc = plain_log("00009000 A32\n");
	CHECK_EQ(rc, -PFT_E_NOMAP);
	CHECK(strstr(msg, "0x00009000") != NULL);
	rc = plain_log("00001002 A32\n");
	CHECK_EQ(rc, -PFT_E_FORMAT);
	rc = plain_log("! irq 1000\n");
	CHECK_EQ(rc, -PFT_E_FORMAT);

	/* plain: executions that cannot happen are refused at their line */
	{
		static const struct { const char *log, *want; } bad[] = {
			{ "00001000 A32\n00001008 A32\n", "line 2: 0x00001008 A32 cannot follow 0x00001000 A32 (A32 0xe0810002, not a branch: falls through to 0x00001004 A32)" },
			{ "00001000 A32\n00001004 T32\n", "line 2: 0x00001004 T32 cannot follow" },
			{ "00001004 A32\n00001000 A32\n", "conditional direct branch: to 0x00001004 A32 or on to 0x00001008" },
			{ "0000100c A32\n00002000 T32\n00002004 T32\n", "line 3: 0x00002004 T32 cannot follow 0x00002000 T32" },
			{ "00001000 A32\n! irq 00001008\n00001018 A32\n", "line 2: irq return address 0x00001008 A32 cannot follow 0x00001000" },
			{ "00001000 A32\n! irq 00001004\n00001010 A32\n", "line 3: 0x00001010 cannot be the irq vector (offset 0x18" },
			{ "00001000 A32\n! svc 00001004\n00001004 A32\n", "line 2: svc return address 0x00001004 A32 cannot follow" },
		};
		unsigned i;

		for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			rc = plain_log(bad[i].log);
			CHECK_EQ(rc, -PFT_E_FORMAT);
			if (!strstr(msg, bad[i].want))
				fprintf(stderr, "plain case %u: got '%s'\n", i, msg);
			CHECK(strstr(msg, bad[i].want) != NULL);
		}
	}

	/* qemu: an unreadable Trace line, a jump nothing makes, and a signal:
	 * qemu logs the TB at 0x2004, stops before running it ("Stopped
	 * execution"), and the kernel enters a handler; that line is taken back
	 * and the signal is an untraced kernel entry returning to 0x2004 */
	rc = qemu_log("Trace 0: 0x7f00 [00000480/00001000/00000000/00000201]\n"
	              "Trace 0: 0x7f00 [00000480/0000zz04/00000000/00000201]\n");
	CHECK_EQ(rc, -PFT_E_FORMAT);
	CHECK(strstr(msg, "line 2: unreadable 'Trace' line") != NULL);
	rc = qemu_log("Trace 0: 0x7f00 [00000480/00001000/00000000/00000201]\n"
	              "Trace 0: 0x7f00 [00000480/00001008/00000000/00000201]\n");
	CHECK_EQ(rc, -PFT_E_FORMAT);
	CHECK(strstr(msg, "line 2: 0x00001008 A32 cannot follow 0x00001000 A32") != NULL);
	rc = qemu_log("Trace 0: 0x7f00 [00800480/00002000/00000000/00000201]\n"
	              "Trace 0: 0x7f10 [07800480/00002002/00000000/00000201]\n"
	              "Trace 0: 0x7f20 [0f800480/00002004/00000000/00000201]\n"
	              "Stopped execution of TB chain before 0x7f20 [00002004] sym\n"
	              "Trace 0: 0x7f30 [00000480/00001000/00000000/00000201] handler\n"
	              "Trace 0: 0x7f40 [00000480/00001004/00000000/00000201] handler\n");
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.n, 4);
	CHECK_EQ(c.nx, 1);
	CHECK_EQ(st.signals, 1);
	CHECK_EQ(c.ex_before[0], 2);
	CHECK(c.ex[0].untraced);
	CHECK_EQ(c.ex[0].pref_return, 0x2004);
	CHECK_EQ(c.ex[0].return_isa, PFT_ISA_THUMB);
	CHECK_EQ(c.in[2].addr, 0x1000);
	/* stopped, then resumed at the same place: nothing was delivered */
	rc = qemu_log("Trace 0: 0x7f00 [00800480/00002000/00000000/00000201]\n"
	              "Trace 0: 0x7f10 [07800480/00002002/00000000/00000201]\n"
	              "Stopped execution of TB chain before 0x7f10 [00002002] sym\n"
	              "Trace 0: 0x7f10 [07800480/00002002/00000000/00000201]\n");
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.n, 2);
	CHECK_EQ(c.nx, 0);
	/* a stop that names another instruction than the line before */
	rc = qemu_log("Trace 0: 0x7f00 [00800480/00002000/00000000/00000201]\n"
	              "Stopped execution of TB chain before 0x7f10 [00002008] sym\n");
	CHECK_EQ(rc, -PFT_E_FORMAT);
	CHECK(strstr(msg, "line 2") != NULL);

	/* qemu: Thumb bit 23, ITSTATE in [31:24], SVC as an untraced kernel entry,
	 * other lines skipped */
	rc = qemu_log("Trace 0: 0x7f00 [00000480/00001004/00000000/00000201]\n"
	              "some other line\n"
	              "Trace 0: 0x7f00 [00000480/00001008/00000000/00000201] sym\n"
	              "Trace 0: 0x7f00 [00800480/00002000/00000000/00000201]\n"
	              "Trace 0: 0x7f00 [07800480/00002002/00000000/00000201]\n");
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.n, 4);
	CHECK_EQ(st.skipped_lines, 1);
	CHECK_EQ(st.syscalls, 1);
	CHECK_EQ(c.nx, 1);
	CHECK_EQ(c.ex_before[0], 2);
	CHECK(c.ex[0].untraced);
	CHECK_EQ(c.ex[0].pref_return, 0x100c);
	CHECK_EQ(c.in[0].isa, PFT_ISA_ARM);
	CHECK_EQ(c.in[2].isa, PFT_ISA_THUMB);
	CHECK_EQ(c.in[3].condcode, 0);
	CHECK_EQ(c.in[2].condcode, 14);
	rc = qemu_log("nothing here\n");
	CHECK_EQ(rc, -PFT_E_FORMAT);
	rc = read_log(1, "Trace 0: 0x7f00 [00000480/00001000/00000000/00000201]\n"
	                 "Trace 0: 0x7f00 [00000480/00001004/00000000/00000201]\n", 1); /* max 1 */
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.n, 1);
}

/* ---- pipeline ---- */
struct got { struct pft_rec_full f[16]; unsigned n, nx; uint64_t xcycle, end_cycle; };
static int g_insn(void *ctx, const struct pft_rec_full *f)
{
	struct got *g = ctx;

	if (g->n < 16)
		g->f[g->n++] = *f;
	return 0;
}
static int g_exc(void *ctx, const struct pft_rec_exc *x, uint64_t cycle)
{
	struct got *g = ctx;

	(void)x;
	g->nx++;
	g->xcycle = cycle;
	return 0;
}
static int g_end(void *ctx, uint64_t cycle)
{
	((struct got *)ctx)->end_cycle = cycle;
	return 0;
}

static int w_insn(void *ctx, const struct pft_rec_full *f)
{
	char line[64];

	pft_rec_log_insn_line(line, sizeof line, f->in.addr, (enum pft_isa)f->in.isa);
	return fprintf((FILE *)ctx, "%s\n", line) < 0 ? -PFT_E_IO : 0;
}

static int w_exc(void *ctx, const struct pft_rec_exc *x, uint64_t cycle)
{
	char line[64];

	(void)cycle;
	pft_rec_log_exc_line(line, sizeof line, x);
	return fprintf((FILE *)ctx, "%s\n", line) < 0 ? -PFT_E_IO : 0;
}

static void test_pipe(void)
{
	struct pft_rec_cycles m;
	struct pft_rec_pipe p;
	struct pft_rec_sink sink;
	struct got g;
	struct pft_rec_consumer cons = { g_insn, g_exc, g_end, &g };
	struct pft_rec_insn a = { .addr = 0x1000, .opcode = 0xe5912000, .isa = PFT_ISA_ARM,
	                          .size = 4, .cond = 1, .condcode = 14 };          /* ldr */
	struct pft_rec_insn b = { .addr = 0x1004, .opcode = 0x0afffffe, .isa = PFT_ISA_ARM,
	                          .size = 4, .cond = 1 };                          /* beq taken */
	struct pft_rec_insn t = { .addr = 0x2000, .opcode = 0x4608, .isa = PFT_ISA_THUMB,
	                          .size = 2 };                                     /* failed */
	struct pft_rec_exc x = { 0x2002, 0x18, PFT_REC_EXC_IRQ, PFT_ISA_ARM, 0, PFT_ISA_THUMB };
	char buf[256] = "";
	FILE *log = tmpfile();
	struct pft_rec_consumer logc = { w_insn, w_exc, NULL, log };

	memset(&g, 0, sizeof(g));
	CHECK_EQ(pft_rec_cycles_parse(&m, "load=3,branch=5,failed=0,exception=10"), 0);
	pft_rec_pipe_init(&p, &m, &logc, &cons);
	pft_rec_pipe_sink(&p, &sink);
	CHECK_EQ(sink.insn(sink.ctx, &a), 0);
	CHECK_EQ(sink.insn(sink.ctx, &b), 0);
	CHECK_EQ(sink.insn(sink.ctx, &t), 0);
	CHECK_EQ(sink.exception(sink.ctx, &x), 0);
	CHECK_EQ(pft_rec_pipe_end(&p, 0, PFT_ISA_ARM, 0), 0);
	CHECK_EQ(g.n, 3);
	CHECK_EQ(g.f[0].next_addr, 0x1004);
	CHECK_EQ(g.f[0].cycle, 3);
	CHECK_EQ(g.f[1].next_addr, 0x2000);
	CHECK_EQ(g.f[1].next_isa, PFT_ISA_THUMB);
	CHECK(g.f[1].taken);
	CHECK_EQ(g.f[1].cycle, 8);
	CHECK_EQ(g.f[2].next_addr, 0x2002); /* the exception's preferred return */
	CHECK_EQ(g.f[2].cycle, 8);          /* failed costs 0 */
	CHECK_EQ(g.nx, 1);
	CHECK_EQ(g.xcycle, 18);
	CHECK_EQ(g.end_cycle, 18);
	rewind(log);
	CHECK_EQ(fread(buf, 1, sizeof(buf) - 1, log) > 0, 1);
	CHECK(strcmp(buf, "00001000 A32\n00001004 A32\n00002000 T32\n! irq 00002002 T32\n") == 0);
	fclose(log);
}

/* ---- ELF loading: errors, and an example program if the build made one ---- */
static void test_elf(void)
{
	struct pft_rec_elf e;
	char err[256], path[1024];
	const char *b = getenv("PFT_BUILD");
	FILE *f;
	uint64_t a;
	uint8_t w[4];

	CHECK_EQ(pft_rec_elf_load(&e, "/nonexistent/x.elf", err, sizeof(err)), -PFT_E_IO);
	snprintf(path, sizeof(path), "%s/CMakeCache.txt", b ? b : ".");
	if ((f = fopen(path, "r")) != NULL) {
		fclose(f);
		CHECK_EQ(pft_rec_elf_load(&e, path, err, sizeof(err)), -PFT_E_FORMAT);
		CHECK(strstr(err, "not an ELF") != NULL);
	}
	snprintf(path, sizeof(path), "%s/examples/recursion.elf", b ? b : ".");
	if ((f = fopen(path, "r")) == NULL)
		return;
	fclose(f);
	CHECK_EQ(pft_rec_elf_load(&e, path, err, sizeof(err)), 0);
	CHECK_EQ(e.entry & 1, 0);                       /* _start is ARM */
	CHECK_EQ(pft_rec_elf_symbol(&e, "_start", &a), 0);
	CHECK_EQ(a, e.entry);
	CHECK_EQ(pft_rec_elf_symbol(&e, "nosuch", &a), -PFT_E_NOTFOUND);
	CHECK_EQ(pft_rec_elf_read(&e, e.entry, w, 4), 4);
	CHECK_EQ(pft_rec_opcode(PFT_ISA_ARM, w, 4), 0xe10f0000u); /* mrs r0, cpsr */
	CHECK_EQ(pft_rec_elf_read(&e, 0x100, w, 4), 0);
	pft_rec_elf_free(&e);
}

/* Timestamps from cycles: exact, and wrapping as the counter does (the
 * double conversion overflowed: undefined for --ts-freq 2^64-1). */
static void test_ts_scale(void)
{
	CHECK_EQ(pft_rec_ts_of_cycle(1000, 100, 100), 1000);
	CHECK_EQ(pft_rec_ts_of_cycle(1000, 100000000, 25000000), 250);
	CHECK_EQ(pft_rec_ts_of_cycle(3, 2, 1), 1);
	CHECK_EQ(pft_rec_ts_of_cycle(4, 1, 1ull << 63), 0); /* 2^65 mod 2^64 */
	CHECK_EQ(pft_rec_ts_of_cycle(3, 1, UINT64_MAX), UINT64_MAX - 2);
	CHECK_EQ(pft_rec_ts_of_cycle(UINT64_MAX, UINT64_MAX, 7), 7);
	CHECK_EQ(pft_rec_ts_of_cycle(123456789123ull, 3, 1000000007), 4258775181646738055ull);
	CHECK_EQ(pft_rec_ts_of_cycle(5, 0, 9), 5);
}

int main(void)
{
	test_ts_scale();
	test_elf();
	test_conditions();
	test_it();
	test_insn_facts();
	test_cycles();
	test_logs();
	test_pipe();
	return check_report();
}
