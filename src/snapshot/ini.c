/* SPDX-License-Identifier: BSD-3-Clause */
/* The ini reader of the snapshot layer (see ini.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pft/common.h"
#include "snapshot/ini.h"

static char *trim(char *a, char *b)
{
	/* [a, b) trimmed in place and NUL terminated */
	while (a < b && isspace((unsigned char)*a))
		a++;
	while (b > a && isspace((unsigned char)b[-1]))
		b--;
	*b = '\0';
	return a;
}

int ini_grow(void **p, size_t *cap, size_t n, size_t elem)
{
	void *q;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 8;
	q = realloc(*p, nc * elem);
	if (!q)
		return -PFT_E_NOMEM;
	*p = q;
	*cap = nc;
	return 0;
}

void ini_free(struct ini_file *ini)
{
	size_t i;

	if (!ini)
		return;
	for (i = 0; i < ini->n; i++)
		free(ini->s[i].e);
	free(ini->s);
	free(ini->text);
	free(ini->path);
	memset(ini, 0, sizeof(*ini));
}

static int add_section(struct ini_file *ini, char *name, unsigned line)
{
	struct ini_section *s;

	if (ini_grow((void **)&ini->s, &ini->cap, ini->n, sizeof(*ini->s)))
		return -PFT_E_NOMEM;
	s = &ini->s[ini->n++];
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->line = line;
	return 0;
}

int ini_parse(struct ini_file *ini, const char *path, const char *text, size_t len,
	      char *msg, size_t cap)
{
	char *p, *end;
	unsigned line = 0;
	static char empty[1];

	memset(ini, 0, sizeof(*ini));
	if (msg && cap)
		msg[0] = '\0';
	ini->path = strdup(path ? path : "(ini)");
	ini->text = malloc(len + 1);
	if (!ini->path || !ini->text) {
		ini_free(ini);
		return -PFT_E_NOMEM;
	}
	if (len > INI_MAX_BYTES || memchr(text, '\0', len)) {
		if (msg)
			snprintf(msg, cap, "%s: not a text ini file (%s)", ini->path,
				 len > INI_MAX_BYTES ? "larger than 16 MiB" : "contains NUL bytes");
		ini_free(ini);
		return -PFT_E_FORMAT;
	}
	memcpy(ini->text, text, len);
	ini->text[len] = '\0';
	p = ini->text;
	end = p + len;
	/* UTF-8 byte order mark */
	if (len >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB &&
	    (unsigned char)p[2] == 0xBF)
		p += 3;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *eol = nl ? nl : end;
		char *s = trim(p, eol);

		line++;
		p = nl ? nl + 1 : end;
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');
			char *rest;

			if (!close) {
				if (msg)
					snprintf(msg, cap, "%s:%u: section header without ']'", ini->path, line);
				ini_free(ini);
				return -PFT_E_FORMAT;
			}
			rest = close + 1;
			while (isspace((unsigned char)*rest))
				rest++;
			if (*rest && *rest != ';' && *rest != '#') {
				if (msg)
					snprintf(msg, cap, "%s:%u: text after the section header", ini->path, line);
				ini_free(ini);
				return -PFT_E_FORMAT;
			}
			if (add_section(ini, trim(s + 1, close), line)) {
				ini_free(ini);
				return -PFT_E_NOMEM;
			}
			continue;
		}
		{
			char *eq = strchr(s, '=');
			struct ini_section *sec;
			struct ini_entry *e;

			if (!eq || eq == s) {
				char shown[48];

				ini_excerpt(shown, sizeof shown, s, strlen(s));
				if (msg)
					snprintf(msg, cap, "%s:%u: expected key=value or [section], got '%s'",
						 ini->path, line, shown);
				ini_free(ini);
				return -PFT_E_FORMAT;
			}
			if (!ini->n && add_section(ini, empty, 0)) {
				ini_free(ini);
				return -PFT_E_NOMEM;
			}
			sec = &ini->s[ini->n - 1];
			if (ini_grow((void **)&sec->e, &sec->cap, sec->n, sizeof(*sec->e))) {
				ini_free(ini);
				return -PFT_E_NOMEM;
			}
			e = &sec->e[sec->n++];
			e->value = trim(eq + 1, s + strlen(s));
			e->key = trim(s, eq);
			e->line = line;
		}
	}
	return 0;
}

int ini_load(struct ini_file *ini, const char *path, char *msg, size_t cap)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, bcap = 0;
	int r;

	memset(ini, 0, sizeof(*ini));
	if (!f) {
		if (msg)
			snprintf(msg, cap, "cannot open %s: %s", path, strerror(errno));
		return -PFT_E_IO;
	}
	for (;;) {
		size_t got;

		if (n == bcap) {
			char *nb;
			if (bcap > INI_MAX_BYTES)
				break;
			bcap = bcap ? bcap * 2 : 4096;
			nb = realloc(buf, bcap);
			if (!nb) {
				free(buf);
				fclose(f);
				return -PFT_E_NOMEM;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, bcap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		if (msg)
			snprintf(msg, cap, "cannot read %s: %s", path, strerror(errno));
		free(buf);
		fclose(f);
		return -PFT_E_IO;
	}
	fclose(f);
	r = ini_parse(ini, path, buf ? buf : "", n, msg, cap);
	free(buf);
	return r;
}

const struct ini_section *ini_find(const struct ini_file *ini, const char *name, size_t from,
				   size_t *index)
{
	size_t i;

	for (i = from; i < ini->n; i++)
		if (!strcasecmp(ini->s[i].name, name)) {
			if (index)
				*index = i;
			return &ini->s[i];
		}
	return NULL;
}

const char *ini_get(const struct ini_section *s, const char *key, unsigned *line)
{
	size_t i;

	if (!s)
		return NULL;
	for (i = s->n; i-- > 0;)
		if (!strcasecmp(s->e[i].key, key)) {
			if (line)
				*line = s->e[i].line;
			return s->e[i].value;
		}
	return NULL;
}

int ini_number(const char *s, unsigned long long *out)
{
	char *e;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &e, 0);
	if (errno || *e || e == s)
		return -1;
	*out = v;
	return 0;
}

void ini_excerpt(char *out, size_t cap, const char *text, size_t len)
{
	size_t i, n = 0;

	if (!cap)
		return;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		int w = c >= 0x20 && c < 0x7F ? 1 : 4;

		if (n + (size_t)w + 4 > cap) { /* room for "..." and the NUL */
			if (n + 4 <= cap) {
				memcpy(out + n, "...", 3);
				n += 3;
			}
			break;
		}
		if (w == 1)
			out[n++] = (char)c;
		else
			n += (size_t)snprintf(out + n, cap - n, "\\x%02X", c);
	}
	out[n] = '\0';
}
