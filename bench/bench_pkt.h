/* SPDX-License-Identifier: BSD-3-Clause */
/* What the packet benchmarks (bench_packet for PFT, bench_etm3 for ETMv3)
 * share: the libpft runners, written once for a decoder family by
 * BENCH_PKT_RUNNERS, the table of runners timed best-of-N on the same bytes,
 * the report, and the options and stream preparation both take. */
#ifndef PFT_BENCH_PKT_H
#define PFT_BENCH_PKT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft/common.h"
#include "pft/frame.h"

#include "bench_util.h"

struct bench_counts {
	uint64_t packets; /* decoded packets (not unsynced / error items) */
	uint64_t other;   /* unsynced, error, not-sync items */
};

/* The decoders run in functions of their own (never inlined) so that a
 * profiler can count the instructions of each, e.g.
 *   valgrind --tool=callgrind --toggle-collect=run_pft bench_packet ... */
#define NOINLINE __attribute__((noinline))

/* pft_<DEC>_decoder_next_batch() is asked for BATCH packets at a time. */
#define BATCH 256

/* How the runners count an item: as other if it is UNSYNCED or ERROR. */
static inline void bench_tally(struct bench_counts *c, int other)
{
	if (other)
		c->other++;
	else
		c->packets++;
}

/* run_pft (one item per pft_<DEC>_decoder_next call), run_pft_batch (BATCH
 * per pft_<DEC>_decoder_next_batch call) and run_pft_count (counted per type
 * by pft_<DEC>_decoder_count, no packet written: what pft dump --stats uses)
 * for the decoder family DEC, whose items are PKT, counts CNT, and whose
 * types UNSYNCED and ERROR (of NTYPES) are counted as other items.  Each
 * feeds the stream CHUNK bytes at a time and returns the CPU seconds taken,
 * or -1 if the decoder did not end cleanly. */
#define BENCH_PKT_RUNNERS(DEC, PKT, CNT, UNSYNCED, ERROR, NTYPES)                                  \
	/* The next CHUNK bytes of buf[*pos..len) to D (*pos advanced); its end   \
	 * once all are given. */                                                                      \
	static inline void bench_##DEC##_feed(struct pft_##DEC##_decoder *d, const uint8_t *buf,       \
					      size_t len, size_t chunk, size_t *pos)                   \
	{                                                                                              \
		size_t n = len - *pos < chunk ? len - *pos : chunk;                                    \
		pft_##DEC##_decoder_feed(d, buf + *pos, n);                                            \
		*pos += n;                                                                             \
		if (*pos == len)                                                                       \
			pft_##DEC##_decoder_end(d);                                                    \
	}                                                                                              \
                                                                                                       \
	/* What D has, taken and counted into C one of three ways; returns the    \
	 * decoder's status when it has no more (-PFT_E_AGAIN: feed it more). */ \
	static inline int bench_##DEC##_next(struct pft_##DEC##_decoder *d, struct bench_counts *c)    \
	{                                                                                              \
		PKT p;                                                                                 \
		int r;                                                                                 \
                                                                                                       \
		while ((r = pft_##DEC##_decoder_next(d, &p, sizeof(p))) == 0)                          \
			bench_tally(c, p.type == UNSYNCED || p.type == ERROR);                         \
		return r;                                                                              \
	}                                                                                              \
	static inline int bench_##DEC##_batch(struct pft_##DEC##_decoder *d, struct bench_counts *c)   \
	{                                                                                              \
		static PKT p[BATCH];                                                                   \
		int r, i;                                                                              \
                                                                                                       \
		while ((r = pft_##DEC##_decoder_next_batch(d, p, BATCH, sizeof(p[0]))) > 0)            \
			for (i = 0; i < r; i++)                                                        \
				bench_tally(c, p[i].type == UNSYNCED || p[i].type == ERROR);           \
		return r;                                                                              \
	}                                                                                              \
	static inline int bench_##DEC##_count(struct pft_##DEC##_decoder *d, struct bench_counts *c)   \
	{                                                                                              \
		CNT k;                                                                                 \
		int r, t;                                                                              \
                                                                                                       \
		memset(&k, 0, sizeof(k));                                                              \
		r = pft_##DEC##_decoder_count(d, &k, sizeof(k));                                       \
		for (t = 1; t < NTYPES; t++) {                                                         \
			if (t == UNSYNCED || t == ERROR)                                               \
				c->other += k.items[t];                                                \
			else                                                                           \
				c->packets += k.items[t];                                              \
		}                                                                                      \
		return r;                                                                              \
	}                                                                                              \
                                                                                                       \
	/* A decoder fed buf CHUNK bytes at a time, what it has taken by TAKE     \
	 * after each chunk: the CPU seconds, or -1 if it did not end cleanly. */ \
	static inline double bench_##DEC##_time(const struct pft_config *cfg, const uint8_t *buf,      \
						size_t len, size_t chunk, struct bench_counts *c,      \
						int (*take)(struct pft_##DEC##_decoder *,              \
							    struct bench_counts *))                    \
	{                                                                                              \
		struct pft_##DEC##_decoder *d = pft_##DEC##_decoder_alloc(cfg);                        \
		size_t pos = 0;                                                                        \
		double t0;                                                                             \
		int r;                                                                                 \
                                                                                                       \
		memset(c, 0, sizeof(*c));                                                              \
		if (!d)                                                                                \
			return -1;                                                                     \
		t0 = bench_cpu();                                                                      \
		do {                                                                                   \
			bench_##DEC##_feed(d, buf, len, chunk, &pos);                                  \
			r = take(d, c);                                                                \
		} while (r == -PFT_E_AGAIN);                                                           \
		t0 = bench_cpu() - t0;                                                                 \
		pft_##DEC##_decoder_free(d);                                                           \
		return r == -PFT_E_EOS ? t0 : -1;                                                      \
	}                                                                                              \
                                                                                                       \
	static NOINLINE double run_pft(const struct pft_config *cfg, const uint8_t *buf, size_t len,   \
				       size_t chunk, struct bench_counts *c)                           \
	{                                                                                              \
		return bench_##DEC##_time(cfg, buf, len, chunk, c, bench_##DEC##_next);                \
	}                                                                                              \
	static NOINLINE double run_pft_batch(const struct pft_config *cfg, const uint8_t *buf,         \
					     size_t len, size_t chunk, struct bench_counts *c)         \
	{                                                                                              \
		return bench_##DEC##_time(cfg, buf, len, chunk, c, bench_##DEC##_batch);               \
	}                                                                                              \
	static NOINLINE double run_pft_count(const struct pft_config *cfg, const uint8_t *buf,         \
					     size_t len, size_t chunk, struct bench_counts *c)         \
	{                                                                                              \
		return bench_##DEC##_time(cfg, buf, len, chunk, c, bench_##DEC##_count);               \
	}

typedef double (*bench_run_fn)(const struct pft_config *cfg, const uint8_t *buf, size_t len,
			       size_t chunk, struct bench_counts *c);

/* One decoder timed: OPT is the --only word that selects it (several runners
 * may share one), NAME how the report names it. */
struct bench_runner {
	const char *opt, *name;
	bench_run_fn fn;
};

/* Whether --only WORD names one of the N runners. */
static inline int bench_only_ok(const struct bench_runner *rn, int n, const char *word)
{
	int j;

	for (j = 0; j < n; j++)
		if (!strcmp(word, rn[j].opt))
			return 1;
	return 0;
}

/* Times the N runners (those whose opt is ONLY, or all if ONLY is NULL) REPS
 * times each on buf[0..len), keeping the fastest in best[] and the counts in
 * cnt[].  The last runner is the reference (OpenCSD): the report gives each
 * other one's speed as a ratio of it and whether their counts agree (the
 * packets, and the other items too if CMP_OTHER).  Returns 0, 1 if the
 * counts differ, 2 if a runner failed. */
static inline int bench_run_report(const char *prog, const struct bench_runner *rn, int n,
				   const char *only, int reps, int cmp_other,
				   const struct pft_config *cfg, const uint8_t *buf, size_t len,
				   size_t chunk)
{
	struct bench_counts cnt[8];
	double best[8];
	int j, k, ref = n - 1, status = 0;

	if (n > 8)
		return 2;
	for (j = 0; j < n; j++) {
		best[j] = 1e30;
		memset(&cnt[j], 0, sizeof(cnt[j]));
	}
	for (k = 0; k < reps; k++) {
		for (j = 0; j < n; j++) {
			double t;
			if (only && strcmp(only, rn[j].opt))
				continue;
			t = rn[j].fn(cfg, buf, len, chunk, &cnt[j]);
			if (t < 0) {
				fprintf(stderr, "%s: %s failed\n", prog, rn[j].name);
				return 2;
			}
			if (t < best[j])
				best[j] = t;
		}
	}
	for (j = 0; j < n; j++) {
		if (only && strcmp(only, rn[j].opt))
			continue;
		printf("%-14s %8.1f MB/s  %12llu packets  %llu other items  (%.3f s)\n",
		       rn[j].name, (double)len / best[j] / 1e6,
		       (unsigned long long)cnt[j].packets, (unsigned long long)cnt[j].other, best[j]);
	}
	if (!only) {
		for (j = 0; j < ref; j++)
			printf("ratio %-14s %5.1fx %s\n", rn[j].name, best[ref] / best[j], rn[ref].name);
		for (j = 0; j < ref; j++)
			if (cnt[j].packets != cnt[ref].packets ||
			    (cmp_other && cnt[j].other != cnt[ref].other))
				status = 1;
		printf("packet counts %s\n", status ? "differ" : "agree");
	}
	return status;
}

/* The options both packet benchmarks take. */
struct bench_opts {
	const char *data, *save, *only;
	size_t mib, chunk;
	int reps;
};

static inline void bench_opts_init(struct bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->data = getenv("PFT_DATA");
	o->mib = 64;
	o->chunk = 1 << 20;
	o->reps = 3;
}

/* Takes argv[*k] (and its value, advancing *k) if it is one of the shared
 * options: --mib, --chunk, --reps, --data, --save, and --only with a word
 * one of the N runners answers to.  Returns 1 if taken, 0 if not. */
static inline int bench_opts_take(struct bench_opts *o, int argc, char **argv, int *k,
				  const struct bench_runner *rn, int n)
{
	const char *a = argv[*k];

	if (*k + 1 >= argc)
		return 0;
	if (!strcmp(a, "--mib"))
		o->mib = strtoul(argv[++*k], NULL, 0);
	else if (!strcmp(a, "--chunk"))
		o->chunk = strtoul(argv[++*k], NULL, 0);
	else if (!strcmp(a, "--reps"))
		o->reps = atoi(argv[++*k]);
	else if (!strcmp(a, "--data"))
		o->data = argv[++*k];
	else if (!strcmp(a, "--save"))
		o->save = argv[++*k];
	else if (!strcmp(a, "--only") && bench_only_ok(rn, n, argv[*k + 1]))
		o->only = argv[++*k];
	else
		return 0;
	return 1;
}

/* Whether the shared options are usable (the default data folder filled in). */
static inline int bench_opts_check(struct bench_opts *o)
{
	if (!o->data)
		o->data = PFT_DATA_DIR;
	return o->mib && o->chunk && o->chunk <= 0xFFFFFFFFu && o->reps >= 1;
}

/* The bytes of trace ID ID in the CoreSight-framed capture at PATH (the
 * whole file if ID is negative: a raw stream) in a malloc'd buffer, their
 * count in *len; NULL after a message naming PROG. */
static inline uint8_t *bench_stream(const char *prog, const char *path, int id, size_t *len)
{
	size_t caplen;
	uint8_t *cap = bench_read_file(path, &caplen), *s;
	int64_t n;

	if (!cap) {
		fprintf(stderr, "%s: cannot read %s (set --data or PFT_DATA)\n", prog, path);
		return NULL;
	}
	if (id < 0) {
		*len = caplen;
		return cap;
	}
	s = malloc(caplen);
	n = s ? pft_frame_extract(PFT_FRAME_CORESIGHT, (uint8_t)id, cap, caplen, s, caplen, NULL)
	      : -1;
	free(cap);
	if (n <= 0) {
		fprintf(stderr, "%s: no trace ID 0x%x in %s\n", prog, (unsigned)id, path);
		free(s);
		return NULL;
	}
	*len = (size_t)n;
	return s;
}

/* s[0..n) repeated until MIB MiB are reached, in a malloc'd buffer; the
 * length made in *len.  NULL if out of memory. */
static inline uint8_t *bench_repeat(const uint8_t *s, size_t n, size_t mib, size_t *len)
{
	size_t blen = mib << 20, l;
	uint8_t *big = malloc(blen + n);

	if (!big)
		return NULL;
	for (l = 0; l < blen; l += n)
		memcpy(big + l, s, n);
	*len = l;
	return big;
}

/* Writes buf[0..len) to PATH (--save); 0, or 2 after a message. */
static inline int bench_save(const char *prog, const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len) {
		if (f)
			fclose(f);
		fprintf(stderr, "%s: cannot write %s\n", prog, path);
		return 2;
	}
	if (fclose(f)) {
		fprintf(stderr, "%s: cannot write %s\n", prog, path);
		return 2;
	}
	return 0;
}

#endif
