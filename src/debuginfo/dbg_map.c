/* SPDX-License-Identifier: BSD-3-Clause */
/* Debug information: plain symbol maps for images without ELF (nm, nm -S
 * or System.map text).  Lines: "ADDR SIZE TYPE NAME", "ADDR TYPE NAME" or
 * "ADDR NAME", hexadecimal numbers; blank lines and '#' comments skipped. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo/dbg_int.h"

static int parse_hex(const char *s, uint64_t *v)
{
	char *end;

	if (!isxdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 16);
	return errno || *end ? -1 : 0;
}

static int is_type(const char *s)
{
	return s[0] && !s[1] && isalpha((unsigned char)s[0]);
}

static int map_line(struct pft_dbg *d, uint32_t image, char *line)
{
	char *tok[5], *save = NULL, *p;
	int n = 0, err;
	uint64_t addr, size = 0;
	const char *name;
	char type = 'T';
	enum pft_dbg_map mk;
	struct dbg_sym s;

	for (p = strtok_r(line, " \t\r\n", &save); p && n < 5; p = strtok_r(NULL, " \t\r\n", &save))
		tok[n++] = p;
	if (n == 0 || tok[0][0] == '#')
		return 0;
	if (n == 4 && is_type(tok[2])) {
		if (parse_hex(tok[0], &addr) || parse_hex(tok[1], &size))
			return -PFT_E_FORMAT;
		type = tok[2][0];
		name = tok[3];
	} else if (n == 3 && is_type(tok[1])) {
		if (parse_hex(tok[0], &addr))
			return -PFT_E_FORMAT;
		type = tok[1][0];
		name = tok[2];
	} else if (n == 2 && is_type(tok[0])) {
		return 0; /* nm's "         U name": undefined, no address */
	} else if (n == 2) {
		if (parse_hex(tok[0], &addr))
			return -PFT_E_FORMAT;
		name = tok[1];
	} else {
		return -PFT_E_FORMAT;
	}
	addr += d->images[image].offset;
	mk = dbg_map_kind(name);
	if (mk != PFT_DBG_MAP_NONE)
		return dbg_add_map(d, addr, image, mk);
	if (strchr("UaAN", type) || name[0] == '.' || name[0] == '$')
		return 0;
	memset(&s, 0, sizeof(s));
	s.addr = addr;
	s.size = size;
	s.image = image;
	s.is_func = type == 't' || type == 'T' || type == 'w' || type == 'W' || type == 'i';
	s.isa = PFT_ISA_UNKNOWN;
	if (s.is_func && (addr & 1)) { /* an odd code address is Thumb */
		s.addr &= ~1ull;
		s.isa = PFT_ISA_THUMB;
	}
	s.name = dbg_strdup(d, name);
	if (!s.name)
		return -PFT_E_NOMEM;
	err = dbg_add_sym(d, &s);
	return err;
}

int dbg_map_load(struct pft_dbg *d, uint32_t image, const char *path, char *msg, size_t cap)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t lcap = 0;
	unsigned long lineno = 0;
	int err = 0;

	if (!f) {
		snprintf(msg, cap, "cannot open '%s': %s", path, strerror(errno));
		return -PFT_E_IO;
	}
	while (getline(&line, &lcap, f) >= 0) {
		lineno++;
		err = map_line(d, image, line);
		if (err == -PFT_E_FORMAT) {
			snprintf(msg, cap, "%s:%lu: not a symbol line (ADDR [SIZE] TYPE NAME)", path,
				 lineno);
			break;
		}
		if (err < 0) {
			snprintf(msg, cap, "out of memory");
			break;
		}
	}
	if (!err && ferror(f)) {
		snprintf(msg, cap, "cannot read '%s'", path);
		err = -PFT_E_IO;
	}
	free(line);
	fclose(f);
	return err;
}
