/* SPDX-License-Identifier: BSD-3-Clause */
/* ETMv3 packet decoding speed: libpft beside OpenCSD's ETMv3 packet
 * processor, on the same bytes in the same run.
 *
 * Usage:
 *   bench_etm3 [--mib N] [--chunk BYTES] [--reps N] [--data DIR] [--id 0x10|0x11|0x12]
 *              [--only pft|ocsd] [--save FILE]
 *
 *   --mib N       size of the stream to decode, in MiB (default 64)
 *   --chunk BYTES bytes given to each decoder per call (default 1048576)
 *   --reps N      runs per decoder; the fastest is reported (default 3)
 *   --data DIR    folder holding TC2/ (default $PFT_DATA, else the checkout's data/)
 *   --id ID       TC2 trace ID, one of the three Cortex-A7 ETMv3.5 sources (default 0x10)
 *   --save FILE   also write the stream decoded to FILE (raw ETMv3 bytes), so
 *                 that the CLI can be timed on the same bytes
 *   --decode      full decode instead: libpft's ETMv3 packets + instruction flow
 *                 against OpenCSD's ETMv3 full decoder (packet processor and
 *                 decoder), image kernel_dump.bin at 0xC0008000; both count the
 *                 instructions of their ranges, the counts must agree; the
 *                 flow takes the packet decoder's bytes itself
 *                 (pft_etm3_flow_decoder_put_from, what pft decode uses),
 *                 and again through packet structs (next_batch and
 *                 put_packets); CPU time, and the wall clock of each call
 *
 * The stream: TC2 (data/TC2/cstrace.bin, CoreSight frames) trace ID 0x10,
 * de-formatted by libpft's frame layer, from its first A-sync to its last
 * A-sync (so each copy ends on a packet boundary), repeated until the size
 * is reached.  Registers as in the snapshot (device_5.ini): ETMCR
 * 0x10001860 (cycle-accurate, timestamps), ETMIDR 0x410CF250 (ETMv3.5),
 * ETMCCER 0x344008F2.
 *
 * libpft: pft_etm3_decoder_feed, then every item pulled into a struct
 * pft_etm3_packet, one per pft_etm3_decoder_next call, and again BATCH per
 * pft_etm3_decoder_next_batch call, and counted per type by pft_etm3_decoder_count
 * (no packet written: pft dump --stats).  OpenCSD: a single-source decode tree with the ETMv3
 * packet processor only (OCSD_CREATE_FLG_PACKET_PROC) and a packet sink
 * callback.  Each counts the packets (and other items) it returns; the
 * packet counts must agree (exit status 1 if not).  MB/s are 10^6 bytes per
 * second of process CPU time; the ratio is OpenCSD's time over libpft's. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft/etm3flow.h"
#include "pft/image.h"

#include "bench_ocsd.h"
#include "bench_pkt.h"

/* run_pft, run_pft_batch and run_pft_count for the ETMv3 packet decoder. */
BENCH_PKT_RUNNERS(etm3, struct pft_etm3_packet, struct pft_etm3_counts, PFT_ETM3_UNSYNCED,
		  PFT_ETM3_ERROR, PFT_ETM3_NR_TYPES)

static ocsd_datapath_resp_t ocsd_sink(const void *ctx, const ocsd_datapath_op_t op,
				      const ocsd_trc_index_t index, const void *pkt_in)
{
	struct bench_counts *c = (struct bench_counts *)ctx;
	const ocsd_etmv3_pkt *pkt = pkt_in;

	(void)index;
	if (op != OCSD_OP_DATA)
		return OCSD_RESP_CONT;
	switch (pkt->type) {
	case ETM3_PKT_NOERROR:
	case ETM3_PKT_NOTSYNC:
	case ETM3_PKT_INCOMPLETE_EOT:
	case ETM3_PKT_BAD_SEQUENCE:
	case ETM3_PKT_BAD_TRACEMODE:
	case ETM3_PKT_RESERVED:
		c->other++;
		break;
	default:
		c->packets++;
		break;
	}
	return OCSD_RESP_CONT;
}

static NOINLINE double run_ocsd(const struct pft_config *cfg, const uint8_t *buf, size_t len,
				size_t chunk, struct bench_counts *c)
{
	memset(c, 0, sizeof(*c));
	return bench_ocsd_packets(OCSD_BUILTIN_DCD_ETMV3, cfg, ocsd_sink, c, buf, len, chunk);
}

/* ---- full decode ---- */

/* The flow's items so far: its ranges' instructions added to *insns. */
static inline void take_insns(struct pft_etm3_flow_decoder *fl, uint64_t *insns)
{
	struct pft_flow_item it;

	while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0)
		if (it.kind == PFT_FLOW_RANGE)
			*insns += it.ninsns;
}

/* After the last packet (r: the packet decoder's status, -PFT_E_EOS at its
 * end): the flow's end and last items, the clock read, both decoders freed.
 * The CPU seconds since t0, or -1 if the packet decoder did not end. */
static inline double decode_end(struct pft_etm3_decoder *d, struct pft_etm3_flow_decoder *fl,
				int r, double t0, uint64_t *insns)
{
	pft_etm3_flow_decoder_end(fl);
	take_insns(fl, insns);
	t0 = bench_cpu() - t0;
	pft_etm3_flow_decoder_free(fl);
	pft_etm3_decoder_free(d);
	return r == -PFT_E_EOS ? t0 : -1;
}

static NOINLINE double run_pft_decode(const struct pft_config *cfg, const struct pft_image *img,
				      const uint8_t *buf, size_t len, size_t chunk, uint64_t *insns)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(cfg);
	struct pft_etm3_flow_decoder *fl = pft_etm3_flow_decoder_alloc(cfg, img);
	size_t pos = 0;
	double t0;
	int r;

	*insns = 0;
	if (!d || !fl)
		return -1;
	t0 = bench_cpu();
	for (;;) {
		bench_etm3_feed(d, buf, len, chunk, &pos);
		while ((r = pft_etm3_flow_decoder_put_from(fl, d)) == 0)
			take_insns(fl, insns);
		if (r != -PFT_E_AGAIN)
			break;
	}
	return decode_end(d, fl, r, t0, insns);
}

/* The same through packet structs: pft_etm3_decoder_next_batch, then
 * pft_etm3_flow_decoder_put_packets. */
static NOINLINE double run_pft_decode_pkts(const struct pft_config *cfg, const struct pft_image *img,
				      const uint8_t *buf, size_t len, size_t chunk, uint64_t *insns)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(cfg);
	struct pft_etm3_flow_decoder *fl = pft_etm3_flow_decoder_alloc(cfg, img);
	static struct pft_etm3_packet p[BATCH];
	size_t pos = 0;
	double t0;
	int r, i;

	*insns = 0;
	if (!d || !fl)
		return -1;
	t0 = bench_cpu();
	for (;;) {
		bench_etm3_feed(d, buf, len, chunk, &pos);
		while ((r = pft_etm3_decoder_next_batch(d, p, BATCH, sizeof(p[0]))) > 0) {
			for (i = 0; i < r;) {
				int k = pft_etm3_flow_decoder_put_packets(fl, &p[i], (size_t)(r - i), sizeof(p[0]));

				if (k <= 0)
					return -1;
				i += k;
				take_insns(fl, insns);
			}
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	return decode_end(d, fl, r, t0, insns);
}

static NOINLINE double run_ocsd_decode(const struct pft_config *cfg, const uint8_t *kernel,
				       size_t klen, const uint8_t *buf, size_t len, size_t chunk,
				       uint64_t *insns)
{
	return bench_ocsd_decode(OCSD_BUILTIN_DCD_ETMV3, cfg, kernel, klen, buf, len, chunk, insns);
}

static int bench_decode(const struct pft_config *cfg, const char *data, const uint8_t *big,
			size_t len, size_t chunk, int reps)
{
	char path[1024];
	size_t klen;
	uint8_t *kernel;
	struct pft_image *img = pft_image_alloc();
	double bp = 1e30, bk = 1e30, bo = 1e30, wp = 1e30, wo = 1e30, t, w;
	uint64_t ip = 0, ik = 0, io = 0;
	int k;

	snprintf(path, sizeof(path), "%s/TC2/kernel_dump.bin", data);
	kernel = bench_read_file(path, &klen);
	if (!kernel || !img || pft_image_add_buffer(img, 0xC0008000u, kernel, klen) < 0) {
		fprintf(stderr, "bench_etm3: cannot read %s\n", path);
		return 2;
	}
	for (k = 0; k < reps; k++) {
		w = bench_wall();
		t = run_pft_decode(cfg, img, big, len, chunk, &ip);
		w = bench_wall() - w;
		if (t < 0)
			return 2;
		if (t < bp)
			bp = t;
		if (w < wp)
			wp = w;
		t = run_pft_decode_pkts(cfg, img, big, len, chunk, &ik);
		if (t < 0)
			return 2;
		if (t < bk)
			bk = t;
		w = bench_wall();
		t = run_ocsd_decode(cfg, kernel, klen, big, len, chunk, &io);
		w = bench_wall() - w;
		if (t < 0)
			return 2;
		if (t < bo)
			bo = t;
		if (w < wo)
			wo = w;
	}
	printf("%-16s %8.1f MB/s  %12llu instructions  (%.3f s)\n", "libpft decode",
	       (double)len / bp / 1e6, (unsigned long long)ip, bp);
	printf("%-16s %8.1f MB/s  %12llu instructions  (%.3f s)  %.1fx OpenCSD\n", "libpft (packets)",
	       (double)len / bk / 1e6, (unsigned long long)ik, bk, bo / bk);
	printf("%-16s %8.1f MB/s  %12llu instructions  (%.3f s)\n", "OpenCSD decode",
	       (double)len / bo / 1e6, (unsigned long long)io, bo);
	printf("ratio decode   %5.1fx OpenCSD (CPU time); wall clock %.3f s against %.3f s, %.1fx\n",
	       bo / bp, wp, wo, wo / wp);
	pft_image_free(img);
	free(kernel);
	if (ip != io || ik != io) {
		printf("instruction counts differ\n");
		return 1;
	}
	return 0;
}

/* --only pft runs the three libpft runners, --only ocsd OpenCSD's. */
static const struct bench_runner runners[] = {
	{ "pft", "libpft (next)", run_pft },
	{ "pft", "libpft (batch)", run_pft_batch },
	{ "pft", "libpft (count)", run_pft_count },
	{ "ocsd", "OpenCSD", run_ocsd }, /* the reference: last */
};
#define NRUNNERS ((int)(sizeof(runners) / sizeof(runners[0])))

int main(int argc, char **argv)
{
	struct bench_opts o;
	size_t len, slen, i, last;
	int k, id = 0x10, decode = 0, status;
	char path[1024];
	uint8_t *stream, *big;
	struct pft_config cfg;

	bench_opts_init(&o);
	for (k = 1; k < argc; k++) {
		if (bench_opts_take(&o, argc, argv, &k, runners, NRUNNERS))
			continue;
		if (!strcmp(argv[k], "--decode"))
			decode = 1;
		else if (!strcmp(argv[k], "--id") && k + 1 < argc)
			id = (int)strtol(argv[++k], NULL, 0);
		else {
			fprintf(stderr, "usage: %s [--mib N] [--chunk BYTES] [--reps N] [--data DIR] "
					"[--id 0x10|0x11|0x12] [--only pft|ocsd] [--decode] [--save FILE]\n", argv[0]);
			return 2;
		}
	}
	if (!bench_opts_check(&o) || id < 0x10 || id > 0x12) {
		fprintf(stderr, "bench_etm3: bad --mib, --chunk, --reps or --id\n");
		return 2;
	}
	pft_config_init(&cfg);
	cfg.etmcr = 0x10001860u;
	cfg.etmidr = 0x410CF250u;
	cfg.etmccer = 0x344008F2u;
	cfg.etmtraceidr = (uint32_t)id;
	snprintf(path, sizeof(path), "%s/TC2/cstrace.bin", o.data);
	stream = bench_stream("bench_etm3", path, id, &slen);
	if (!stream)
		return 2;
	/* from the first A-sync to the last one */
	i = bench_async(slen, stream);
	for (last = slen >= 6 ? slen - 6 : 0; last > i; last--)
		if (!memcmp(stream + last, "\0\0\0\0\0\x80", 6) && (last == 0 || stream[last - 1] != 0))
			break;
	if (i + 6 > slen || last <= i) {
		fprintf(stderr, "bench_etm3: fewer than two A-syncs in the stream\n");
		return 2;
	}
	big = bench_repeat(stream + i, last - i, o.mib, &len);
	if (!big)
		return 2;
	printf("stream: %s ID 0x%x, %zu bytes from offset %zu, repeated to %zu bytes (%.1f MiB); "
	       "chunk %zu\n", path, id, last - i, i, len, (double)len / (1 << 20), o.chunk);
	if (o.save && bench_save("bench_etm3", o.save, big, len))
		return 2;
	if (decode)
		status = bench_decode(&cfg, o.data, big, len, o.chunk, o.reps);
	else
		status = bench_run_report("bench_etm3", runners, NRUNNERS, o.only, o.reps, 0, &cfg,
					  big, len, o.chunk);
	free(big);
	free(stream);
	return status;
}
