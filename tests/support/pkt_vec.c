/* SPDX-License-Identifier: BSD-3-Clause */
/* Reader of the packet test vectors (syntax in pkt_vec.h).  Its name tables
 * are its own, not the library's, so that a wrong name in the library
 * cannot make a vector agree with it. */
#define _POSIX_C_SOURCE 200809L
#include "pkt_vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vec_files.h"

struct name {
	const char *s;
	int v;
};

static const struct name type_names[] = {
	{ "async", PFT_PKT_ASYNC },
	{ "isync", PFT_PKT_ISYNC },
	{ "atom", PFT_PKT_ATOM },
	{ "branch", PFT_PKT_BRANCH },
	{ "waypoint_update", PFT_PKT_WAYPOINT_UPDATE },
	{ "trigger", PFT_PKT_TRIGGER },
	{ "context_id", PFT_PKT_CONTEXT_ID },
	{ "vmid", PFT_PKT_VMID },
	{ "timestamp", PFT_PKT_TIMESTAMP },
	{ "exception_return", PFT_PKT_EXCEPTION_RETURN },
	{ "ignore", PFT_PKT_IGNORE },
	{ NULL, 0 },
};

static const struct name isa_names[] = {
	{ "A32", PFT_ISA_ARM },
	{ "T32", PFT_ISA_THUMB },
	{ "T32EE", PFT_ISA_THUMBEE },
	{ "JAZ", PFT_ISA_JAZELLE },
	{ NULL, 0 },
};

static const struct name reason_names[] = {
	{ "periodic", PFT_ISYNC_PERIODIC },
	{ "trace_on", PFT_ISYNC_TRACE_ON },
	{ "overflow", PFT_ISYNC_OVERFLOW },
	{ "debug_exit", PFT_ISYNC_DEBUG_EXIT },
	{ NULL, 0 },
};

/* spec Table 4-4 */
static const struct name exc_names[] = {
	{ "debug_halt", PFT_EXC_DEBUG_HALT },
	{ "smc", PFT_EXC_SMC },
	{ "hyp", PFT_EXC_HYP },
	{ "async_data_abort", PFT_EXC_ASYNC_DATA_ABORT },
	{ "thumbee_check", PFT_EXC_THUMBEE_CHECK },
	{ "reset", PFT_EXC_RESET },
	{ "undefined", PFT_EXC_UNDEFINED },
	{ "svc", PFT_EXC_SVC },
	{ "prefetch_abort", PFT_EXC_PREFETCH_ABORT },
	{ "data_abort", PFT_EXC_DATA_ABORT },
	{ "generic", PFT_EXC_GENERIC },
	{ "irq", PFT_EXC_IRQ },
	{ "fiq", PFT_EXC_FIQ },
	{ NULL, 0 },
};

static int lookup(const struct name *t, const char *s, int *v)
{
	for (; t->s; t++)
		if (!strcmp(t->s, s)) {
			*v = t->v;
			return 0;
		}
	return -1;
}

static int number(const char *s, int64_t *v)
{
	char *end;
	unsigned long long x;

	if (!*s || *s == '-')
		return -1;
	x = strtoull(s, &end, 0);
	if (*end)
		return -1;
	*v = (int64_t)x;
	return 0;
}

/* HEX bytes from the tokens; '|' is skipped. */
static int hex_bytes(char **tok, int ntok, uint8_t *out, size_t *n, size_t cap)
{
	int i;

	for (i = 0; i < ntok; i++) {
		char *end;
		unsigned long x;

		if (!strcmp(tok[i], "|"))
			continue;
		x = strtoul(tok[i], &end, 16);
		if (*end || strlen(tok[i]) != 2 || *n == cap)
			return -1;
		out[(*n)++] = (uint8_t)x;
	}
	return 0;
}

static void vec_reset(struct pkt_vec *v, const char *name, const char *file, int line)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->where, sizeof(v->where), "%s:%d", file, line);
	pft_config_init(&v->cfg);
	v->type = PKT_VEC_NA;
	v->address = v->cycles = v->timestamp = v->context_id = PKT_VEC_NA;
	v->isa = v->exception = v->ns = v->hyp = v->reason = v->vmid = PKT_VEC_NA;
}

static int parse_config(struct pkt_vec *v, char **tok, int ntok)
{
	int i;
	int64_t x;

	for (i = 0; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');

		if (!eq || number(eq + 1, &x) || x > 0xFFFFFFFFll)
			return -1;
		*eq = '\0';
		if (!strcmp(tok[i], "etmcr"))
			v->cfg.etmcr = (uint32_t)x;
		else if (!strcmp(tok[i], "etmccer"))
			v->cfg.etmccer = (uint32_t)x;
		else if (!strcmp(tok[i], "etmidr"))
			v->cfg.etmidr = (uint32_t)x;
		else
			return -1;
	}
	return 0;
}

static int flag01(const char *s, int *v)
{
	if (strcmp(s, "0") && strcmp(s, "1"))
		return -1;
	*v = *s == '1';
	return 0;
}

static int parse_expect(struct pkt_vec *v, char **tok, int ntok)
{
	int i, x = 0;
	int64_t n = 0;

	if (ntok < 1 || v->type != PKT_VEC_NA || lookup(type_names, tok[0], &v->type))
		return -1;
	for (i = 1; i < ntok; i++) {
		char *key = tok[i], *val = strchr(tok[i], '=');
		int bad;

		if (!val)
			return -1;
		*val++ = '\0';
		if (!strcmp(key, "addr"))
			bad = number(val, &v->address);
		else if (!strcmp(key, "cc"))
			bad = number(val, &v->cycles);
		else if (!strcmp(key, "ts"))
			bad = number(val, &v->timestamp);
		else if (!strcmp(key, "cid"))
			bad = number(val, &v->context_id);
		else if (!strcmp(key, "isa"))
			bad = lookup(isa_names, val, &v->isa);
		else if (!strcmp(key, "reason"))
			bad = lookup(reason_names, val, &v->reason);
		else if (!strcmp(key, "ns"))
			bad = flag01(val, &v->ns);
		else if (!strcmp(key, "hyp"))
			bad = flag01(val, &v->hyp);
		else if (!strcmp(key, "exc")) {
			bad = lookup(exc_names, val, &x);
			if (bad && !number(val, &n) && n < 0x200) {
				x = (int)n;
				bad = 0;
			}
			v->exception = x;
		} else if (!strcmp(key, "vmid")) {
			bad = number(val, &n) || n > 0xFF;
			v->vmid = (int)n;
		} else if (!strcmp(key, "atoms")) {
			bad = !*val || strlen(val) >= sizeof(v->atoms) ||
			      strspn(val, "EN") != strlen(val);
			snprintf(v->atoms, sizeof(v->atoms), "%s", val);
		} else {
			bad = 1;
		}
		if (bad)
			return -1;
	}
	return 0;
}

/* One directive inside a case; 0 or -1. */
static int parse_line(struct pkt_vec *v, char *line)
{
	char *tok[64], *save = NULL, *t;
	int ntok = 0;

	for (t = strtok_r(line, " \t", &save); t && ntok < 64; t = strtok_r(NULL, " \t", &save))
		tok[ntok++] = t;
	if (!ntok)
		return 0;
	if (!strcmp(tok[0], "config"))
		return parse_config(v, tok + 1, ntok - 1);
	if (!strcmp(tok[0], "prefix"))
		return hex_bytes(tok + 1, ntok - 1, v->prefix, &v->nprefix, sizeof(v->prefix));
	if (!strcmp(tok[0], "bytes"))
		return v->nbytes ? -1
				 : hex_bytes(tok + 1, ntok - 1, v->bytes, &v->nbytes, sizeof(v->bytes));
	if (!strcmp(tok[0], "encoded"))
		return v->nencoded ? -1
				   : hex_bytes(tok + 1, ntok - 1, v->encoded, &v->nencoded,
					       sizeof(v->encoded));
	if (!strcmp(tok[0], "expect"))
		return parse_expect(v, tok + 1, ntok - 1);
	return -1;
}

static void bad_line(const char *path, int ln, const char *what)
{
	check_count++;
	check_fail(path, ln, "%s", what);
}

static void load_file(const char *path, struct pkt_vec **vs, size_t *n, size_t *cap)
{
	char line[1024], copy[1024];
	FILE *f = fopen(path, "r");
	struct pkt_vec v;
	int in_case = 0, ln = 0;

	if (!f) {
		bad_line(path, 0, "cannot open");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s = vec_line(line);

		ln++;
		if (!s)
			continue;
		if (!strncmp(s, "case ", 5)) {
			if (in_case)
				bad_line(path, ln, "case inside a case (missing end)");
			vec_reset(&v, s + 5, path, ln);
			in_case = 1;
			continue;
		}
		if (!strcmp(s, "end") && in_case) {
			in_case = 0;
			if (!v.nbytes || v.type == PKT_VEC_NA) {
				bad_line(path, ln, "case without bytes or expect");
				continue;
			}
			if (!v.nencoded) {
				memcpy(v.encoded, v.bytes, v.nbytes);
				v.nencoded = v.nbytes;
			}
			if (*n == *cap) {
				struct pkt_vec *nv;

				*cap = *cap ? 2 * *cap : 64;
				nv = realloc(*vs, *cap * sizeof(**vs));
				if (!nv) {
					bad_line(path, ln, "out of memory");
					break;
				}
				*vs = nv;
			}
			(*vs)[(*n)++] = v;
			continue;
		}
		snprintf(copy, sizeof(copy), "%s", s); /* parse_line cuts s into tokens */
		if (!in_case || parse_line(&v, s) != 0) {
			char msg[1100];

			snprintf(msg, sizeof(msg), "cannot parse: %s", copy);
			bad_line(path, ln, msg);
		}
	}
	if (in_case)
		bad_line(path, ln, "file ends inside a case");
	fclose(f);
}

struct pkt_vec *pkt_vec_load(char **files, int nfiles, size_t *n)
{
	struct pkt_vec *vs = NULL;
	size_t cap = 0, min = nfiles > 0 ? 1 : PKT_VEC_MIN;
	char **all = nfiles > 0 ? NULL : vec_files("packet");
	int i;

	*n = 0;
	if (all)
		files = all;
	for (i = 0; nfiles > 0 ? i < nfiles : files && files[i]; i++)
		load_file(files[i], &vs, n, &cap);
	vec_files_free(all);
	check_count++;
	if (*n < min)
		check_fail(__FILE__, __LINE__, "%zu packet vectors read, expected at least %zu", *n,
			   min);
	return vs;
}

size_t pkt_vec_stream(const struct pkt_vec *v, int encoded, uint8_t *buf, size_t cap)
{
	static const uint8_t async[6] = { 0, 0, 0, 0, 0, 0x80 };
	const uint8_t *b = encoded ? v->encoded : v->bytes;
	size_t nb = encoded ? v->nencoded : v->nbytes;

	if (cap < sizeof(async) + v->nprefix + nb)
		return 0;
	memcpy(buf, async, sizeof(async));
	memcpy(buf + sizeof(async), v->prefix, v->nprefix);
	memcpy(buf + sizeof(async) + v->nprefix, b, nb);
	return sizeof(async) + v->nprefix + nb;
}
