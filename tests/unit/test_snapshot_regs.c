/* SPDX-License-Identifier: BSD-3-Clause */
/* One ini reader: the snapshot reader (pft_snapshot_open) and the software
 * PTM (pft_ptm_load_ini_regs) read the same registers from the same device
 * ini: the real PTM inis in data/ and a file of awkward spellings (section
 * name case, octal and decimal values, registers known by number only,
 * core registers whose numbers collide with ETM ones). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/ptm.h"
#include "pft/snapshot.h"

/* Registers the PTM model transforms on write (masks, live state). */
static int model_transforms(int regno)
{
	return regno == PFT_PTM_ETMCR || regno == PFT_PTM_ETMSR || regno == PFT_PTM_ETMSQR ||
	       (regno >= PFT_PTM_ETMCNTVR(1) && regno <= PFT_PTM_ETMCNTVR(4));
}

/* Load the ini of source `si` of the snapshot into a PTM and compare every
 * register both see.  Returns the number compared. */
static int compare(const struct pft_snapshot *sn, size_t si)
{
	struct pft_snapshot_source src;
	struct pft_snapshot_device dev;
	struct pft_config cfg;
	size_t len = 0;
	int compared = 0;

	CHECK_EQ(pft_snapshot_source(sn, si, &src), 0);
	CHECK_EQ(pft_snapshot_device(sn, (size_t)pft_snapshot_find_device(sn, src.name), &dev), 0);
	char *text = (char *)check_read_file(dev.ini, &len);
	CHECK(text != NULL);
	if (!text)
		return 0;
	pft_config_init(&cfg);
	struct pft_ptm *p = pft_ptm_alloc(&cfg, NULL);
	CHECK(p != NULL);
	CHECK(pft_ptm_load_ini_regs(p, text, len) > 0);
	for (unsigned r = 0; r < PFT_PTM_NR_REGS; r++) {
		const char *name = pft_ptm_reg_name(r);
		uint64_t sv;
		uint32_t pv;
		if (!name || model_transforms((int)r) ||
		    pft_snapshot_reg(sn, src.name, name, &sv) != 0)
			continue;
		CHECK_EQ(pft_ptm_get_reg(p, r, &pv), 0);
		CHECK_EQ(pv, sv);
		if (pv != sv)
			fprintf(stderr, "  %s %s\n", dev.ini, name);
		compared++;
	}
	/* the configuration the decoder gets is what the PTM was given */
	uint32_t v;
	if (src.regs_present & PFT_SNAPSHOT_REG_ETMSYNCFR) {
		CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMSYNCFR, &v), 0);
		CHECK_EQ(v, src.config.etmsyncfr);
	}
	if (src.regs_present & PFT_SNAPSHOT_REG_ETMTRACEIDR) {
		CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMTRACEIDR, &v), 0);
		CHECK_EQ(v, src.config.etmtraceidr);
	}
	if (src.regs_present & PFT_SNAPSHOT_REG_ETMCCER) {
		CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMCCER, &v), 0);
		CHECK_EQ(v, src.config.etmccer);
	}
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMCR, &v), 0);
	CHECK_EQ(v, src.config.etmcr);
	pft_ptm_free(p);
	free(text);
	return compared;
}

static void real(const char *folder, int min_compared)
{
	char path[512];
	struct pft_snapshot *sn = NULL;
	char msg[600];
	int n = 0;

	check_data_path(path, sizeof path, folder);
	CHECK_EQ(pft_snapshot_open(path, &sn, msg, sizeof msg), 0);
	if (!sn)
		return;
	for (size_t i = 0; i < pft_snapshot_source_count(sn); i++) {
		struct pft_snapshot_source s;
		CHECK_EQ(pft_snapshot_source(sn, i, &s), 0);
		if (s.is_ptm)
			n += compare(sn, i);
	}
	CHECK(n >= min_compared);
	if (n < min_compared)
		fprintf(stderr, "  %s: %d registers compared\n", folder, n);
	pft_snapshot_close(sn);
}

static char tmp[64];

static void put(const char *name, const char *text)
{
	check_write_in(tmp, name, text);
}

static const char awkward_ini[] =
	"[device]\nname=PTM_0\nclass=trace_source\ntype=PTM1.1\n"
	"[REGS]\n"
	"ETMCR(id:0x0)=0x400\n"
	"ETMSYNCFR(id:0x78)=0100\n"        /* octal, as C and OpenCSD read it: 0x40 */
	"ETMTRACEIDR(0x080)=18\n"          /* decimal: 0x12 */
	"ETMIDR=0x411CF312\n"
	"ETMUNNAMED(id:0x7A)=0x00C019A2\n" /* known by number only: ETMCCER */
	"R1(id:0x1)=0x5\n"                 /* a core register, not ETMCCR */
	"etmacvr1(id:0x0)=0x1234\n"        /* the name decides, not the number */
	"CNTPCT(size:64)=0x0000042492EE776D\n";

static void awkward(void)
{
	struct pft_snapshot *sn = NULL;
	struct pft_snapshot_source s;
	struct pft_config cfg;
	uint32_t v;
	char msg[600];

	strcpy(tmp, "/tmp/pft_snapregsXXXXXX");
	CHECK(mkdtemp(tmp) != NULL);
	put("snapshot.ini", "[snapshot]\nversion=1.0\n[Device_List]\ndevice1=ptm.ini\n");
	put("ptm.ini", awkward_ini);
	CHECK_EQ(pft_snapshot_open(tmp, &sn, msg, sizeof msg), 0);
	CHECK_EQ(pft_snapshot_source(sn, 0, &s), 0);
	CHECK_EQ(s.config.etmsyncfr, 0x40);
	CHECK_EQ(s.config.etmtraceidr, 0x12);
	CHECK_EQ(s.config.etmccer, 0x00C019A2);
	CHECK_EQ(s.config.etmcr, 0x400);
	CHECK(!(s.regs_present & PFT_SNAPSHOT_REG_ETMCCR));
	CHECK_EQ(s.regs_present, PFT_SNAPSHOT_REG_ETMCR | PFT_SNAPSHOT_REG_ETMSYNCFR |
				 PFT_SNAPSHOT_REG_ETMTRACEIDR | PFT_SNAPSHOT_REG_ETMIDR |
				 PFT_SNAPSHOT_REG_ETMCCER);
	CHECK_EQ(compare(sn, 0), 4); /* by name: SYNCFR, TRACEIDR, IDR, ACVR1 */

	pft_config_init(&cfg);
	struct pft_ptm *p = pft_ptm_alloc(&cfg, NULL);
	CHECK(p != NULL);
	CHECK_EQ(pft_ptm_load_ini_regs(p, awkward_ini, strlen(awkward_ini)), 6);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMSYNCFR, &v), 0);
	CHECK_EQ(v, 0x40);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMCCER, &v), 0);
	CHECK_EQ(v, 0x00C019A2);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMACVR(1), &v), 0);
	CHECK_EQ(v, 0x1234);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMCCR, &v), 0);
	CHECK_EQ(v, cfg.etmccr); /* R1(id:0x1) left it alone */
	/* malformed values are refused by both, before anything is written */
	CHECK_EQ(pft_ptm_load_ini_regs(p, "[regs]\nETMCR=0x\n", 16), -PFT_E_FORMAT);
	CHECK_EQ(pft_ptm_load_ini_regs(p, "[regs]\nETMACVR1=0x100000000\n", 28), -PFT_E_FORMAT);
	CHECK_EQ(pft_ptm_load_ini_regs(p, "[Regs]\nno equals sign\n", 22), -PFT_E_FORMAT);
	pft_ptm_free(p);
	pft_snapshot_close(sn);
	put("ptm.ini", "[device]\nname=PTM_0\nclass=trace_source\n[regs]\nETMCR=0x\n");
	CHECK_EQ(pft_snapshot_open(tmp, &sn, msg, sizeof msg), -PFT_E_FORMAT);
	check_remove_dir(tmp);
}

int main(void)
{
	real("trace_cov_a15", 80);
	real("TC2", 6);
	awkward();
	return check_report();
}
