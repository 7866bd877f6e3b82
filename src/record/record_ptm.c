/* SPDX-License-Identifier: BSD-3-Clause */
/* Record part: the PTM sink.  Every completed instruction becomes a
 * pft_ptm_insn the PTM classifies itself (PFT_PTM_I_CLASSIFY).  A waypoint
 * is marked condition failed (an N atom) when the source says its condition
 * failed, when it is a direct branch whose successor is not its target (not
 * taken: B<cond>, CBZ/CBNZ), or, for sources that do not know the flags
 * (logs), when it is conditional and falls through.  With timestamps on,
 * the global timestamp counter is the cycle counter scaled from cpu_freq to
 * ts_freq.  The drained bytes (raw or CoreSight frames) are kept in memory. */
#include <stdlib.h>
#include <string.h>

#include "pft/isa.h"
#include "pft/ptm.h"
#include "pft/record.h"

#define TRACE_CHUNK 65536

struct pft_rec_ptm {
	struct pft_ptm *ptm;
	int frames;
	uint8_t *buf;
	size_t len, cap;
	uint64_t cpu_freq, ts_freq;
	int timestamps;
	unsigned isa_opts;
	uint64_t failed_marked;
	int in_untraced;        /* inside an untraced handler (prohibited region) */
	uint32_t cid;           /* context ID of the last instruction */
};

int pft_rec_ptm_alloc(struct pft_rec_ptm **out, struct pft_ptm *ptm, int frames,
                      uint64_t cpu_freq, uint64_t ts_freq)
{
	struct pft_rec_ptm *rp;
	struct pft_config cfg;
	struct pft_features f;

	if (!out || !ptm || !cpu_freq || !ts_freq)
		return -PFT_E_INVAL;
	*out = NULL;
	rp = calloc(1, sizeof(*rp));
	if (!rp)
		return -PFT_E_NOMEM;
	rp->ptm = ptm;
	rp->frames = frames;
	rp->cpu_freq = cpu_freq;
	rp->ts_freq = ts_freq;
	pft_config_init(&cfg);
	if (pft_ptm_get_reg(ptm, PFT_PTM_ETMCR, &cfg.etmcr) == 0 &&
	    pft_ptm_get_reg(ptm, PFT_PTM_ETMCCER, &cfg.etmccer) == 0 &&
	    pft_ptm_get_reg(ptm, PFT_PTM_ETMIDR, &cfg.etmidr) == 0 &&
	    pft_ptm_get_reg(ptm, PFT_PTM_ETMTRACEIDR, &cfg.etmtraceidr) == 0) {
		(void)pft_config_features(&cfg, &f);
		rp->timestamps = f.timestamps;
		rp->isa_opts = f.dmb_waypoint ? PFT_ISA_OPT_DMB_WAYPOINT : 0;
	}
	*out = rp;
	return 0;
}

void pft_rec_ptm_free(struct pft_rec_ptm *rp)
{
	if (!rp)
		return;
	pft_ptm_free(rp->ptm);
	free(rp->buf);
	free(rp);
}

struct pft_ptm *pft_rec_ptm_ptm(struct pft_rec_ptm *rp)
{
	return rp ? rp->ptm : NULL;
}

const uint8_t *pft_rec_ptm_trace(const struct pft_rec_ptm *rp, size_t *len)
{
	*len = rp->len;
	return rp->buf ? rp->buf : (const uint8_t *)"";
}

uint64_t pft_rec_ptm_failed_marked(const struct pft_rec_ptm *rp)
{
	return rp->failed_marked;
}

static int drain(struct pft_rec_ptm *rp, int final)
{
	for (;;) {
		int64_t got;

		if (rp->cap - rp->len < TRACE_CHUNK) {
			size_t ncap = rp->cap ? rp->cap * 2 : 4 * TRACE_CHUNK;
			uint8_t *nb = realloc(rp->buf, ncap);

			if (!nb)
				return -PFT_E_NOMEM;
			rp->buf = nb;
			rp->cap = ncap;
		}
		if (rp->frames)
			got = pft_ptm_read_frames(rp->ptm, rp->buf + rp->len, TRACE_CHUNK, final);
		else
			got = (int64_t)pft_ptm_read(rp->ptm, rp->buf + rp->len, TRACE_CHUNK);
		if (got < 0)
			return (int)got;
		rp->len += (size_t)got;
		if (got == 0 || (!final && pft_ptm_pending(rp->ptm) < TRACE_CHUNK))
			return 0;
	}
}

static void timestamp(struct pft_rec_ptm *rp, uint64_t cycle)
{
	uint64_t ts;

	if (!rp->timestamps)
		return;
	ts = pft_rec_ts_of_cycle(cycle, rp->cpu_freq, rp->ts_freq);
	pft_ptm_timestamp(rp->ptm, ts, 0);
}

static int on_insn(void *ctx, const struct pft_rec_full *f)
{
	struct pft_rec_ptm *rp = ctx;
	struct pft_ptm_insn pi;
	struct pft_insn_info info;
	uint8_t b[4];
	uint32_t op = f->in.opcode;
	int failed = f->in.cond == 0, rc;
	unsigned i;

	if (f->in.size == 4 && f->in.isa != PFT_ISA_ARM)
		op = (op >> 16) | (op << 16);
	for (i = 0; i < 4; i++)
		b[i] = (uint8_t)(op >> (8 * i));
	if (!failed && pft_isa_decode((enum pft_isa)f->in.isa, f->in.addr, b, f->in.size,
	                              rp->isa_opts, &info) == 0 &&
	    pft_isa_is_waypoint(&info, rp->isa_opts)) {
		if (info.flags & PFT_INSN_F_TARGET)
			failed = f->next_addr != info.target || f->next_isa != info.target_isa;
		else if (f->in.cond < 0 && f->in.condcode != 14)
			failed = f->next_addr == f->in.addr + f->in.size;
		rp->failed_marked += failed && f->in.cond != 0;
	}
	memset(&pi, 0, sizeof(pi));
	pi.addr = f->in.addr;
	pi.next_addr = f->next_addr;
	pi.cycle = f->cycle;
	pi.opcode = f->in.opcode;
	pi.flags = PFT_PTM_I_CLASSIFY | (failed ? PFT_PTM_I_COND_FAILED : 0) |
	           (f->in.user ? PFT_PTM_I_USER : 0);
	pi.context_id = f->in.context_id;
	rp->cid = f->in.context_id;
	pi.isa = f->in.isa;
	pi.next_isa = f->next_isa;
	pi.size = f->in.size;
	timestamp(rp, f->cycle);
	if (rp->in_untraced) {
		rp->in_untraced = 0;
		rc = pft_ptm_prohibited(rp->ptm, 0, f->cycle);
		if (rc < 0)
			return rc;
	}
	rc = pft_ptm_insn(rp->ptm, &pi);
	if (rc == 0 && pft_ptm_pending(rp->ptm) >= TRACE_CHUNK)
		rc = drain(rp, 0);
	return rc;
}

static int on_exc(void *ctx, const struct pft_rec_exc *x, uint64_t cycle)
{
	struct pft_rec_ptm *rp = ctx;
	struct pft_ptm_exception pe;

	memset(&pe, 0, sizeof(pe));
	pe.vector = x->vector;
	pe.pref_return = x->pref_return;
	pe.cycle = cycle;
	pe.type = x->type;
	pe.isa = x->isa;
	pe.context_id = rp->cid;
	if (x->untraced) {
		pe.flags |= PFT_PTM_E_PROHIBITED;
		rp->in_untraced = 1;
	}
	timestamp(rp, cycle);
	return pft_ptm_exception(rp->ptm, &pe);
}

static int on_end(void *ctx, uint64_t cycle)
{
	struct pft_rec_ptm *rp = ctx;
	int rc;

	timestamp(rp, cycle);
	rc = pft_ptm_flush(rp->ptm);
	return rc < 0 ? rc : drain(rp, 1);
}

void pft_rec_ptm_consumer(struct pft_rec_ptm *rp, struct pft_rec_consumer *c)
{
	c->insn = on_insn;
	c->exception = on_exc;
	c->end = on_end;
	c->ctx = rp;
}

