/* SPDX-License-Identifier: BSD-3-Clause */
/* Small helpers shared by the benchmarks: clocks, whole-file reads, A-sync search. */
#ifndef PFT_BENCH_UTIL_H
#define PFT_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Wall-clock seconds (monotonic). */
static inline double bench_wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of this process: steadier than wall time on a busy machine. */
static inline double bench_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The whole file in a malloc'd buffer, or NULL. */
static inline uint8_t *bench_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Offset of the first A-sync (five zero bytes and 0x80) in s[0..n), or
 * n if there is none. */
static inline size_t bench_async(size_t n, const uint8_t *s)
{
	size_t i;

	for (i = 0; i + 6 <= n; i++)
		if (!memcmp(s + i, "\0\0\0\0\0\x80", 6))
			return i;
	return n;
}

#endif
