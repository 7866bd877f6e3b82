/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdarg.h>
#include <stdlib.h>

int check_failures;
int check_count;

static char case_name[256];
static int failed_cases;
static int case_failed;

void check_case(const char *fmt, ...)
{
	va_list ap;

	case_failed = 0;
	if (!fmt) {
		case_name[0] = '\0';
		return;
	}
	va_start(ap, fmt);
	vsnprintf(case_name, sizeof(case_name), fmt, ap);
	va_end(ap);
}

const char *check_case_name(void)
{
	return case_name;
}

void check_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	check_failures++;
	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (case_name[0]) {
		fprintf(stderr, " in case '%s'", case_name);
		if (!case_failed)
			failed_cases++;
		case_failed = 1;
	}
	fputc('\n', stderr);
}

int check_report(void)
{
	fprintf(stderr, "%d checks, %d failed\n", check_count, check_failures);
	if (failed_cases)
		fprintf(stderr, "%d named cases failed (see 'in case' above)\n", failed_cases);
	return check_failures ? 1 : 0;
}

const char *check_data_path(char *buf, size_t cap, const char *rel)
{
	const char *base = getenv("PFT_DATA");
	snprintf(buf, cap, "%s/%s", base && *base ? base : PFT_DATA_DEFAULT, rel);
	return buf;
}

uint8_t *check_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc(n ? (size_t)n : 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		if (buf && len)
			*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

void check_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ok = f && fputs(text, f) >= 0;

	if (f && fclose(f))
		ok = 0;
	if (!ok)
		check_fail(__FILE__, __LINE__, "cannot write %s", path);
}

void check_write_in(const char *dir, const char *name, const char *text)
{
	char p[1024];

	snprintf(p, sizeof p, "%s/%s", dir, name);
	check_write_file(p, text);
}

void check_remove_dir(const char *dir)
{
	char cmd[1100];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		check_fail(__FILE__, __LINE__, "cannot remove %s", dir);
}

uint64_t check_seed(uint64_t dflt)
{
	const char *s = getenv("PFT_SEED");
	uint64_t seed = s && *s ? strtoull(s, NULL, 0) : dflt;
	if (!seed)
		seed = 1;
	fprintf(stderr, "seed 0x%llx (set PFT_SEED to reproduce)\n", (unsigned long long)seed);
	return seed;
}

uint64_t check_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

char *check_read_stream(FILE *f, size_t *len)
{
	long n;
	char *s;

	*len = 0;
	fflush(f);
	n = ftell(f);
	s = malloc(n > 0 ? (size_t)n + 1 : 1);
	CHECK(s != NULL && n >= 0);
	if (!s)
		return NULL;
	rewind(f);
	if (n > 0)
		*len = fread(s, 1, (size_t)n, f);
	s[*len] = 0;
	return s;
}
