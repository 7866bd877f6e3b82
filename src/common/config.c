/* SPDX-License-Identifier: BSD-3-Clause */
/* The raw-register configuration and the one place features are derived. */
#include <stdio.h>
#include <string.h>

#include "common/config_check.h"
#include "common/struct_size.h"
#include "pft/common.h"

void pft_config_init(struct pft_config *cfg)
{
	if (!cfg)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->size = sizeof(*cfg);
	cfg->etmidr = 0x411CF312u;
	cfg->etmccer = 0x34C01AC2u;
	cfg->etmccr = 0x8D294004u;
	cfg->etmtraceidr = 0x10u;
	cfg->etmsyncfr = 0x400u;
}

int pft_config_copy(struct pft_config *dst, const struct pft_config *src)
{
	if (!dst || !src || src->size < sizeof(src->size))
		return -PFT_E_INVAL;
	pft_config_init(dst);
	pft_copy_in(dst, sizeof(*dst), src, src->size);
	dst->size = sizeof(*dst);
	return 0;
}

static int derive(const struct pft_config *user, struct pft_features *f,
		  char *msg, size_t cap)
{
	struct pft_config copy;
	const struct pft_config *cfg = &copy;
	static const uint8_t cid_bytes[4] = { 0, 1, 2, 4 };
	uint32_t cr, ccer, idr;
	unsigned major;
	int r = pft_cfg_take(&copy, user, f, sizeof(*f), msg, cap);

	if (r < 0)
		return r;
	cr = cfg->etmcr;
	ccer = cfg->etmccer;
	idr = cfg->etmidr;
	major = (idr >> PFT_ETMIDR_MAJOR_SHIFT) & PFT_ETMIDR_MAJOR_MASK;
	f->minor = (idr >> PFT_ETMIDR_MINOR_SHIFT) & PFT_ETMIDR_MINOR_MASK;
	f->cycle_accurate = !!(cr & PFT_ETMCR_CYCLE_ACCURATE);
	f->branch_broadcast = !!(cr & PFT_ETMCR_BRANCH_BROADCAST);
	f->return_stack = !!(cr & PFT_ETMCR_RETURN_STACK);
	f->timestamps = !!(cr & PFT_ETMCR_TIMESTAMP);
	f->contextid_bytes = cid_bytes[(cr >> PFT_ETMCR_CONTEXTID_SIZE_SHIFT) &
				      PFT_ETMCR_CONTEXTID_SIZE_MASK];
	f->dmb_waypoint = !!(ccer & PFT_ETMCCER_DMB_WAYPOINT);
	f->ts_on_dmb = !!(ccer & PFT_ETMCCER_TS_ON_DMB);
	f->thumb32_single = !!(idr & PFT_ETMIDR_THUMB32_SINGLE);
	f->security_ext = !!(idr & PFT_ETMIDR_SECURITY_EXT);
	f->trace_id = cfg->etmtraceidr & PFT_ETMTRACEIDR_MASK;
	if (f->minor >= 1) {
		f->vmid = !!(cr & PFT_ETMCR_VMID);
		f->ts_bits = (ccer & PFT_ETMCCER_TS_64BIT) ? 64 : 48;
		f->ts_gray = (ccer & PFT_ETMCCER_TS_BINARY) ? 0 : 1;
	} else {
		/* PFTv1.0: ETMCCER[29:26] are RAZ; timestamps are 48-bit Gray. */
		f->ts_bits = 48;
		f->ts_gray = 1;
	}

	if (major != 3)
		return pft_cfg_reject(msg, cap, "ETMIDR 0x%08X: major version %u is not PFTv1 (a PTM reads 3 in bits [11:8]%s)",
				      (unsigned)idr, major,
				      major == 2 ? "; 2 is an ETMv3, not a PTM" : "");
	if (f->minor > 1)
		return pft_cfg_reject(msg, cap, "ETMIDR 0x%08X: PFT minor version %u is unknown (0 = PFTv1.0, 1 = PFTv1.1)",
				      (unsigned)idr, f->minor);
	if (cfg->etmtraceidr & ~(uint32_t)PFT_ETMTRACEIDR_MASK)
		return pft_cfg_reject(msg, cap, "ETMTRACEIDR 0x%08X: the trace ID has 7 bits (bits 31:7 are reserved)",
				      (unsigned)cfg->etmtraceidr);
	r = pft_cfg_check_trace_id(cfg, f->trace_id, msg, cap);
	if (r < 0)
		return r;
	if (f->return_stack && f->branch_broadcast)
		return pft_cfg_reject(msg, cap, "ETMCR 0x%08X: return stack (bit 29) with branch broadcast (bit 8) is UNPREDICTABLE",
				      (unsigned)cr);
	if (cr & PFT_ETMCR_RESERVED)
		return pft_cfg_reject(msg, cap, "ETMCR 0x%08X: reserved bits set (0x%08X)",
				      (unsigned)cr, (unsigned)(cr & PFT_ETMCR_RESERVED));
	return 0;
}

int pft_config_features(const struct pft_config *cfg, struct pft_features *out)
{
	return derive(cfg, out, NULL, 0);
}

int pft_config_check(const struct pft_config *cfg, char *msg, size_t cap)
{
	struct pft_features f;
	return derive(cfg, &f, msg, cap);
}
