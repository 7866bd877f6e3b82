/* SPDX-License-Identifier: BSD-3-Clause */
/* The contract of a decoder's _count call, checked against its _next: the
 * same items counted per type (items and bytes, the first error's offset),
 * and the same decoder state after.  The PFT packet decoder
 * (pft_pkt_decoder_count) and the ETMv3 decoder (pft_etm3_decoder_count)
 * have that API in the same shape; a test gives its decoder's calls in a
 * struct count_ops (small wrappers around the typed calls) and its streams. */
#ifndef PFT_TEST_COUNT_CHECK_H
#define PFT_TEST_COUNT_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pft/common.h"

/* The largest counts struct's number of types (PFT_ETM3_COUNT_TYPES). */
#define COUNT_MAX_TYPES 32

/* One decoder family.  A counts struct is, as in the public headers,
 * uint64_t items[ntypes], bytes[ntypes], first_error. */
struct count_ops {
	unsigned ntypes;  /* PFT_<FAMILY>_COUNT_TYPES */
	size_t item_size; /* sizeof the struct _next writes */
	/* A decoder for c (mode: the test's own setting, e.g. the I-sync
	 * resynchronisation), NULL after a failed check. */
	void *(*alloc)(const struct pft_config *c, int mode);
	int (*feed)(void *dec, const uint8_t *buf, size_t len);
	int (*end)(void *dec);
	int (*next)(void *dec, void *item);
	int (*count)(void *dec, uint64_t *counts, size_t size);
	uint64_t (*get_offset)(void *dec);
	void (*free)(void *dec);
	/* An item's type, first byte and byte count. */
	void (*item_info)(const void *item, unsigned *type, uint64_t *offset, uint64_t *size);
	const char *(*type_name)(unsigned type);
	unsigned error_type; /* the ERROR item's type */
	/* One line with every field of an item (in a failure report). */
	void (*print)(FILE *f, const void *item);
};

/* The reference: _next over buf[0..len) given in one chunk, into out[0..max)
 * (items ops->item_size bytes apart).  Returns the item count; a failed
 * check if max is reached. */
int count_ref(const struct count_ops *o, const struct pft_config *c, int mode,
	      const uint8_t *buf, size_t len, void *out, int max);

/* _count on buf[0..len) against ref[0..nref) (count_ref's): once in one
 * chunk (-PFT_E_AGAIN before the end, -PFT_E_EOS after it, every byte
 * accounted for), then in random chunks each either counted (into a fresh
 * struct, added up) or pulled with _next, whose items must be the
 * reference's at their place: which checks the compression state that
 * counting left.  WHAT names the stream in failure reports. */
void count_check_stream(const struct count_ops *o, const char *what, const struct pft_config *c,
			int mode, const uint8_t *buf, size_t len, const void *ref, int nref,
			uint64_t *rng);

/* A struct of an older header, only items[]: its items add up to nref, and
 * nothing is written beyond it. */
void count_check_short_struct(const struct count_ops *o, const struct pft_config *c, int mode,
			      const uint8_t *buf, size_t len, int nref);

#endif
