/* SPDX-License-Identifier: BSD-3-Clause */
/* Full instruction-flow decode speed: libpft's flow decoder beside OpenCSD's
 * PTM full decoder (packet processor + decoder, through its C API), on the
 * same long stream, with the same image, in the same run.
 *
 * The stream is the synchronised part of TC2 trace ID 0x13 (from its first
 * A-sync; every copy starts with A-sync + I-sync) repeated to the size
 * asked; the image is kernel_dump.bin at 0xC0008000.  Both decoders count
 * the instructions in the ranges they output; the counts must agree.
 *
 * Times are process CPU time (the machine may be shared).
 *
 * usage: bench_flow [MB] [DATA_DIR]      (default 16 MB, the checkout's data/) */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "pft/pft.h"

#include "bench_ocsd.h"
#include "bench_tc2.h"

static uint64_t pft_run(const struct pft_config *cfg, struct pft_image *img, const uint8_t *s,
			size_t n)
{
	struct pft_flow_decoder *d = pft_flow_decoder_alloc(cfg, img);
	struct pft_flow_item it;
	uint64_t insns = 0;

	pft_flow_decoder_feed(d, s, n);
	pft_flow_decoder_end(d);
	while (pft_flow_decoder_next(d, &it, sizeof(it)) == 0)
		if (it.kind == PFT_FLOW_RANGE)
			insns += it.ninsns;
	pft_flow_decoder_free(d);
	return insns;
}

int main(int argc, char **argv)
{
	const char *data = argc > 2 ? argv[2] : PFT_DATA_DIR;
	size_t mb = argc > 1 ? (size_t)atoi(argv[1]) : 16;
	struct bench_tc2 b;
	double t0, tp, to;
	uint64_t ip, io;

	if (bench_tc2_load(&b, "bench_flow", data, mb) < 0)
		return 2;

	t0 = bench_cpu();
	ip = pft_run(&b.cfg, b.img, b.big, b.n);
	tp = bench_cpu() - t0;
	t0 = bench_cpu();
	io = bench_ocsd_ptm_insns(&b.cfg, b.kernel, b.klen, b.big, b.n);
	to = bench_cpu() - t0;

	printf("stream: %.1f MB (TC2 0x13 repeated), image %zu bytes\n", (double)b.n / 1048576.0, b.klen);
	printf("libpft : %12" PRIu64 " instructions in %.3f s: %7.1f M instr/s, %7.1f MB/s\n", ip, tp,
	       (double)ip / tp / 1e6, (double)b.n / tp / 1048576.0);
	printf("OpenCSD: %12" PRIu64 " instructions in %.3f s: %7.1f M instr/s, %7.1f MB/s\n", io, to,
	       (double)io / to / 1e6, (double)b.n / to / 1048576.0);
	printf("ratio  : %.1fx\n", to / tp);
	if (ip != io)
		printf("note: instruction counts differ (%" PRIu64 " vs %" PRIu64 ")\n", ip, io);
	bench_tc2_free(&b);
	return 0;
}
