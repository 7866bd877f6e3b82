/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM programmers' model (spec chapter 3, Table 3-16): register
 * names (the snapshot layer's table), reset values, the features derived
 * from the registers, and register writes.  A write only changes the
 * register file; it reports whether trace must start, stop or be
 * reconfigured, and ptm_control.c acts on that. */
#include <string.h>

#include "ptm/ptm_internal.h"
#include "snapshot/ini.h"
#include "snapshot/snap_regs.h"

const char *pft_ptm_reg_name(unsigned regno)
{
	return snap_reg_name(regno);
}

int pft_ptm_reg_lookup(const char *name)
{
	unsigned long long v;
	size_t n = 0;

	if (!name)
		return -PFT_E_NOTFOUND;
	while (*name == ' ' || *name == '\t')
		name++;
	/* "NAME(id:0x10)": the name decides */
	while (name[n] && name[n] != '(' && name[n] != ' ' && name[n] != '\t')
		n++;
	if (!n)
		return -PFT_E_NOTFOUND;
	if (name[0] >= '0' && name[0] <= '9') {
		char tmp[24];
		if (n >= sizeof(tmp))
			return -PFT_E_NOTFOUND;
		memcpy(tmp, name, n);
		tmp[n] = '\0';
		if (ini_number(tmp, &v) || v >= PFT_PTM_NR_REGS || !snap_reg_name((unsigned)v))
			return -PFT_E_NOTFOUND;
		return (int)v;
	}
	int r = snap_reg_number(name, n);
	return r < 0 ? -PFT_E_NOTFOUND : r;
}

/* Reset values: trace everything, every other event never. */
void ptm_regs_reset(struct pft_ptm *p)
{
	memset(p->regs, 0, sizeof(p->regs));
	p->regs[PFT_PTM_ETMCR] = ptm_cr_writable(p->cfg.etmcr, p->cfg.etmccer, p->cfg.etmidr);
	p->cfg.etmcr = p->regs[PFT_PTM_ETMCR];
	p->regs[PFT_PTM_ETMCCR] = p->cfg.etmccr;
	p->regs[PFT_PTM_ETMCCER] = p->cfg.etmccer;
	p->regs[PFT_PTM_ETMIDR] = p->cfg.etmidr;
	p->regs[PFT_PTM_ETMTRACEIDR] = p->cfg.etmtraceidr;
	p->regs[PFT_PTM_ETMSYNCFR] = p->cfg.etmsyncfr;
	p->regs[PFT_PTM_ETMTRIGGER] = PFT_PTM_EVENT_NEVER;
	p->regs[PFT_PTM_ETMTEEVR] = PFT_PTM_EVENT_ALWAYS;
	p->regs[PFT_PTM_ETMTECR1] = 0x01000000u;
	for (int n = 1; n <= 16; n++)
		p->regs[PFT_PTM_ETMACTR(n)] = 1;
	for (int n = 1; n <= 4; n++) {
		p->regs[PFT_PTM_ETMCNTENR(n)] = PFT_PTM_EVENT_NEVER;
		p->regs[PFT_PTM_ETMCNTRLDEVR(n)] = PFT_PTM_EVENT_NEVER;
		p->regs[PFT_PTM_ETMEXTOUTEVR(n)] = PFT_PTM_EVENT_NEVER;
	}
	for (unsigned r = PFT_PTM_ETMSQ12EVR; r <= PFT_PTM_ETMSQ13EVR; r++)
		p->regs[r] = PFT_PTM_EVENT_NEVER;
	p->regs[PFT_PTM_ETMTSEVR] = PFT_PTM_EVENT_NEVER;
	memset(p->cnt, 0, sizeof(p->cnt));
	p->seq = 0;
	p->ss_state = 0;
	p->trig_done = 0;
	ptm_res_update_idle(p);
}

/* Derive features and resource counts from the registers; rebuild the
 * encoder.  On failure nothing is changed. */
int ptm_apply_config(struct pft_ptm *p)
{
	struct pft_config c = p->cfg;
	struct pft_features f;
	c.etmcr = p->regs[PFT_PTM_ETMCR];
	c.etmccr = p->regs[PFT_PTM_ETMCCR];
	c.etmccer = p->regs[PFT_PTM_ETMCCER];
	c.etmidr = p->regs[PFT_PTM_ETMIDR];
	c.etmtraceidr = p->regs[PFT_PTM_ETMTRACEIDR];
	c.etmsyncfr = p->regs[PFT_PTM_ETMSYNCFR];
	int rc = pft_config_features(&c, &f);
	if (rc < 0)
		return rc;
	struct pft_pkt_encoder *enc = pft_pkt_encoder_alloc(&c);
	if (!enc)
		return -PFT_E_NOMEM;
	if (p->enc)
		pft_pkt_encoder_free(p->enc);
	p->enc = enc;
	p->cfg = c;
	p->f = f;
	p->isa_opts = f.dmb_waypoint ? PFT_ISA_OPT_DMB_WAYPOINT : 0;
	ptm_apply_ccr(p);
	return 0;
}

/* Resource counts from ETMCCR (3.16.2). */
void ptm_apply_ccr(struct pft_ptm *p)
{
	uint32_t ccr = p->cfg.etmccr;
	p->n_ac = (uint8_t)(2 * (ccr & PFT_ETMCCR_ADDR_PAIRS_MASK));
	if (p->n_ac > 16)
		p->n_ac = 16;
	p->n_cnt = (uint8_t)((ccr >> PFT_ETMCCR_COUNTERS_SHIFT) & PFT_ETMCCR_COUNTERS_MASK);
	if (p->n_cnt > 4)
		p->n_cnt = 4;
	p->has_seq = (ccr & PFT_ETMCCR_SEQUENCER) != 0;
	p->n_cidc = (uint8_t)((ccr >> PFT_ETMCCR_CID_CMPS_SHIFT) & PFT_ETMCCR_CID_CMPS_MASK);
}

/* ETMCR bits of features the PTM does not implement are RAZ/WI (3.16.1):
 * return stack [29] needs ETMCCER[23], timestamps [28] ETMCCER[22], VMID
 * [30] PFTv1.1 and ETMCCER[26]. */
uint32_t ptm_cr_writable(uint32_t cr, uint32_t ccer, uint32_t idr)
{
	if (!(ccer & PFT_ETMCCER_RETURN_STACK))
		cr &= ~PFT_ETMCR_RETURN_STACK;
	if (!(ccer & PFT_ETMCCER_TIMESTAMP))
		cr &= ~PFT_ETMCR_TIMESTAMP;
	if (((idr >> PFT_ETMIDR_MINOR_SHIFT) & PFT_ETMIDR_MINOR_MASK) < 1 ||
	    !(ccer & PFT_ETMCCER_VIRTUALIZATION))
		cr &= ~PFT_ETMCR_VMID;
	return cr;
}

int ptm_cr_enabled(uint32_t cr)
{
	return !(cr & (PFT_ETMCR_PROGRAMMING | PFT_ETMCR_POWER_DOWN));
}

/* Registers whose write is complete in itself. */
static int write_simple(struct pft_ptm *p, unsigned regno, uint32_t v)
{
	switch (regno) {
	case PFT_PTM_ETMSR:
		/* [3] trigger and [2] start/stop are RW; [1:0] RO. */
		p->trig_done = (v >> 3) & 1;
		p->ss_state = (v >> 2) & 1;
		return 0;
	case PFT_PTM_ETMSQR:
		if ((v & 3) == 3)
			return -PFT_E_BAD_CONFIG;
		p->seq = v & 3;
		return 0;
	case PFT_PTM_ETMCNTVR(1): case PFT_PTM_ETMCNTVR(2):
	case PFT_PTM_ETMCNTVR(3): case PFT_PTM_ETMCNTVR(4):
		p->cnt[regno - PFT_PTM_ETMCNTVR(1)] = (uint16_t)v;
		return 0;
	case PFT_PTM_ETMTRACEIDR:
		if ((v & PFT_ETMTRACEIDR_MASK) == 0 || (v & PFT_ETMTRACEIDR_MASK) >= 0x70)
			return -PFT_E_BAD_CONFIG;
		p->regs[regno] = v;
		p->cfg.etmtraceidr = v;
		p->f.trace_id = (uint8_t)(v & PFT_ETMTRACEIDR_MASK);
		return 0;
	case PFT_PTM_ETMSYNCFR:
		p->regs[regno] = v;
		p->cfg.etmsyncfr = v;
		return 0;
	case PFT_PTM_ETMCCR:
		p->regs[regno] = v;
		p->cfg.etmccr = v;
		ptm_apply_ccr(p);
		return 0;
	default:
		return 1;
	}
}

int ptm_reg_write(struct pft_ptm *p, unsigned regno, uint32_t v, uint32_t *old)
{
	if (regno >= PFT_PTM_NR_REGS || !snap_reg_name(regno))
		return -PFT_E_NOTFOUND;
	*old = p->regs[regno];
	int rc = write_simple(p, regno, v);
	if (rc <= 0)
		return rc;
	if (regno == PFT_PTM_ETMCR)
		v = ptm_cr_writable(v, p->regs[PFT_PTM_ETMCCER], p->regs[PFT_PTM_ETMIDR]);
	p->regs[regno] = v;
	if (regno == PFT_PTM_ETMCCER || regno == PFT_PTM_ETMIDR)
		p->regs[PFT_PTM_ETMCR] = ptm_cr_writable(p->regs[PFT_PTM_ETMCR],
							 p->regs[PFT_PTM_ETMCCER],
							 p->regs[PFT_PTM_ETMIDR]);
	if (regno != PFT_PTM_ETMCR && regno != PFT_PTM_ETMCCER && regno != PFT_PTM_ETMIDR)
		return PTM_REG_DONE;
	/* Only ProgBit/PowerDown changed: start or stop. */
	if (regno == PFT_PTM_ETMCR && ((*old ^ v) & ~(PFT_ETMCR_PROGRAMMING | PFT_ETMCR_POWER_DOWN)) == 0)
		return PTM_REG_ENABLE_CHANGED;
	/* Refuse values that do not describe a PTM, changing nothing. */
	struct pft_config c = p->cfg;
	struct pft_features f;
	c.etmcr = p->regs[PFT_PTM_ETMCR];
	c.etmccer = p->regs[PFT_PTM_ETMCCER];
	c.etmidr = p->regs[PFT_PTM_ETMIDR];
	if (pft_config_features(&c, &f) < 0) {
		p->regs[regno] = *old;
		return -PFT_E_BAD_CONFIG;
	}
	return PTM_REG_RECONFIG;
}

int pft_ptm_get_reg(const struct pft_ptm *p, unsigned regno, uint32_t *value)
{
	if (!p || !value)
		return -PFT_E_INVAL;
	if (regno >= PFT_PTM_NR_REGS || !pft_ptm_reg_name(regno))
		return -PFT_E_NOTFOUND;
	switch (regno) {
	case PFT_PTM_ETMSR:
		*value = ((uint32_t)p->trig_done << 3) | ((uint32_t)p->ss_state << 2) |
			 ((p->regs[PFT_PTM_ETMCR] & PFT_ETMCR_PROGRAMMING) ? 2u : 0u) | p->ovf_unreported;
		return 0;
	case PFT_PTM_ETMSQR:
		*value = p->seq;
		return 0;
	case PFT_PTM_ETMCNTVR(1): case PFT_PTM_ETMCNTVR(2):
	case PFT_PTM_ETMCNTVR(3): case PFT_PTM_ETMCNTVR(4):
		*value = p->cnt[regno - PFT_PTM_ETMCNTVR(1)];
		return 0;
	default:
		*value = p->regs[regno];
		return 0;
	}
}
