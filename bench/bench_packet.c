/* SPDX-License-Identifier: BSD-3-Clause */
/* Packet decoding speed: libpft beside OpenCSD's PTM packet processor, on
 * the same bytes in the same run.
 *
 * Usage:
 *   bench_packet [--mib N] [--chunk BYTES] [--reps N] [--data DIR] [--cov] [--save FILE]
 *
 *   --mib N       size of the stream to decode, in MiB (default 64)
 *   --chunk BYTES bytes given to each decoder per call (default 1048576)
 *   --reps N      runs per decoder; the fastest is reported (default 3)
 *   --data DIR    folder holding TC2/ and trace_cov_a15/ (default $PFT_DATA, else the checkout's data/)
 *   --cov         use trace_cov_a15/PTM_0_2.bin instead of TC2
 *   --save FILE   also write the stream decoded to FILE (raw PFT bytes), so
 *                 that the CLI can be timed on the same bytes (bench_cli.sh)
 *   --only WHICH  run only "pft" (pft_pkt_decoder_next), "batch" (pft_pkt_decoder_next_batch),
 *                 "count" (pft_pkt_decoder_count) or "ocsd", e.g. to count instructions with valgrind:
 *                   valgrind --tool=callgrind --toggle-collect=run_pft \
 *                     bench_packet --mib 4 --reps 1 --only pft
 *                 (run_pft_batch with batch, run_pft_count with count, run_ocsd with ocsd)
 *
 * The stream: TC2 (data/TC2/cstrace.bin, CoreSight frames) trace ID 0x13,
 * de-formatted by libpft's frame layer (4533 bytes), from its first A-sync on
 * (4412 bytes, which start with an A-sync and end on a packet boundary),
 * repeated until the size is reached.  Registers as in the snapshot:
 * ETMCR 0x10001000 (cycle-accurate, timestamps), ETMCCER 0x34C01AC2,
 * ETMIDR 0x411CF312.
 *
 * libpft: pft_pkt_decoder_feed, then every item pulled into a struct pft_packet, one
 * per pft_pkt_decoder_next call, again BATCH per pft_pkt_decoder_next_batch call, and
 * counted per type by pft_pkt_decoder_count (no packet written: pft dump --stats).
 * OpenCSD: a single-source decode tree with the PTM packet processor only
 * (OCSD_CREATE_FLG_PACKET_PROC) and a packet sink callback.  Each counts the
 * packets (and the other items) it returns; the counts must agree (printed,
 * and the exit status is 1 if they do not).  MB/s are 10^6 bytes per second
 * of process CPU time; the ratios are OpenCSD's time over libpft's. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pft/frame.h"
#include "pft/packet.h"

#include "bench_ocsd.h"

struct counts {
	uint64_t packets; /* decoded packets (not unsynced / error items) */
	uint64_t other;   /* unsynced, error, not-sync items */
};

/* The decoders run in functions of their own (never inlined) so that a
 * profiler can count the instructions of each, e.g.
 *   valgrind --tool=callgrind --toggle-collect=run_pft bench_packet ... */
#define NOINLINE __attribute__((noinline))

static NOINLINE double run_pft(const struct pft_config *cfg, const uint8_t *buf, size_t len,
			       size_t chunk, struct counts *c)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(cfg);
	struct pft_packet p;
	size_t pos = 0;
	double t0;
	int r;

	memset(c, 0, sizeof(*c));
	if (!d)
		return -1;
	t0 = bench_cpu();
	for (;;) {
		size_t n = len - pos < chunk ? len - pos : chunk;
		pft_pkt_decoder_feed(d, buf + pos, n);
		pos += n;
		if (pos == len)
			pft_pkt_decoder_end(d);
		while ((r = pft_pkt_decoder_next(d, &p, sizeof(p))) == 0) {
			if (p.type == PFT_PKT_UNSYNCED || p.type == PFT_PKT_ERROR)
				c->other++;
			else
				c->packets++;
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	t0 = bench_cpu() - t0;
	pft_pkt_decoder_free(d);
	return r == -PFT_E_EOS ? t0 : -1;
}

/* The same with pft_pkt_decoder_next_batch() into an array of BATCH packets. */
#define BATCH 256

static NOINLINE double run_pft_batch(const struct pft_config *cfg, const uint8_t *buf, size_t len,
				     size_t chunk, struct counts *c)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(cfg);
	static struct pft_packet p[BATCH];
	size_t pos = 0;
	double t0;
	int r, i;

	memset(c, 0, sizeof(*c));
	if (!d)
		return -1;
	t0 = bench_cpu();
	for (;;) {
		size_t n = len - pos < chunk ? len - pos : chunk;
		pft_pkt_decoder_feed(d, buf + pos, n);
		pos += n;
		if (pos == len)
			pft_pkt_decoder_end(d);
		while ((r = pft_pkt_decoder_next_batch(d, p, BATCH, sizeof(p[0]))) > 0) {
			for (i = 0; i < r; i++) {
				if (p[i].type == PFT_PKT_UNSYNCED || p[i].type == PFT_PKT_ERROR)
					c->other++;
				else
					c->packets++;
			}
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	t0 = bench_cpu() - t0;
	pft_pkt_decoder_free(d);
	return r == -PFT_E_EOS ? t0 : -1;
}

/* pft_pkt_decoder_count(): the items counted per type, no packet written
 * (what pft dump --stats uses). */
static NOINLINE double run_pft_count(const struct pft_config *cfg, const uint8_t *buf, size_t len,
				     size_t chunk, struct counts *c)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(cfg);
	struct pft_pkt_counts k;
	size_t pos = 0;
	double t0;
	int r, t;

	memset(c, 0, sizeof(*c));
	memset(&k, 0, sizeof(k));
	if (!d)
		return -1;
	t0 = bench_cpu();
	for (;;) {
		size_t n = len - pos < chunk ? len - pos : chunk;
		pft_pkt_decoder_feed(d, buf + pos, n);
		pos += n;
		if (pos == len)
			pft_pkt_decoder_end(d);
		r = pft_pkt_decoder_count(d, &k, sizeof(k));
		if (r != -PFT_E_AGAIN)
			break;
	}
	t0 = bench_cpu() - t0;
	for (t = 1; t < PFT_PKT_NR_TYPES; t++) {
		if (t == PFT_PKT_UNSYNCED || t == PFT_PKT_ERROR)
			c->other += k.items[t];
		else
			c->packets += k.items[t];
	}
	pft_pkt_decoder_free(d);
	return r == -PFT_E_EOS ? t0 : -1;
}

static ocsd_datapath_resp_t ocsd_sink(const void *ctx, const ocsd_datapath_op_t op,
				      const ocsd_trc_index_t index, const void *pkt_in)
{
	struct counts *c = (struct counts *)ctx;
	const ocsd_ptm_pkt *pkt = pkt_in;

	(void)index;
	if (op != OCSD_OP_DATA)
		return OCSD_RESP_CONT;
	switch (pkt->type) {
	case PTM_PKT_NOTSYNC:
	case PTM_PKT_INCOMPLETE_EOT:
	case PTM_PKT_NOERROR:
	case PTM_PKT_BAD_SEQUENCE:
	case PTM_PKT_RESERVED:
		c->other++;
		break;
	default:
		c->packets++;
		break;
	}
	return OCSD_RESP_CONT;
}

static NOINLINE double run_ocsd(const struct pft_config *cfg, const uint8_t *buf, size_t len,
				size_t chunk, struct counts *c)
{
	memset(c, 0, sizeof(*c));
	return bench_ocsd_packets(OCSD_BUILTIN_DCD_PTM, cfg, ocsd_sink, c, buf, len, chunk);
}

typedef double (*run_fn)(const struct pft_config *cfg, const uint8_t *buf, size_t len,
			 size_t chunk, struct counts *c);
enum { R_NEXT, R_BATCH, R_COUNT, R_OCSD, NRUNNERS };
static const struct {
	const char *opt, *name;
	run_fn fn;
} runners[NRUNNERS] = {
	{ "pft", "libpft (next)", run_pft },
	{ "batch", "libpft (batch)", run_pft_batch },
	{ "count", "libpft (count)", run_pft_count },
	{ "ocsd", "OpenCSD", run_ocsd },
};

static int runner(const char *opt)
{
	int j;

	for (j = 0; j < NRUNNERS; j++)
		if (!strcmp(opt, runners[j].opt))
			return j;
	return -1;
}

int main(int argc, char **argv)
{
	const char *data = getenv("PFT_DATA"), *save = NULL;
	size_t mib = 64, chunk = 1 << 20, len, slen = 0, blen, i;
	int reps = 3, cov = 0, k, j, only = -1, status = 0;
	char path[1024];
	uint8_t *cap, *stream, *big;
	struct pft_config cfg;
	struct counts cnt[NRUNNERS];
	double best[NRUNNERS];

	for (k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--mib") && k + 1 < argc)
			mib = strtoul(argv[++k], NULL, 0);
		else if (!strcmp(argv[k], "--chunk") && k + 1 < argc)
			chunk = strtoul(argv[++k], NULL, 0);
		else if (!strcmp(argv[k], "--reps") && k + 1 < argc)
			reps = atoi(argv[++k]);
		else if (!strcmp(argv[k], "--data") && k + 1 < argc)
			data = argv[++k];
		else if (!strcmp(argv[k], "--cov"))
			cov = 1;
		else if (!strcmp(argv[k], "--save") && k + 1 < argc)
			save = argv[++k];
		else if (!strcmp(argv[k], "--only") && k + 1 < argc && (only = runner(argv[k + 1])) >= 0)
			k++;
		else {
			fprintf(stderr, "usage: %s [--mib N] [--chunk BYTES] [--reps N] "
					"[--data DIR] [--cov] [--only pft|batch|count|ocsd] [--save FILE]\n", argv[0]);
			return 2;
		}
	}
	if (!data)
		data = PFT_DATA_DIR;
	if (!mib || !chunk || chunk > 0xFFFFFFFFu || reps < 1) {
		fprintf(stderr, "bench_packet: bad --mib, --chunk or --reps\n");
		return 2;
	}
	pft_config_init(&cfg);
	if (cov) {
		snprintf(path, sizeof(path), "%s/trace_cov_a15/PTM_0_2.bin", data);
		cfg.etmcr = 0x20000400u;
		cfg.etmtraceidr = 0x02;
	} else {
		snprintf(path, sizeof(path), "%s/TC2/cstrace.bin", data);
		cfg.etmcr = 0x10001000u;
		cfg.etmtraceidr = 0x13;
	}
	cfg.etmccer = 0x34C01AC2u;
	cfg.etmidr = 0x411CF312u;
	cap = bench_read_file(path, &len);
	if (!cap) {
		fprintf(stderr, "bench_packet: cannot read %s (set --data or PFT_DATA)\n", path);
		return 2;
	}
	if (cov) {
		stream = cap;
		slen = len;
	} else {
		int64_t n;
		stream = malloc(len);
		n = stream ? pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, cap, len, stream, len, NULL)
			   : -1;
		if (n <= 0) {
			fprintf(stderr, "bench_packet: no trace ID 0x13 in %s\n", path);
			return 2;
		}
		slen = (size_t)n;
	}
	i = bench_async(slen, stream);
	if (i + 6 > slen) {
		fprintf(stderr, "bench_packet: no A-sync in the stream\n");
		return 2;
	}
	blen = mib << 20;
	big = malloc(blen + slen);
	if (!big)
		return 2;
	for (len = 0; len < blen; len += slen - i)
		memcpy(big + len, stream + i, slen - i);
	printf("stream: %s%s, %zu bytes from offset %zu, repeated to %zu bytes (%.1f MiB); "
	       "chunk %zu\n", path, cov ? "" : " ID 0x13", slen - i, i, len,
	       (double)len / (1 << 20), chunk);
	if (save) {
		FILE *f = fopen(save, "wb");
		if (!f || fwrite(big, 1, len, f) != len || fclose(f)) {
			fprintf(stderr, "bench_packet: cannot write %s\n", save);
			return 2;
		}
	}

	for (j = 0; j < NRUNNERS; j++)
		best[j] = 1e30;
	for (k = 0; k < reps; k++) {
		for (j = 0; j < NRUNNERS; j++) {
			double t;
			if (only >= 0 && j != only)
				continue;
			t = runners[j].fn(&cfg, big, len, chunk, &cnt[j]);
			if (t < 0) {
				fprintf(stderr, "bench_packet: %s failed\n", runners[j].name);
				return 2;
			}
			if (t < best[j])
				best[j] = t;
		}
	}
	for (j = 0; j < NRUNNERS; j++) {
		if (only >= 0 && j != only)
			continue;
		printf("%-14s %8.1f MB/s  %12llu packets  %llu other items  (%.3f s)\n",
		       runners[j].name, (double)len / best[j] / 1e6,
		       (unsigned long long)cnt[j].packets, (unsigned long long)cnt[j].other, best[j]);
	}
	if (only < 0) {
		for (j = 0; j < R_OCSD; j++)
			printf("ratio %-14s %5.1fx OpenCSD\n", runners[j].name,
			       best[R_OCSD] / best[j]);
		for (j = 0; j < R_OCSD; j++)
			if (cnt[j].packets != cnt[R_OCSD].packets || cnt[j].other != cnt[R_OCSD].other)
				status = 1;
		printf("packet counts %s\n", status ? "differ" : "agree");
	}
	free(big);
	if (stream != cap)
		free(stream);
	free(cap);
	return status;
}
