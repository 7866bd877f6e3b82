/* SPDX-License-Identifier: BSD-3-Clause */
/* Call-stack layer: each rule of pft/callstack.h (doc/profile.md) on
 * hand-made flow items. */
#include <string.h>

#include "check.h"
#include "pft/callstack.h"
#include "pft/isa.h"

#define A32_BL      0xEB000000u
#define A32_B       0xEA000000u
#define A32_BX_LR   0xE12FFF1Eu
#define A32_BX_R3   0xE12FFF13u
#define A32_BLX_R3  0xE12FFF33u
#define A32_PLT_LDR 0xE5BCF000u /* ldr pc, [ip, #0]! */
#define A32_MOV_LR  0xE1A0E00Fu /* mov lr, pc */
#define A32_MOVS_PC 0xE1B0F00Eu /* movs pc, lr */
#define A32_NOP     0xE320F000u
#define T16_BLX_R3  0x4798u
#define T16_POP_PC  0xBD10u

static struct pft_cs_event evs[256];
static int nev;

/* functions for func_of: [0x1000 + 0x1000 * k, +0x100), k = 0..7 */
static int func_of(void *ctx, uint64_t addr, uint64_t *s, uint64_t *e)
{
	(void)ctx;
	if (addr < 0x1000 || addr >= 0x9000 || (addr & 0xFFF) >= 0x100)
		return 0;
	*s = addr & ~0xFFFull;
	*e = *s + 0x100;
	return 1;
}

static struct pft_cs_tracker *mk(int with_funcs)
{
	struct pft_cs_config cfg;

	pft_cs_config_init(&cfg);
	if (with_funcs)
		cfg.func_of = func_of;
	cfg.cpu_hz = 1000000000;
	return pft_cs_tracker_alloc(&cfg);
}

/* the rules run twice: events pulled one at a time (pft_cs_tracker_next),
   then all at once in place (pft_cs_tracker_take) */
static int use_take;

static void collect(struct pft_cs_tracker *cs)
{
	struct pft_cs_event ev;

	if (use_take) {
		const struct pft_cs_event *p = NULL;
		size_t n = 0, i;

		CHECK_EQ(pft_cs_tracker_take(cs, &p, &n, sizeof(*p)), 0);
		for (i = 0; i < n; i++)
			if (nev < 256)
				evs[nev++] = p[i];
		CHECK_EQ(pft_cs_tracker_take(cs, &p, &n, sizeof(*p)), 0);
		CHECK_EQ(n, 0);          /* taken events count as pulled */
		CHECK(pft_cs_tracker_next(cs, &ev, sizeof(ev)) < 0);
		return;
	}
	while (pft_cs_tracker_next(cs, &ev, sizeof(ev)) == 0)
		if (nev < 256)
			evs[nev++] = ev;
}

static void drain(struct pft_cs_tracker *cs)
{
	nev = 0;
	collect(cs);
}

/* A branch takes effect at the next item (an exception may follow at once):
   give an empty range, and collect the events of both. */
static void put_flush(struct pft_cs_tracker *cs, const struct pft_flow_item *it)
{
	struct pft_flow_item none;

	CHECK_EQ(pft_cs_tracker_put(cs, it, sizeof(*it)), 0);
	drain(cs);
	memset(&none, 0, sizeof(none));
	none.kind = PFT_FLOW_RANGE;
	CHECK_EQ(pft_cs_tracker_put(cs, &none, sizeof(none)), 0);
	collect(cs);
}

/* A range: one filler instruction at addr-4 .. then the waypoint at addr
 * (opcode op, class, flags), taken to next. */
static void br(struct pft_cs_tracker *cs, uint64_t addr, unsigned isa, uint32_t op, unsigned size,
	       unsigned cls, unsigned flags, uint64_t next, uint32_t rangeflags)
{
	struct pft_insn in[2];
	struct pft_flow_item it;

	memset(in, 0, sizeof(in));
	in[0].addr = addr - size;
	in[0].opcode = isa == PFT_ISA_ARM ? A32_NOP : 0xBF00u;
	in[0].size = (uint8_t)size;
	in[1].addr = addr;
	in[1].opcode = op;
	in[1].size = (uint8_t)size;
	in[1].wp_class = (uint8_t)cls;
	in[1].flags = (uint16_t)flags;
	memset(&it, 0, sizeof(it));
	it.kind = PFT_FLOW_RANGE;
	it.addr = addr - size;
	it.end = addr + size;
	it.insns = in;
	it.ninsns = 2;
	it.isa = (uint8_t)isa;
	it.end_kind = PFT_RANGE_TAKEN;
	it.flags = PFT_FLOW_F_NEXT | PFT_FLOW_F_CC | rangeflags;
	it.cycles = 3;
	it.next = next;
	it.next_isa = (uint8_t)isa;
	put_flush(cs, &it);
}

/* A32 shorthands */
static void call(struct pft_cs_tracker *cs, uint64_t at, uint64_t to)
{
	br(cs, at, PFT_ISA_ARM, A32_BL, 4, PFT_WP_DIRECT, PFT_INSN_F_LINK | PFT_INSN_F_TARGET, to, 0);
}

static void ret(struct pft_cs_tracker *cs, uint64_t at, uint64_t to)
{
	br(cs, at, PFT_ISA_ARM, A32_BX_LR, 4, PFT_WP_INDIRECT, 0, to, 0);
}

static void flow_event(struct pft_cs_tracker *cs, unsigned type, uint64_t addr, uint64_t value,
		       uint64_t next, uint32_t flags)
{
	struct pft_flow_item it;

	memset(&it, 0, sizeof(it));
	it.kind = PFT_FLOW_EVENT;
	it.type = (uint16_t)type;
	it.addr = addr;
	it.value = value;
	it.next = next;
	it.flags = flags | PFT_FLOW_F_ADDR | (next ? PFT_FLOW_F_NEXT : 0);
	if (type == PFT_EV_CONTEXT_ID)
		it.context_id = (uint32_t)value;
	CHECK_EQ(pft_cs_tracker_put(cs, &it, sizeof(it)), 0);
	drain(cs);
}

static int count(unsigned kind)
{
	int i, n = 0;

	for (i = 0; i < nev; i++)
		n += evs[i].kind == kind;
	return n;
}

static const struct pft_cs_event *find(unsigned kind, int nth)
{
	int i;

	for (i = 0; i < nev; i++)
		if (evs[i].kind == kind && nth-- == 0)
			return &evs[i];
	return NULL;
}

static uint64_t top_entry(struct pft_cs_tracker *cs)
{
	struct pft_cs_frame f;
	uint32_t d = pft_cs_tracker_depth(cs);

	if (!d || pft_cs_tracker_frame(cs, d - 1, &f, sizeof(f)))
		return 0;
	return f.entry;
}

/* BL is a call, BX LR to its return address a return. */
static void test_bl_bx_lr(void)
{
	struct pft_cs_tracker *cs = mk(0);
	const struct pft_cs_event *e;

	call(cs, 0x1010, 0x2000);
	/* first range: an unknown bottom frame at 0x100c, then the call */
	CHECK_EQ(count(PFT_CS_CALL), 2);
	CHECK_EQ(evs[0].frame.kind, PFT_CS_FRAME_UNKNOWN);
	CHECK_EQ(evs[0].frame.entry, 0x100c);
	CHECK_EQ(evs[1].kind, PFT_CS_RUN);
	CHECK_EQ(evs[1].ninsns, 2);
	e = find(PFT_CS_CALL, 1);
	CHECK(e && e->frame.kind == PFT_CS_FRAME_CALL && e->frame.entry == 0x2000 &&
	      e->frame.ret == 0x1014 && e->addr == 0x1010 && e->depth == 2);
	CHECK_EQ(e->index, 2);
	ret(cs, 0x2010, 0x1014);
	e = find(PFT_CS_RETURN, 0);
	CHECK(e && e->reason == PFT_CS_HOW_MATCHED && e->frame.entry == 0x2000 && e->depth == 1);
	CHECK(e && (e->flags & PFT_CS_F_FORM));
	CHECK_EQ(pft_cs_tracker_depth(cs), 1);
	pft_cs_tracker_free(cs);
}

/* BLX register (T32) is a call; POP {..., PC} returns. */
static void test_blx_pop(void)
{
	struct pft_cs_tracker *cs = mk(0);

	br(cs, 0x1010, PFT_ISA_THUMB, T16_BLX_R3, 2, PFT_WP_INDIRECT, PFT_INSN_F_LINK, 0x3000, 0);
	CHECK_EQ(count(PFT_CS_CALL), 2);
	CHECK_EQ(find(PFT_CS_CALL, 1)->frame.ret, 0x1012);
	br(cs, 0x3020, PFT_ISA_THUMB, T16_POP_PC, 2, PFT_WP_INDIRECT, 0, 0x1012, 0);
	CHECK_EQ(count(PFT_CS_RETURN), 1);
	CHECK_EQ(pft_cs_tracker_depth(cs), 1);
	/* and A32 BLX register */
	br(cs, 0x1020, PFT_ISA_ARM, A32_BLX_R3, 4, PFT_WP_INDIRECT, PFT_INSN_F_LINK, 0x3000, 0);
	CHECK_EQ(count(PFT_CS_CALL), 1);
	CHECK_EQ(pft_cs_tracker_depth(cs), 2);
	pft_cs_tracker_free(cs);
}

/* Old-style call: MOV LR, PC then an indirect branch. */
static void test_mov_lr_pc(void)
{
	struct pft_cs_tracker *cs = mk(0);
	struct pft_insn in[2];
	struct pft_flow_item it;

	memset(in, 0, sizeof(in));
	in[0].addr = 0x1000; in[0].opcode = A32_MOV_LR; in[0].size = 4;
	in[1].addr = 0x1004; in[1].opcode = A32_BX_R3; in[1].size = 4;
	in[1].wp_class = PFT_WP_INDIRECT;
	memset(&it, 0, sizeof(it));
	it.kind = PFT_FLOW_RANGE; it.addr = 0x1000; it.end = 0x1008; it.insns = in; it.ninsns = 2;
	it.end_kind = PFT_RANGE_TAKEN; it.flags = PFT_FLOW_F_NEXT; it.next = 0x2000;
	put_flush(cs, &it);
	CHECK_EQ(count(PFT_CS_CALL), 2);
	CHECK_EQ(find(PFT_CS_CALL, 1)->frame.ret, 0x1008);
	/* BX R3 (not a return form) to that address is a return all the same */
	br(cs, 0x2008, PFT_ISA_ARM, A32_BX_R3, 4, PFT_WP_INDIRECT, 0, 0x1008, 0);
	CHECK_EQ(count(PFT_CS_RETURN), 1);
	CHECK(!(find(PFT_CS_RETURN, 0)->flags & PFT_CS_F_FORM));
	pft_cs_tracker_free(cs);
}

/* Never by form alone: BX Rn elsewhere (a tail call through a register)
 * and a PLT stub's LDR PC are not returns. */
static void test_not_returns(void)
{
	struct pft_cs_tracker *cs = mk(0);

	call(cs, 0x1010, 0x2000);
	br(cs, 0x2008, PFT_ISA_ARM, A32_BX_R3, 4, PFT_WP_INDIRECT, 0, 0x5000, 0);
	CHECK_EQ(count(PFT_CS_RETURN), 0);
	br(cs, 0x5008, PFT_ISA_ARM, A32_PLT_LDR, 4, PFT_WP_INDIRECT, 0, 0x6000, 0);
	CHECK_EQ(count(PFT_CS_RETURN), 0);
	CHECK_EQ(pft_cs_tracker_depth(cs), 2);
	/* the callee reached through both returns to the caller */
	ret(cs, 0x6010, 0x1014);
	CHECK_EQ(count(PFT_CS_RETURN), 1);
	CHECK_EQ(pft_cs_tracker_depth(cs), 1);
	pft_cs_tracker_free(cs);
}

/* A return to an older frame's return address pops everything above it. */
static void test_pop_to(void)
{
	struct pft_cs_tracker *cs = mk(0);

	call(cs, 0x1010, 0x2000);
	call(cs, 0x2010, 0x3000);
	call(cs, 0x3010, 0x4000);
	CHECK_EQ(pft_cs_tracker_depth(cs), 4);
	ret(cs, 0x4010, 0x1014);
	CHECK_EQ(count(PFT_CS_RETURN), 3);
	CHECK_EQ(evs[nev - 3].reason, PFT_CS_HOW_SKIPPED);
	CHECK_EQ(evs[nev - 2].reason, PFT_CS_HOW_SKIPPED);
	CHECK_EQ(evs[nev - 1].reason, PFT_CS_HOW_MATCHED);
	CHECK_EQ(evs[nev - 1].frame.entry, 0x2000);
	CHECK_EQ(pft_cs_tracker_depth(cs), 1);
	pft_cs_tracker_free(cs);
}

/* A return with no matching call from the bottom frame: the caller ran
 * before the trace began; the stack grows upward.  From a deeper frame the
 * stack is lost (GAP). */
static void test_unmatched(void)
{
	struct pft_cs_tracker *cs = mk(0);
	struct pft_cs_stats st;

	ret(cs, 0x2010, 0x1014);
	CHECK_EQ(count(PFT_CS_RETURN), 1);
	CHECK_EQ(find(PFT_CS_RETURN, 0)->reason, PFT_CS_HOW_UNMATCHED);
	CHECK_EQ(find(PFT_CS_CALL, 1)->frame.kind, PFT_CS_FRAME_UNKNOWN);
	CHECK_EQ(find(PFT_CS_CALL, 1)->frame.entry, 0x1014);
	CHECK_EQ(pft_cs_tracker_depth(cs), 1);
	ret(cs, 0x1020, 0x7000); /* and again, upward */
	CHECK_EQ(top_entry(cs), 0x7000);
	call(cs, 0x7010, 0x2000);
	ret(cs, 0x2010, 0x9990);  /* matches nothing with the caller's frame open */
	CHECK_EQ(count(PFT_CS_GAP), 1);
	CHECK_EQ(find(PFT_CS_GAP, 0)->reason, PFT_EV_NONE);
	CHECK_EQ(pft_cs_tracker_depth(cs), 1);
	CHECK_EQ(top_entry(cs), 0x9990);
	pft_cs_tracker_get_stats(cs, &st, sizeof(st));
	CHECK_EQ(st.unmatched, 2);
	pft_cs_tracker_free(cs);
}

/* Tail calls (with a function map): a branch to another function's entry
 * replaces the frame; the return goes to the original caller.  A branch to
 * the current function's own entry is a loop. */
static void test_tail_call(void)
{
	struct pft_cs_tracker *cs = mk(1);
	const struct pft_cs_event *e;

	call(cs, 0x1010, 0x2000);
	br(cs, 0x2010, PFT_ISA_ARM, A32_B, 4, PFT_WP_DIRECT, PFT_INSN_F_TARGET, 0x3000, 0);
	CHECK_EQ(count(PFT_CS_RETURN), 1);
	CHECK_EQ(find(PFT_CS_RETURN, 0)->reason, PFT_CS_HOW_TAIL);
	e = find(PFT_CS_CALL, 0);
	CHECK(e && (e->flags & PFT_CS_F_TAIL) && e->frame.entry == 0x3000 && e->frame.ret == 0x1014);
	CHECK_EQ(pft_cs_tracker_depth(cs), 2);
	/* tail call through a register (BX R3) too */
	br(cs, 0x3010, PFT_ISA_ARM, A32_BX_R3, 4, PFT_WP_INDIRECT, 0, 0x4000, 0);
	CHECK_EQ(count(PFT_CS_CALL), 1);
	/* a loop back to its own entry is not a call */
	br(cs, 0x4010, PFT_ISA_ARM, A32_B, 4, PFT_WP_DIRECT, PFT_INSN_F_TARGET, 0x4000, 0);
	CHECK_EQ(count(PFT_CS_CALL) + count(PFT_CS_RETURN), 0);
	/* a branch inside the function is nothing */
	br(cs, 0x4010, PFT_ISA_ARM, A32_B, 4, PFT_WP_DIRECT, PFT_INSN_F_TARGET, 0x4040, 0);
	CHECK_EQ(nev, 1);
	ret(cs, 0x4050, 0x1014);
	CHECK_EQ(find(PFT_CS_RETURN, 0)->reason, PFT_CS_HOW_MATCHED);
	CHECK_EQ(pft_cs_tracker_depth(cs), 1);
	pft_cs_tracker_free(cs);
}

/* longjmp: an indirect branch into the function of an older frame pops the
 * frames above it. */
static void test_longjmp(void)
{
	struct pft_cs_tracker *cs = mk(1);

	call(cs, 0x1010, 0x2000);     /* main -> f2 */
	call(cs, 0x2010, 0x3000);     /* f2 -> f3 (setjmp returned before) */
	call(cs, 0x3010, 0x4000);     /* f3 -> f4 (longjmp) */
	/* longjmp's BX LR lands after the setjmp call in f2 (0x2008): no frame
	   returns there */
	ret(cs, 0x4010, 0x2008);
	CHECK_EQ(count(PFT_CS_RETURN), 2);
	CHECK_EQ(count(PFT_CS_GAP), 0);
	CHECK_EQ(pft_cs_tracker_depth(cs), 2);
	CHECK_EQ(top_entry(cs), 0x2000);
	pft_cs_tracker_free(cs);
}

/* IRQ nesting: each exception pushes a frame whose handler stack sits
 * above it; returns match only inside the level; the exception return
 * leaves the level. */
static void test_irq_nesting(void)
{
	struct pft_cs_tracker *cs = mk(0);
	const struct pft_cs_event *e;

	call(cs, 0x1010, 0x2000);
	flow_event(cs, PFT_EV_EXCEPTION, 0x18, PFT_EXC_IRQ, 0x2004, 0);
	e = find(PFT_CS_EXC_ENTRY, 0);
	CHECK(e && e->frame.exception == PFT_EXC_IRQ && e->frame.ret == 0x2004 && e->level == 1);
	call(cs, 0x20, 0x5000);       /* handler calls a C function */
	flow_event(cs, PFT_EV_EXCEPTION, 0x18, PFT_EXC_IRQ, 0x5004, 0);   /* nested */
	CHECK_EQ(find(PFT_CS_EXC_ENTRY, 0)->level, 2);
	/* a return to the outer level's address does not cross the exception */
	ret(cs, 0x30, 0x1014);
	CHECK_EQ(count(PFT_CS_RETURN), 0);
	CHECK_EQ(count(PFT_CS_GAP), 0);
	br(cs, 0x40, PFT_ISA_ARM, A32_MOVS_PC, 4, PFT_WP_INDIRECT, PFT_INSN_F_EXC_RETURN, 0x5004, 0);
	CHECK_EQ(count(PFT_CS_EXC_RETURN), 1);
	CHECK_EQ(find(PFT_CS_EXC_RETURN, 0)->reason, PFT_CS_HOW_MATCHED);
	CHECK_EQ(pft_cs_tracker_depth(cs), 4);
	ret(cs, 0x5010, 0x24);
	br(cs, 0x40, PFT_ISA_ARM, A32_MOVS_PC, 4, PFT_WP_INDIRECT, PFT_INSN_F_EXC_RETURN, 0x2004, 0);
	CHECK_EQ(count(PFT_CS_EXC_RETURN), 1);
	CHECK_EQ(pft_cs_tracker_depth(cs), 2);
	ret(cs, 0x2010, 0x1014);
	CHECK_EQ(count(PFT_CS_RETURN), 1);
	CHECK_EQ(pft_cs_tracker_depth(cs), 1);
	/* an exception return with no entry seen: the handler began before */
	br(cs, 0x40, PFT_ISA_ARM, A32_MOVS_PC, 4, PFT_WP_INDIRECT, PFT_INSN_F_EXC_RETURN, 0x7000, 0);
	CHECK_EQ(find(PFT_CS_RETURN, 0)->reason, PFT_CS_HOW_UNMATCHED);
	CHECK_EQ(pft_cs_tracker_depth(cs), 0);
	pft_cs_tracker_free(cs);
}

/* An exception whose handler is not traced (a system call or a signal of a
 * user-mode trace: the kernel is a prohibited region), then trace on:
 * at the preferred return address of an exception frame, the handler
 * returned there; elsewhere it entered traced code (a signal handler),
 * which nests above the exception frame; in another context, a gap. */
static void test_untraced_exception(void)
{
	struct pft_cs_tracker *cs = mk(1);
	struct pft_flow_item it;

	call(cs, 0x1010, 0x2000);
	CHECK_EQ(pft_cs_tracker_depth(cs), 2);
	/* a system call that returns */
	flow_event(cs, PFT_EV_EXCEPTION, 0xffff0008, PFT_EXC_SVC, 0x2008, 0);
	CHECK_EQ(count(PFT_CS_EXC_ENTRY), 1);
	flow_event(cs, PFT_EV_TRACE_ON, 0x2008, 0, 0, 0);
	CHECK_EQ(count(PFT_CS_GAP), 0);
	CHECK_EQ(count(PFT_CS_EXC_RETURN), 1);
	CHECK_EQ(find(PFT_CS_EXC_RETURN, 0)->reason, PFT_CS_HOW_MATCHED);
	CHECK_EQ(pft_cs_tracker_depth(cs), 2);
	/* a system call during which the kernel enters a signal handler */
	flow_event(cs, PFT_EV_EXCEPTION, 0xffff0008, PFT_EXC_SVC, 0x2010, 0);
	flow_event(cs, PFT_EV_TRACE_ON, 0x4000, 0, 0, 0);
	CHECK_EQ(count(PFT_CS_GAP) + count(PFT_CS_EXC_RETURN), 0);
	CHECK_EQ(pft_cs_tracker_depth(cs), 3);
	call(cs, 0x4010, 0x5000);               /* the handler calls */
	ret(cs, 0x5010, 0x4014);
	CHECK_EQ(count(PFT_CS_RETURN), 1);
	/* it returns to the restorer (a function: a call above the exception) */
	ret(cs, 0x4020, 0x6000);
	CHECK_EQ(count(PFT_CS_CALL), 1);
	CHECK_EQ(pft_cs_tracker_depth(cs), 4);
	/* whose sigreturn goes back into the first system call's return */
	flow_event(cs, PFT_EV_EXCEPTION, 0xffff0008, PFT_EXC_SVC, 0x6008, 0);
	CHECK_EQ(pft_cs_tracker_depth(cs), 5);
	flow_event(cs, PFT_EV_TRACE_ON, 0x2010, 0, 0, 0);
	CHECK_EQ(count(PFT_CS_EXC_RETURN), 2);
	CHECK_EQ(count(PFT_CS_RETURN), 1);
	CHECK_EQ(count(PFT_CS_GAP), 0);
	CHECK_EQ(pft_cs_tracker_depth(cs), 2);
	/* trace on after an instruction ran: a gap as before */
	flow_event(cs, PFT_EV_EXCEPTION, 0xffff0008, PFT_EXC_SVC, 0x2018, 0);
	call(cs, 0x3010, 0x3100);
	flow_event(cs, PFT_EV_TRACE_ON, 0x2018, 0, 0, 0);
	CHECK_EQ(count(PFT_CS_GAP), 1);
	CHECK_EQ(pft_cs_tracker_depth(cs), 0);
	/* trace on in another context: a gap */
	call(cs, 0x1010, 0x2000);
	flow_event(cs, PFT_EV_EXCEPTION, 0xffff0008, PFT_EXC_SVC, 0x2008, 0);
	memset(&it, 0, sizeof(it));
	it.kind = PFT_FLOW_EVENT;
	it.type = PFT_EV_TRACE_ON;
	it.addr = 0x2008;
	it.flags = PFT_FLOW_F_ADDR | PFT_FLOW_F_CID;
	it.context_id = 5;
	CHECK_EQ(pft_cs_tracker_put(cs, &it, sizeof(it)), 0);
	drain(cs);
	CHECK_EQ(count(PFT_CS_GAP), 1);
	CHECK_EQ(count(PFT_CS_EXC_RETURN), 1);     /* popped by the gap */
	pft_cs_tracker_free(cs);
}

/* A branch followed at once by an exception: the branch packet gives the
 * vector; the branch went to the exception's preferred return address. */
static void test_branch_then_exception(void)
{
	struct pft_cs_tracker *cs = mk(0);
	struct pft_insn in[2];
	struct pft_flow_item it;

	call(cs, 0x1010, 0x2000);
	memset(in, 0, sizeof(in));
	in[0].addr = 0x200c; in[0].opcode = A32_NOP; in[0].size = 4;
	in[1].addr = 0x2010; in[1].opcode = A32_BX_LR; in[1].size = 4;
	in[1].wp_class = PFT_WP_INDIRECT;
	memset(&it, 0, sizeof(it));
	it.kind = PFT_FLOW_RANGE; it.addr = 0x200c; it.end = 0x2014; it.insns = in; it.ninsns = 2;
	it.end_kind = PFT_RANGE_TAKEN; it.flags = PFT_FLOW_F_NEXT; it.next = 0x18;
	CHECK_EQ(pft_cs_tracker_put(cs, &it, sizeof(it)), 0);
	drain(cs);
	CHECK_EQ(count(PFT_CS_RETURN), 0);            /* not yet */
	CHECK_EQ(pft_cs_tracker_flush(NULL), -PFT_E_INVAL);
	flow_event(cs, PFT_EV_EXCEPTION, 0x18, PFT_EXC_IRQ, 0x1014, 0);
	CHECK_EQ(count(PFT_CS_RETURN), 1);            /* the return, then the exception */
	CHECK_EQ(evs[0].kind, PFT_CS_RETURN);
	CHECK_EQ(evs[0].target, 0x1014);
	CHECK_EQ(evs[1].kind, PFT_CS_EXC_ENTRY);
	CHECK_EQ(evs[1].depth, 2);
	/* flush applies a waiting branch at once: a call here */
	call(cs, 0x30, 0x5000);
	in[1].addr = 0x5010; in[1].opcode = A32_BL; in[1].wp_class = PFT_WP_DIRECT;
	in[1].flags = PFT_INSN_F_LINK | PFT_INSN_F_TARGET;
	it.next = 0x6000;
	CHECK_EQ(pft_cs_tracker_put(cs, &it, sizeof(it)), 0);
	drain(cs);
	CHECK_EQ(count(PFT_CS_CALL), 0);
	CHECK_EQ(pft_cs_tracker_flush(cs), 0);
	drain(cs);
	CHECK_EQ(count(PFT_CS_CALL), 1);
	CHECK_EQ(top_entry(cs), 0x6000);
	pft_cs_tracker_free(cs);
}

/* Return-stack trace: the flow decoder's F_RSTACK is passed on. */
static void test_rstack(void)
{
	struct pft_cs_tracker *cs = mk(0);

	call(cs, 0x1010, 0x2000);
	br(cs, 0x2010, PFT_ISA_ARM, A32_BX_LR, 4, PFT_WP_INDIRECT, 0, 0x1014, PFT_FLOW_F_RSTACK);
	CHECK(find(PFT_CS_RETURN, 0) && (find(PFT_CS_RETURN, 0)->flags & PFT_CS_F_RSTACK));
	pft_cs_tracker_free(cs);
}

/* Gaps: every frame is popped, the stack starts unknown again. */
static void test_gaps(void)
{
	static const unsigned types[] = { PFT_EV_UNSYNCED, PFT_EV_PACKET_ERROR, PFT_EV_LOST,
					  PFT_EV_MEM_NACC, PFT_EV_NO_ADDRESS, PFT_EV_INCONSISTENT,
					  PFT_EV_SYNC_MISMATCH, PFT_EV_TRACE_ON };
	unsigned i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct pft_cs_tracker *cs = mk(0);

		call(cs, 0x1010, 0x2000);
		call(cs, 0x2010, 0x3000);
		flow_event(cs, types[i], 0x3000, 0, 0, 0);
		CHECK_EQ(count(PFT_CS_RETURN), 3);
		CHECK_EQ(evs[0].reason, PFT_CS_HOW_GAP);
		CHECK_EQ(count(PFT_CS_GAP), 1);
		CHECK_EQ(find(PFT_CS_GAP, 0)->reason, types[i]);
		CHECK_EQ(pft_cs_tracker_depth(cs), 0);
		/* a return after the gap matches nothing: upward */
		ret(cs, 0x3010, 0x2014);
		CHECK_EQ(find(PFT_CS_RETURN, 0)->reason, PFT_CS_HOW_UNMATCHED);
		pft_cs_tracker_free(cs);
	}
}

/* Contexts keep their own stacks; a gap makes the others unknown too. */
static void test_contexts(void)
{
	struct pft_cs_tracker *cs = mk(0);

	call(cs, 0x1010, 0x2000);
	flow_event(cs, PFT_EV_CONTEXT_ID, 0, 42, 0, 0);
	CHECK_EQ(count(PFT_CS_CONTEXT), 1);
	CHECK_EQ(pft_cs_tracker_depth(cs), 0);
	call(cs, 0x3010, 0x4000);
	CHECK_EQ(evs[0].context_id, 42);
	flow_event(cs, PFT_EV_CONTEXT_ID, 0, 0, 0, 0);
	CHECK_EQ(pft_cs_tracker_depth(cs), 2);
	ret(cs, 0x2010, 0x1014);
	CHECK_EQ(count(PFT_CS_RETURN), 1);
	flow_event(cs, PFT_EV_LOST, 0x1018, 0, 0, 0);
	flow_event(cs, PFT_EV_CONTEXT_ID, 0, 42, 0, 0);
	CHECK_EQ(count(PFT_CS_RETURN), 2);       /* context 42's stale frames */
	CHECK_EQ(evs[1].reason, PFT_CS_HOW_GAP);
	CHECK_EQ(evs[1].context_id, 42);
	pft_cs_tracker_free(cs);
}

/* Instructions, cycles and time; the end closes every frame. */
static void test_counts_end(void)
{
	struct pft_cs_tracker *cs = mk(0);
	struct pft_cs_stats st;
	struct pft_cs_event ev;
	int n = 0;

	call(cs, 0x1010, 0x2000);
	call(cs, 0x2010, 0x3000);
	CHECK_EQ(find(PFT_CS_RUN, 0)->cycles, 3);
	CHECK(find(PFT_CS_RUN, 0)->flags & PFT_CS_F_TIME);
	CHECK_EQ(find(PFT_CS_RUN, 0)->time_ns, 3);
	CHECK_EQ(find(PFT_CS_CALL, 0)->index, 4);
	CHECK_EQ(pft_cs_tracker_end(cs), 0);
	while (pft_cs_tracker_next(cs, &ev, sizeof(ev)) == 0) {
		CHECK_EQ(ev.reason, PFT_CS_HOW_END);
		CHECK_EQ(ev.cycles, 6);
		n++;
	}
	CHECK_EQ(n, 3);
	CHECK_EQ(pft_cs_tracker_next(cs, &ev, sizeof(ev)), -PFT_E_EOS);
	pft_cs_tracker_get_stats(cs, &st, sizeof(st));
	CHECK_EQ(st.insns, 4);
	CHECK_EQ(st.cycles, 6);
	CHECK_EQ(st.calls, 2);
	CHECK_EQ(st.max_depth, 3);
	pft_cs_tracker_free(cs);
}

/* The return-form table. */
static void test_forms(void)
{
	CHECK(pft_cs_is_return_form(PFT_ISA_ARM, 0xE12FFF1Eu, 4));  /* bx lr */
	CHECK(pft_cs_is_return_form(PFT_ISA_ARM, 0x012FFF1Eu, 4));  /* bxeq lr */
	CHECK(pft_cs_is_return_form(PFT_ISA_ARM, 0xE8BD8010u, 4));  /* pop {r4, pc} */
	CHECK(pft_cs_is_return_form(PFT_ISA_ARM, 0xE49DF004u, 4));  /* ldr pc, [sp], #4 */
	CHECK(pft_cs_is_return_form(PFT_ISA_ARM, 0xE1A0F00Eu, 4));  /* mov pc, lr */
	CHECK(pft_cs_is_return_form(PFT_ISA_ARM, 0xE89B8800u, 4));  /* ldm fp, {fp, pc} */
	CHECK(!pft_cs_is_return_form(PFT_ISA_ARM, 0xE1B0F00Eu, 4)); /* movs pc, lr */
	CHECK(!pft_cs_is_return_form(PFT_ISA_ARM, 0xE8FD800Fu, 4)); /* ldm sp!, {..pc}^ */
	CHECK(!pft_cs_is_return_form(PFT_ISA_ARM, 0xE12FFF13u, 4)); /* bx r3 */
	CHECK(!pft_cs_is_return_form(PFT_ISA_ARM, 0xE5BCF000u, 4)); /* ldr pc, [ip]! */
	CHECK(pft_cs_is_return_form(PFT_ISA_THUMB, 0x4770u, 2));    /* bx lr */
	CHECK(pft_cs_is_return_form(PFT_ISA_THUMB, 0xBD10u, 2));    /* pop {r4, pc} */
	CHECK(pft_cs_is_return_form(PFT_ISA_THUMB, 0xE8BD8010u, 4));/* pop.w {r4, pc} */
	CHECK(pft_cs_is_return_form(PFT_ISA_THUMB, 0xF85DFB04u, 4));/* ldr pc, [sp], #4 */
	CHECK(!pft_cs_is_return_form(PFT_ISA_THUMB, 0x4718u, 2));   /* bx r3 */
	CHECK(!pft_cs_is_return_form(PFT_ISA_THUMB, 0xBC10u, 2));   /* pop {r4} */
	CHECK(!pft_cs_is_return_form(PFT_ISA_THUMB, 0xF8DFF004u, 4));/* ldr pc, [pc, #4] */
}

/* A timestamp beyond 2^64 ns saturates the clock (found by fuzz_callstack:
 * the double -> u64 conversion overflowed). */
static void test_time_saturates(void)
{
	struct pft_cs_config cfg;
	struct pft_cs_tracker *cs;

	pft_cs_config_init(&cfg);
	cfg.ts_hz = 1;
	cfg.cpu_hz = 1;
	cs = pft_cs_tracker_alloc(&cfg);
	CHECK(cs != NULL);
	flow_event(cs, PFT_EV_TIMESTAMP, 0x1000, UINT64_MAX, 0, 0);
	call(cs, 0x1010, 0x2000);
	CHECK(find(PFT_CS_CALL, 0) != NULL);
	if (find(PFT_CS_CALL, 0))
		CHECK_EQ(find(PFT_CS_CALL, 0)->time_ns, UINT64_MAX);
	pft_cs_tracker_free(cs);
}

static void test_misuse(void)
{
	struct pft_cs_tracker *cs = mk(0);
	struct pft_flow_item it;
	struct pft_cs_event ev;

	memset(&it, 0, sizeof(it));
	CHECK_EQ(pft_cs_tracker_put(cs, &it, 0), -PFT_E_INVAL);
	CHECK_EQ(pft_cs_tracker_put(NULL, &it, sizeof(it)), -PFT_E_INVAL);
	CHECK_EQ(pft_cs_tracker_next(cs, &ev, sizeof(ev)), -PFT_E_AGAIN);
	{
		const struct pft_cs_event *p;
		size_t n;

		CHECK_EQ(pft_cs_tracker_take(cs, &p, &n, sizeof(*p) - 8), -PFT_E_INVAL);
		CHECK_EQ(pft_cs_tracker_take(NULL, &p, &n, sizeof(*p)), -PFT_E_INVAL);
		CHECK_EQ(pft_cs_tracker_take(cs, &p, NULL, sizeof(*p)), -PFT_E_INVAL);
	}
	call(cs, 0x1010, 0x2000);
	CHECK_EQ(pft_cs_tracker_frame(cs, 5, NULL, 0), -PFT_E_INVAL);
	CHECK_EQ(pft_cs_tracker_end(cs), 0);
	CHECK_EQ(pft_cs_tracker_put(cs, &it, sizeof(it)), -PFT_E_INVAL);
	CHECK(pft_cs_tracker_alloc(NULL) == NULL);
	pft_cs_tracker_free(cs);
}

int main(void)
{
	for (use_take = 0; use_take < 2; use_take++) {
		test_bl_bx_lr();
		test_time_saturates();
		test_blx_pop();
		test_mov_lr_pc();
		test_not_returns();
		test_pop_to();
		test_unmatched();
		test_tail_call();
		test_longjmp();
		test_irq_nesting();
		test_untraced_exception();
		test_rstack();
		test_branch_then_exception();
		test_gaps();
		test_contexts();
		test_counts_end();
		test_forms();
		test_misuse();
	}
	return check_report();
}
