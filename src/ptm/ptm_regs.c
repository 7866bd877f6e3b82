/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM programmers' model (spec chapter 3, Table 3-16): the register
 * file by number and by name, the Programming bit, and loading a snapshot
 * device .ini [regs] section. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ptm/ptm_internal.h"

struct reg_name {
	const char *name;
	uint16_t regno;
};

static const struct reg_name reg_names[] = {
	{ "ETMCR", 0x000 },
	{ "ETMCCR", 0x001 },
	{ "ETMTRIGGER", 0x002 },
	{ "ETMSR", 0x004 },
	{ "ETMSCR", 0x005 },
	{ "ETMTSSCR", 0x006 },
	{ "ETMTEEVR", 0x008 },
	{ "ETMTECR1", 0x009 },
	{ "ETMFFLR", 0x00B },
	{ "ETMACVR1", 0x010 },
	{ "ETMACVR2", 0x011 },
	{ "ETMACVR3", 0x012 },
	{ "ETMACVR4", 0x013 },
	{ "ETMACVR5", 0x014 },
	{ "ETMACVR6", 0x015 },
	{ "ETMACVR7", 0x016 },
	{ "ETMACVR8", 0x017 },
	{ "ETMACVR9", 0x018 },
	{ "ETMACVR10", 0x019 },
	{ "ETMACVR11", 0x01A },
	{ "ETMACVR12", 0x01B },
	{ "ETMACVR13", 0x01C },
	{ "ETMACVR14", 0x01D },
	{ "ETMACVR15", 0x01E },
	{ "ETMACVR16", 0x01F },
	{ "ETMACTR1", 0x020 },
	{ "ETMACTR2", 0x021 },
	{ "ETMACTR3", 0x022 },
	{ "ETMACTR4", 0x023 },
	{ "ETMACTR5", 0x024 },
	{ "ETMACTR6", 0x025 },
	{ "ETMACTR7", 0x026 },
	{ "ETMACTR8", 0x027 },
	{ "ETMACTR9", 0x028 },
	{ "ETMACTR10", 0x029 },
	{ "ETMACTR11", 0x02A },
	{ "ETMACTR12", 0x02B },
	{ "ETMACTR13", 0x02C },
	{ "ETMACTR14", 0x02D },
	{ "ETMACTR15", 0x02E },
	{ "ETMACTR16", 0x02F },
	{ "ETMCNTRLDVR1", 0x050 },
	{ "ETMCNTRLDVR2", 0x051 },
	{ "ETMCNTRLDVR3", 0x052 },
	{ "ETMCNTRLDVR4", 0x053 },
	{ "ETMCNTENR1", 0x054 },
	{ "ETMCNTENR2", 0x055 },
	{ "ETMCNTENR3", 0x056 },
	{ "ETMCNTENR4", 0x057 },
	{ "ETMCNTRLDEVR1", 0x058 },
	{ "ETMCNTRLDEVR2", 0x059 },
	{ "ETMCNTRLDEVR3", 0x05A },
	{ "ETMCNTRLDEVR4", 0x05B },
	{ "ETMCNTVR1", 0x05C },
	{ "ETMCNTVR2", 0x05D },
	{ "ETMCNTVR3", 0x05E },
	{ "ETMCNTVR4", 0x05F },
	{ "ETMSQ12EVR", 0x060 },
	{ "ETMSQ21EVR", 0x061 },
	{ "ETMSQ23EVR", 0x062 },
	{ "ETMSQ31EVR", 0x063 },
	{ "ETMSQ32EVR", 0x064 },
	{ "ETMSQ13EVR", 0x065 },
	{ "ETMSQR", 0x067 },
	{ "ETMEXTOUTEVR1", 0x068 },
	{ "ETMEXTOUTEVR2", 0x069 },
	{ "ETMEXTOUTEVR3", 0x06A },
	{ "ETMEXTOUTEVR4", 0x06B },
	{ "ETMCIDCVR1", 0x06C },
	{ "ETMCIDCVR2", 0x06D },
	{ "ETMCIDCVR3", 0x06E },
	{ "ETMCIDCMR", 0x06F },
	{ "ETMSYNCFR", 0x078 },
	{ "ETMIDR", 0x079 },
	{ "ETMCCER", 0x07A },
	{ "ETMEXTINSEL", 0x07B },
	{ "ETMTESSEICR", 0x07C },
	{ "ETMEIBCR", 0x07D },
	{ "ETMTSEVR", 0x07E },
	{ "ETMAUXCR", 0x07F },
	{ "ETMTRACEIDR", 0x080 },
	{ "ETMVMIDCVR", 0x090 },
};

/* Other spellings found in the spec text and in snapshot files. */
static const struct reg_name reg_aliases[] = {
	{ "ETMTTEVR", 0x008 }, { "ETMTTECR1", 0x009 }, { "ETMTSCR1", 0x009 },
	{ "ETMEXTINSELR", 0x07B }, { "ETMTSESEICR", 0x07C },
};

#define N_NAMES (sizeof(reg_names) / sizeof(reg_names[0]))
#define N_ALIASES (sizeof(reg_aliases) / sizeof(reg_aliases[0]))

const char *pft_ptm_reg_name(unsigned regno)
{
	for (size_t i = 0; i < N_NAMES; i++)
		if (reg_names[i].regno == regno)
			return reg_names[i].name;
	return NULL;
}

static int name_eq(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);
	if (alen != blen)
		return 0;
	for (size_t i = 0; i < alen; i++)
		if (toupper((unsigned char)a[i]) != b[i])
			return 0;
	return 1;
}

static int lookup_n(const char *name, size_t len)
{
	while (len && isspace((unsigned char)*name)) {
		name++;
		len--;
	}
	/* "NAME(id:0x10)": the name decides; the id is checked below. */
	size_t n = 0;
	while (n < len && name[n] != '(' && !isspace((unsigned char)name[n]))
		n++;
	if (n == 0)
		return -PFT_E_NOTFOUND;
	if (n > 2 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X')) {
		char tmp[16];
		char *end;
		if (n >= sizeof(tmp))
			return -PFT_E_NOTFOUND;
		memcpy(tmp, name, n);
		tmp[n] = '\0';
		unsigned long v = strtoul(tmp, &end, 16);
		if (*end || !pft_ptm_reg_name((unsigned)v))
			return -PFT_E_NOTFOUND;
		return (int)v;
	}
	for (size_t i = 0; i < N_NAMES; i++)
		if (name_eq(name, n, reg_names[i].name))
			return reg_names[i].regno;
	for (size_t i = 0; i < N_ALIASES; i++)
		if (name_eq(name, n, reg_aliases[i].name))
			return reg_aliases[i].regno;
	return -PFT_E_NOTFOUND;
}

int pft_ptm_reg_lookup(const char *name)
{
	if (!name)
		return -PFT_E_NOTFOUND;
	return lookup_n(name, strlen(name));
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
	struct pft_encoder *enc = pft_enc_alloc(&c);
	if (!enc)
		return -PFT_E_NOMEM;
	if (p->enc)
		pft_enc_free(p->enc);
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
	p->n_ac = (uint8_t)(2 * (ccr & 0xF));
	if (p->n_ac > 16)
		p->n_ac = 16;
	p->n_cnt = (uint8_t)((ccr >> 13) & 7);
	if (p->n_cnt > 4)
		p->n_cnt = 4;
	p->has_seq = (uint8_t)((ccr >> 16) & 1);
	p->n_cidc = (uint8_t)((ccr >> 24) & 3);
}

/* ETMCR bits of features the PTM does not implement are RAZ/WI (3.16.1):
 * return stack [29] needs ETMCCER[23], timestamps [28] ETMCCER[22], VMID
 * [30] PFTv1.1 and ETMCCER[26]. */
uint32_t ptm_cr_writable(uint32_t cr, uint32_t ccer, uint32_t idr)
{
	if (!((ccer >> 23) & 1))
		cr &= ~(1u << 29);
	if (!((ccer >> 22) & 1))
		cr &= ~(1u << 28);
	if (((idr >> 4) & 0xF) < 1 || !((ccer >> 26) & 1))
		cr &= ~(1u << 30);
	return cr;
}

static int cr_enabled(uint32_t cr)
{
	return !(cr & (1u << 10)) && !(cr & 1u);
}

static int set_reg(struct pft_ptm *p, unsigned regno, uint32_t v);

int pft_ptm_set_reg(struct pft_ptm *p, unsigned regno, uint32_t v)
{
	int rc = set_reg(p, regno, v);
	if (p)
		ptm_res_update_idle(p);
	return rc;
}

static int set_reg(struct pft_ptm *p, unsigned regno, uint32_t v)
{
	if (!p)
		return -PFT_E_INVAL;
	if (regno >= PFT_PTM_NR_REGS || !pft_ptm_reg_name(regno))
		return -PFT_E_NOTFOUND;
	uint32_t old = p->regs[regno];
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
	default:
		break;
	}
	switch (regno) {
	case PFT_PTM_ETMTRACEIDR:
		if ((v & 0x7F) == 0 || (v & 0x7F) >= 0x70)
			return -PFT_E_BAD_CONFIG;
		p->regs[regno] = v;
		p->cfg.etmtraceidr = v;
		p->f.trace_id = (uint8_t)(v & 0x7F);
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
		break;
	}
	if (regno == PFT_PTM_ETMCR)
		v = ptm_cr_writable(v, p->regs[PFT_PTM_ETMCCER], p->regs[PFT_PTM_ETMIDR]);
	p->regs[regno] = v;
	if (regno == PFT_PTM_ETMCCER || regno == PFT_PTM_ETMIDR)
		p->regs[PFT_PTM_ETMCR] = ptm_cr_writable(p->regs[PFT_PTM_ETMCR],
							 p->regs[PFT_PTM_ETMCCER],
							 p->regs[PFT_PTM_ETMIDR]);
	if (regno == PFT_PTM_ETMCR || regno == PFT_PTM_ETMCCER || regno == PFT_PTM_ETMIDR) {
		int was = p->enabled;
		int rc;
		/* Only ProgBit/PowerDown changed: start or stop. */
		if (regno == PFT_PTM_ETMCR && ((old ^ v) & ~0x401u) == 0) {
			if (was && !cr_enabled(v))
				ptm_disable(p);
			else if (!was && cr_enabled(v))
				ptm_enable(p);
			return 0;
		}
		/* Refuse values that do not describe a PTM, changing nothing. */
		{
			struct pft_config c = p->cfg;
			struct pft_features f;
			c.etmcr = p->regs[PFT_PTM_ETMCR];
			c.etmccer = p->regs[PFT_PTM_ETMCCER];
			c.etmidr = p->regs[PFT_PTM_ETMIDR];
			if (pft_config_features(&c, &f) < 0) {
				p->regs[regno] = old;
				return -PFT_E_BAD_CONFIG;
			}
		}
		/* A feature change (allowed by the spec only with ProgBit set):
		 * stop, reconfigure, restart with full synchronisation. */
		if (was)
			ptm_disable(p);
		rc = ptm_apply_config(p);
		if (rc < 0) {
			p->regs[regno] = old;
			(void)ptm_apply_config(p);
			if (was)
				ptm_enable(p);
			return rc;
		}
		if (cr_enabled(p->regs[PFT_PTM_ETMCR]))
			ptm_enable(p);
	}
	return 0;
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
			 ((p->regs[PFT_PTM_ETMCR] >> 10 & 1) << 1) | p->ovf_unreported;
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

int pft_ptm_set_reg_by_name(struct pft_ptm *p, const char *name, uint32_t value)
{
	int r = pft_ptm_reg_lookup(name);
	if (r < 0)
		return r;
	return pft_ptm_set_reg(p, (unsigned)r, value);
}

/* One "NAME(id:0xNN)=VALUE" line.  Returns the register number, or
 * -PFT_E_NOTFOUND / -PFT_E_FORMAT. */
static int parse_reg_line(const char *s, size_t len, uint32_t *val)
{
	const char *eq = memchr(s, '=', len);
	if (!eq)
		return -PFT_E_FORMAT;
	int r = lookup_n(s, (size_t)(eq - s));
	if (r < 0) {
		/* fall back on the (id:0xNN) number */
		const char *id = NULL;
		for (const char *q = s; q + 4 <= eq; q++)
			if (!strncmp(q, "(id:", 4)) {
				id = q + 4;
				break;
			}
		if (!id)
			return -PFT_E_NOTFOUND;
		unsigned long n = strtoul(id, NULL, 0);
		if (n >= PFT_PTM_NR_REGS || !pft_ptm_reg_name((unsigned)n))
			return -PFT_E_NOTFOUND;
		r = (int)n;
	}
	char tmp[32];
	size_t vl = len - (size_t)(eq + 1 - s);
	if (vl == 0 || vl >= sizeof(tmp))
		return -PFT_E_FORMAT;
	memcpy(tmp, eq + 1, vl);
	tmp[vl] = '\0';
	char *end;
	unsigned long long v = strtoull(tmp, &end, 0);
	while (*end && isspace((unsigned char)*end))
		end++;
	if (*end || end == tmp || v > 0xFFFFFFFFull)
		return -PFT_E_FORMAT;
	*val = (uint32_t)v;
	return r;
}

int pft_ptm_load_ini_regs(struct pft_ptm *p, const char *text, size_t len)
{
	if (!p || !text)
		return -PFT_E_INVAL;
	int in_regs = 0, seen = 0, count = 0, have_cr = 0;
	uint32_t cr = 0;
	size_t i = 0;
	/* Program as the spec says (3.15.4): ProgBit set first, ETMCR last. */
	if (!(p->regs[PFT_PTM_ETMCR] & 0x400u)) {
		int rc = pft_ptm_set_reg(p, PFT_PTM_ETMCR, p->regs[PFT_PTM_ETMCR] | 0x400u);
		if (rc < 0)
			return rc;
	}
	while (i < len) {
		size_t e = i;
		while (e < len && text[e] != '\n')
			e++;
		const char *s = text + i;
		size_t l = e - i;
		while (l && isspace((unsigned char)*s)) {
			s++;
			l--;
		}
		while (l && isspace((unsigned char)s[l - 1]))
			l--;
		i = e + 1;
		if (!l || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			in_regs = (l == 6 && !strncmp(s, "[regs]", 6));
			seen |= in_regs;
			continue;
		}
		if (!in_regs)
			continue;
		uint32_t v;
		int r = parse_reg_line(s, l, &v);
		if (r == -PFT_E_NOTFOUND)
			continue;
		if (r < 0)
			return r;
		if (r == PFT_PTM_ETMCR) {
			cr = v;
			have_cr = 1;
			continue;
		}
		if (r == PFT_PTM_ETMSR) /* status: ProgBit/overflow are read-only */
			v &= 0xC;
		int rc = pft_ptm_set_reg(p, (unsigned)r, v);
		if (rc < 0)
			return rc;
		count++;
	}
	if (!seen)
		return -PFT_E_FORMAT;
	if (have_cr) {
		int rc = pft_ptm_set_reg(p, PFT_PTM_ETMCR, cr);
		if (rc < 0)
			return rc;
		count++;
	}
	return count;
}
