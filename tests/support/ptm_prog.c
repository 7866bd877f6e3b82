/* SPDX-License-Identifier: BSD-3-Clause */
/* Random programs for the software PTM tests and bench (see ptm_prog.h). */
#include "ptm_prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static uint64_t prog_rand(struct prog *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545F4914F6CDD1Dull;
}

static unsigned prog_rn(struct prog *g, unsigned n)
{
	return (unsigned)(prog_rand(g) % n);
}

static struct prog_region *prog_reg(struct prog *g, uint64_t addr)
{
	for (int i = 0; i < 2; i++)
		if (addr >= g->r[i].base && addr < g->r[i].base + PROG_REGION)
			return &g->r[i];
	return NULL;
}

static uint32_t enc_t32_branch(uint64_t pc, uint64_t target, int link, int blx)
{
	/* B.W T4 / BL T1 / BLX T2: offset from Align(PC+4, 4) for BLX */
	uint64_t base = blx ? ((pc + 4) & ~3ull) : pc + 4;
	int32_t off = (int32_t)(target - base);
	uint32_t s = (off >> 24) & 1, i1 = (off >> 23) & 1, i2 = (off >> 22) & 1;
	uint32_t j1 = (~(i1 ^ s)) & 1, j2 = (~(i2 ^ s)) & 1;
	uint32_t hw1 = 0xF000 | (s << 10) | ((off >> 12) & 0x3FF);
	uint32_t hw2 = (j1 << 13) | (j2 << 11) | ((off >> 1) & 0x7FF);
	if (link && !blx)
		hw2 |= 0xD000;
	else if (blx)
		hw2 = (hw2 | 0xC000) & ~1u;
	else
		hw2 |= 0x9000;
	return hw1 << 16 | hw2;
}

static void prog_put(struct prog_region *r, uint64_t addr, const struct prog_insn *in)
{
	uint32_t o = (uint32_t)(addr - r->base);
	if (in->size == 4 && in->isa == PFT_ISA_ARM) {
		for (int i = 0; i < 4; i++)
			r->mem[o + i] = (uint8_t)(in->opcode >> (8 * i));
	} else if (in->size == 4) {
		uint32_t hw1 = in->opcode >> 16, hw2 = in->opcode & 0xFFFF;
		r->mem[o] = (uint8_t)hw1;
		r->mem[o + 1] = (uint8_t)(hw1 >> 8);
		r->mem[o + 2] = (uint8_t)hw2;
		r->mem[o + 3] = (uint8_t)(hw2 >> 8);
	} else {
		r->mem[o] = (uint8_t)in->opcode;
		r->mem[o + 1] = (uint8_t)(in->opcode >> 8);
	}
	r->state[o / 2] = 1;
	if (in->size == 4)
		r->state[o / 2 + 1] = 2;
	r->insn[o / 2] = *in;
}

/* A random branch target in region r that is free or an instruction
 * start, aligned for the region's ISA, within [lo, hi]. */
static int prog_pick(struct prog *g, struct prog_region *r, uint64_t lo, uint64_t hi,
		     uint64_t *out)
{
	uint64_t rlo = r->base, rhi = r->base + PROG_REGION - 16;
	unsigned align = r->isa == PFT_ISA_ARM ? 4 : 2;
	if (lo < rlo)
		lo = rlo;
	if (hi > rhi)
		hi = rhi;
	if (lo > hi)
		return 0;
	for (int tries = 0; tries < 24; tries++) {
		uint64_t a = lo + prog_rand(g) % (hi - lo + 1);
		a &= ~(uint64_t)(align - 1);
		if (a < lo || (a > g->gen_pc && a < g->gen_pc + 4))
			continue;
		uint8_t *st = &r->state[(a - r->base) / 2];
		if (*st == 0)
			*st = 3; /* reserved: a target, never the middle of an instruction */
		if (*st != 2)
			return (*out = a), 1;
	}
	return 0;
}

static int prog_free(const struct prog_region *r, uint64_t a)
{
	return a < r->base + PROG_REGION && r->state[(a - r->base) / 2] == 0;
}

/* Generate the instruction at pc (region r, its ISA). */
static void prog_gen(struct prog *g, struct prog_region *r, uint64_t pc)
{
	struct prog_insn in;
	int arm = r->isa == PFT_ISA_ARM;
	int can32 = arm || prog_free(r, pc + 2);
	int near_end = pc + 32 >= r->base + PROG_REGION;
	uint32_t cond = 14;
	g->gen_pc = pc;
	memset(&in, 0, sizeof(in));
	in.isa = r->isa;
	in.size = arm ? 4 : 2;
	in.wp_class = PFT_WP_NONE;
	unsigned w = near_end ? 100 : prog_rn(g, 100);
	if (arm && prog_rn(g, 5) == 0) {
		cond = prog_rn(g, 14);
		in.cond = 1;
	}
	if (w < 50) { /* nonwaypoint */
		in.kind = PK_NOP;
		if (arm) {
			in.opcode = (cond << 28) | 0x02800000u | (prog_rn(g, 8) << 16) |
				    (prog_rn(g, 8) << 12) | prog_rn(g, 256);
		} else if (can32 && prog_rn(g, 3) == 0) {
			in.size = 4;
			in.opcode = (0xF100u | prog_rn(g, 8)) << 16 | (prog_rn(g, 8) << 8) | prog_rn(g, 256);
		} else {
			in.opcode = 0x3000u | (prog_rn(g, 8) << 8) | prog_rn(g, 256);
		}
		in.cond = arm ? in.cond : 0;
	} else if (w < 72 || near_end) { /* direct branch */
		struct prog_region *other = &g->r[arm ? 1 : 0];
		unsigned sub = near_end ? 0 : prog_rn(g, 10);
		uint64_t t;
		in.kind = PK_DIRECT;
		in.wp_class = PFT_WP_DIRECT;
		in.target_isa = r->isa;
		if (sub == 9 && prog_pick(g, other, other->base, other->base + PROG_REGION, &t) &&
		    (arm || can32)) {
			/* BLX imm: to the other instruction set */
			in.link = 1;
			in.target = t;
			in.target_isa = other->isa;
			if (arm) {
				int32_t off = (int32_t)(t - (pc + 8));
				in.opcode = 0xFA000000u | (((uint32_t)off >> 1 & 1) << 24) |
					    (((uint32_t)off >> 2) & 0xFFFFFF);
			} else {
				in.size = 4;
				t &= ~3ull;
				if (other->state[(t - other->base) / 2] == 2)
					goto nop16;
				if (other->state[(t - other->base) / 2] == 0)
					other->state[(t - other->base) / 2] = 3;
				in.target = t;
				in.opcode = enc_t32_branch(pc, t, 1, 1);
			}
			in.cond = 0;
		} else if (arm) {
			if (!prog_pick(g, r, r->base, r->base + PROG_REGION, &t))
				t = r->base;
			in.link = sub >= 7;
			if (near_end) {
				cond = 14;
				in.cond = 0;
				in.link = 0;
			}
			in.target = t;
			in.opcode = (cond << 28) | (in.link ? 0x0B000000u : 0x0A000000u) |
				    (((uint32_t)(t - (pc + 8)) >> 2) & 0xFFFFFF);
		} else {
			if (sub < 3 && !near_end && prog_pick(g, r, pc + 4 - 256, pc + 4 + 254, &t)) {
				/* B<cond> T1 */
				uint32_t c = prog_rn(g, 14);
				in.target = t;
				in.cond = 1;
				in.opcode = 0xD000u | (c << 8) | (((uint32_t)(t - (pc + 4)) >> 1) & 0xFF);
			} else if (sub < 5 && !near_end && prog_pick(g, r, pc + 4, pc + 4 + 126, &t)) {
				/* CBZ / CBNZ */
				uint32_t off = (uint32_t)(t - (pc + 4));
				in.target = t;
				in.cond = 1;
				in.opcode = (prog_rn(g, 2) ? 0xB900u : 0xB100u) | ((off >> 6) & 1) << 9 |
					    ((off >> 1) & 31) << 3 | prog_rn(g, 8);
			} else if (sub < 7 && prog_pick(g, r, pc + 4 - 2048, pc + 4 + 2046, &t)) {
				in.target = t;
				in.opcode = 0xE000u | (((uint32_t)(t - (pc + 4)) >> 1) & 0x7FF);
			} else if (can32 && prog_pick(g, r, r->base, r->base + PROG_REGION, &t)) {
				in.size = 4;
				in.link = sub >= 8 && !near_end;
				in.target = t;
				in.opcode = enc_t32_branch(pc, t, in.link, 0);
			} else if (prog_pick(g, r, pc + 4 - 2048, pc + 4 + 2046, &t)) {
				in.target = t;
				in.opcode = 0xE000u | (((uint32_t)(t - (pc + 4)) >> 1) & 0x7FF);
			} else {
				goto nop16;
			}
		}
	} else if (w < 88) { /* indirect */
		unsigned sub = prog_rn(g, 5), m = prog_rn(g, 8);
		in.kind = PK_INDIRECT;
		in.wp_class = PFT_WP_INDIRECT;
		if (arm) {
			switch (sub) {
			case 0: in.opcode = (cond << 28) | 0x012FFF10u | 14; in.ret = 1; break; /* BX LR */
			case 1: in.opcode = (cond << 28) | 0x012FFF30u | m; in.link = 1; break; /* BLX Rm */
			case 2: in.opcode = (cond << 28) | 0x0590F000u | (m << 16) | prog_rn(g, 4096); break;
			case 3: in.opcode = (cond << 28) | 0x08BD8010u; in.ret = 1; break; /* POP {r4,pc} */
			default: in.opcode = (cond << 28) | 0x012FFF10u | m; break;
			}
		} else {
			in.cond = 0;
			switch (sub) {
			case 0: in.opcode = 0x4770u; in.ret = 1; break;              /* BX LR */
			case 1: in.opcode = 0x4780u | (m << 3); in.link = 1; break;  /* BLX Rm */
			case 2:
				if (can32) {
					in.size = 4;
					in.opcode = (0xF8D0u | m) << 16 | 0xF000u | prog_rn(g, 4096);
					break;
				}
				/* fall through */
			case 3: in.opcode = 0xBD10u; in.ret = 1; break;               /* POP {r4,pc} */
			default: in.opcode = 0x4700u | (m << 3); break;
			}
		}
	} else if (w < 92 && g->nexcs) {
		in.kind = PK_EXC_RET;
		in.wp_class = PFT_WP_INDIRECT;
		/* SUBS PC, LR, #imm is UNDEFINED in Hyp mode (ERET is not): with
		 * Hyp changes in the program, only ERET */
		int subs = !g->o.hyp && (g->o.no_eret || prog_rn(g, 2));
		if (arm)
			in.opcode = subs ? ((cond << 28) | 0x025EF004u) : ((cond << 28) | 0x0160006Eu);
		else if (can32) {
			in.size = 4;
			in.opcode = 0xF3DE8F00u | (subs ? 4 : 0);
		} else
			goto nop16;
	} else if (w < 97) { /* ISB SY or DMB SY: the option field tells them apart */
		int isb = w < 95;
		uint32_t option = isb ? 0x6Fu : 0x5Fu;
		in.kind = isb ? PK_ISB : PK_DMB;
		in.wp_class = isb ? PFT_WP_ISB : PFT_WP_BARRIER;
		in.cond = 0;
		if (arm)
			in.opcode = 0xF57FF000u | option;
		else if (can32)
			in.size = 4, in.opcode = 0xF3BF8F00u | option;
		else
			goto nop16;
	} else {
		in.kind = PK_SVC;
		if (arm)
			in.opcode = (cond << 28) | 0x0F000000u | prog_rn(g, 1 << 24);
		else
			in.opcode = 0xDF00u | prog_rn(g, 256), in.cond = 0;
	}
	prog_put(r, pc, &in);
	return;
nop16:
	memset(&in, 0, sizeof(in));
	in.isa = r->isa;
	in.size = 2;
	in.kind = PK_NOP;
	in.opcode = 0x3000u | (prog_rn(g, 8) << 8) | prog_rn(g, 256);
	prog_put(r, pc, &in);
}

static const struct prog_insn *prog_fetch(struct prog *g, uint64_t pc)
{
	struct prog_region *r = prog_reg(g, pc);
	if (!r)
		return NULL;
	uint32_t o = (uint32_t)(pc - r->base) / 2;
	if (r->state[o] == 0 || r->state[o] == 3)
		prog_gen(g, r, pc);
	if (r->state[o] != 1)
		return NULL;
	return &r->insn[o];
}

static uint64_t prog_vector(const struct prog *g, unsigned type)
{
	static const uint8_t off[16] = { 0, 0, 0x08, 0x14, 0x10, 0x18, 0, 0,
					 0x00, 0x04, 0x08, 0x0C, 0x10, 0x14, 0x18, 0x1C };
	const struct prog_region *r = &g->r[g->o.thumb_vectors ? 1 : 0];
	return r->base + 0x40 + off[type & 15];
}

static struct prog_ev *prog_log(struct prog *g)
{
	if (g->nev == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 4096;
		g->ev = realloc(g->ev, g->cap * sizeof(*g->ev));
	}
	struct prog_ev *e = &g->ev[g->nev++];
	memset(e, 0, sizeof(*e));
	e->blk = g->nblk;
	return e;
}

static void prog_end_block(struct prog *g, uint64_t next_start, uint8_t exc)
{
	if (g->nblk == g->blkcap) {
		g->blkcap = g->blkcap ? 2 * g->blkcap : 1024;
		g->blk = realloc(g->blk, g->blkcap * sizeof(*g->blk));
	}
	struct prog_blk *b = &g->blk[g->nblk++];
	memset(b, 0, sizeof(*b));
	b->start = g->cur_blk_start;
	b->first = g->cur_blk_first;
	b->n = g->nev - g->cur_blk_first;
	b->exc = exc;
	for (uint32_t i = b->first; i < g->nev; i++)
		if (!g->ev[i].exc) {
			b->n_insn++;
			b->end = g->ev[i].addr;
		}
	if (b->n_insn) {
		const struct prog_region *r = prog_reg(g, b->end);
		b->end_t32 = r && r->isa == PFT_ISA_THUMB &&
			     r->insn[(b->end - r->base) / 2].size == 4;
	}
	if (b->n_insn) {
		b->ns = g->ev[b->first].ns;
		b->hyp = g->ev[b->first].hyp;
	}
	g->cur_blk_first = g->nev;
	g->cur_blk_start = next_start;
	if (exc == PFT_EXC_RESET)
		for (uint32_t i = b->first; i < g->nev; i++)
			if (!g->ev[i].exc)
				g->ev[i].dropped = 1;
}

/* timestamp as a function of the cycle counter */
static uint64_t prog_ts(uint64_t cycle)
{
	return 0x100000000ull + cycle / 3;
}

static void prog_exception(struct prog *g, struct pft_ptm *ptm, unsigned type, int v11)
{
	struct pft_ptm_exception e;
	memset(&e, 0, sizeof(e));
	if (type == PFT_EXC_RESET) {
		g->ncalls = 0;
		g->nexcs = 0;
	} else {
		if (g->nexcs == 8)
			memmove(g->excs, g->excs + 1, 7 * sizeof(g->excs[0])), g->nexcs--;
		struct prog_frame *f = &g->excs[g->nexcs++];
		f->ret = g->pc;
		f->isa = g->isa;
		f->ns = g->ns;
		f->hyp = g->hyp;
		f->cid = g->cid;
		f->vmid = g->vmid;
		f->prohib = g->prohib;
	}
	/* an exception before the first instruction outside a prohibited region
	 * belongs to the region: the trace restarts at its handler (4.7) */
	int was_prohib = g->prohib || g->just_left;
	g->just_left = 0;
	int enter = type == PFT_EXC_SMC && g->o.prohibited && prog_rn(g, 2) == 0;
	g->cycle += 1 + prog_rn(g, 4);
	e.type = (uint16_t)type;
	e.vector = prog_vector(g, type);
	e.pref_return = g->pc;
	e.isa = g->o.thumb_vectors ? PFT_ISA_THUMB : PFT_ISA_ARM;
	e.cycle = g->cycle;
	if (g->o.security)
		g->ns = prog_rn(g, 3) == 0;
	if (g->o.hyp && v11)
		g->hyp = type == PFT_EXC_HYP ? 1 : (prog_rn(g, 8) == 0);
	else
		g->hyp = 0;
	if (g->o.cid_changes && prog_rn(g, 3) == 0)
		g->cid = (uint32_t)prog_rand(g);
	if (g->o.vmid_changes && prog_rn(g, 4) == 0)
		g->vmid = (uint8_t)prog_rand(g);
	e.flags = (uint8_t)((g->ns ? PFT_PTM_E_NS : 0) | (g->hyp ? PFT_PTM_E_HYP : 0) |
			    (enter ? PFT_PTM_E_PROHIBITED : 0));
	g->prohib = (uint8_t)enter;
	e.context_id = g->cid;
	e.vmid = g->vmid;
	g->pc = e.vector;
	g->isa = e.isa;
	if (ptm) {
		pft_ptm_timestamp(ptm, prog_ts(g->cycle), 0);
		if (pft_ptm_exception(ptm, &e) < 0)
			g->fed_errors++;
	}
	struct prog_ev *ev = prog_log(g);
	ev->exc = (uint8_t)type;
	ev->addr = e.vector;
	ev->cycle = g->cycle;
	ev->ts = prog_ts(g->cycle);
	ev->isa = e.isa;
	ev->ns = g->ns;
	ev->hyp = g->hyp;
	ev->cid = g->cid;
	ev->vmid = g->vmid;
	if (enter)
		ev->addr = 0; /* traced as a branch to address 0 (4.7) */
	ev->prohib = (uint8_t)was_prohib; /* not traced at all */
	prog_end_block(g, e.vector, (uint8_t)type);
}

/* A call's return (to ret, in the current instruction set) on the model's
 * call stack; when it is full, the oldest is forgotten. */
static void push_call(struct prog *g, uint64_t ret)
{
	size_t n = sizeof g->calls / sizeof g->calls[0];

	if (g->ncalls == n) {
		memmove(g->calls, g->calls + 1, (n - 1) * sizeof g->calls[0]);
		g->ncalls--;
	}
	g->calls[g->ncalls].ret = ret;
	g->calls[g->ncalls].isa = g->isa;
	g->ncalls++;
}

static void prog_random_target(struct prog *g, uint64_t *t, uint8_t *isa)
{
	int which = prog_rn(g, 2);
	struct prog_region *r = &g->r[which];
	if (!prog_pick(g, r, r->base, r->base + PROG_REGION, t))
		*t = r->base + 0x100;
	*isa = r->isa;
}

/* Execute one instruction (and maybe an exception after it).  ptm may be
 * NULL (dry run).  Returns 0, or -1 if the program went astray. */
static int prog_step(struct prog *g, struct pft_ptm *ptm, int v11, int classify)
{
	(void)v11;
	const struct prog_insn *in = prog_fetch(g, g->pc);
	if (!in || in->isa != g->isa) {
		if (getenv("PFT_PTM_DEBUG"))
		{
			struct prog_region *rr = prog_reg(g, g->pc);
			fprintf(stderr, "astray at 0x%llx isa %u: %s state %d prev %d ev %u\n",
				(unsigned long long)g->pc, g->isa, in ? "wrong ISA" : "no instruction",
				rr ? rr->state[(g->pc - rr->base) / 2] : -1,
				rr ? rr->state[(g->pc - rr->base) / 2 - 1] : -1, g->nev);
			if (g->nev) {
				uint64_t la = g->ev[g->nev - 1].addr;
				struct prog_region *lr = prog_reg(g, la);
				const struct prog_insn *li = lr ? &lr->insn[(la - lr->base) / 2] : NULL;
				fprintf(stderr, "last ev addr 0x%llx exc %u", (unsigned long long)la,
					g->ev[g->nev - 1].exc);
				if (li)
					fprintf(stderr, " op 0x%08x size %u kind %u target 0x%llx",
						li->opcode, li->size, li->kind,
						(unsigned long long)li->target);
				fprintf(stderr, "\n");
			}
		}
		return -1;
	}
	struct pft_ptm_insn x;
	int passed = in->cond ? prog_rn(g, 3) != 0 : 1;
	uint64_t next = g->pc + in->size;
	uint8_t nisa = g->isa, nns = g->ns, nhyp = g->hyp, nvmid = g->vmid;
	uint32_t ncid = g->cid;
	uint8_t nprohib = g->prohib;
	int exc_ret = 0, svc = 0;

	switch (in->kind) {
	case PK_DIRECT:
		if (passed) {
			next = in->target;
			nisa = in->target_isa;
			if (in->link)
				push_call(g, g->pc + in->size);
		}
		break;
	case PK_INDIRECT:
		if (passed) {
			if (in->ret && g->ncalls && prog_rn(g, 5) != 0) {
				g->ncalls--;
				next = g->calls[g->ncalls].ret;
				nisa = g->calls[g->ncalls].isa;
			} else {
				prog_random_target(g, &next, &nisa);
			}
			if (in->link)
				push_call(g, g->pc + in->size);
		}
		break;
	case PK_EXC_RET:
		exc_ret = 1;
		if (passed) {
			if (g->nexcs) {
				struct prog_frame *f = &g->excs[--g->nexcs];
				next = f->ret;
				nisa = f->isa;
				nns = f->ns;
				nhyp = f->hyp;
				ncid = f->cid;
				nvmid = f->vmid;
				nprohib = f->prohib;
			} else {
				prog_random_target(g, &next, &nisa);
			}
		}
		break;
	case PK_ISB:
		if (g->o.cid_changes && prog_rn(g, 4) == 0)
			ncid = (uint32_t)prog_rand(g);
		if (g->o.vmid_changes && prog_rn(g, 6) == 0)
			nvmid = (uint8_t)prog_rand(g);
		break;
	case PK_SVC:
		svc = passed;
		break;
	default:
		break;
	}
	g->cycle += 1 + prog_rn(g, 3) + (prog_rn(g, 64) == 0 ? prog_rn(g, 2000) : 0);
	memset(&x, 0, sizeof(x));
	x.addr = g->pc;
	x.next_addr = next;
	x.cycle = g->cycle;
	x.opcode = in->opcode;
	x.context_id = g->cid;
	x.vmid = g->vmid;
	x.isa = g->isa;
	x.next_isa = nisa;
	x.size = in->size;
	x.wp_class = in->wp_class;
	x.flags = (uint16_t)((passed ? 0 : PFT_PTM_I_COND_FAILED) | (g->ns ? PFT_PTM_I_NS : 0) |
			     (g->hyp ? PFT_PTM_I_HYP : 0) | (nns ? PFT_PTM_I_NEXT_NS : 0) |
			     (nhyp ? PFT_PTM_I_NEXT_HYP : 0) | (in->link ? PFT_PTM_I_LINK : 0) |
			     (exc_ret ? PFT_PTM_I_EXC_RETURN : 0) | (classify ? PFT_PTM_I_CLASSIFY : 0) |
			     (!g->prohib && nprohib ? PFT_PTM_I_NEXT_PROHIBITED : 0));
	if (ptm) {
		pft_ptm_timestamp(ptm, prog_ts(g->cycle), 0);
		if (pft_ptm_insn(ptm, &x) < 0)
			g->fed_errors++;
		if (g->prohib && !nprohib)
			pft_ptm_prohibited(ptm, 0, g->cycle);
	}
	g->just_left = g->prohib && !nprohib;
	struct prog_ev *ev = prog_log(g);
	ev->prohib = g->prohib;
	ev->addr = g->pc;
	ev->cycle = g->cycle;
	ev->ts = prog_ts(g->cycle);
	ev->isa = g->isa;
	ev->ns = g->ns;
	ev->hyp = g->hyp;
	ev->cid = g->cid;
	ev->vmid = g->vmid;
	ev->wp = in->wp_class != PFT_WP_NONE && (in->wp_class != PFT_WP_BARRIER || g->dmb_wp);
	g->pc = next;
	g->isa = nisa;
	g->ns = nns;
	g->hyp = nhyp;
	g->cid = ncid;
	g->vmid = nvmid;
	g->prohib = nprohib;
	return svc;
}

uint32_t prog_random_etmcr(uint64_t *r, int v11)
{
	uint32_t cr = 0;

	if (check_rand(r) & 1)
		cr |= 1u << 12; /* CA */
	if (check_rand(r) % 4 == 0)
		cr |= 1u << 8; /* branch broadcast */
	else if (check_rand(r) & 1)
		cr |= 1u << 29; /* return stack */
	if (check_rand(r) & 1)
		cr |= 1u << 28; /* timestamps */
	cr |= (uint32_t)(check_rand(r) % 4) << 14;
	if (v11 && (check_rand(r) & 1))
		cr |= 1u << 30; /* VMID */
	return cr;
}

int prog_random_config(struct pft_config *c, uint64_t *r)
{
	int v11 = check_rand(r) % 3 != 0;

	pft_config_init(c);
	c->etmcr = prog_random_etmcr(r, v11);
	if (v11) {
		c->etmidr = 0x411CF312u;
		c->etmccer = 0x34C01AC2u & ~((1u << 28) | (1u << 29));
		c->etmccer |= (uint32_t)(check_rand(r) & 3) << 28;
	} else {
		c->etmidr = 0x411CF301u;
		c->etmccer = 0x000008EAu | (1u << 22);
	}
	return v11;
}

void prog_random_opts(struct prog_opts *o, uint64_t *r, int v11)
{
	memset(o, 0, sizeof(*o));
	o->thumb_vectors = check_rand(r) & 1;
	o->security = check_rand(r) & 1;
	o->hyp = v11 && (check_rand(r) & 1);
	o->cid_changes = 1;
	o->vmid_changes = 1;
	o->exceptions = (uint8_t)(check_rand(r) % 40);
	o->debug = (uint8_t)(check_rand(r) % 4);
}

void prog_init(struct prog *g, uint64_t seed, const struct prog_opts *o)
{
	memset(g, 0, sizeof(*g));
	g->rng = seed * 0x9E3779B97F4A7C15ull + 1;
	g->o = *o;
	uint64_t a = (prog_rand(g) % 0xF000u) << 16;
	uint64_t t = a + ((1 + prog_rn(g, 120)) << 16);
	if (prog_rn(g, 2) && a > (130ull << 16))
		t = a - ((1 + prog_rn(g, 120)) << 16);
	g->r[0].base = a;
	g->r[0].isa = PFT_ISA_ARM;
	g->r[1].base = t;
	g->r[1].isa = PFT_ISA_THUMB;
	/* vectors: reserve each slot so no 32-bit instruction straddles one */
	for (unsigned ty = 1; ty < 16; ty++) {
		uint64_t v = prog_vector(g, ty);
		struct prog_region *r = prog_reg(g, v);
		if (r->state[(v - r->base) / 2] != 1)
			prog_gen(g, r, v);
	}
	g->isa = prog_rn(g, 2) ? PFT_ISA_THUMB : PFT_ISA_ARM;
	g->pc = g->r[g->isa == PFT_ISA_THUMB].base + 0x400;
	g->cid = (uint32_t)prog_rand(g);
	g->vmid = (uint8_t)prog_rand(g);
	g->cur_blk_start = g->pc;
}

void prog_fini(struct prog *g)
{
	free(g->ev);
	free(g->blk);
	g->ev = NULL;
	g->blk = NULL;
}

int prog_run(struct prog *g, struct pft_ptm *ptm, unsigned n, int v11, int classify)
{
	for (unsigned i = 0; i < n; i++) {
		int svc = prog_step(g, ptm, v11, classify);
		if (svc < 0)
			return -1;
		const struct prog_ev *last = &g->ev[g->nev - 1];
		if (last->wp)
			prog_end_block(g, g->pc, 0);
		if (svc) {
			prog_exception(g, ptm, PFT_EXC_SVC, v11);
		} else if (g->o.exceptions && prog_rn(g, 1000) < g->o.exceptions) {
			static const uint8_t types[] = { 14, 15, 4, 12, 11, 9, 13, 2, 14, 14 };
			unsigned ty = types[prog_rn(g, sizeof(types))];
			if (g->o.resets && prog_rn(g, 20) == 0)
				ty = PFT_EXC_RESET;
			if (v11 && g->o.hyp && prog_rn(g, 10) == 0)
				ty = PFT_EXC_HYP;
			prog_exception(g, ptm, ty, v11);
			while (prog_rn(g, 8) == 0) /* back to back */
				prog_exception(g, ptm, types[prog_rn(g, sizeof(types))], v11);
		} else if (g->o.debug && !g->prohib && !g->just_left && prog_rn(g, 1000) < g->o.debug) {
			g->cycle += 2;
			if (ptm) {
				pft_ptm_timestamp(ptm, prog_ts(g->cycle), 0);
				pft_ptm_debug_entry(ptm, g->cycle);
			}
			struct prog_ev *ev = prog_log(g);
			ev->exc = PFT_EXC_DEBUG_HALT;
			ev->addr = 0;
			ev->cycle = g->cycle;
			ev->ts = prog_ts(g->cycle);
			prog_end_block(g, g->pc, PFT_EXC_DEBUG_HALT);
			g->cycle += 100 + prog_rn(g, 1000);
			if (ptm)
				pft_ptm_debug_exit(ptm, g->pc, (enum pft_isa)g->isa,
						   (g->ns ? PFT_PTM_E_NS : 0) | (g->hyp ? PFT_PTM_E_HYP : 0),
						   g->cycle);
		}
	}
	return 0;
}
