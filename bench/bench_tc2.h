/* SPDX-License-Identifier: BSD-3-Clause */
/* The input of the instruction-flow benchmarks: the TC2 snapshot's PTM
 * stream (trace ID 0x13 of data/TC2/cstrace.bin, from its first A-sync)
 * repeated to a size, its registers, and kernel_dump.bin at 0xC0008000. */
#ifndef PFT_BENCH_TC2_H
#define PFT_BENCH_TC2_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft/common.h"
#include "pft/frame.h"
#include "pft/image.h"

#include "bench_util.h"

struct bench_tc2 {
	struct pft_config cfg; /* the snapshot's registers for ID 0x13 */
	struct pft_image *img; /* kernel at 0xC0008000 */
	uint8_t *kernel;
	size_t klen;
	uint8_t *big; /* the stream, repeated */
	size_t n;     /* its length, at least MIB MiB */
};

static inline void bench_tc2_free(struct bench_tc2 *b)
{
	pft_image_free(b->img);
	free(b->big);
	free(b->kernel);
	memset(b, 0, sizeof(*b));
}

/* Load the snapshot under DATA; 0, or -1 with a message naming WHO. */
static inline int bench_tc2_load(struct bench_tc2 *b, const char *who, const char *data,
				 size_t mib)
{
	char path[1024];
	uint8_t *cap, *s;
	size_t caplen, start;
	int64_t slen;

	memset(b, 0, sizeof(*b));
	snprintf(path, sizeof(path), "%s/TC2/cstrace.bin", data);
	cap = bench_read_file(path, &caplen);
	snprintf(path, sizeof(path), "%s/TC2/kernel_dump.bin", data);
	b->kernel = bench_read_file(path, &b->klen);
	s = cap ? malloc(caplen) : NULL;
	slen = s ? pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, cap, caplen, s, caplen, NULL) : -1;
	free(cap);
	start = slen > 0 ? bench_async((size_t)slen, s) : 0;
	if (!b->kernel || slen <= 0 || start >= (size_t)slen) {
		fprintf(stderr, "%s: cannot read the TC2 snapshot under %s\n", who, data);
		free(s);
		bench_tc2_free(b);
		return -1;
	}
	b->big = malloc(mib * 1048576 + (size_t)slen);
	while (b->big && b->n < mib * 1048576) {
		memcpy(b->big + b->n, s + start, (size_t)slen - start);
		b->n += (size_t)slen - start;
	}
	free(s);
	pft_config_init(&b->cfg);
	b->cfg.etmcr = 0x10001000u;
	b->cfg.etmidr = 0x411CF312u;
	b->cfg.etmccer = 0x34C01AC2u;
	b->cfg.etmtraceidr = 0x13u;
	b->img = pft_image_alloc();
	if (!b->big || !b->img || pft_image_add_buffer(b->img, 0xC0008000u, b->kernel, b->klen) < 0) {
		fprintf(stderr, "%s: out of memory\n", who);
		bench_tc2_free(b);
		return -1;
	}
	return 0;
}

#endif
