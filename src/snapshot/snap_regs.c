/* SPDX-License-Identifier: BSD-3-Clause */
/* ETM/PTM register names and numbers, and [regs] sections (snap_regs.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pft/common.h"
#include "snapshot/snap_regs.h"

struct reg_name {
	const char *name;
	uint16_t regno;
};

/* Table 3-16: the canonical names, in number order. */
static const struct reg_name reg_names[] = {
	{ "ETMCR", PFT_PTM_ETMCR },
	{ "ETMCCR", PFT_PTM_ETMCCR },
	{ "ETMTRIGGER", PFT_PTM_ETMTRIGGER },
	{ "ETMSR", PFT_PTM_ETMSR },
	{ "ETMSCR", PFT_PTM_ETMSCR },
	{ "ETMTSSCR", PFT_PTM_ETMTSSCR },
	{ "ETMTEEVR", PFT_PTM_ETMTEEVR },
	{ "ETMTECR1", PFT_PTM_ETMTECR1 },
	{ "ETMFFLR", PFT_PTM_ETMFFLR },
	{ "ETMACVR1", PFT_PTM_ETMACVR(1) },
	{ "ETMACVR2", PFT_PTM_ETMACVR(2) },
	{ "ETMACVR3", PFT_PTM_ETMACVR(3) },
	{ "ETMACVR4", PFT_PTM_ETMACVR(4) },
	{ "ETMACVR5", PFT_PTM_ETMACVR(5) },
	{ "ETMACVR6", PFT_PTM_ETMACVR(6) },
	{ "ETMACVR7", PFT_PTM_ETMACVR(7) },
	{ "ETMACVR8", PFT_PTM_ETMACVR(8) },
	{ "ETMACVR9", PFT_PTM_ETMACVR(9) },
	{ "ETMACVR10", PFT_PTM_ETMACVR(10) },
	{ "ETMACVR11", PFT_PTM_ETMACVR(11) },
	{ "ETMACVR12", PFT_PTM_ETMACVR(12) },
	{ "ETMACVR13", PFT_PTM_ETMACVR(13) },
	{ "ETMACVR14", PFT_PTM_ETMACVR(14) },
	{ "ETMACVR15", PFT_PTM_ETMACVR(15) },
	{ "ETMACVR16", PFT_PTM_ETMACVR(16) },
	{ "ETMACTR1", PFT_PTM_ETMACTR(1) },
	{ "ETMACTR2", PFT_PTM_ETMACTR(2) },
	{ "ETMACTR3", PFT_PTM_ETMACTR(3) },
	{ "ETMACTR4", PFT_PTM_ETMACTR(4) },
	{ "ETMACTR5", PFT_PTM_ETMACTR(5) },
	{ "ETMACTR6", PFT_PTM_ETMACTR(6) },
	{ "ETMACTR7", PFT_PTM_ETMACTR(7) },
	{ "ETMACTR8", PFT_PTM_ETMACTR(8) },
	{ "ETMACTR9", PFT_PTM_ETMACTR(9) },
	{ "ETMACTR10", PFT_PTM_ETMACTR(10) },
	{ "ETMACTR11", PFT_PTM_ETMACTR(11) },
	{ "ETMACTR12", PFT_PTM_ETMACTR(12) },
	{ "ETMACTR13", PFT_PTM_ETMACTR(13) },
	{ "ETMACTR14", PFT_PTM_ETMACTR(14) },
	{ "ETMACTR15", PFT_PTM_ETMACTR(15) },
	{ "ETMACTR16", PFT_PTM_ETMACTR(16) },
	{ "ETMCNTRLDVR1", PFT_PTM_ETMCNTRLDVR(1) },
	{ "ETMCNTRLDVR2", PFT_PTM_ETMCNTRLDVR(2) },
	{ "ETMCNTRLDVR3", PFT_PTM_ETMCNTRLDVR(3) },
	{ "ETMCNTRLDVR4", PFT_PTM_ETMCNTRLDVR(4) },
	{ "ETMCNTENR1", PFT_PTM_ETMCNTENR(1) },
	{ "ETMCNTENR2", PFT_PTM_ETMCNTENR(2) },
	{ "ETMCNTENR3", PFT_PTM_ETMCNTENR(3) },
	{ "ETMCNTENR4", PFT_PTM_ETMCNTENR(4) },
	{ "ETMCNTRLDEVR1", PFT_PTM_ETMCNTRLDEVR(1) },
	{ "ETMCNTRLDEVR2", PFT_PTM_ETMCNTRLDEVR(2) },
	{ "ETMCNTRLDEVR3", PFT_PTM_ETMCNTRLDEVR(3) },
	{ "ETMCNTRLDEVR4", PFT_PTM_ETMCNTRLDEVR(4) },
	{ "ETMCNTVR1", PFT_PTM_ETMCNTVR(1) },
	{ "ETMCNTVR2", PFT_PTM_ETMCNTVR(2) },
	{ "ETMCNTVR3", PFT_PTM_ETMCNTVR(3) },
	{ "ETMCNTVR4", PFT_PTM_ETMCNTVR(4) },
	{ "ETMSQ12EVR", PFT_PTM_ETMSQ12EVR },
	{ "ETMSQ21EVR", PFT_PTM_ETMSQ21EVR },
	{ "ETMSQ23EVR", PFT_PTM_ETMSQ23EVR },
	{ "ETMSQ31EVR", PFT_PTM_ETMSQ31EVR },
	{ "ETMSQ32EVR", PFT_PTM_ETMSQ32EVR },
	{ "ETMSQ13EVR", PFT_PTM_ETMSQ13EVR },
	{ "ETMSQR", PFT_PTM_ETMSQR },
	{ "ETMEXTOUTEVR1", PFT_PTM_ETMEXTOUTEVR(1) },
	{ "ETMEXTOUTEVR2", PFT_PTM_ETMEXTOUTEVR(2) },
	{ "ETMEXTOUTEVR3", PFT_PTM_ETMEXTOUTEVR(3) },
	{ "ETMEXTOUTEVR4", PFT_PTM_ETMEXTOUTEVR(4) },
	{ "ETMCIDCVR1", PFT_PTM_ETMCIDCVR(1) },
	{ "ETMCIDCVR2", PFT_PTM_ETMCIDCVR(2) },
	{ "ETMCIDCVR3", PFT_PTM_ETMCIDCVR(3) },
	{ "ETMCIDCMR", PFT_PTM_ETMCIDCMR },
	{ "ETMSYNCFR", PFT_PTM_ETMSYNCFR },
	{ "ETMIDR", PFT_PTM_ETMIDR },
	{ "ETMCCER", PFT_PTM_ETMCCER },
	{ "ETMEXTINSEL", PFT_PTM_ETMEXTINSEL },
	{ "ETMTESSEICR", PFT_PTM_ETMTESSEICR },
	{ "ETMEIBCR", PFT_PTM_ETMEIBCR },
	{ "ETMTSEVR", PFT_PTM_ETMTSEVR },
	{ "ETMAUXCR", PFT_PTM_ETMAUXCR },
	{ "ETMTRACEIDR", PFT_PTM_ETMTRACEIDR },
	{ "ETMVMIDCVR", PFT_PTM_ETMVMIDCVR },
};

/* Other spellings found in the spec text and in snapshot files. */
static const struct reg_name reg_aliases[] = {
	{ "ETMTTEVR", PFT_PTM_ETMTEEVR },     { "ETMTTECR1", PFT_PTM_ETMTECR1 },
	{ "ETMTSCR1", PFT_PTM_ETMTECR1 },     { "ETMEXTINSELR", PFT_PTM_ETMEXTINSEL },
	{ "ETMTSESEICR", PFT_PTM_ETMTESSEICR },
};

#define N_NAMES (sizeof(reg_names) / sizeof(reg_names[0]))
#define N_ALIASES (sizeof(reg_aliases) / sizeof(reg_aliases[0]))

const char *snap_reg_name(unsigned regno)
{
	for (size_t i = 0; i < N_NAMES; i++)
		if (reg_names[i].regno == regno)
			return reg_names[i].name;
	return NULL;
}

static int name_eq(const char *a, size_t alen, const char *b)
{
	return strlen(b) == alen && !strncasecmp(a, b, alen);
}

int snap_reg_number(const char *name, size_t len)
{
	for (size_t i = 0; i < N_NAMES; i++)
		if (name_eq(name, len, reg_names[i].name))
			return reg_names[i].regno;
	for (size_t i = 0; i < N_ALIASES; i++)
		if (name_eq(name, len, reg_aliases[i].name))
			return reg_aliases[i].regno;
	return -1;
}

int snap_reg_resolve(const char *name, long number)
{
	int r = snap_reg_number(name, strlen(name));

	if (r >= 0)
		return r;
	if (number >= 0 && !strncasecmp(name, "ETM", 3) && snap_reg_name((unsigned)number))
		return (int)number;
	return -1;
}

/* "ETMCR(0x000)", "ETMCCER(id:0x7A)", "CNTPCT(size:64)", "R15": split the
 * key in place into name and number. */
static int split_key(char *key, const char **name, long *number)
{
	char *open = strchr(key, '('), *p;

	*name = key;
	*number = -1;
	if (!open)
		return 0;
	p = strchr(open, ')');
	if (!p || p[1])
		return -1;
	*p = '\0';
	*open = '\0';
	for (p = open + 1; *p;) {
		char *comma = strchr(p, ','), *colon;
		unsigned long long v;

		if (comma)
			*comma = '\0';
		while (*p == ' ')
			p++;
		colon = strchr(p, ':');
		if (colon) {
			*colon = '\0';
			if (!strcasecmp(p, "id") && !ini_number(colon + 1, &v))
				*number = (long)(v & 0xFFFF);
			/* size:N and unknown attributes are ignored */
		} else if (!ini_number(p, &v)) {
			*number = (long)(v & 0xFFFF);
		} else {
			return -1;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	{
		char *e = key + strlen(key);
		while (e > key && e[-1] == ' ')
			*--e = '\0';
	}
	return 0;
}

static int bad(char *msg, size_t cap, const char *path, unsigned line, const char *what,
	       const char *text)
{
	if (msg && cap)
		snprintf(msg, cap, "%s:%u: register %s '%.60s' is %s", path, line, what, text,
			 what[0] == 'k' ? "not NAME or NAME(0xNUM)" : "not a number");
	return -PFT_E_FORMAT;
}

int snap_regs_read(struct ini_file *ini, struct snap_reg **out, size_t *n, size_t *sections,
		   char *msg, size_t cap)
{
	struct snap_reg *v = NULL;
	size_t i, j, total = 0, k = 0, ns = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < ini->n; i++)
		if (!strcasecmp(ini->s[i].name, "regs")) {
			total += ini->s[i].n;
			ns++;
		}
	if (sections)
		*sections = ns;
	if (!total)
		return 0;
	v = calloc(total, sizeof(*v));
	if (!v)
		return -PFT_E_NOMEM;
	for (i = 0; i < ini->n; i++) {
		struct ini_section *s = &ini->s[i];

		if (strcasecmp(s->name, "regs"))
			continue;
		for (j = 0; j < s->n; j++) {
			struct snap_reg *r = &v[k];
			unsigned long long val = 0;
			int rc = 0;

			if (split_key(s->e[j].key, &r->name, &r->number))
				rc = bad(msg, cap, ini->path, s->e[j].line, "key", s->e[j].key);
			else if (ini_number(s->e[j].value, &val))
				rc = bad(msg, cap, ini->path, s->e[j].line, "value", s->e[j].value);
			if (rc) {
				free(v);
				return rc;
			}
			r->value = val;
			r->line = s->e[j].line;
			r->regno = snap_reg_resolve(r->name, r->number);
			k++;
		}
	}
	*out = v;
	*n = k;
	return 0;
}
