/* SPDX-License-Identifier: BSD-3-Clause */
/* Coverage speed: counting coverage (pft_cov_put on every flow item, then
 * the per-address table) against plain decoding as pft decode --stats does
 * it (the flow decoder alone), and against OpenCSD's PTM full decoder, on
 * the same long stream in the same run.  The stream is the synchronised
 * part of TC2 trace ID 0x13 repeated (as bench_flow), the image
 * kernel_dump.bin at 0xC0008000.  Prints the ratio coverage / decode (the
 * goal is at least 0.5) and checks that coverage counted every decoded
 * instruction.
 *
 * usage: bench_coverage [MB] [DATA_DIR]      (default 16 MB, the checkout's data/) */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "pft/pft.h"

#include "bench_ocsd.h"
#include "bench_tc2.h"

static uint64_t decode_only(const struct pft_config *cfg, struct pft_image *img,
			    const uint8_t *s, size_t n)
{
	struct pft_flow_decoder *d = pft_flow_decoder_alloc(cfg, img);
	struct pft_flow_item it;
	struct pft_flow_stats st;

	pft_flow_decoder_feed(d, s, n);
	pft_flow_decoder_end(d);
	while (pft_flow_decoder_next(d, &it, sizeof(it)) == 0)
		;
	pft_flow_decoder_get_stats(d, &st, sizeof(st));
	pft_flow_decoder_free(d);
	return st.insns;
}

static uint64_t coverage(const struct pft_config *cfg, struct pft_image *img, const uint8_t *s,
			 size_t n, long *addrs)
{
	struct pft_flow_decoder *d = pft_flow_decoder_alloc(cfg, img);
	struct pft_cov *c = pft_cov_alloc();
	struct pft_flow_item it;
	struct pft_cov_totals t;

	pft_flow_decoder_feed(d, s, n);
	pft_flow_decoder_end(d);
	while (pft_flow_decoder_next(d, &it, sizeof(it)) == 0)
		pft_cov_put(c, &it, sizeof it);
	*addrs = pft_cov_insn_count(c);
	pft_cov_get_totals(c, &t, sizeof(t));
	pft_cov_free(c);
	pft_flow_decoder_free(d);
	return t.insns;
}

int main(int argc, char **argv)
{
	const char *data = argc > 2 ? argv[2] : PFT_DATA_DIR;
	size_t mb = argc > 1 ? (size_t)atoi(argv[1]) : 16;
	struct bench_tc2 b;
	double t0, td, tc, to;
	uint64_t id, ic, io;
	long addrs = 0;

	if (bench_tc2_load(&b, "bench_coverage", data, mb) < 0)
		return 2;

	t0 = bench_cpu();
	id = decode_only(&b.cfg, b.img, b.big, b.n);
	td = bench_cpu() - t0;
	t0 = bench_cpu();
	ic = coverage(&b.cfg, b.img, b.big, b.n, &addrs);
	tc = bench_cpu() - t0;
	t0 = bench_cpu();
	io = bench_ocsd_ptm_insns(&b.cfg, b.kernel, b.klen, b.big, b.n);
	to = bench_cpu() - t0;

	printf("stream: %.1f MB (TC2 0x13 repeated), image %zu bytes; CPU seconds\n",
	       (double)b.n / 1048576.0, b.klen);
	printf("decode (as pft decode --stats): %11" PRIu64 " instructions in %.3f s: %7.1f M instr/s, %7.1f MB/s\n",
	       id, td, (double)id / td / 1e6, (double)b.n / td / 1048576.0);
	printf("coverage (decode + pft_cov)   : %11" PRIu64 " instructions in %.3f s: %7.1f M instr/s, %7.1f MB/s (%ld addresses)\n",
	       ic, tc, (double)ic / tc / 1e6, (double)b.n / tc / 1048576.0, addrs);
	printf("OpenCSD full decode           : %11" PRIu64 " instructions in %.3f s: %7.1f M instr/s, %7.1f MB/s\n",
	       io, to, (double)io / to / 1e6, (double)b.n / to / 1048576.0);
	printf("coverage / decode throughput  : %.2f (goal >= 0.5)\n", td / tc);
	printf("coverage / OpenCSD throughput : %.2f\n", to / tc);
	if (ic != id)
		printf("error: coverage counted %" PRIu64 " instructions, the decoder output %" PRIu64 "\n",
		       ic, id);
	bench_tc2_free(&b);
	return ic == id ? 0 : 1;
}
