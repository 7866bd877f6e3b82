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
 *                 instructions of their ranges, the counts must agree
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
#include "pft/frame.h"

#include "bench_ocsd.h"

struct counts {
	uint64_t packets;
	uint64_t other;
};

#define NOINLINE __attribute__((noinline))

static NOINLINE double run_pft(const struct pft_config *cfg, const uint8_t *buf, size_t len,
			       size_t chunk, struct counts *c)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(cfg);
	struct pft_etm3_packet p;
	size_t pos = 0;
	double t0;
	int r;

	memset(c, 0, sizeof(*c));
	if (!d)
		return -1;
	t0 = bench_cpu();
	for (;;) {
		size_t n = len - pos < chunk ? len - pos : chunk;
		pft_etm3_decoder_feed(d, buf + pos, n);
		pos += n;
		if (pos == len)
			pft_etm3_decoder_end(d);
		while ((r = pft_etm3_decoder_next(d, &p, sizeof(p))) == 0) {
			if (p.type == PFT_ETM3_UNSYNCED || p.type == PFT_ETM3_ERROR)
				c->other++;
			else
				c->packets++;
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	t0 = bench_cpu() - t0;
	pft_etm3_decoder_free(d);
	return r == -PFT_E_EOS ? t0 : -1;
}

#define BATCH 256

static NOINLINE double run_pft_batch(const struct pft_config *cfg, const uint8_t *buf, size_t len,
				     size_t chunk, struct counts *c)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(cfg);
	static struct pft_etm3_packet p[BATCH];
	size_t pos = 0;
	double t0;
	int r, i;

	memset(c, 0, sizeof(*c));
	if (!d)
		return -1;
	t0 = bench_cpu();
	for (;;) {
		size_t n = len - pos < chunk ? len - pos : chunk;
		pft_etm3_decoder_feed(d, buf + pos, n);
		pos += n;
		if (pos == len)
			pft_etm3_decoder_end(d);
		while ((r = pft_etm3_decoder_next_batch(d, p, BATCH, sizeof(p[0]))) > 0) {
			for (i = 0; i < r; i++) {
				if (p[i].type == PFT_ETM3_UNSYNCED || p[i].type == PFT_ETM3_ERROR)
					c->other++;
				else
					c->packets++;
			}
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	t0 = bench_cpu() - t0;
	pft_etm3_decoder_free(d);
	return r == -PFT_E_EOS ? t0 : -1;
}

/* pft_etm3_decoder_count(): the items counted per type, no packet written
 * (what pft dump --stats uses). */
static NOINLINE double run_pft_count(const struct pft_config *cfg, const uint8_t *buf, size_t len,
				     size_t chunk, struct counts *c)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(cfg);
	struct pft_etm3_counts k;
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
		pft_etm3_decoder_feed(d, buf + pos, n);
		pos += n;
		if (pos == len)
			pft_etm3_decoder_end(d);
		r = pft_etm3_decoder_count(d, &k, sizeof(k));
		if (r != -PFT_E_AGAIN)
			break;
	}
	t0 = bench_cpu() - t0;
	for (t = 1; t < PFT_ETM3_NR_TYPES; t++) {
		if (t == PFT_ETM3_UNSYNCED || t == PFT_ETM3_ERROR)
			c->other += k.items[t];
		else
			c->packets += k.items[t];
	}
	pft_etm3_decoder_free(d);
	return r == -PFT_E_EOS ? t0 : -1;
}

static ocsd_datapath_resp_t ocsd_sink(const void *ctx, const ocsd_datapath_op_t op,
				      const ocsd_trc_index_t index, const void *pkt_in)
{
	struct counts *c = (struct counts *)ctx;
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
				size_t chunk, struct counts *c)
{
	memset(c, 0, sizeof(*c));
	return bench_ocsd_packets(OCSD_BUILTIN_DCD_ETMV3, cfg, ocsd_sink, c, buf, len, chunk);
}

/* ---- full decode ---- */

static NOINLINE double run_pft_decode(const struct pft_config *cfg, const struct pft_image *img,
				      const uint8_t *buf, size_t len, size_t chunk, uint64_t *insns)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(cfg);
	struct pft_etm3_flow_decoder *fl = pft_etm3_flow_decoder_alloc(cfg, img);
	static struct pft_etm3_packet p[BATCH];
	struct pft_flow_item it;
	size_t pos = 0;
	double t0;
	int r, i;

	*insns = 0;
	if (!d || !fl)
		return -1;
	t0 = bench_cpu();
	for (;;) {
		size_t n = len - pos < chunk ? len - pos : chunk;
		pft_etm3_decoder_feed(d, buf + pos, n);
		pos += n;
		if (pos == len)
			pft_etm3_decoder_end(d);
		while ((r = pft_etm3_decoder_next_batch(d, p, BATCH, sizeof(p[0]))) > 0) {
			for (i = 0; i < r;) {
				int k = pft_etm3_flow_decoder_put_packets(fl, &p[i], (size_t)(r - i), sizeof(p[0]));

				if (k <= 0)
					return -1;
				i += k;
				while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0)
					if (it.kind == PFT_FLOW_RANGE)
						*insns += it.ninsns;
			}
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	pft_etm3_flow_decoder_end(fl);
	while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0)
		if (it.kind == PFT_FLOW_RANGE)
			*insns += it.ninsns;
	t0 = bench_cpu() - t0;
	pft_etm3_flow_decoder_free(fl);
	pft_etm3_decoder_free(d);
	return r == -PFT_E_EOS ? t0 : -1;
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
	double bp = 1e30, bo = 1e30, t;
	uint64_t ip = 0, io = 0;
	int k;

	snprintf(path, sizeof(path), "%s/TC2/kernel_dump.bin", data);
	kernel = bench_read_file(path, &klen);
	if (!kernel || !img || pft_image_add_buffer(img, 0xC0008000u, kernel, klen) < 0) {
		fprintf(stderr, "bench_etm3: cannot read %s\n", path);
		return 2;
	}
	for (k = 0; k < reps; k++) {
		t = run_pft_decode(cfg, img, big, len, chunk, &ip);
		if (t < 0)
			return 2;
		if (t < bp)
			bp = t;
		t = run_ocsd_decode(cfg, kernel, klen, big, len, chunk, &io);
		if (t < 0)
			return 2;
		if (t < bo)
			bo = t;
	}
	printf("%-16s %8.1f MB/s  %12llu instructions  (%.3f s)\n", "libpft decode",
	       (double)len / bp / 1e6, (unsigned long long)ip, bp);
	printf("%-16s %8.1f MB/s  %12llu instructions  (%.3f s)\n", "OpenCSD decode",
	       (double)len / bo / 1e6, (unsigned long long)io, bo);
	printf("ratio decode   %5.1fx OpenCSD\n", bo / bp);
	pft_image_free(img);
	free(kernel);
	if (ip != io) {
		printf("instruction counts differ\n");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *data = getenv("PFT_DATA");
	size_t mib = 64, chunk = 1 << 20, len, slen, blen, i, last;
	int reps = 3, k, id = 0x10, only = -1, decode = 0;
	char path[1024];
	uint8_t *cap, *stream, *big;
	struct pft_config cfg;
	struct counts cp, cb, cc, co;
	double bp = 1e30, bb = 1e30, bc = 1e30, bo = 1e30;
	const char *save = NULL;
	int64_t n;

	for (k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--mib") && k + 1 < argc)
			mib = strtoul(argv[++k], NULL, 0);
		else if (!strcmp(argv[k], "--chunk") && k + 1 < argc)
			chunk = strtoul(argv[++k], NULL, 0);
		else if (!strcmp(argv[k], "--reps") && k + 1 < argc)
			reps = atoi(argv[++k]);
		else if (!strcmp(argv[k], "--data") && k + 1 < argc)
			data = argv[++k];
		else if (!strcmp(argv[k], "--save") && k + 1 < argc)
			save = argv[++k];
		else if (!strcmp(argv[k], "--decode"))
			decode = 1;
		else if (!strcmp(argv[k], "--id") && k + 1 < argc)
			id = (int)strtol(argv[++k], NULL, 0);
		else if (!strcmp(argv[k], "--only") && k + 1 < argc &&
			 (!strcmp(argv[k + 1], "pft") || !strcmp(argv[k + 1], "ocsd")))
			only = !strcmp(argv[++k], "ocsd");
		else {
			fprintf(stderr, "usage: %s [--mib N] [--chunk BYTES] [--reps N] [--data DIR] "
					"[--id 0x10|0x11|0x12] [--only pft|ocsd] [--decode] [--save FILE]\n", argv[0]);
			return 2;
		}
	}
	if (!data)
		data = PFT_DATA_DIR;
	if (!mib || !chunk || chunk > 0xFFFFFFFFu || reps < 1 || id < 0x10 || id > 0x12) {
		fprintf(stderr, "bench_etm3: bad --mib, --chunk, --reps or --id\n");
		return 2;
	}
	pft_config_init(&cfg);
	cfg.etmcr = 0x10001860u;
	cfg.etmidr = 0x410CF250u;
	cfg.etmccer = 0x344008F2u;
	cfg.etmtraceidr = (uint32_t)id;
	snprintf(path, sizeof(path), "%s/TC2/cstrace.bin", data);
	cap = bench_read_file(path, &len);
	if (!cap) {
		fprintf(stderr, "bench_etm3: cannot read %s (set --data or PFT_DATA)\n", path);
		return 2;
	}
	stream = malloc(len);
	n = stream ? pft_frame_extract(PFT_FRAME_CORESIGHT, (uint8_t)id, cap, len, stream, len, NULL)
		   : -1;
	if (n <= 0) {
		fprintf(stderr, "bench_etm3: no trace ID 0x%x in %s\n", id, path);
		return 2;
	}
	slen = (size_t)n;
	/* from the first A-sync to the last one */
	i = bench_async(slen, stream);
	for (last = slen >= 6 ? slen - 6 : 0; last > i; last--)
		if (!memcmp(stream + last, "\0\0\0\0\0\x80", 6) && (last == 0 || stream[last - 1] != 0))
			break;
	if (i + 6 > slen || last <= i) {
		fprintf(stderr, "bench_etm3: fewer than two A-syncs in the stream\n");
		return 2;
	}
	blen = mib << 20;
	big = malloc(blen + slen);
	if (!big)
		return 2;
	for (len = 0; len < blen; len += last - i)
		memcpy(big + len, stream + i, last - i);
	printf("stream: %s ID 0x%x, %zu bytes from offset %zu, repeated to %zu bytes (%.1f MiB); "
	       "chunk %zu\n", path, id, last - i, i, len, (double)len / (1 << 20), chunk);
	if (save) {
		FILE *f = fopen(save, "wb");
		if (!f || fwrite(big, 1, len, f) != len || fclose(f)) {
			fprintf(stderr, "bench_etm3: cannot write %s\n", save);
			return 2;
		}
	}
	if (decode) {
		int rc = bench_decode(&cfg, data, big, len, chunk, reps);
		free(big);
		free(stream);
		free(cap);
		return rc;
	}
	memset(&cp, 0, sizeof(cp));
	memset(&co, 0, sizeof(co));
	for (k = 0; k < reps; k++) {
		double t;
		if (only != 1) {
			t = run_pft(&cfg, big, len, chunk, &cp);
			if (t < 0) {
				fprintf(stderr, "bench_etm3: libpft failed\n");
				return 2;
			}
			if (t < bp)
				bp = t;
			t = run_pft_batch(&cfg, big, len, chunk, &cb);
			if (t < 0) {
				fprintf(stderr, "bench_etm3: libpft (batch) failed\n");
				return 2;
			}
			if (t < bb)
				bb = t;
			t = run_pft_count(&cfg, big, len, chunk, &cc);
			if (t < 0) {
				fprintf(stderr, "bench_etm3: libpft (count) failed\n");
				return 2;
			}
			if (t < bc)
				bc = t;
		}
		if (only != 0) {
			t = run_ocsd(&cfg, big, len, chunk, &co);
			if (t < 0) {
				fprintf(stderr, "bench_etm3: OpenCSD failed\n");
				return 2;
			}
			if (t < bo)
				bo = t;
		}
	}
	if (only != 1) {
		printf("%-14s %8.1f MB/s  %12llu packets  %llu other items  (%.3f s)\n", "libpft (next)",
		       (double)len / bp / 1e6, (unsigned long long)cp.packets,
		       (unsigned long long)cp.other, bp);
		printf("%-14s %8.1f MB/s  %12llu packets  %llu other items  (%.3f s)\n", "libpft (batch)",
		       (double)len / bb / 1e6, (unsigned long long)cb.packets,
		       (unsigned long long)cb.other, bb);
		printf("%-14s %8.1f MB/s  %12llu packets  %llu other items  (%.3f s)\n", "libpft (count)",
		       (double)len / bc / 1e6, (unsigned long long)cc.packets,
		       (unsigned long long)cc.other, bc);
	}
	if (only != 0)
		printf("%-14s %8.1f MB/s  %12llu packets  %llu other items  (%.3f s)\n", "OpenCSD",
		       (double)len / bo / 1e6, (unsigned long long)co.packets,
		       (unsigned long long)co.other, bo);
	if (only < 0) {
		printf("ratio libpft (next)   %5.1fx OpenCSD\n", bo / bp);
		printf("ratio libpft (batch)  %5.1fx OpenCSD\n", bo / bb);
		printf("ratio libpft (count)  %5.1fx OpenCSD\n", bo / bc);
		if (cp.packets != co.packets || cb.packets != co.packets || cc.packets != co.packets) {
			printf("packet counts differ\n");
			return 1;
		}
	}
	free(big);
	free(stream);
	free(cap);
	return 0;
}
