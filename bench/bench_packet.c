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

#include "pft/packet.h"

#include "bench_ocsd.h"
#include "bench_pkt.h"

/* run_pft, run_pft_batch and run_pft_count for the PFT packet decoder. */
BENCH_PKT_RUNNERS(pkt, struct pft_packet, struct pft_pkt_counts, PFT_PKT_UNSYNCED, PFT_PKT_ERROR,
		  PFT_PKT_NR_TYPES)

static ocsd_datapath_resp_t ocsd_sink(const void *ctx, const ocsd_datapath_op_t op,
				      const ocsd_trc_index_t index, const void *pkt_in)
{
	struct bench_counts *c = (struct bench_counts *)ctx;
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
				size_t chunk, struct bench_counts *c)
{
	memset(c, 0, sizeof(*c));
	return bench_ocsd_packets(OCSD_BUILTIN_DCD_PTM, cfg, ocsd_sink, c, buf, len, chunk);
}

static const struct bench_runner runners[] = {
	{ "pft", "libpft (next)", run_pft },
	{ "batch", "libpft (batch)", run_pft_batch },
	{ "count", "libpft (count)", run_pft_count },
	{ "ocsd", "OpenCSD", run_ocsd }, /* the reference: last */
};
#define NRUNNERS ((int)(sizeof(runners) / sizeof(runners[0])))

int main(int argc, char **argv)
{
	struct bench_opts o;
	size_t len, slen = 0, i;
	int cov = 0, k, status;
	char path[1024];
	uint8_t *stream, *big;
	struct pft_config cfg;

	bench_opts_init(&o);
	for (k = 1; k < argc; k++) {
		if (bench_opts_take(&o, argc, argv, &k, runners, NRUNNERS))
			continue;
		if (!strcmp(argv[k], "--cov"))
			cov = 1;
		else {
			fprintf(stderr, "usage: %s [--mib N] [--chunk BYTES] [--reps N] "
					"[--data DIR] [--cov] [--only pft|batch|count|ocsd] [--save FILE]\n", argv[0]);
			return 2;
		}
	}
	if (!bench_opts_check(&o)) {
		fprintf(stderr, "bench_packet: bad --mib, --chunk or --reps\n");
		return 2;
	}
	pft_config_init(&cfg);
	if (cov) {
		snprintf(path, sizeof(path), "%s/trace_cov_a15/PTM_0_2.bin", o.data);
		cfg.etmcr = 0x20000400u;
		cfg.etmtraceidr = 0x02;
	} else {
		snprintf(path, sizeof(path), "%s/TC2/cstrace.bin", o.data);
		cfg.etmcr = 0x10001000u;
		cfg.etmtraceidr = 0x13;
	}
	cfg.etmccer = 0x34C01AC2u;
	cfg.etmidr = 0x411CF312u;
	stream = bench_stream("bench_packet", path, cov ? -1 : 0x13, &slen);
	if (!stream)
		return 2;
	i = bench_async(slen, stream);
	if (i + 6 > slen) {
		fprintf(stderr, "bench_packet: no A-sync in the stream\n");
		return 2;
	}
	big = bench_repeat(stream + i, slen - i, o.mib, &len);
	if (!big)
		return 2;
	printf("stream: %s%s, %zu bytes from offset %zu, repeated to %zu bytes (%.1f MiB); "
	       "chunk %zu\n", path, cov ? "" : " ID 0x13", slen - i, i, len,
	       (double)len / (1 << 20), o.chunk);
	if (o.save && bench_save("bench_packet", o.save, big, len))
		return 2;
	status = bench_run_report("bench_packet", runners, NRUNNERS, o.only, o.reps, 1, &cfg, big,
				  len, o.chunk);
	free(big);
	free(stream);
	return status;
}
