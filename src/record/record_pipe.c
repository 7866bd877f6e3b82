/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: the pipeline between an execution source and the PTM.  It
 * holds one instruction back until its successor is known (the next
 * instruction, or the preferred return address of an exception taken after
 * it), charges the cycle model, writes the executed-instruction log and
 * hands the completed instruction to the consumer. */
#include <string.h>

#include "pft/record.h"

void pft_rec_pipe_init(struct pft_rec_pipe *p, const struct pft_rec_cycles *c, FILE *log,
                   const struct pft_rec_consumer *out)
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
	if (p->log && fprintf(p->log, "%08llx %s\n", (unsigned long long)f.in.addr,
	                      pft_isa_name((enum pft_isa)f.in.isa)) < 0)
		return -PFT_E_IO;
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
		rc = emit(p, x->pref_return, (enum pft_isa)p->prev.isa);
	if (rc < 0)
		return p->err = rc;
	if (p->log && p->log_exceptions &&
	    fprintf(p->log, "! %s %08llx\n", pft_rec_exc_name(x->type),
	            (unsigned long long)x->pref_return) < 0)
		return p->err = -PFT_E_IO;
	p->cycle += p->cycles.cost[PFT_REC_CYC_EXCEPTION];
	p->exceptions++;
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
	if (rc == 0 && p->out && p->out->end)
		rc = p->out->end(p->out->ctx, p->cycle);
	if (rc == 0 && p->log && fflush(p->log) != 0)
		rc = -PFT_E_IO;
	return rc;
}
