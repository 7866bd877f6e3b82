/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: the emulated execution source.  Runs a bare-metal ARMv7-A
 * ELF image under Unicorn 2 from its entry (ARM or Thumb by bit 0, SVC mode
 * with interrupts masked, as after reset) and delivers every retired
 * instruction and every exception to a pft_rec_sink.
 *
 * Unicorn reports an instruction through the code hook before it executes,
 * so an instruction is delivered when the next one is reported (it
 * retired) and dropped when it faults instead (undefined instruction, data
 * abort: the preferred return address is its own).
 *
 * Exceptions are taken here, not by Unicorn, the way ARMv7-A does (ARM ARM
 * B1.8): the new mode's banked LR and SPSR, CPSR.M/I/A/F, CPSR.T from
 * SCTLR.TE, CPSR.E from SCTLR.EE, IT and J cleared, and the vector at
 * VBAR (or 0xFFFF0000 with SCTLR.V).  Exception returns (SUBS PC, LR, LDM ^,
 * RFE) are ordinary instructions Unicorn executes.
 *
 * Interrupts are injected at instruction boundaries (--irq-every,
 * --irq-at, --irq-random): an IRQ stays pending until CPSR.I is clear and
 * is not taken inside an IT block (the model defers it to the end of the
 * block); at least one instruction retires between two IRQs, so that a
 * rate faster than the handler still makes progress.
 *
 * Unicorn 2.0.1 does not call the code hook for a Thumb instruction inside
 * an IT block whose condition fails.  The source tracks ITSTATE from the
 * code bytes (each IT instruction, then ITAdvance per instruction): when the
 * next reported address is not the next instruction of an IT block that
 * has not ended, the instructions in between are the skipped ones, and are
 * delivered as condition-failed.
 *
 * Built only when Unicorn is found (record_emu_none.c stands in otherwise). */
#include <stdlib.h>
#include <string.h>

#include "pft/isa.h"
#include "pft/record.h"

#include <unicorn/unicorn.h>

#define CPSR_T 0x20u
#define CPSR_I 0x80u
#define CPSR_F 0x40u
#define CPSR_A 0x100u
#define CPSR_E 0x200u
#define CPSR_IT_MASK 0x0600fc00u
#define CPSR_J 0x01000000u

enum act { ACT_NONE, ACT_STOP, ACT_IRQ, ACT_SVC, ACT_DABT, ACT_PABT, ACT_ERROR };

struct emu {
	uc_engine *uc;
	const struct pft_rec_elf *elf;
	const struct pft_rec_emu_opts *o;
	const struct pft_rec_sink *sink;
	struct pft_rec_emu_stats *st;
	struct pft_rec_insn pending;
	int have_pending;
	uint64_t expect;        /* address after the pending instruction */
	uint8_t it;             /* ITSTATE of the instruction at expect */
	enum act act;
	uint64_t act_addr;
	const char *stop_reason;
	int err;                /* sink error */
	/* interrupts */
	int irq_line;           /* an IRQ is pending */
	uint64_t next_every, next_random;
	unsigned at_i;
	uint64_t rng;
	char *msg;
	size_t cap;
	int in_stub;            /* running the mode-switch stub: hooks stand aside */
	unsigned unmasked;      /* instructions reported in a row with CPSR.I clear */
	uint32_t cid;           /* CONTEXTIDR */
};

/* Unicorn writes CPSR raw (no register banking), so a mode change goes
 * through one instruction, MSR CPSR_c, R0, run from this page (mapped
 * where bare-metal images do not go). */
#define STUB_PAGE 0xfffff000u
#define STUB_MSR_CPSR_C_R0 0xe121f000u

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t reg_read(uc_engine *uc, int reg)
{
	uint32_t v = 0;

	uc_reg_read(uc, reg, &v);
	return v;
}

static uint32_t cp15_read(uc_engine *uc, unsigned crn, unsigned crm, unsigned opc1, unsigned opc2)
{
	uc_arm_cp_reg r;

	memset(&r, 0, sizeof(r));
	r.cp = 15;
	r.crn = crn;
	r.crm = crm;
	r.opc1 = opc1;
	r.opc2 = opc2;
	if (uc_reg_read(uc, UC_ARM_REG_CP_REG, &r) != UC_ERR_OK)
		return 0;
	return (uint32_t)r.val;
}

static uint64_t retired(const struct emu *e)
{
	return e->st->insns + (e->have_pending ? 1u : 0u);
}

static void stop(struct emu *e, enum act a, uint64_t addr, const char *reason)
{
	e->act = a;
	e->act_addr = addr;
	if (reason)
		e->stop_reason = reason;
	uc_emu_stop(e->uc);
}

static int commit(struct emu *e)
{
	int rc;

	if (!e->have_pending)
		return 0;
	e->have_pending = 0;
	if (e->pending.cond != 0 && pft_rec_is_contextidr_write(e->pending.opcode))
		e->cid = cp15_read(e->uc, 13, 0, 0, 1); /* it retired: the new value */
	e->st->insns++;
	rc = e->sink->insn(e->sink->ctx, &e->pending);
	if (rc < 0 && !e->err)
		e->err = rc;
	return rc;
}

static void set_pending(struct emu *e, uint64_t addr, const uint8_t *b, unsigned size,
                        enum pft_isa isa, unsigned condcode, int cond, int user)
{
	e->pending.condcode = (uint8_t)condcode;
	e->pending.addr = addr;
	e->pending.size = (uint8_t)size;
	e->pending.isa = (uint8_t)isa;
	e->pending.opcode = pft_rec_opcode(isa, b, size);
	e->pending.cond = (int8_t)cond;
	e->pending.user = (uint8_t)user;
	e->pending.context_id = e->cid;
	e->pending.naccess = 0;
	e->have_pending = 1;
}

/* Latch the interrupt sources due at instruction index idx. */
static void irq_sources(struct emu *e, uint64_t idx)
{
	const struct pft_rec_emu_opts *o = e->o;

	if (o->irq_every && idx >= e->next_every) {
		e->irq_line = 1;
		e->next_every = idx + o->irq_every;
	}
	while (e->at_i < o->n_irq_at && idx >= o->irq_at[e->at_i]) {
		e->irq_line = 1;
		e->at_i++;
	}
	if (o->irq_random && idx >= e->next_random) {
		e->irq_line = 1;
		e->next_random = idx + 1 + rng_next(&e->rng) % (2 * o->irq_random);
	}
}

static void hook_code(uc_engine *uc, uint64_t addr, uint32_t size, void *ud)
{
	struct emu *e = ud;
	uint32_t cpsr;
	enum pft_isa isa;
	uint8_t b[4], it_cur;
	uint32_t op;
	unsigned cond;

	if (e->act != ACT_NONE || e->err || e->in_stub)
		return;
	cpsr = reg_read(uc, UC_ARM_REG_CPSR);
	isa = (cpsr & CPSR_T) ? PFT_ISA_THUMB : PFT_ISA_ARM;

	/* Re-insert the condition-failed IT instructions Unicorn skipped. */
	while (e->it && e->have_pending && isa == PFT_ISA_THUMB && addr != e->expect) {
		uint8_t sb[4] = { 0, 0, 0, 0 };
		unsigned ssz;

		if (uc_mem_read(uc, e->expect, sb, 2) != UC_ERR_OK)
			break;
		ssz = (unsigned)pft_isa_thumb_size((uint32_t)(sb[0] | sb[1] << 8));
		if (ssz == 4 && uc_mem_read(uc, e->expect + 2, sb + 2, 2) != UC_ERR_OK)
			break;
		if (commit(e) < 0)
			goto sink_error;
		set_pending(e, e->expect, sb, ssz, PFT_ISA_THUMB, e->it >> 4, 0,
		            (cpsr & 0x1f) == 0x10);
		e->st->it_reinserted++;
		e->expect += ssz;
		e->it = pft_rec_it_advance(e->it);
	}
	it_cur = (e->have_pending && addr == e->expect && isa == PFT_ISA_THUMB) ? e->it : 0;

	if (size > 4 || size < 2 || uc_mem_read(uc, addr, b, size) != UC_ERR_OK) {
		snprintf(e->msg, e->cap, "cannot read the instruction at 0x%08llx",
		         (unsigned long long)addr);
		stop(e, ACT_ERROR, addr, "error");
		return;
	}
	op = pft_rec_opcode(isa, b, size);

	if (e->o->have_until && addr == (e->o->until & ~1ull)) {
		stop(e, ACT_STOP, addr, "until");
		return;
	}
	if (pft_rec_is_bkpt(isa, op, size)) {
		stop(e, ACT_STOP, addr, "bkpt");
		return;
	}
	if (e->o->max_insns && retired(e) >= e->o->max_insns) {
		stop(e, ACT_STOP, addr, "max-insns");
		return;
	}
	irq_sources(e, retired(e));
	e->unmasked = (cpsr & CPSR_I) ? 0 : e->unmasked + 1;
	/* forward progress: at least one instruction retires between two IRQs */
	if (e->irq_line && e->unmasked >= 2 && !it_cur) {
		e->irq_line = 0;
		stop(e, ACT_IRQ, addr, NULL);
		return;
	}

	cond = it_cur ? (unsigned)(it_cur >> 4) : pft_rec_insn_cond(isa, op, size);
	if (commit(e) < 0)
		goto sink_error;
	set_pending(e, addr, b, size, isa, cond, pft_isa_cond_passed(cond, cpsr),
	            (cpsr & 0x1f) == 0x10);
	if (isa == PFT_ISA_THUMB && pft_rec_is_it(op, size, &e->it))
		;
	else
		e->it = it_cur ? pft_rec_it_advance(it_cur) : 0;
	e->expect = addr + size;
	return;
sink_error:
	stop(e, ACT_ERROR, addr, "error");
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *ud)
{
	struct emu *e = ud;

	(void)uc;
	if (e->act != ACT_NONE || e->in_stub)
		return;
	if (intno == 2 && e->have_pending) /* EXCP_SWI */
		stop(e, ACT_SVC, e->pending.addr + e->pending.size, NULL);
	else if (intno == 7) /* EXCP_BKPT */
		stop(e, ACT_STOP, e->have_pending ? e->pending.addr : 0, "bkpt");
	else {
		snprintf(e->msg, e->cap, "unexpected CPU exception %u after 0x%08llx", intno,
		         (unsigned long long)(e->have_pending ? e->pending.addr : 0));
		stop(e, ACT_ERROR, 0, "error");
	}
}

static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
                          int64_t value, void *ud)
{
	struct emu *e = ud;

	(void)uc;
	(void)size;
	(void)value;
	if (e->act != ACT_NONE || e->in_stub)
		return false;
	if (type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT) {
		e->act = ACT_PABT;
		e->act_addr = addr;
	} else {
		e->act = ACT_DABT;
		e->act_addr = addr;
	}
	return false;
}

/* A data transfer of the pending instruction (loads after the read, so the
 * value is the one read; stores with the value written). */
static void hook_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
                     int64_t value, void *ud)
{
	struct emu *e = ud;
	struct pft_rec_insn *p = &e->pending;

	(void)uc;
	if (e->act != ACT_NONE || e->in_stub || !e->have_pending)
		return;
	if (p->naccess < PFT_REC_MAX_ACCESS) {
		struct pft_rec_access *a = &p->access[p->naccess];

		a->addr = (uint32_t)addr;
		a->size = (uint8_t)size;
		a->write = type == UC_MEM_WRITE;
		a->value = size >= 8 ? (uint64_t)value : (uint64_t)value & ((1ull << (8 * size)) - 1);
	}
	if (p->naccess < 255)
		p->naccess++;
}

static bool hook_invalid(uc_engine *uc, void *ud)
{
	(void)uc;
	(void)ud;
	return false; /* the run stops with UC_ERR_INSN_INVALID: taken as UNDEF */
}

/* Change to mode with the banked registers swapped, as an MSR does.  User
 * mode cannot MSR its way out; it shares its bank with System mode, so a
 * raw switch to System mode comes first. */
static int switch_mode(struct emu *e, uint32_t cpsr, unsigned mode)
{
	uc_engine *uc = e->uc;
	uint32_t r0 = reg_read(uc, UC_ARM_REG_R0), v, arm = cpsr & ~(CPSR_T | CPSR_IT_MASK);
	uc_err ue;

	if ((cpsr & 0x1fu) == 0x10u)
		arm = (arm & ~0x1fu) | 0x1fu;
	v = (arm & 0xc0u) | CPSR_I | mode;
	if (uc_reg_write(uc, UC_ARM_REG_CPSR, &arm) != UC_ERR_OK ||
	    uc_reg_write(uc, UC_ARM_REG_R0, &v) != UC_ERR_OK)
		return -1;
	e->in_stub = 1;
	ue = uc_emu_start(uc, STUB_PAGE, STUB_PAGE + 4, 0, 0); /* a count would flush all TBs */
	e->in_stub = 0;
	if (ue != UC_ERR_OK || (reg_read(uc, UC_ARM_REG_CPSR) & 0x1fu) != mode)
		return -1;
	return uc_reg_write(uc, UC_ARM_REG_R0, &r0) == UC_ERR_OK ? 0 : -1;
}

/* ARMv7-A exception entry; returns the vector (bit 0 = Thumb). */
static int take_exception(struct emu *e, enum pft_rec_exc_type type, uint64_t pref,
                          uint64_t *resume)
{
	uc_engine *uc = e->uc;
	uint32_t cpsr = reg_read(uc, UC_ARM_REG_CPSR), ncpsr;
	uint32_t sctlr = cp15_read(uc, 1, 0, 0, 0), vbar = cp15_read(uc, 12, 0, 0, 0);
	unsigned mode, off, thumb = (cpsr & CPSR_T) != 0;
	uint32_t lr;
	uint64_t base;
	struct pft_rec_exc x;

	switch (type) {
	case PFT_REC_EXC_UNDEF: mode = 0x1b; off = 0x04; lr = (uint32_t)pref + (thumb ? 2 : 4); break;
	case PFT_REC_EXC_SVC:   mode = 0x13; off = 0x08; lr = (uint32_t)pref; break;
	case PFT_REC_EXC_PABT:  mode = 0x17; off = 0x0c; lr = (uint32_t)pref + 4; break;
	case PFT_REC_EXC_DABT:  mode = 0x17; off = 0x10; lr = (uint32_t)pref + 8; break;
	case PFT_REC_EXC_IRQ:   mode = 0x12; off = 0x18; lr = (uint32_t)pref + 4; break;
	default:            mode = 0x11; off = 0x1c; lr = (uint32_t)pref + 4; break;
	}
	base = (sctlr & (1u << 13)) ? 0xffff0000u : (vbar & ~0x1fu);
	ncpsr = (cpsr & ~(0x1fu | CPSR_T | CPSR_IT_MASK | CPSR_J | CPSR_E)) | mode | CPSR_I;
	if (type != PFT_REC_EXC_UNDEF && type != PFT_REC_EXC_SVC)
		ncpsr |= CPSR_A;
	if (type == PFT_REC_EXC_FIQ)
		ncpsr |= CPSR_F;
	if (sctlr & (1u << 30))
		ncpsr |= CPSR_T;
	if (sctlr & (1u << 25))
		ncpsr |= CPSR_E;
	if (e->it)
		e->st->exc_in_it++; /* taken inside an IT block: ITSTATE is not saved */
	if (switch_mode(e, cpsr, mode) < 0 ||
	    uc_reg_write(uc, UC_ARM_REG_CPSR, &ncpsr) != UC_ERR_OK ||
	    uc_reg_write(uc, UC_ARM_REG_SPSR, &cpsr) != UC_ERR_OK ||
	    uc_reg_write(uc, UC_ARM_REG_LR, &lr) != UC_ERR_OK) {
		snprintf(e->msg, e->cap, "cannot enter the %s exception", pft_rec_exc_type_name(type));
		return -PFT_E_INTERNAL;
	}
	e->st->exceptions[type & 15]++;
	e->it = 0;
	e->unmasked = 0;
	x.pref_return = pref;
	x.vector = base + off;
	x.type = (uint8_t)type;
	x.isa = (ncpsr & CPSR_T) ? PFT_ISA_THUMB : PFT_ISA_ARM;
	x.untraced = 0;
	x.return_isa = thumb ? PFT_ISA_THUMB : PFT_ISA_ARM;
	*resume = x.vector | ((ncpsr & CPSR_T) ? 1u : 0u);
	return e->sink->exception(e->sink->ctx, &x);
}

/* uc_hook_add takes callbacks as void *: convert without a pedantic cast. */
typedef void (*any_fn)(void);
static void *as_hook(any_fn f)
{
	void *p;

	memcpy(&p, &f, sizeof(p));
	return p;
}

static int map_image(struct emu *e)
{
	unsigned i, j;
	uint64_t lo[64], hi[64];
	unsigned n = 0;

	for (i = 0; i < e->elf->nseg && n < 64; i++) {
		uint64_t a = e->elf->seg[i].vaddr & ~0xfffull;
		uint64_t b = (e->elf->seg[i].vaddr + e->elf->seg[i].memsz + 0xfff) & ~0xfffull;

		for (j = 0; j < n; j++)
			if (a <= hi[j] && b >= lo[j]) {
				lo[j] = a < lo[j] ? a : lo[j];
				hi[j] = b > hi[j] ? b : hi[j];
				break;
			}
		if (j == n) {
			lo[n] = a;
			hi[n] = b;
			n++;
		}
	}
	for (j = 0; j < n; j++)
		if (uc_mem_map(e->uc, lo[j], hi[j] - lo[j], UC_PROT_ALL) != UC_ERR_OK) {
			snprintf(e->msg, e->cap, "cannot map 0x%llx..0x%llx",
			         (unsigned long long)lo[j], (unsigned long long)hi[j]);
			return -PFT_E_FORMAT;
		}
	for (j = 0; j < n; j++)
		if (lo[j] < (uint64_t)STUB_PAGE + 0x1000 && hi[j] > STUB_PAGE) {
			snprintf(e->msg, e->cap, "the image overlaps 0x%08x, which the emulator uses",
			         STUB_PAGE);
			return -PFT_E_UNSUPPORTED;
		}
	{
		static const uint8_t stub[4] = { STUB_MSR_CPSR_C_R0 & 0xff,
		                                 (STUB_MSR_CPSR_C_R0 >> 8) & 0xff,
		                                 (STUB_MSR_CPSR_C_R0 >> 16) & 0xff,
		                                 STUB_MSR_CPSR_C_R0 >> 24 };

		if (uc_mem_map(e->uc, STUB_PAGE, 0x1000, UC_PROT_READ | UC_PROT_EXEC) != UC_ERR_OK ||
		    uc_mem_write(e->uc, STUB_PAGE, stub, sizeof(stub)) != UC_ERR_OK) {
			snprintf(e->msg, e->cap, "cannot map the mode-switch page");
			return -PFT_E_INTERNAL;
		}
	}
	for (i = 0; i < e->elf->nseg; i++)
		if (uc_mem_write(e->uc, e->elf->seg[i].vaddr, e->elf->seg[i].data,
		                 e->elf->seg[i].memsz) != UC_ERR_OK) {
			snprintf(e->msg, e->cap, "cannot load segment %u", i);
			return -PFT_E_FORMAT;
		}
	return 0;
}

static int run_loop(struct emu *e)
{
	uint64_t pc = e->elf->entry;
	uint32_t cpsr = 0x1d3; /* SVC mode, A, I, F masked: ARMv7-A reset state */
	int rc;

	if (uc_reg_write(e->uc, UC_ARM_REG_CPSR, &cpsr) != UC_ERR_OK) {
		snprintf(e->msg, e->cap, "cannot set the reset CPSR");
		return -PFT_E_INTERNAL;
	}
	uint64_t last_insns = (uint64_t)-1;
	unsigned nested = 0;

	for (;;) {
		uc_err ue;
		uint64_t resume = 0;

		e->act = ACT_NONE;
		ue = uc_emu_start(e->uc, pc, 0, 0, 0);
		if (e->err)
			return e->err;
		if (e->act == ACT_NONE && ue == UC_ERR_INSN_INVALID) {
			/* PC is the undefined instruction; Unicorn may or may not
			 * have reported it through the code hook */
			uint64_t at = reg_read(e->uc, UC_ARM_REG_PC);

			if (e->have_pending && e->pending.addr == at)
				e->have_pending = 0;
			else if ((rc = commit(e)) < 0)
				return rc;
			rc = take_exception(e, PFT_REC_EXC_UNDEF, at, &resume);
		} else if (e->act == ACT_DABT) {
			uint64_t at = e->have_pending ? e->pending.addr : 0;
			e->have_pending = 0;
			rc = take_exception(e, PFT_REC_EXC_DABT, at, &resume);
		} else if (e->act == ACT_PABT) {
			if ((rc = commit(e)) < 0)
				return rc;
			rc = take_exception(e, PFT_REC_EXC_PABT, e->act_addr, &resume);
		} else if (e->act == ACT_IRQ || e->act == ACT_SVC) {
			if ((rc = commit(e)) < 0)
				return rc;
			rc = take_exception(e, e->act == ACT_IRQ ? PFT_REC_EXC_IRQ : PFT_REC_EXC_SVC,
			                    e->act_addr, &resume);
		} else if (e->act == ACT_STOP) {
			e->st->stop_addr = e->act_addr;
			e->st->r0 = reg_read(e->uc, UC_ARM_REG_R0);
			e->st->stop_isa = (reg_read(e->uc, UC_ARM_REG_CPSR) & CPSR_T) ?
			                  PFT_ISA_THUMB : PFT_ISA_ARM;
			return commit(e) < 0 ? e->err : 0;
		} else if (e->act == ACT_ERROR) {
			return -PFT_E_FORMAT;
		} else if (ue != UC_ERR_OK) {
			snprintf(e->msg, e->cap, "emulation error at 0x%08x: %s",
			         reg_read(e->uc, UC_ARM_REG_PC), uc_strerror(ue));
			e->stop_reason = "error";
			return -PFT_E_FORMAT;
		} else {
			e->stop_reason = "end";
			e->st->r0 = reg_read(e->uc, UC_ARM_REG_R0);
			return commit(e) < 0 ? e->err : 0;
		}
		if (rc < 0)
			return rc;
		/* an exception at the vector of the one before, with nothing
		 * retired in between: the vector table is missing or broken */
		nested = e->st->insns == last_insns ? nested + 1 : 0;
		last_insns = e->st->insns;
		if (nested >= 8) {
			snprintf(e->msg, e->cap, "exception loop: no instruction retires at the "
			         "vector 0x%08llx (no vector table? VBAR/SCTLR.V)",
			         (unsigned long long)(resume & ~1ull));
			e->stop_reason = "error";
			return -PFT_E_FORMAT;
		}
		pc = resume;
	}
}

int pft_rec_emu_run(const struct pft_rec_elf *elf, const struct pft_rec_emu_opts *o,
                const struct pft_rec_sink *sink, struct pft_rec_emu_stats *st, char *msg, size_t cap)
{
	struct emu e;
	uc_hook h1, h2, h3, h4, h5;
	uc_err ue;
	int rc;

	memset(&e, 0, sizeof(e));
	memset(st, 0, sizeof(*st));
	e.elf = elf;
	e.o = o;
	e.sink = sink;
	e.st = st;
	e.msg = msg;
	e.cap = cap;
	e.rng = o->seed;
	e.next_every = o->irq_every;
	e.next_random = o->irq_random ? 1 + rng_next(&e.rng) % (2 * o->irq_random) : 0;
	e.stop_reason = "end";
	ue = uc_open(UC_ARCH_ARM, UC_MODE_ARM, &e.uc);
	if (ue != UC_ERR_OK) {
		snprintf(msg, cap, "Unicorn: %s", uc_strerror(ue));
		return -PFT_E_INTERNAL;
	}
	uc_ctl_set_cpu_model(e.uc, UC_CPU_ARM_CORTEX_A15);
	rc = map_image(&e);
	if (rc == 0 &&
	    (uc_hook_add(e.uc, &h1, UC_HOOK_CODE, as_hook((any_fn)hook_code), &e, 1, 0) ||
	     uc_hook_add(e.uc, &h2, UC_HOOK_INTR, as_hook((any_fn)hook_intr), &e, 1, 0) ||
	     uc_hook_add(e.uc, &h3, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_PROT,
	                 as_hook((any_fn)hook_unmapped), &e, 1, 0) ||
	     uc_hook_add(e.uc, &h4, UC_HOOK_INSN_INVALID, as_hook((any_fn)hook_invalid), &e, 1, 0))) {
		snprintf(msg, cap, "Unicorn: cannot add hooks");
		rc = -PFT_E_INTERNAL;
	}
	if (rc == 0 && o->accesses &&
	    uc_hook_add(e.uc, &h5, UC_HOOK_MEM_READ_AFTER | UC_HOOK_MEM_WRITE,
	                as_hook((any_fn)hook_mem), &e, 1, 0)) {
		snprintf(msg, cap, "Unicorn: cannot add the memory hook");
		rc = -PFT_E_INTERNAL;
	}
	if (rc == 0)
		rc = run_loop(&e);
	st->stop_reason = rc < 0 ? "error" : e.stop_reason;
	uc_close(e.uc);
	return rc;
}
