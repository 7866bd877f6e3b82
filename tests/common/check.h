/* SPDX-License-Identifier: BSD-3-Clause */
/* Minimal test helpers: CHECK keeps going and counts failures; a test's
 * main() ends with `return check_report();`. */
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
		if (!(cond)) {                                                 \
			check_failures++;                                      \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
		}                                                              \
	} while (0)

#define CHECK_EQ(a, b)                                                            \
	do {                                                                      \
		unsigned long long check_a_ = (unsigned long long)(a);            \
		unsigned long long check_b_ = (unsigned long long)(b);            \
		check_count++;                                                    \
		if (check_a_ != check_b_) {                                       \
			check_failures++;                                         \
			fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (0x%llx != 0x%llx)\n", \
				__FILE__, __LINE__, #a, #b, check_a_, check_b_);  \
		}                                                                 \
	} while (0)

/* Prints a summary; returns the exit status for main(). */
int check_report(void);

/* Path of a file under the repository's data/ folder ($PFT_DATA, set by CTest):
 * writes into buf and returns it. */
const char *check_data_path(char *buf, size_t cap, const char *rel);

/* Reads a whole file into a malloc'd buffer; NULL if it cannot. */
uint8_t *check_read_file(const char *path, size_t *len);

/* Deterministic PRNG (xorshift64*) for property tests: seed from
 * $PFT_SEED if set, else the given default; the seed is printed. */
uint64_t check_seed(uint64_t dflt);
uint64_t check_rand(uint64_t *state);

#endif
