/* SPDX-License-Identifier: BSD-3-Clause */
/* The input options of the pft commands: getopt table, parsing, and the
 * one place where options become PTM registers (input_apply_options). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"

const struct option input_long_options[] = {
	{ "id", required_argument, NULL, INPUT_OPT_ID },
	{ "source", required_argument, NULL, INPUT_OPT_SOURCE },
	{ "format", required_argument, NULL, INPUT_OPT_FORMAT },
	{ "etmcr", required_argument, NULL, INPUT_OPT_ETMCR },
	{ "etmccr", required_argument, NULL, INPUT_OPT_ETMCCR },
	{ "etmccer", required_argument, NULL, INPUT_OPT_ETMCCER },
	{ "etmidr", required_argument, NULL, INPUT_OPT_ETMIDR },
	{ "etmtraceidr", required_argument, NULL, INPUT_OPT_ETMTRACEIDR },
	{ "etmsyncfr", required_argument, NULL, INPUT_OPT_ETMSYNCFR },
	{ "cycle-accurate", no_argument, NULL, INPUT_OPT_CYCLE_ACCURATE },
	{ "contextid-bytes", required_argument, NULL, INPUT_OPT_CONTEXTID_BYTES },
	{ "timestamps", no_argument, NULL, INPUT_OPT_TIMESTAMPS },
	{ "vmid", no_argument, NULL, INPUT_OPT_VMID },
	{ "return-stack", no_argument, NULL, INPUT_OPT_RETURN_STACK },
	{ "branch-broadcast", no_argument, NULL, INPUT_OPT_BRANCH_BROADCAST },
	{ "pft-version", required_argument, NULL, INPUT_OPT_PFT_VERSION },
	{ "no-realign", no_argument, NULL, INPUT_OPT_NO_REALIGN },
	{ "isync-resync", required_argument, NULL, INPUT_OPT_ISYNC_RESYNC },
	{ "allow-outside", no_argument, NULL, INPUT_OPT_ALLOW_OUTSIDE },
	{ NULL, 0, NULL, 0 }
};

void input_opts_init(struct input_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->id = -1;
	o->format = -1;
	o->contextid_bytes = -1;
	o->pft_minor = -1;
	o->isync_resync = PFT_ISYNC_RESYNC_LOST;
	pft_config_init(&o->regs);
}

struct option *input_merge_options(struct option *dst, size_t cap, const struct option *own)
{
	size_t n = 0, i;

	for (i = 0; own && own[i].name; i++) {
		if (n + 1 >= cap)
			return NULL;
		dst[n++] = own[i];
	}
	for (i = 0; input_long_options[i].name; i++) {
		if (n + 1 >= cap)
			return NULL;
		dst[n++] = input_long_options[i];
	}
	memset(&dst[n], 0, sizeof(dst[n]));
	return dst;
}

static int parse_u32(const char *arg, uint32_t *out)
{
	char *e;
	unsigned long long v;

	if (!arg || !*arg || *arg == '-')
		return -1;
	errno = 0;
	v = strtoull(arg, &e, 0);
	if (errno || *e || v > 0xFFFFFFFFull)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int input_parse_option(struct input_opts *o, int opt, const char *arg, const char *cmd)
{
	static const struct {
		int opt;
		uint32_t bit;
		const char *name;
	} regs[] = {
		{ INPUT_OPT_ETMCR, PFT_SNAPSHOT_REG_ETMCR, "--etmcr" },
		{ INPUT_OPT_ETMCCR, PFT_SNAPSHOT_REG_ETMCCR, "--etmccr" },
		{ INPUT_OPT_ETMCCER, PFT_SNAPSHOT_REG_ETMCCER, "--etmccer" },
		{ INPUT_OPT_ETMIDR, PFT_SNAPSHOT_REG_ETMIDR, "--etmidr" },
		{ INPUT_OPT_ETMTRACEIDR, PFT_SNAPSHOT_REG_ETMTRACEIDR, "--etmtraceidr" },
		{ INPUT_OPT_ETMSYNCFR, PFT_SNAPSHOT_REG_ETMSYNCFR, "--etmsyncfr" },
	};
	uint32_t v;
	size_t i;

	if (opt < INPUT_OPT_BASE || opt >= INPUT_OPT_END)
		return 0;
	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		if (regs[i].opt != opt)
			continue;
		if (parse_u32(arg, &v)) {
			cli_error(cmd, "%s: '%s' is not a 32-bit number (use 0x... or decimal)",
				  regs[i].name, arg ? arg : "");
			return -1;
		}
		o->regs_given |= regs[i].bit;
		switch (regs[i].bit) {
		case PFT_SNAPSHOT_REG_ETMCR: o->regs.etmcr = v; break;
		case PFT_SNAPSHOT_REG_ETMCCR: o->regs.etmccr = v; break;
		case PFT_SNAPSHOT_REG_ETMCCER: o->regs.etmccer = v; break;
		case PFT_SNAPSHOT_REG_ETMIDR: o->regs.etmidr = v; break;
		case PFT_SNAPSHOT_REG_ETMTRACEIDR: o->regs.etmtraceidr = v; break;
		default: o->regs.etmsyncfr = v; break;
		}
		return 1;
	}
	switch (opt) {
	case INPUT_OPT_ID:
		if (parse_u32(arg, &v) || v == 0 || v > 0x6F) {
			cli_error(cmd, "--id: '%s' is not a trace ID (0x01-0x6F)", arg ? arg : "");
			return -1;
		}
		o->id = (int)v;
		return 1;
	case INPUT_OPT_SOURCE:
		o->source = arg;
		return 1;
	case INPUT_OPT_FORMAT:
		if (o->format >= 0) {
			cli_error(cmd, "--format: the capture layout is given twice ('%s')", arg);
			return -1;
		}
		if (!strcmp(arg, "raw"))
			o->format = PFT_FRAME_RAW;
		else if (!strcmp(arg, "frames") || !strcmp(arg, "coresight"))
			o->format = PFT_FRAME_CORESIGHT;
		else if (!strcmp(arg, "tpiu"))
			o->format = PFT_FRAME_TPIU;
		else {
			cli_error(cmd, "--format: '%s' is not raw, frames or tpiu", arg);
			return -1;
		}
		return 1;
	case INPUT_OPT_CYCLE_ACCURATE: o->cycle_accurate = 1; return 1;
	case INPUT_OPT_TIMESTAMPS: o->timestamps = 1; return 1;
	case INPUT_OPT_VMID: o->vmid = 1; return 1;
	case INPUT_OPT_RETURN_STACK: o->return_stack = 1; return 1;
	case INPUT_OPT_BRANCH_BROADCAST: o->branch_broadcast = 1; return 1;
	case INPUT_OPT_ALLOW_OUTSIDE: o->allow_outside = 1; return 1;
	case INPUT_OPT_CONTEXTID_BYTES:
		if (parse_u32(arg, &v) || (v != 0 && v != 1 && v != 2 && v != 4)) {
			cli_error(cmd, "--contextid-bytes: '%s' is not 0, 1, 2 or 4", arg ? arg : "");
			return -1;
		}
		o->contextid_bytes = (int)v;
		return 1;
	case INPUT_OPT_NO_REALIGN: o->no_realign = 1; return 1;
	case INPUT_OPT_ISYNC_RESYNC:
		if (!strcmp(arg, "off"))
			o->isync_resync = PFT_ISYNC_RESYNC_OFF;
		else if (!strcmp(arg, "lost"))
			o->isync_resync = PFT_ISYNC_RESYNC_LOST;
		else if (!strcmp(arg, "always"))
			o->isync_resync = PFT_ISYNC_RESYNC_ALWAYS;
		else {
			cli_error(cmd, "--isync-resync: '%s' is not off, lost or always", arg);
			return -1;
		}
		return 1;
	case INPUT_OPT_PFT_VERSION:
		if (!strcmp(arg, "1.0") || !strcmp(arg, "1"))
			o->pft_minor = 0;
		else if (!strcmp(arg, "1.1"))
			o->pft_minor = 1;
		else {
			cli_error(cmd, "--pft-version: '%s' is not 1.0 or 1.1", arg);
			return -1;
		}
		return 1;
	default:
		return 0;
	}
}

uint32_t input_apply_etmcr(const struct input_opts *o, uint32_t etmcr)
{
	static const uint8_t cid_field[5] = { 0, 1, 2, 0, 3 };

	if (o->regs_given & PFT_SNAPSHOT_REG_ETMCR)
		etmcr = o->regs.etmcr;
	if (o->cycle_accurate)
		etmcr |= PFT_ETMCR_CYCLE_ACCURATE;
	if (o->timestamps)
		etmcr |= PFT_ETMCR_TIMESTAMP;
	if (o->vmid)
		etmcr |= PFT_ETMCR_VMID;
	if (o->return_stack)
		etmcr |= PFT_ETMCR_RETURN_STACK;
	if (o->branch_broadcast)
		etmcr |= PFT_ETMCR_BRANCH_BROADCAST;
	if (o->contextid_bytes >= 0)
		etmcr = (etmcr & ~(PFT_ETMCR_CONTEXTID_SIZE_MASK << PFT_ETMCR_CONTEXTID_SIZE_SHIFT)) |
			(uint32_t)cid_field[o->contextid_bytes] << PFT_ETMCR_CONTEXTID_SIZE_SHIFT;
	return etmcr;
}

void input_apply_options(struct pft_config *cfg, const struct input_opts *o)
{
	cfg->etmcr = input_apply_etmcr(o, cfg->etmcr);
	if (o->regs_given & PFT_SNAPSHOT_REG_ETMCCR)
		cfg->etmccr = o->regs.etmccr;
	if (o->regs_given & PFT_SNAPSHOT_REG_ETMCCER)
		cfg->etmccer = o->regs.etmccer;
	if (o->regs_given & PFT_SNAPSHOT_REG_ETMIDR)
		cfg->etmidr = o->regs.etmidr;
	if (o->regs_given & PFT_SNAPSHOT_REG_ETMTRACEIDR)
		cfg->etmtraceidr = o->regs.etmtraceidr;
	if (o->regs_given & PFT_SNAPSHOT_REG_ETMSYNCFR)
		cfg->etmsyncfr = o->regs.etmsyncfr;
	if (o->id >= 0 && !(o->regs_given & PFT_SNAPSHOT_REG_ETMTRACEIDR))
		cfg->etmtraceidr = (uint32_t)o->id;
	if (o->pft_minor >= 0)
		cfg->etmidr = (cfg->etmidr & ~0xF0u) | (uint32_t)o->pft_minor << 4;
}

int input_check_config(const struct pft_config *cfg, const char *cmd, const char *where)
{
	char why[300];

	if (pft_config_check(cfg, why, sizeof why)) {
		cli_error(cmd, "bad PTM registers%s%s: %s", where ? " in " : "", where ? where : "", why);
		return PFT_EXIT_USAGE;
	}
	return PFT_EXIT_OK;
}

int input_config(const struct input_opts *o, struct pft_config *cfg, const char *cmd)
{
	pft_config_init(cfg);
	input_apply_options(cfg, o);
	return input_check_config(cfg, cmd, NULL);
}
