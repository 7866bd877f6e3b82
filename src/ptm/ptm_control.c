/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM life cycle and control: parameters, alloc and free, and
 * register writes.  ptm_regs.c changes the register file and says whether
 * trace must start, stop or be reconfigured; this file does it (4.15.2:
 * stop, flush, drain; 4.5.1: restart with an A-sync). */
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "ptm/ptm_internal.h"

void pft_ptm_params_init(struct pft_ptm_params *pp)
{
	if (!pp)
		return;
	memset(pp, 0, sizeof(*pp));
	pp->size = sizeof(*pp);
	pp->out_bytes = 1u << 20;
	pp->return_stack_depth = 15;
}

static void ptm_enable(struct pft_ptm *p)
{
	struct pft_packet k;
	if (p->enabled)
		return;
	p->enabled = 1;
	pft_pkt_encoder_reset(p->enc);
	p->tracing = 0;
	p->overflowed = 0;
	p->isync_reason = 0;
	p->atom_n = 0;
	p->atom_bits = 0;
	p->sync_pending = 0;
	p->ext_sync_pending = 0;
	p->sync_bytes = 0;
	p->last_cc_cycle = p->cycle;
	p->res_cycle = p->cycle; /* resources were held while disabled */
	p->traced_since_ts = 0;
	p->ts_req = 0;
	p->ts_full = 1;
	ptm_ts_request(p, 1); /* the T-sync of 4.11.1, after the first trace */
	pft_rstack_clear(&p->rs);
	/* 4.5.1: the first packet is an A-sync */
	memset(&k, 0, sizeof(k));
	k.type = PFT_PKT_ASYNC;
	p->need_async = ptm_emit(p, &k) < 0;
}

static void ptm_disable(struct pft_ptm *p)
{
	if (!p->enabled)
		return;
	/* 4.15.2: stop, output the atoms held, drain the FIFO */
	ptm_flush_atoms(p);
	ptm_fifo_drain_all(&p->fifo);
	p->tracing = 0;
	p->enabled = 0;
}

/* Act on what a register write reported (ptm_reg_write). */
static int follow_write(struct pft_ptm *p, int action, unsigned regno, uint32_t old)
{
	if (action == PTM_REG_ENABLE_CHANGED) {
		int on = ptm_cr_enabled(p->regs[PFT_PTM_ETMCR]);
		if (p->enabled && !on)
			ptm_disable(p);
		else if (!p->enabled && on)
			ptm_enable(p);
		return 0;
	}
	if (action != PTM_REG_RECONFIG)
		return action;
	/* A feature change (allowed by the spec only with ProgBit set):
	 * stop, reconfigure, restart with full synchronisation. */
	int was = p->enabled;
	if (was)
		ptm_disable(p);
	int rc = ptm_apply_config(p);
	if (rc < 0) {
		p->regs[regno] = old;
		(void)ptm_apply_config(p);
		if (was)
			ptm_enable(p);
		return rc;
	}
	if (ptm_cr_enabled(p->regs[PFT_PTM_ETMCR]))
		ptm_enable(p);
	return 0;
}

int pft_ptm_set_reg(struct pft_ptm *p, unsigned regno, uint32_t v)
{
	uint32_t old = 0;
	if (!p)
		return -PFT_E_INVAL;
	int rc = ptm_reg_write(p, regno, v, &old);
	if (rc >= 0)
		rc = follow_write(p, rc, regno, old);
	ptm_res_update_idle(p);
	return rc;
}

int pft_ptm_set_reg_by_name(struct pft_ptm *p, const char *name, uint32_t value)
{
	int r = pft_ptm_reg_lookup(name);
	if (r < 0)
		return r;
	return pft_ptm_set_reg(p, (unsigned)r, value);
}

void pft_ptm_set_packet_cb(struct pft_ptm *p, pft_ptm_packet_cb cb, void *arg)
{
	if (!p)
		return;
	p->cb = cb;
	p->cb_arg = arg;
}

int pft_ptm_get_stats(const struct pft_ptm *p, struct pft_ptm_stats *st, size_t size)
{
	if (!p || !st || !size)
		return -PFT_E_INVAL;
	pft_copy_out(st, size, &p->st, sizeof(p->st));
	return 0;
}

struct pft_ptm *pft_ptm_alloc(const struct pft_config *cfg, const struct pft_ptm_params *par)
{
	struct pft_features f;
	struct pft_ptm_params dp;
	if (!cfg || pft_config_features(cfg, &f) < 0)
		return NULL;
	pft_ptm_params_init(&dp);
	if (par) {
		/* a caller's params of any version: fields it lacks keep defaults */
		if (par->size < sizeof(par->size))
			return NULL;
		pft_copy_in(&dp, sizeof(dp), par, par->size);
		dp.size = sizeof(dp);
		if (dp.return_stack_depth > PTM_RSTACK_MAX)
			return NULL;
		if (!dp.out_bytes)
			dp.out_bytes = 1u << 20;
	}
	struct pft_ptm *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	(void)pft_config_copy(&p->cfg, cfg);
	p->par = dp;
	if (ptm_fifo_init(&p->fifo, &dp) < 0) {
		free(p);
		return NULL;
	}
	ptm_regs_reset(p);
	if (ptm_apply_config(p) < 0) {
		ptm_fifo_free(&p->fifo);
		free(p);
		return NULL;
	}
	pft_rstack_init(&p->rs, dp.return_stack_depth);
	p->blk.known = 0;
	if (ptm_cr_enabled(p->cfg.etmcr))
		ptm_enable(p);
	return p;
}

void pft_ptm_free(struct pft_ptm *p)
{
	if (!p)
		return;
	pft_pkt_encoder_free(p->enc);
	pft_frame_encoder_free(p->fenc);
	ptm_fifo_free(&p->fifo);
	free(p);
}
