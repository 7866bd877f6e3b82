/* SPDX-License-Identifier: BSD-3-Clause */
/* Call-stack layer speed: the flow decoder alone, then the flow decoder
 * feeding pft_cs_* (with and without RUN events, as pft profile and pft
 * timeline use it), on the same long stream, in the same run; the ratio to
 * plain decode is printed (the layer should keep at least half of it).
 * Peak memory is printed too: the tracker holds only the open frames.
 *
 * The stream is the synchronised part of TC2 trace ID 0x13 repeated to the
 * size asked (as bench_flow), the image kernel_dump.bin at 0xC0008000.
 *
 * usage: bench_callstack [MB] [DATA_DIR]      (default 16 MB, the checkout's data/)
 *
 * The commands end to end (pft profile / timeline / tail against pft decode
 * --stats on one file): bench/bench_callstack_cli.sh. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "pft/callstack.h"
#include "pft/pft.h"

#include "bench_tc2.h"

/* mode 0: decode only; 1: + call stacks with RUN events; 2: without */
static uint64_t run(int mode, const struct pft_config *cfg, struct pft_image *img,
		    const uint8_t *s, size_t n, struct pft_cs_stats *st)
{
	struct pft_flow_decoder *d = pft_flow_decoder_alloc(cfg, img);
	struct pft_cs_config cc;
	struct pft_cs_tracker *cs;
	struct pft_flow_item it;
	const struct pft_cs_event *evs;
	size_t nev;
	uint64_t insns = 0, events = 0;
	size_t pos = 0;

	pft_cs_config_init(&cc);
	cc.flags = mode == 2 ? PFT_CS_CFG_NO_RUNS : 0;
	cs = pft_cs_tracker_alloc(&cc);
	while (pos <= n) {
		size_t chunk = n - pos > 1048576 ? 1048576 : n - pos;

		if (chunk)
			pft_flow_decoder_feed(d, s + pos, chunk);
		else
			pft_flow_decoder_end(d);
		pos += chunk ? chunk : 1;
		while (pft_flow_decoder_next(d, &it, sizeof(it)) == 0) {
			if (it.kind == PFT_FLOW_RANGE)
				insns += it.ninsns;
			if (!mode)
				continue;
			pft_cs_tracker_put(cs, &it, sizeof(it));
			if (pft_cs_tracker_take(cs, &evs, &nev, sizeof(*evs)) == 0)
				events += nev;
		}
	}
	if (mode) {
		pft_cs_tracker_end(cs);
		if (pft_cs_tracker_take(cs, &evs, &nev, sizeof(*evs)) == 0)
			events += nev;
		pft_cs_tracker_get_stats(cs, st, sizeof(*st));
	}
	pft_cs_tracker_free(cs);
	pft_flow_decoder_free(d);
	return insns + (events & 0); /* events counted so that the loop is not elided */
}

int main(int argc, char **argv)
{
	const char *data = argc > 2 ? argv[2] : PFT_DATA_DIR;
	size_t mb = argc > 1 ? (size_t)atoi(argv[1]) : 16;
	struct bench_tc2 b;
	struct pft_cs_stats st;
	struct rusage ru;
	double t[3], t0;
	uint64_t in[3];
	int m, rep;
	static const char *const name[3] = { "decode", "decode + call stacks (runs)",
					     "decode + call stacks (no runs)" };

	if (bench_tc2_load(&b, "bench_callstack", data, mb) < 0)
		return 2;

	memset(&st, 0, sizeof(st));
	for (m = 0; m < 3; m++)
		t[m] = 1e30;
	for (rep = 0; rep < 3; rep++)    /* best of three, interleaved */
		for (m = 0; m < 3; m++) {
			double d;

			t0 = bench_cpu();
			in[m] = run(m, &b.cfg, b.img, b.big, b.n, &st);
			d = bench_cpu() - t0;
			if (d < t[m])
				t[m] = d;
		}
	printf("stream: %.1f MB (TC2 0x13 repeated), image %zu bytes (CPU time, best of 3)\n",
	       (double)b.n / 1048576.0, b.klen);
	for (m = 0; m < 3; m++)
		printf("%-32s %12" PRIu64 " instructions in %.3f s: %7.1f M instr/s, %7.1f MB/s\n",
		       name[m], in[m], t[m], (double)in[m] / t[m] / 1e6, (double)b.n / t[m] / 1048576.0);
	printf("ratio to decode: %.2f (runs), %.2f (no runs)\n", t[0] / t[1], t[0] / t[2]);
	printf("call stacks: %" PRIu64 " calls, %" PRIu64 " returns, %" PRIu64 " gaps, max depth %u\n",
	       st.calls, st.returns, st.gaps, st.max_depth);
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS: %ld KiB (the stream itself: %zu KiB)\n", ru.ru_maxrss, b.n / 1024);
	if (in[0] != in[1] || in[0] != in[2])
		printf("note: instruction counts differ\n");
	bench_tc2_free(&b);
	return 0;
}
