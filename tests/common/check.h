/* SPDX-License-Identifier: BSD-3-Clause */
/* Minimal test helpers: CHECK keeps going and counts failures; a test's
 * main() ends with `return check_report();`.  A test that runs many cases
 * names each with check_case() so that a failure says which case it was in. */
#ifndef PFT_TEST_CHECK_H
#define PFT_TEST_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern int check_failures;
extern int check_count;

#define CHECK(cond)                                                            \
	do {                                                                   \
		check_count++;                                                 \
		if (!(cond))                                                   \
			check_fail(__FILE__, __LINE__, "CHECK failed: %s", #cond); \
	} while (0)

#define CHECK_EQ(a, b)                                                            \
	do {                                                                      \
		unsigned long long check_a_ = (unsigned long long)(a);            \
		unsigned long long check_b_ = (unsigned long long)(b);            \
		check_count++;                                                    \
		if (check_a_ != check_b_)                                         \
			check_fail(__FILE__, __LINE__,                            \
				   "CHECK_EQ failed: %s == %s (0x%llx != 0x%llx)", #a, #b, \
				   check_a_, check_b_);                           \
	} while (0)

/* Names the case the following checks belong to (printf format); every
 * failure report then ends with "in case 'NAME'".  NULL clears it. */
void check_case(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* The current case name ("" if none). */
const char *check_case_name(void);

/* Counts one failed check and prints "FILE:LINE: MESSAGE", with the case
 * name if one is set.  For checks that compute their own condition. */
void check_fail(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* Prints a summary; returns the exit status for main(). */
int check_report(void);

/* Path of a file under the repository's data/ folder ($PFT_DATA, set by CTest):
 * writes into buf and returns it. */
const char *check_data_path(char *buf, size_t cap, const char *rel);

/* Reads a whole file into a malloc'd buffer; NULL if it cannot. */
uint8_t *check_read_file(const char *path, size_t *len);

/* Everything written to the stream f so far (a tmpfile()), read back:
 * a malloc'ed buffer of *len bytes and a terminating 0 (free it). */
char *check_read_stream(FILE *f, size_t *len);

/* Writes text into the file at path (made or emptied); a failed check if it
 * cannot. */
void check_write_file(const char *path, const char *text);

/* Writes text into the file NAME of folder dir, as check_write_file(). */
void check_write_in(const char *dir, const char *name, const char *text);

/* Removes the folder dir and everything in it (rm -rf); a failed check if
 * that fails. */
void check_remove_dir(const char *dir);

/* Deterministic PRNG (xorshift64*) for property tests: seed from
 * $PFT_SEED if set, else the given default; the seed is printed. */
uint64_t check_seed(uint64_t dflt);
uint64_t check_rand(uint64_t *state);

#endif
