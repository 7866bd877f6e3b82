/* SPDX-License-Identifier: BSD-3-Clause */
/* ETMv3 features from raw ETMCR / ETMCCER / ETMIDR / ETMTRACEIDR (register
 * bits: doc/etm3.md, "Configuration"). */
#include "common/config_check.h"
#include "pft/etm3.h"

int pft_etm3_config_features(const struct pft_config *cfg, struct pft_etm3_features *f,
			     char *msg, size_t cap)
{
	static const uint8_t cid_bytes[4] = { 0, 1, 2, 4 };
	struct pft_config copy;
	uint32_t cr, idr, ccer;
	unsigned major;
	int r = pft_cfg_take(&copy, cfg, f, sizeof(*f), msg, cap);

	if (r < 0)
		return r;
	cfg = &copy; /* a caller's config of any version, defaults for what it lacks */
	cr = cfg->etmcr;
	idr = cfg->etmidr;
	ccer = cfg->etmccer;
	major = (idr >> PFT_ETMIDR_MAJOR_SHIFT) & PFT_ETMIDR_MAJOR_MASK;
	f->minor = (idr >> PFT_ETMIDR_MINOR_SHIFT) & PFT_ETMIDR_MINOR_MASK;
	f->data_value = (cr & PFT_ETM3_ETMCR_DATA_VALUE) != 0;
	f->data_address = (cr & PFT_ETM3_ETMCR_DATA_ADDRESS) != 0;
	f->branch_broadcast = (cr & PFT_ETM3_ETMCR_BRANCH_OUTPUT) != 0;
	f->cycle_accurate = (cr & PFT_ETMCR_CYCLE_ACCURATE) != 0;
	f->contextid_bytes =
		cid_bytes[(cr >> PFT_ETMCR_CONTEXTID_SIZE_SHIFT) & PFT_ETMCR_CONTEXTID_SIZE_MASK];
	f->data_only = (cr & PFT_ETM3_ETMCR_DATA_ONLY) != 0;
	f->timestamps = (cr & PFT_ETMCR_TIMESTAMP) != 0;
	f->vmid = (cr & PFT_ETMCR_VMID) != 0;
	f->security_ext = (idr & PFT_ETMIDR_SECURITY_EXT) != 0;
	f->alt_branch = (idr & PFT_ETM3_ETMIDR_ALT_BRANCH) && f->minor >= 4;
	f->virt_ext = (ccer & PFT_ETMCCER_VIRTUALIZATION) != 0;
	f->ts_bits = (ccer & PFT_ETMCCER_TS_64BIT) ? 64 : 48;
	f->trace_id = cfg->etmtraceidr & PFT_ETMTRACEIDR_MASK;

	if (major != PFT_ETM3_ETMIDR_MAJOR)
		return pft_cfg_reject(msg, cap, "ETMIDR 0x%08X: major version %u is not ETMv3 (an ETMv3 reads 2 in bits [11:8]%s)",
				      (unsigned)idr, major, major == 3 ? "; 3 is a PTM (PFT)" : "");
	if (f->minor > 5)
		return pft_cfg_reject(msg, cap, "ETMIDR 0x%08X: ETMv3 minor version %u is unknown (0..5)",
				      (unsigned)idr, f->minor);
	r = pft_cfg_check_trace_id(cfg, f->trace_id, msg, cap);
	if (r < 0)
		return r;
	if (f->data_only && !f->data_value && !f->data_address)
		return pft_cfg_reject(msg, cap, "ETMCR 0x%08X: data-only mode (bit 20) without data value or address tracing (bits 2, 3)",
				      (unsigned)cr);
	return 0;
}
