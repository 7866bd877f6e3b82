/* SPDX-License-Identifier: BSD-3-Clause */
/* A small ini reader for snapshot files.  Lines end in LF or CRLF; blank
 * lines and lines starting with ';' or '#' are skipped; "[name]" opens a
 * section (a name may repeat: every [dump] is its own section; names
 * compare without case); "key=value"
 * splits at the first '=', both sides trimmed.  Keys before the first
 * section go into a section named "".  Anything else is an error reported
 * as "FILE:LINE: ...". */
#ifndef PFT_SNAPSHOT_INI_H
#define PFT_SNAPSHOT_INI_H

#include <stddef.h>

struct ini_entry {
	char *key;
	char *value;
	unsigned line;
};

struct ini_section {
	char *name;
	unsigned line;
	struct ini_entry *e;
	size_t n, cap;
};

struct ini_file {
	char *path;
	char *text;          /* the file, split in place into the strings above */
	struct ini_section *s;
	size_t n, cap;
};

#define INI_MAX_BYTES (16u << 20)

/* Parse text (copied).  0, -PFT_E_FORMAT (msg says where), -PFT_E_NOMEM. */
int ini_parse(struct ini_file *ini, const char *path, const char *text, size_t len,
	      char *msg, size_t cap);
/* Read and parse a file.  Adds -PFT_E_IO. */
int ini_load(struct ini_file *ini, const char *path, char *msg, size_t cap);

/* A short excerpt of text[0..len) for a message, in out (at most cap - 1
 * bytes): printable ASCII kept, other bytes as \xNN, cut with "..." (an ini
 * file, or what a path in it led to, may hold anything). */
void ini_excerpt(char *out, size_t cap, const char *text, size_t len);
void ini_free(struct ini_file *ini);

/* The first section called name at index >= from (no case), or NULL;
 * *index receives its index when not NULL. */
const struct ini_section *ini_find(const struct ini_file *ini, const char *name, size_t from,
				   size_t *index);
/* The last value of key in the section (no case), or NULL. */
const char *ini_get(const struct ini_section *s, const char *key, unsigned *line);

/* Parse an unsigned number as C and OpenCSD's snapshot reader do
 * (strtoull base 0): 0x/0X hex, a leading 0 octal ("0100" is 64), else
 * decimal.  The whole string must be the number.  0 on success.  This is
 * the one number rule for every value of every snapshot ini, registers
 * included (DS-5 and OpenCSD write registers as 0x hex). */
int ini_number(const char *s, unsigned long long *out);

/* Room for element n of the array *p (capacity *cap elements of elem
 * bytes), doubling it when full: 0 or -PFT_E_NOMEM. */
int ini_grow(void **p, size_t *cap, size_t n, size_t elem);

#endif
