/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM programmers' model (spec 3.15, Table 3-16): registers by
 * number and name, the Programming bit (3.15.4, 4.11.1), status bits, and
 * loading a real snapshot's device .ini [regs] section. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/ptm.h"

static void names(void)
{
	/* Table 3-16 numbers */
	static const struct { const char *n; int r; } t[] = {
		{ "ETMCR", 0x000 }, { "ETMCCR", 0x001 }, { "ETMTRIGGER", 0x002 }, { "ETMSR", 0x004 },
		{ "ETMTSSCR", 0x006 }, { "ETMTEEVR", 0x008 }, { "ETMTTEVR", 0x008 },
		{ "ETMTECR1", 0x009 }, { "ETMACVR1", 0x010 }, { "ETMACVR16", 0x01F },
		{ "ETMACTR1", 0x020 }, { "ETMACTR16", 0x02F }, { "ETMCNTRLDVR1", 0x050 },
		{ "ETMCNTENR4", 0x057 }, { "ETMCNTRLDEVR2", 0x059 }, { "ETMCNTVR4", 0x05F },
		{ "ETMSQ12EVR", 0x060 }, { "ETMSQ21EVR", 0x061 }, { "ETMSQ23EVR", 0x062 },
		{ "ETMSQ31EVR", 0x063 }, { "ETMSQ32EVR", 0x064 }, { "ETMSQ13EVR", 0x065 },
		{ "ETMSQR", 0x067 }, { "ETMEXTOUTEVR1", 0x068 }, { "ETMEXTOUTEVR4", 0x06B },
		{ "ETMCIDCVR1", 0x06C }, { "ETMCIDCVR3", 0x06E }, { "ETMCIDCMR", 0x06F },
		{ "ETMSYNCFR", 0x078 }, { "ETMIDR", 0x079 }, { "ETMCCER", 0x07A },
		{ "ETMEXTINSEL", 0x07B }, { "ETMEXTINSELR", 0x07B }, { "ETMTSEVR", 0x07E },
		{ "ETMAUXCR", 0x07F }, { "ETMTRACEIDR", 0x080 }, { "ETMVMIDCVR", 0x090 },
		{ "etmacvr3(id:0x12)", 0x012 }, { "0x1E", 0x01E },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int r = pft_ptm_reg_lookup(t[i].n);
		CHECK_EQ(r, t[i].r);
		if (r != t[i].r)
			fprintf(stderr, "  name %s\n", t[i].n);
	}
	CHECK_EQ(pft_ptm_reg_lookup("ETMFOO"), -PFT_E_NOTFOUND);
	CHECK_EQ(pft_ptm_reg_lookup("ETMACVR17"), -PFT_E_NOTFOUND);
	CHECK_EQ(pft_ptm_reg_lookup("0x3"), -PFT_E_NOTFOUND); /* reserved */
	CHECK(!strcmp(pft_ptm_reg_name(0x09), "ETMTECR1"));
	CHECK(pft_ptm_reg_name(0x03) == NULL);
	/* every named register round-trips */
	for (unsigned r = 0; r < PFT_PTM_NR_REGS; r++) {
		const char *n = pft_ptm_reg_name(r);
		if (n)
			CHECK_EQ(pft_ptm_reg_lookup(n), r);
	}
}

static void progbit(void)
{
	struct pft_config cfg;
	uint8_t b[64];
	uint32_t v;
	pft_config_init(&cfg);
	cfg.etmcr = 0x400; /* being programmed */
	struct pft_ptm *p = pft_ptm_alloc(&cfg, NULL);
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK_EQ(pft_ptm_read(p, b, sizeof(b)), 0);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMSR, &v), 0);
	CHECK_EQ(v & 2, 2); /* ETMSR[1] = effective ProgBit */
	/* 4.5.1: clearing ProgBit outputs an A-sync first */
	CHECK_EQ(pft_ptm_set_reg_by_name(p, "ETMCR", 0x000), 0);
	size_t n = pft_ptm_read(p, b, sizeof(b));
	CHECK_EQ(n, 6);
	CHECK(n == 6 && !memcmp(b, "\0\0\0\0\0\x80", 6));
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMSR, &v), 0);
	CHECK_EQ(v & 2, 0);
	/* bad values are refused and leave the register */
	CHECK_EQ(pft_ptm_set_reg(p, PFT_PTM_ETMIDR, 0x410CF250u), -PFT_E_BAD_CONFIG);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMIDR, &v), 0);
	CHECK_EQ(v, 0x411CF312u);
	CHECK_EQ(pft_ptm_set_reg(p, PFT_PTM_ETMSQR, 3), -PFT_E_BAD_CONFIG);
	CHECK_EQ(pft_ptm_set_reg(p, PFT_PTM_ETMTRACEIDR, 0x70), -PFT_E_BAD_CONFIG);
	CHECK_EQ(pft_ptm_set_reg(p, 0x003, 1), -PFT_E_NOTFOUND);
	CHECK_EQ(pft_ptm_set_reg_by_name(p, "ETMNOPE", 1), -PFT_E_NOTFOUND);
	/* counters and the sequencer are readable state */
	CHECK_EQ(pft_ptm_set_reg(p, PFT_PTM_ETMCNTVR(2), 0x1234), 0);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMCNTVR(2), &v), 0);
	CHECK_EQ(v, 0x1234);
	CHECK_EQ(pft_ptm_set_reg(p, PFT_PTM_ETMSQR, 2), 0);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMSQR, &v), 0);
	CHECK_EQ(v, 2);
	/* setting ProgBit stops trace: no more output */
	CHECK_EQ(pft_ptm_set_reg(p, PFT_PTM_ETMCR, 0x400), 0);
	struct pft_ptm_insn x;
	memset(&x, 0, sizeof(x));
	x.addr = 0x1000;
	x.next_addr = 0x2000;
	x.size = 4;
	x.wp_class = PFT_WP_INDIRECT;
	CHECK_EQ(pft_ptm_insn(p, &x), 0);
	pft_ptm_flush(p);
	CHECK_EQ(pft_ptm_read(p, b, sizeof(b)), 0);
	/* a feature change through ETMCR restarts with full sync */
	CHECK_EQ(pft_ptm_set_reg(p, PFT_PTM_ETMCR, 0x1000), 0);
	x.addr = 0x2000;
	x.next_addr = 0x3000;
	x.cycle = 10;
	CHECK_EQ(pft_ptm_insn(p, &x), 0);
	n = pft_ptm_read(p, b, sizeof(b));
	CHECK(n > 12 && b[5] == 0x80 && b[6] == 0x08);
	pft_ptm_free(p);
}

static void ini(void)
{
	char path[512];
	size_t len;
	uint32_t v;
	uint8_t b[16];
	check_data_path(path, sizeof(path), "trace_cov_a15/device5.ini");
	char *text = (char *)check_read_file(path, &len);
	CHECK(text != NULL);
	if (!text)
		return;
	struct pft_config cfg;
	pft_config_init(&cfg);
	struct pft_ptm *p = pft_ptm_alloc(&cfg, NULL);
	CHECK(p != NULL);
	pft_ptm_read(p, b, sizeof(b)); /* the A-sync of the default config */
	int n = pft_ptm_load_ini_regs(p, text, len);
	CHECK_EQ(n, 82); /* every register of the file is a PTM register */
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMCR, &v), 0);
	CHECK_EQ(v, 0x20000400u);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMCIDCMR, &v), 0);
	CHECK_EQ(v, 0xFFFFFFFFu);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMVMIDCVR, &v), 0);
	CHECK_EQ(v, 9);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMEXTINSEL, &v), 0);
	CHECK_EQ(v, 0x36);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMCNTENR(1), &v), 0);
	CHECK_EQ(v, 0x2406Fu);
	CHECK_EQ(pft_ptm_get_reg(p, PFT_PTM_ETMTRACEIDR, &v), 0);
	CHECK_EQ(v, 2);
	/* captured with ProgBit set: the PTM is stopped */
	CHECK_EQ(pft_ptm_read(p, b, sizeof(b)), 0);
	CHECK_EQ(pft_ptm_load_ini_regs(p, "[device]\nname=x\n", 16), -PFT_E_FORMAT);
	CHECK_EQ(pft_ptm_load_ini_regs(p, "[regs]\nETMCR(id:0x0)=zz\n", 24), -PFT_E_FORMAT);
	pft_ptm_free(p);
	free(text);
}

int main(void)
{
	names();
	progbit();
	ini();
	return check_report();
}
