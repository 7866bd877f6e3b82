/* SPDX-License-Identifier: BSD-3-Clause */
/* The snapshot layer's ini reader: comments, whitespace, CRLF, a byte order
 * mark, keys before any section, repeated sections and keys, numbers, and
 * the errors (with file and line). */
#include <string.h>

#include "check.h"
#include "pft/common.h"
#include "snapshot/ini.h"

static int parse(struct ini_file *ini, const char *text, char *msg)
{
	return ini_parse(ini, "t.ini", text, strlen(text), msg, 200);
}

int main(void)
{
	struct ini_file ini;
	const struct ini_section *s;
	char msg[200];
	unsigned line = 0;
	size_t idx = 99;
	unsigned long long v;
	static const char good[] =
		"\xEF\xBB\xBF; comment\r\n"
		"top = 1\r\n"
		"# another comment\n"
		"\n"
		"  [ Device ]  ; trailing comment\r\n"
		"name =  PTM_0 \r\n"
		"class=trace_source\n"
		"name=PTM_1\n"
		"path=a=b\n"
		"[dump]\n"
		"file=x.bin\n"
		"[DUMP]\n"
		"file=y.bin\n"
		"[empty]\n"
		"[last]\n"
		"k=";

	CHECK_EQ(parse(&ini, good, msg), 0);
	CHECK_EQ(ini.n, 6);
	s = ini_find(&ini, "", 0, NULL);
	CHECK(s && strcmp(ini_get(s, "top", NULL), "1") == 0);
	s = ini_find(&ini, "device", 0, &idx);
	CHECK(s != NULL);
	CHECK_EQ(idx, 1);
	CHECK_EQ(s ? s->line : 0, 5);
	CHECK(strcmp(ini_get(s, "NAME", &line), "PTM_1") == 0); /* last one counts */
	CHECK_EQ(line, 8);
	CHECK(strcmp(ini_get(s, "class", NULL), "trace_source") == 0);
	CHECK(strcmp(ini_get(s, "path", NULL), "a=b") == 0);
	CHECK(ini_get(s, "missing", NULL) == NULL);
	s = ini_find(&ini, "dump", 0, &idx);
	CHECK(s && strcmp(ini_get(s, "file", NULL), "x.bin") == 0);
	s = ini_find(&ini, "dump", idx + 1, &idx);
	CHECK(s && strcmp(ini_get(s, "file", NULL), "y.bin") == 0);
	CHECK(ini_find(&ini, "dump", idx + 1, NULL) == NULL);
	s = ini_find(&ini, "empty", 0, NULL);
	CHECK(s && s->n == 0);
	s = ini_find(&ini, "last", 0, NULL);
	CHECK(s && strcmp(ini_get(s, "k", NULL), "") == 0);
	ini_free(&ini);

	/* Errors name the file and line. */
	CHECK_EQ(parse(&ini, "[a]\nx=1\n[b\n", msg), -PFT_E_FORMAT);
	CHECK(strstr(msg, "t.ini:3:") != NULL);
	CHECK_EQ(parse(&ini, "[a]\nnot a pair\n", msg), -PFT_E_FORMAT);
	CHECK(strstr(msg, "t.ini:2:") != NULL && strstr(msg, "not a pair") != NULL);
	CHECK_EQ(parse(&ini, "[a]\n=value\n", msg), -PFT_E_FORMAT);
	CHECK_EQ(parse(&ini, "[a] junk\n", msg), -PFT_E_FORMAT);
	CHECK_EQ(ini_parse(&ini, "bin.ini", "[a]\0x", 5, msg, sizeof msg), -PFT_E_FORMAT);
	CHECK(strstr(msg, "NUL") != NULL);
	CHECK_EQ(parse(&ini, "", msg), 0);
	CHECK_EQ(ini.n, 0);
	ini_free(&ini);
	CHECK_EQ(ini_load(&ini, "/nonexistent/x.ini", msg, sizeof msg), -PFT_E_IO);
	CHECK(strstr(msg, "/nonexistent/x.ini") != NULL);

	CHECK(ini_number("0x7A", &v) == 0 && v == 0x7A);
	CHECK(ini_number("0X00010000", &v) == 0 && v == 0x10000);
	CHECK(ini_number("122", &v) == 0 && v == 122);
	/* C's rule, as OpenCSD's snapshot reader (strtoul base 0): octal */
	CHECK(ini_number("010", &v) == 0 && v == 8);
	CHECK(ini_number("0100", &v) == 0 && v == 0x40);
	CHECK(ini_number("0", &v) == 0 && v == 0);
	CHECK(ini_number("09", &v) != 0);
	CHECK(ini_number("+1", &v) != 0);
	CHECK(ini_number("0x0000042492EE776D", &v) == 0 && v == 0x0000042492EE776Dull);
	CHECK(ini_number("", &v) != 0);
	CHECK(ini_number("12z", &v) != 0);
	CHECK(ini_number("-1", &v) != 0);
	CHECK(ini_number("0x", &v) != 0);
	CHECK(ini_number("0x1FFFFFFFFFFFFFFFF", &v) != 0);
	return check_report();
}
