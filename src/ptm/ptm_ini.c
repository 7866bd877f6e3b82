/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM programmed from a snapshot device ini: the [regs] sections
 * read by the snapshot layer's ini reader and register table (the reader
 * pft_snapshot_open uses, so both see the same registers), written in the
 * spec's programming order (3.15.4). */
#include <stdlib.h>

#include "ptm/ptm_internal.h"
#include "snapshot/ini.h"
#include "snapshot/snap_regs.h"

static int write_regs(struct pft_ptm *p, const struct snap_reg *r, size_t n)
{
	int count = 0, have_cr = 0, rc;
	uint32_t cr = 0;

	for (size_t i = 0; i < n; i++)
		if (r[i].regno >= 0 && r[i].value > 0xFFFFFFFFull)
			return -PFT_E_FORMAT;
	/* ProgBit set first, ETMCR last */
	if (!(p->regs[PFT_PTM_ETMCR] & PFT_ETMCR_PROGRAMMING)) {
		rc = pft_ptm_set_reg(p, PFT_PTM_ETMCR, p->regs[PFT_PTM_ETMCR] | PFT_ETMCR_PROGRAMMING);
		if (rc < 0)
			return rc;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t v = (uint32_t)r[i].value;

		if (r[i].regno < 0)
			continue; /* not a PTM register (unknown name) */
		if (r[i].regno == PFT_PTM_ETMCR) {
			cr = v;
			have_cr = 1;
			continue;
		}
		if (r[i].regno == PFT_PTM_ETMSR) /* status: ProgBit/overflow are read-only */
			v &= 0xC;
		rc = pft_ptm_set_reg(p, (unsigned)r[i].regno, v);
		if (rc < 0)
			return rc;
		count++;
	}
	if (have_cr) {
		rc = pft_ptm_set_reg(p, PFT_PTM_ETMCR, cr);
		if (rc < 0)
			return rc;
		count++;
	}
	return count;
}

int pft_ptm_load_ini_regs(struct pft_ptm *p, const char *text, size_t len)
{
	struct ini_file ini;
	struct snap_reg *r = NULL;
	size_t n = 0, sections = 0;
	int rc;

	if (!p || !text)
		return -PFT_E_INVAL;
	rc = ini_parse(&ini, "regs", text, len, NULL, 0);
	if (rc < 0)
		return rc;
	rc = snap_regs_read(&ini, &r, &n, &sections, NULL, 0);
	if (rc == 0)
		rc = sections ? write_regs(p, r, n) : -PFT_E_FORMAT;
	free(r);
	ini_free(&ini);
	return rc;
}
