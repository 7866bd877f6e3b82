/* SPDX-License-Identifier: BSD-3-Clause */
/* What the packet-decoder fuzz targets (fuzz_packet for PFT, fuzz_etm3 for
 * ETMv3) share, written once for a decoder family by FUZZ_PKT_CHECKS:
 *
 *   struct items   a growing list of decoded items;
 *   decode()       the stream decoded in one buffer (seed 0) or in random
 *                  chunks, every byte reported once: offsets contiguous,
 *                  sizes adding up to the input length, bytes[] equal to the
 *                  input at the item's offset;
 *   count_check()  pft_<DEC>_decoder_count, in random chunks, counts exactly
 *                  the items of a decode (types, bytes, first error offset);
 *   decode_checks() the stream decoded whole and in chunks (the same items)
 *                  and counted: what every target checks first.
 *
 * Any failed check traps (FAIL). */
#ifndef PFT_FUZZ_PKT_H
#define PFT_FUZZ_PKT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FAIL() __builtin_trap()

/* DEC: the family (pkt, etm3); PKT its item type, CNT its counts type,
 * ERROR its error item type, MAXBYTES the bytes[] an item holds. */
#define FUZZ_PKT_CHECKS(DEC, PKT, CNT, ERROR, MAXBYTES)                                            \
	struct items {                                                                             \
		PKT *v;                                                                            \
		size_t n, cap;                                                                     \
	};                                                                                         \
                                                                                                   \
	static void decode(const struct pft_config *cfg, const uint8_t *data, size_t len,          \
			   uint32_t seed, struct items *out)                                       \
	{                                                                                          \
		struct pft_##DEC##_decoder *d = pft_##DEC##_decoder_alloc(cfg);                    \
		size_t pos = 0;                                                                    \
		uint64_t sum = 0;                                                                  \
		int r;                                                                             \
                                                                                                   \
		if (!d)                                                                            \
			FAIL();                                                                    \
		for (;;) {                                                                         \
			size_t chunk = len - pos;                                                  \
			if (seed) {                                                                \
				seed = seed * 1103515245u + 12345u;                                \
				chunk = (seed >> 16) % 24;                                         \
				if (chunk > len - pos)                                             \
					chunk = len - pos;                                         \
			}                                                                          \
			if (pft_##DEC##_decoder_feed(d, data + pos, chunk))                        \
				FAIL();                                                            \
			pos += chunk;                                                              \
			if (pos == len)                                                            \
				pft_##DEC##_decoder_end(d);                                        \
			while ((r = pft_##DEC##_decoder_next(d, &out->v[out->n < out->cap ? out->n : 0], \
							     sizeof(PKT))) == 0) {                 \
				const PKT *p = &out->v[out->n];                                    \
				if (out->n >= out->cap || p->offset != sum || !p->size ||          \
				    p->nbytes != (p->size < MAXBYTES ? p->size : MAXBYTES) ||      \
				    p->offset + p->size > len ||                                   \
				    memcmp(p->bytes, data + p->offset, p->nbytes))                 \
					FAIL();                                                    \
				sum += p->size;                                                    \
				out->n++;                                                          \
			}                                                                          \
			if (r == -PFT_E_EOS)                                                       \
				break;                                                             \
			if (r != -PFT_E_AGAIN)                                                     \
				FAIL();                                                            \
		}                                                                                  \
		if (sum != len || pft_##DEC##_decoder_get_offset(d) != len)                        \
			FAIL();                                                                    \
		pft_##DEC##_decoder_free(d);                                                       \
	}                                                                                          \
                                                                                                   \
	static void count_check(const struct pft_config *cfg, const uint8_t *data, size_t len,     \
				uint32_t seed, const struct items *want)                           \
	{                                                                                          \
		struct pft_##DEC##_decoder *d = pft_##DEC##_decoder_alloc(cfg);                    \
		CNT got, exp;                                                                      \
		size_t pos = 0, i;                                                                 \
		int r;                                                                             \
                                                                                                   \
		if (!d)                                                                            \
			FAIL();                                                                    \
		memset(&got, 0, sizeof(got));                                                      \
		memset(&exp, 0, sizeof(exp));                                                      \
		for (i = 0; i < want->n; i++) {                                                   \
			const PKT *p = &want->v[i];                                                \
			if (p->type == ERROR && !exp.items[ERROR])                                 \
				exp.first_error = p->offset;                                       \
			exp.items[p->type]++;                                                      \
			exp.bytes[p->type] += p->size;                                             \
		}                                                                                  \
		for (;;) {                                                                         \
			size_t chunk;                                                              \
			seed = seed * 1103515245u + 12345u;                                        \
			chunk = (seed >> 16) % 64;                                                 \
			if (chunk > len - pos)                                                     \
				chunk = len - pos;                                                 \
			if (pft_##DEC##_decoder_feed(d, data + pos, chunk))                        \
				FAIL();                                                            \
			pos += chunk;                                                              \
			if (pos == len)                                                            \
				pft_##DEC##_decoder_end(d);                                        \
			r = pft_##DEC##_decoder_count(d, &got, sizeof(got));                       \
			if (r == -PFT_E_EOS)                                                       \
				break;                                                             \
			if (r != -PFT_E_AGAIN)                                                     \
				FAIL();                                                            \
		}                                                                                  \
		if (memcmp(&got, &exp, sizeof(got)))                                               \
			FAIL();                                                                    \
		pft_##DEC##_decoder_free(d);                                                       \
	}                                                                                          \
                                                                                                   \
	/* The stream decoded in one buffer into *whole (cap len + 1), the same                    \
	 * items decoded again in chunks drawn from SEED, and counted in other                     \
	 * chunks: the checks every packet target starts with. */                                  \
	static void decode_checks(const struct pft_config *cfg, const uint8_t *data, size_t len,   \
				  uint8_t seed, struct items *whole)                               \
	{                                                                                          \
		struct items chunked;                                                              \
		size_t i;                                                                          \
                                                                                                   \
		chunked.cap = len + 1;                                                             \
		chunked.n = 0;                                                                     \
		chunked.v = malloc(chunked.cap * sizeof(PKT));                                     \
		if (!chunked.v)                                                                    \
			FAIL();                                                                    \
		decode(cfg, data, len, 0, whole);                                                  \
		decode(cfg, data, len, 0x9e3779b9u * (seed + 1u), &chunked);                       \
		if (whole->n != chunked.n)                                                         \
			FAIL();                                                                    \
		for (i = 0; i < whole->n; i++)                                                     \
			if (memcmp(&whole->v[i], &chunked.v[i], sizeof(PKT)))                      \
				FAIL();                                                            \
		count_check(cfg, data, len, 0x85ebca6bu * (seed + 7u), whole);                     \
		free(chunked.v);                                                                   \
	}

#endif
