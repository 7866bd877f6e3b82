/* SPDX-License-Identifier: BSD-3-Clause */
/* Call-stack layer: stacks per context, the call/return rules of
 * pft/callstack.h, and the event queue. */
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "pft/callstack.h"
#include "pft/isa.h"
#include "pft/packet.h"

struct cs_ctx {
	uint32_t cid;
	uint32_t n, cap;
	uint32_t nexc;       /* exception frames on the stack */
	uint64_t epoch;      /* gap epoch the stack belongs to */
	uint64_t used;       /* last use, for eviction */
	struct pft_cs_frame *f;
};

/* A taken branch whose effect waits for the next item: when an exception
 * follows at once, the branch packet's address is the vector, and the
 * branch's own target is the exception's preferred return address. */
struct cs_branch {
	struct pft_insn last, prev;
	uint64_t next;
	uint32_t flags;          /* the range's PFT_FLOW_F_* */
	uint8_t isa, next_isa, has_prev, valid;
};

struct pft_cs_tracker {
	struct pft_cs_config cfg;
	struct cs_branch pend;
	struct cs_ctx *ctx;
	uint32_t nctx;
	struct cs_ctx *cur;
	/* clock */
	uint64_t index, cycles, ts, ts_cycles, last_time;
	int cc_seen, ts_seen;
	/* state */
	uint64_t epoch, clock;
	int seen;            /* an instruction range has been seen */
	int exc_last;        /* the last item was an exception (no instruction since) */
	int ended;
	uint64_t offset;     /* of the item being processed */
	/* events */
	struct pft_cs_event *q;
	size_t qh, qn, qcap;
	int nomem;
	struct pft_cs_stats st;
};

void pft_cs_config_init(struct pft_cs_config *cfg)
{
	if (!cfg)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
}

struct pft_cs_tracker *pft_cs_tracker_alloc(const struct pft_cs_config *cfg)
{
	struct pft_cs_tracker *cs;

	if (!cfg || cfg->size < sizeof(size_t))
		return NULL;
	cs = calloc(1, sizeof(*cs));
	if (!cs)
		return NULL;
	memcpy(&cs->cfg, cfg, cfg->size < sizeof(cs->cfg) ? cfg->size : sizeof(cs->cfg));
	cs->cfg.size = sizeof(cs->cfg);
	if (!cs->cfg.max_depth)
		cs->cfg.max_depth = 4096;
	if (!cs->cfg.max_contexts)
		cs->cfg.max_contexts = 256;
	cs->ctx = calloc(cs->cfg.max_contexts, sizeof(*cs->ctx));
	if (!cs->ctx) {
		free(cs);
		return NULL;
	}
	return cs;
}

void pft_cs_tracker_free(struct pft_cs_tracker *cs)
{
	uint32_t i;

	if (!cs)
		return;
	for (i = 0; i < cs->nctx; i++)
		free(cs->ctx[i].f);
	free(cs->ctx);
	free(cs->q);
	free(cs);
}

/* ---- clock and events ---- */

static uint64_t time_now(struct pft_cs_tracker *cs, int *ok)
{
	double t = 0;

	*ok = 0;
	if (cs->cfg.ts_hz && cs->ts_seen) {
		t = (double)cs->ts * 1e9 / (double)cs->cfg.ts_hz;
		if (cs->cfg.cpu_hz && cs->cc_seen)
			t += (double)(cs->cycles - cs->ts_cycles) * 1e9 / (double)cs->cfg.cpu_hz;
		*ok = 1;
	} else if (cs->cfg.cpu_hz && cs->cc_seen) {
		t = (double)cs->cycles * 1e9 / (double)cs->cfg.cpu_hz;
		*ok = 1;
	}
	if (!*ok)
		return 0;
	/* a clock beyond 2^64 ns (wild timestamps, a 1 Hz clock) saturates */
	if (t >= 18446744073709551616.0)
		cs->last_time = UINT64_MAX;
	else if ((uint64_t)t > cs->last_time)
		cs->last_time = (uint64_t)t;
	return cs->last_time;
}

/* A new event, stamped with the clock, for context c (may be NULL). */
static struct pft_cs_event *emit(struct pft_cs_tracker *cs, enum pft_cs_kind kind,
                                 const struct cs_ctx *c)
{
	struct pft_cs_event *ev;
	int ok;

	if (cs->qn == cs->qcap) {
		size_t nc = cs->qcap ? cs->qcap * 2 : 64;
		struct pft_cs_event *nq = realloc(cs->q, nc * sizeof(*nq));

		if (!nq) {
			static struct pft_cs_event sink;

			cs->nomem = 1;
			return &sink;
		}
		cs->q = nq;
		cs->qcap = nc;
	}
	ev = &cs->q[cs->qn++];
	/* every field written once (no memset: this is the hot path) */
	ev->kind = (uint16_t)kind;
	ev->reason = 0;
	ev->index = cs->index;
	ev->cycles = cs->cycles;
	ev->timestamp = cs->ts;
	ev->offset = cs->offset;
	ev->time_ns = (cs->cfg.ts_hz | cs->cfg.cpu_hz) ? time_now(cs, &ok) : (ok = 0);
	ev->flags = (cs->cc_seen ? PFT_CS_F_CC : 0) | (cs->ts_seen ? PFT_CS_F_TS : 0) |
	            (ok ? PFT_CS_F_TIME : 0);
	ev->context_id = c ? c->cid : 0;
	ev->depth = c ? c->n : 0;
	ev->level = c ? c->nexc : 0;
	ev->addr = ev->end = ev->target = ev->ninsns = ev->ncycles = 0;
	ev->isa = 0;
	ev->reserved[0] = ev->reserved[1] = ev->reserved[2] = 0;
	ev->insns = NULL;
	if (kind == PFT_CS_RUN || kind == PFT_CS_GAP || kind == PFT_CS_CONTEXT)
		memset(&ev->frame, 0, sizeof(ev->frame)); /* the others copy a frame in */
	return ev;
}

/* ---- stacks ---- */

static int push(struct pft_cs_tracker *cs, struct cs_ctx *c, const struct pft_cs_frame *fr,
                uint64_t site, uint32_t flags);

static void pop(struct pft_cs_tracker *cs, struct cs_ctx *c, enum pft_cs_how how,
                uint64_t addr, uint64_t target, uint32_t flags)
{
	struct pft_cs_frame *f = &c->f[--c->n];
	struct pft_cs_event *ev;
	int exc = f->kind == PFT_CS_FRAME_EXCEPTION;

	if (exc)
		c->nexc--;
	ev = emit(cs, exc ? PFT_CS_EXC_RETURN : PFT_CS_RETURN, c);
	ev->reason = (uint16_t)how;
	ev->flags |= flags;
	ev->addr = addr;
	ev->target = target;
	ev->frame = *f;
	if (exc)
		cs->st.exception_returns++;
	else if (how == PFT_CS_HOW_MATCHED)
		cs->st.returns++;
	else if (how == PFT_CS_HOW_SKIPPED)
		cs->st.skipped++;
}

static void pop_all(struct pft_cs_tracker *cs, struct cs_ctx *c, enum pft_cs_how how)
{
	while (c->n)
		pop(cs, c, how, 0, 0, 0);
}

static void gap(struct pft_cs_tracker *cs, struct cs_ctx *c, unsigned reason, uint64_t addr)
{
	struct pft_cs_event *ev;

	if (c) {
		pop_all(cs, c, PFT_CS_HOW_GAP);
		c->epoch = cs->epoch + 1;
	}
	cs->epoch++;
	ev = emit(cs, PFT_CS_GAP, c);
	ev->reason = (uint16_t)reason;
	ev->addr = addr;
	cs->st.gaps++;
}

static int push(struct pft_cs_tracker *cs, struct cs_ctx *c, const struct pft_cs_frame *fr,
                uint64_t site, uint32_t flags)
{
	struct pft_cs_event *ev;
	struct pft_cs_frame *f;
	int ok;

	if (c->n >= cs->cfg.max_depth)
		gap(cs, c, PFT_EV_NONE, site);
	if (c->n == c->cap) {
		uint32_t nc = c->cap ? c->cap * 2 : 16;
		struct pft_cs_frame *nf;

		if (nc > cs->cfg.max_depth)
			nc = cs->cfg.max_depth;
		nf = realloc(c->f, nc * sizeof(*nf));
		if (!nf) {
			cs->nomem = 1;
			return -PFT_E_NOMEM;
		}
		c->f = nf;
		c->cap = nc;
	}
	f = &c->f[c->n++];
	*f = *fr;
	f->index = cs->index;
	f->cycles = cs->cycles;
	f->time_ns = time_now(cs, &ok);
	if (f->kind == PFT_CS_FRAME_EXCEPTION) {
		c->nexc++;
		cs->st.exceptions++;
	} else if (f->kind == PFT_CS_FRAME_CALL) {
		if (flags & PFT_CS_F_TAIL)
			cs->st.tail_calls++;
		else
			cs->st.calls++;
	}
	if (c->n > cs->st.max_depth)
		cs->st.max_depth = c->n;
	ev = emit(cs, f->kind == PFT_CS_FRAME_EXCEPTION ? PFT_CS_EXC_ENTRY : PFT_CS_CALL, c);
	ev->flags |= flags;
	ev->addr = f->kind == PFT_CS_FRAME_EXCEPTION ? f->entry : site;
	ev->target = f->entry;
	ev->frame = *f;
	return 0;
}

static void push_simple(struct pft_cs_tracker *cs, struct cs_ctx *c, enum pft_cs_frame_kind kind,
                        uint64_t entry, unsigned isa, uint64_t ret, uint64_t site, uint32_t flags)
{
	struct pft_cs_frame fr;

	memset(&fr, 0, sizeof(fr));
	fr.kind = (uint8_t)kind;
	fr.entry = entry;
	fr.isa = (uint8_t)isa;
	fr.ret = ret;
	fr.site = site;
	push(cs, c, &fr, site, flags);
}

static struct cs_ctx *ctx_get(struct pft_cs_tracker *cs, uint32_t cid)
{
	struct cs_ctx *c = NULL;
	uint32_t i;

	for (i = 0; i < cs->nctx; i++)
		if (cs->ctx[i].cid == cid) {
			c = &cs->ctx[i];
			break;
		}
	if (!c) {
		if (cs->nctx < cs->cfg.max_contexts) {
			c = &cs->ctx[cs->nctx++];
		} else {
			/* drop the least recently used stack (not the current one) */
			for (i = 0; i < cs->nctx; i++)
				if (&cs->ctx[i] != cs->cur && (!c || cs->ctx[i].used < c->used))
					c = &cs->ctx[i];
			if (!c)         /* one stack only: the current one goes */
				c = cs->cur;
			pop_all(cs, c, PFT_CS_HOW_GAP);
		}
		c->cid = cid;
		c->n = c->nexc = 0;
		c->epoch = cs->epoch;
		cs->st.contexts++;
	}
	c->used = ++cs->clock;
	return c;
}

static struct cs_ctx *current(struct pft_cs_tracker *cs)
{
	if (!cs->cur)
		cs->cur = ctx_get(cs, 0);
	return cs->cur;
}

static void switch_ctx(struct pft_cs_tracker *cs, uint32_t cid)
{
	struct cs_ctx *c;
	struct pft_cs_event *ev;

	if (cs->cur && cs->cur->cid == cid)
		return;
	c = ctx_get(cs, cid);
	cs->cur = c;
	ev = emit(cs, PFT_CS_CONTEXT, c);
	ev->context_id = cid;
	if (c->epoch != cs->epoch) {
		/* a gap happened since this stack was last seen */
		pop_all(cs, c, PFT_CS_HOW_GAP);
		c->epoch = cs->epoch;
	}
}

/* Index of the lowest frame of the current exception level. */
static uint32_t level_base(const struct cs_ctx *c)
{
	uint32_t i = c->n;

	if (!c->nexc)
		return 0;
	while (i > 0 && c->f[i - 1].kind != PFT_CS_FRAME_EXCEPTION)
		i--;
	return i;
}

/* Highest frame of the current level whose return address is target, or -1. */
static long match_ret(const struct cs_ctx *c, uint64_t target)
{
	uint32_t base = level_base(c), i;

	for (i = c->n; i > base; i--)
		if (c->f[i - 1].ret == target && c->f[i - 1].kind == PFT_CS_FRAME_CALL)
			return (long)(i - 1);
	return -1;
}

/* Pop frames down to and including frame k: k is MATCHED (or how_k), those above SKIPPED. */
static void pop_to(struct pft_cs_tracker *cs, struct cs_ctx *c, uint32_t k, enum pft_cs_how how_k,
                   uint64_t addr, uint64_t target, uint32_t flags)
{
	while (c->n > k + 1)
		pop(cs, c, PFT_CS_HOW_SKIPPED, addr, target, flags);
	pop(cs, c, how_k, addr, target, flags);
}

static void exc_return(struct pft_cs_tracker *cs, struct cs_ctx *c, uint64_t addr, uint64_t target)
{
	const struct pft_cs_frame *e;
	long k;

	if (!c->nexc) {
		/* the handler was entered before the trace began (or a gap):
		   nothing of the interrupted stack is known */
		while (c->n)
			pop(cs, c, PFT_CS_HOW_UNMATCHED, addr, target, 0);
		cs->st.unmatched++;
		return;
	}
	while (c->f[c->n - 1].kind != PFT_CS_FRAME_EXCEPTION)
		pop(cs, c, PFT_CS_HOW_EXCEPTION, addr, target, 0);
	e = &c->f[c->n - 1];
	pop(cs, c, e->ret == target ? PFT_CS_HOW_MATCHED : PFT_CS_HOW_EXCEPTION, addr, target, 0);
	/* a handler that returns elsewhere than the preferred return address
	   (as a prefetch abort on a call returns to the caller) */
	if (c->n && c->f[c->n].ret != target && (k = match_ret(c, target)) >= 0)
		pop_to(cs, c, (uint32_t)k, PFT_CS_HOW_MATCHED, addr, target, 0);
}

/* ---- the rules ---- */

static int is_mov_lr_pc(const struct pft_insn *in)
{
	return in->size == 4 && (in->opcode >> 28) != 0xFu &&
	       (in->opcode & 0x0FFFFFFFu) == 0x01A0E00Fu;
}

static void taken(struct pft_cs_tracker *cs, struct cs_ctx *c, const struct cs_branch *br)
{
	const struct pft_insn *last = &br->last;
	const uint64_t target = br->next;
	const unsigned tisa = br->next_isa;
	int indirect = last->wp_class == PFT_WP_INDIRECT, form;
	uint64_t ts = 0, te = 0, fs = 0, fe = 0;
	int have_t = 0, have_c = 0;
	uint32_t base, j;
	long k;

	if (last->flags & PFT_INSN_F_EXC_RETURN) {
		exc_return(cs, c, last->addr, target);
		return;
	}
	if (last->wp_class != PFT_WP_DIRECT && !indirect)
		return;                       /* ISB, barriers, ENTERX/LEAVEX */
	if ((last->flags & PFT_INSN_F_LINK) ||
	    (indirect && br->isa == PFT_ISA_ARM && br->has_prev && is_mov_lr_pc(&br->prev))) {
		push_simple(cs, c, PFT_CS_FRAME_CALL, target, tisa, last->addr + last->size,
			    last->addr, 0);
		return;
	}
	form = indirect && pft_cs_is_return_form((enum pft_isa)br->isa, last->opcode, last->size);
	if (indirect && (k = match_ret(c, target)) >= 0) {
		pop_to(cs, c, (uint32_t)k, PFT_CS_HOW_MATCHED, last->addr, target,
		       ((br->flags & PFT_FLOW_F_RSTACK) ? PFT_CS_F_RSTACK : 0) |
		       (form ? PFT_CS_F_FORM : 0));
		return;
	}
	if (cs->cfg.func_of) {
		have_t = cs->cfg.func_of(cs->cfg.func_ctx, target, &ts, &te);
		have_c = cs->cfg.func_of(cs->cfg.func_ctx, last->addr, &fs, &fe);
		if (have_t && ts == target && !(have_c && fs == ts)) {
			/* tail call: the frame is replaced, its return address kept
			   (an exception frame stays: the call goes above it) */
			const struct pft_cs_frame *top = &c->f[c->n - 1];
			uint64_t ret = 0;

			if (top->kind != PFT_CS_FRAME_EXCEPTION) {
				ret = top->ret;
				pop(cs, c, PFT_CS_HOW_TAIL, last->addr, target, PFT_CS_F_TAIL);
			}
			push_simple(cs, c, PFT_CS_FRAME_CALL, target, tisa, ret, last->addr,
				    PFT_CS_F_TAIL);
			return;
		}
		if (indirect && have_t && !(have_c && fs == ts)) {
			/* non-local jump (longjmp): into the function of an older frame */
			base = level_base(c);
			for (j = c->n; j > base; j--) {
				uint64_t rs, re;
				const struct pft_cs_frame *f = &c->f[j - 1];

				if (f->kind == PFT_CS_FRAME_CALL && f->ret &&
				    cs->cfg.func_of(cs->cfg.func_ctx, f->ret, &rs, &re) && rs == ts) {
					pop_to(cs, c, j - 1, PFT_CS_HOW_SKIPPED, last->addr, target, 0);
					if (c->n == base)
						push_simple(cs, c, PFT_CS_FRAME_UNKNOWN, target, tisa, 0, 0, 0);
					return;
				}
			}
		}
	}
	if (!form)
		return;                       /* a jump inside the frame (switch, PLT, BX Rn) */
	base = level_base(c);
	if (c->n == base)
		return;                       /* in an exception frame's own code */
	if (c->n - base == 1 && c->f[base].kind != PFT_CS_FRAME_EXCEPTION) {
		/* the bottom frame returns to a caller the trace never saw: the
		   stack grows upward */
		pop(cs, c, PFT_CS_HOW_UNMATCHED, last->addr, target, PFT_CS_F_FORM);
		cs->st.unmatched++;
		push_simple(cs, c, PFT_CS_FRAME_UNKNOWN, target, tisa, 0, 0, 0);
		return;
	}
	/* a return that matches no frame with frames still open: lost */
	gap(cs, c, PFT_EV_NONE, last->addr);
	push_simple(cs, c, PFT_CS_FRAME_UNKNOWN, target, tisa, 0, 0, 0);
}

static void add_cycles(struct pft_cs_tracker *cs, const struct pft_flow_item *it)
{
	struct pft_cs_event *ev;

	if (!(it->flags & PFT_FLOW_F_CC))
		return;
	cs->cc_seen = 1;
	if (!(cs->cfg.flags & PFT_CS_CFG_NO_RUNS)) {
		ev = emit(cs, PFT_CS_RUN, cs->cur);
		ev->ncycles = it->cycles;
	}
	cs->cycles += it->cycles;
	cs->st.cycles += it->cycles;
}

static void range(struct pft_cs_tracker *cs, const struct pft_flow_item *it)
{
	struct cs_ctx *c = current(cs);
	struct pft_cs_event *ev;

	if (!it->ninsns)
		return;
	cs->seen = 1;
	cs->exc_last = 0;
	if (c->n == 0)
		push_simple(cs, c, PFT_CS_FRAME_UNKNOWN, it->addr, it->isa, 0, 0, 0);
	if (it->flags & PFT_FLOW_F_CC)
		cs->cc_seen = 1;
	if (!(cs->cfg.flags & PFT_CS_CFG_NO_RUNS)) {
		ev = emit(cs, PFT_CS_RUN, c);
		ev->addr = it->addr;
		ev->end = it->end;
		ev->ninsns = it->ninsns;
		ev->ncycles = (it->flags & PFT_FLOW_F_CC) ? it->cycles : 0;
		ev->isa = it->isa;
		ev->insns = it->insns;
	}
	cs->index += it->ninsns;
	cs->st.insns += it->ninsns;
	if (it->flags & PFT_FLOW_F_CC) {
		cs->cycles += it->cycles;
		cs->st.cycles += it->cycles;
	}
	if (it->end_kind == PFT_RANGE_TAKEN && (it->flags & PFT_FLOW_F_NEXT)) {
		struct cs_branch *b = &cs->pend;

		b->last = it->insns[it->ninsns - 1];
		b->has_prev = it->ninsns >= 2;
		if (b->has_prev)
			b->prev = it->insns[it->ninsns - 2];
		b->next = it->next;
		b->next_isa = it->next_isa;
		b->isa = it->isa;
		b->flags = it->flags;
		b->valid = 1;
	}
}

/* Apply the waiting branch; it is the item's exception's when that
   exception's vector is where the branch seemed to go. */
static void flush_branch(struct pft_cs_tracker *cs, const struct pft_flow_item *it)
{
	struct cs_branch *b = &cs->pend;

	if (!b->valid)
		return;
	b->valid = 0;
	if (it && it->kind == PFT_FLOW_EVENT && it->type == PFT_EV_EXCEPTION &&
	    (it->flags & PFT_FLOW_F_ADDR) && (it->flags & PFT_FLOW_F_NEXT) && it->addr == b->next) {
		b->next = it->next;
		b->next_isa = it->next_isa;
	}
	taken(cs, current(cs), b);
}

/* Trace back on right after an exception: the handler ran untraced (a
 * prohibited region: an operating system's kernel, for a user-mode trace).
 * Back at the preferred return address of an exception frame of this
 * context's stack, the handler returned there: that frame and every frame
 * above it are popped (an exception return).  Elsewhere, in the same
 * context, the handler went on into traced code that did not run before
 * (a signal handler, which the kernel entered): the stack is kept, and the
 * new code runs above the exception frame, as an interrupt handler's own
 * code does.  1 when handled so; 0 (a gap) for another context. */
static int untraced_exception(struct pft_cs_tracker *cs, const struct pft_flow_item *it)
{
	struct cs_ctx *c = cs->cur;
	uint32_t k;

	if (!c || !c->nexc || !(it->flags & PFT_FLOW_F_ADDR) ||
	    ((it->flags & PFT_FLOW_F_CID) && it->context_id != c->cid))
		return 0;
	cs->exc_last = 0;
	for (k = c->n; k > 0; k--)
		if (c->f[k - 1].kind == PFT_CS_FRAME_EXCEPTION && c->f[k - 1].ret == it->addr)
			break;
	if (!k)
		return 1;                 /* entered elsewhere: a nested stack */
	while (c->n > k)
		pop(cs, c, PFT_CS_HOW_EXCEPTION, 0, it->addr, 0);
	pop(cs, c, PFT_CS_HOW_MATCHED, 0, it->addr, 0);
	return 1;
}

static void event(struct pft_cs_tracker *cs, const struct pft_flow_item *it)
{
	struct cs_ctx *c;

	add_cycles(cs, it);
	switch (it->type) {
	case PFT_EV_TRACE_ON:
		if (cs->exc_last && untraced_exception(cs, it))
			break;
		if (cs->seen)
			gap(cs, cs->cur, it->type, it->addr);
		if (it->flags & PFT_FLOW_F_CID)
			switch_ctx(cs, it->context_id);
		break;
	case PFT_EV_CONTEXT_ID:
		switch_ctx(cs, (uint32_t)it->value);
		break;
	case PFT_EV_TIMESTAMP:
		cs->ts = it->value;
		cs->ts_cycles = cs->cycles;
		cs->ts_seen = 1;
		break;
	case PFT_EV_EXCEPTION:
		c = current(cs);
		if (it->value == PFT_EXC_DEBUG_HALT) {
			gap(cs, c, it->type, it->addr);
			break;
		}
		{
			struct pft_cs_frame fr;

			memset(&fr, 0, sizeof(fr));
			fr.kind = PFT_CS_FRAME_EXCEPTION;
			fr.entry = it->addr;
			fr.isa = it->isa;
			fr.ret = (it->flags & PFT_FLOW_F_NEXT) ? it->next : 0;
			fr.exception = (uint32_t)it->value;
			push(cs, c, &fr, 0, 0);
			cs->exc_last = 1;
		}
		break;
	case PFT_EV_SYNC_MISMATCH:
	case PFT_EV_JAZELLE:
	case PFT_EV_MEM_NACC:
	case PFT_EV_NO_ADDRESS:
	case PFT_EV_LOST:
	case PFT_EV_INCONSISTENT:
	case PFT_EV_PACKET_ERROR:
	case PFT_EV_UNSYNCED:
		gap(cs, cs->cur, it->type, (it->flags & PFT_FLOW_F_ADDR) ? it->addr : 0);
		break;
	default:                /* VMID, trigger, security, exception return packet */
		break;
	}
}

static int put_item(struct pft_cs_tracker *cs, const struct pft_flow_item *it);

/* an item of another pft/flow.h: the fields it lacks are 0 */
static int put_other_size(struct pft_cs_tracker *cs, const struct pft_flow_item *user, size_t size)
{
	struct pft_flow_item copy;

	memset(&copy, 0, sizeof(copy));
	pft_copy_in(&copy, sizeof(copy), user, size);
	return put_item(cs, &copy);
}

int pft_cs_tracker_put(struct pft_cs_tracker *cs, const struct pft_flow_item *it, size_t size)
{
	if (!cs || !it || !size || cs->ended || cs->qh < cs->qn)
		return -PFT_E_INVAL;
	if (size != sizeof(*it))
		return put_other_size(cs, it, size);
	return put_item(cs, it);
}

static int put_item(struct pft_cs_tracker *cs, const struct pft_flow_item *it)
{
	cs->qh = cs->qn = 0;
	cs->offset = it->offset;
	if (cs->pend.valid && !(it->kind == PFT_FLOW_EVENT && (it->type == PFT_EV_TIMESTAMP ||
							      it->type == PFT_EV_TRIGGER)))
		flush_branch(cs, it);
	if (it->kind == PFT_FLOW_RANGE)
		range(cs, it);
	else if (it->kind == PFT_FLOW_EVENT)
		event(cs, it);
	return cs->nomem ? -PFT_E_NOMEM : 0;
}

int pft_cs_tracker_flush(struct pft_cs_tracker *cs)
{
	if (!cs || cs->ended || cs->qh < cs->qn)
		return -PFT_E_INVAL;
	cs->qh = cs->qn = 0;
	flush_branch(cs, NULL);
	return cs->nomem ? -PFT_E_NOMEM : 0;
}

int pft_cs_tracker_end(struct pft_cs_tracker *cs)
{
	uint32_t i;

	if (!cs || cs->ended)
		return -PFT_E_INVAL;
	if (cs->qh == cs->qn)
		cs->qh = cs->qn = 0;
	flush_branch(cs, NULL);
	for (i = 0; i < cs->nctx; i++)
		pop_all(cs, &cs->ctx[i], PFT_CS_HOW_END);
	cs->ended = 1;
	return cs->nomem ? -PFT_E_NOMEM : 0;
}

int pft_cs_tracker_next(struct pft_cs_tracker *cs, struct pft_cs_event *ev, size_t size)
{
	if (!cs || !ev || !size)
		return -PFT_E_INVAL;
	if (cs->qh < cs->qn) {
		pft_copy_out(ev, size, &cs->q[cs->qh++], sizeof(*ev));
		return 0;
	}
	return cs->ended ? -PFT_E_EOS : -PFT_E_AGAIN;
}

int pft_cs_tracker_take(struct pft_cs_tracker *cs, const struct pft_cs_event **evs, size_t *n,
                        size_t size)
{
	if (!cs || !evs || !n || size != sizeof(**evs))
		return -PFT_E_INVAL;
	*evs = cs->q ? cs->q + cs->qh : NULL; /* no queue yet: nothing to take */
	*n = cs->qn - cs->qh;
	cs->qh = cs->qn;
	return 0;
}

uint32_t pft_cs_tracker_depth(const struct pft_cs_tracker *cs)
{
	return cs && cs->cur ? cs->cur->n : 0;
}

int pft_cs_tracker_frame(const struct pft_cs_tracker *cs, uint32_t i, struct pft_cs_frame *f, size_t size)
{
	if (!cs || !f || !size || !cs->cur || i >= cs->cur->n)
		return -PFT_E_INVAL;
	pft_copy_out(f, size, &cs->cur->f[i], sizeof(*f));
	return 0;
}

int pft_cs_tracker_get_stats(const struct pft_cs_tracker *cs, struct pft_cs_stats *st, size_t size)
{
	if (!cs || !st)
		return -PFT_E_INVAL;
	memset(st, 0, size);
	memcpy(st, &cs->st, size < sizeof(cs->st) ? size : sizeof(cs->st));
	return 0;
}
