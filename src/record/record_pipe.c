/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: the pipeline between an execution source and the PTM.  It
 * holds one instruction back until its successor is known (the next
 * instruction, or the preferred return address of an exception taken after
 * it), charges the cycle model and hands the completed instruction to the
 * consumers: the executed-instruction log and the PTM. */
#include <string.h>

#include "pft/record.h"

void pft_rec_pipe_init(struct pft_rec_pipe *p, const struct pft_rec_cycles *c,
                       const struct pft_rec_consumer *log, const struct pft_rec_consumer *out)
{
	memset(p, 0, sizeof(*p));
	p->cycles = *c;
	p->log = log;
	p->out = out;
}

static int emit(struct pft_rec_pipe *p, uint64_t next, enum pft_isa next_isa)
{
	struct pft_rec_full f;
	enum pft_rec_cycle_class cls;
	int rc;

	f.in = p->prev;
	f.next_addr = next;
	f.next_isa = (uint8_t)next_isa;
	f.taken = next != p->prev.addr + p->prev.size;
	if (p->prev.cond == 0)
		cls = PFT_REC_CYC_FAILED;
	else if (f.taken)
		cls = PFT_REC_CYC_BRANCH;
	else
		cls = pft_rec_cycles_classify((enum pft_isa)p->prev.isa, p->prev.opcode, p->prev.size);
	p->cycle += p->cycles.cost[cls];
	f.cycle = p->cycle;
	p->have_prev = 0;
	p->insns++;
	if (p->log && p->log->insn && (rc = p->log->insn(p->log->ctx, &f)) < 0)
		return rc;
	if (p->out && p->out->insn)
		return p->out->insn(p->out->ctx, &f);
	return 0;
}

static int pipe_insn(void *ctx, const struct pft_rec_insn *in)
{
	struct pft_rec_pipe *p = ctx;
	int rc = 0;

	if (p->have_prev)
		rc = emit(p, in->addr, (enum pft_isa)in->isa);
	if (rc < 0)
		return p->err = rc;
	p->prev = *in;
	p->have_prev = 1;
	return 0;
}

static int pipe_exc(void *ctx, const struct pft_rec_exc *x)
{
	struct pft_rec_pipe *p = ctx;
	int rc = 0;

	if (p->have_prev)
		rc = emit(p, x->pref_return, (enum pft_isa)x->return_isa);
	if (rc < 0)
		return p->err = rc;
	p->cycle += p->cycles.cost[PFT_REC_CYC_EXCEPTION];
	p->exceptions++;
	if (p->log && p->log->exception && (rc = p->log->exception(p->log->ctx, x, p->cycle)) < 0)
		return p->err = rc;
	if (p->out && p->out->exception)
		rc = p->out->exception(p->out->ctx, x, p->cycle);
	return rc < 0 ? (p->err = rc) : 0;
}

void pft_rec_pipe_sink(struct pft_rec_pipe *p, struct pft_rec_sink *sink)
{
	sink->insn = pipe_insn;
	sink->exception = pipe_exc;
	sink->ctx = p;
}

int pft_rec_pipe_end(struct pft_rec_pipe *p, uint64_t stop_addr, enum pft_isa stop_isa, int have_stop)
{
	int rc = 0;

	if (p->have_prev)
		rc = emit(p, have_stop ? stop_addr : p->prev.addr + p->prev.size,
		          have_stop ? stop_isa : (enum pft_isa)p->prev.isa);
	if (rc == 0 && p->log && p->log->end)
		rc = p->log->end(p->log->ctx, p->cycle);
	if (rc == 0 && p->out && p->out->end)
		rc = p->out->end(p->out->ctx, p->cycle);
	return rc;
}
