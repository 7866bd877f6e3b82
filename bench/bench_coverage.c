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

#include "bench_util.h"

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

static ocsd_datapath_resp_t ocsd_elem(const void *ctx, const ocsd_trc_index_t idx,
				      const uint8_t chan, const ocsd_generic_trace_elem *e)
{
	(void)idx;
	(void)chan;
	if (e->elem_type == OCSD_GEN_TRC_ELEM_INSTR_RANGE)
		*(uint64_t *)ctx += e->num_instr_range;
	return OCSD_RESP_CONT;
}

static uint64_t ocsd_run(const struct pft_config *cfg, const uint8_t *kernel, size_t klen,
			 const uint8_t *s, size_t n)
{
	dcd_tree_handle_t t = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
	ocsd_ptm_cfg pc;
	unsigned char csid;
	uint64_t insns = 0;
	size_t pos = 0;

	memset(&pc, 0, sizeof(pc));
	pc.reg_idr = cfg->etmidr;
	pc.reg_ctrl = cfg->etmcr;
	pc.reg_ccer = cfg->etmccer;
	pc.reg_trc_id = cfg->etmtraceidr;
	pc.arch_ver = ARCH_V7;
	pc.core_prof = profile_CortexA;
	ocsd_dt_create_decoder(t, OCSD_BUILTIN_DCD_PTM, OCSD_CREATE_FLG_FULL_DECODER, &pc, &csid);
	ocsd_dt_set_gen_elem_outfn(t, ocsd_elem, &insns);
	ocsd_dt_add_buffer_mem_acc(t, 0xC0008000u, OCSD_MEM_SPACE_ANY, kernel, (uint32_t)klen);
	while (pos < n) {
		uint32_t used = 0;
		uint32_t chunk = n - pos > 0x100000 ? 0x100000 : (uint32_t)(n - pos);
		ocsd_datapath_resp_t r = ocsd_dt_process_data(t, OCSD_OP_DATA, pos, chunk, s + pos, &used);

		if (!OCSD_DATA_RESP_IS_CONT(r) && used == 0)
			break;
		pos += used;
	}
	ocsd_dt_process_data(t, OCSD_OP_EOT, 0, 0, NULL, NULL);
	ocsd_destroy_dcd_tree(t);
	return insns;
}

int main(int argc, char **argv)
{
	const char *data = argc > 2 ? argv[2] : PFT_DATA_DIR;
	size_t mb = argc > 1 ? (size_t)atoi(argv[1]) : 16, caplen, klen, n = 0, start;
	char path[1024];
	uint8_t *cap, *kernel, *s, *big;
	int64_t slen;
	struct pft_config cfg;
	struct pft_image *img;
	double t0, td, tc, to;
	uint64_t id, ic, io;
	long addrs = 0;

	snprintf(path, sizeof(path), "%s/TC2/cstrace.bin", data);
	cap = bench_read_file(path, &caplen);
	snprintf(path, sizeof(path), "%s/TC2/kernel_dump.bin", data);
	kernel = bench_read_file(path, &klen);
	if (!cap || !kernel) {
		fprintf(stderr, "bench_coverage: cannot read the TC2 snapshot under %s\n", data);
		return 2;
	}
	s = malloc(caplen);
	slen = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, cap, caplen, s, caplen, NULL);
	for (start = 0; start + 6 <= (size_t)slen; start++)
		if (!memcmp(s + start, "\0\0\0\0\0\x80", 6))
			break;
	big = malloc(mb * 1048576 + (size_t)slen);
	while (n < mb * 1048576) {
		memcpy(big + n, s + start, (size_t)slen - start);
		n += (size_t)slen - start;
	}
	pft_config_init(&cfg);
	cfg.etmcr = 0x10001000u;
	cfg.etmidr = 0x411CF312u;
	cfg.etmccer = 0x34C01AC2u;
	cfg.etmtraceidr = 0x13u;
	img = pft_image_alloc();
	pft_image_add_buffer(img, 0xC0008000u, kernel, klen);

	t0 = bench_cpu();
	id = decode_only(&cfg, img, big, n);
	td = bench_cpu() - t0;
	t0 = bench_cpu();
	ic = coverage(&cfg, img, big, n, &addrs);
	tc = bench_cpu() - t0;
	t0 = bench_cpu();
	io = ocsd_run(&cfg, kernel, klen, big, n);
	to = bench_cpu() - t0;

	printf("stream: %.1f MB (TC2 0x13 repeated), image %zu bytes; CPU seconds\n",
	       (double)n / 1048576.0, klen);
	printf("decode (as pft decode --stats): %11" PRIu64 " instructions in %.3f s: %7.1f M instr/s, %7.1f MB/s\n",
	       id, td, (double)id / td / 1e6, (double)n / td / 1048576.0);
	printf("coverage (decode + pft_cov)   : %11" PRIu64 " instructions in %.3f s: %7.1f M instr/s, %7.1f MB/s (%ld addresses)\n",
	       ic, tc, (double)ic / tc / 1e6, (double)n / tc / 1048576.0, addrs);
	printf("OpenCSD full decode           : %11" PRIu64 " instructions in %.3f s: %7.1f M instr/s, %7.1f MB/s\n",
	       io, to, (double)io / to / 1e6, (double)n / to / 1048576.0);
	printf("coverage / decode throughput  : %.2f (goal >= 0.5)\n", td / tc);
	printf("coverage / OpenCSD throughput : %.2f\n", to / tc);
	if (ic != id)
		printf("error: coverage counted %" PRIu64 " instructions, the decoder output %" PRIu64 "\n",
		       ic, id);
	pft_image_free(img);
	free(big);
	free(s);
	free(cap);
	free(kernel);
	return ic == id ? 0 : 1;
}
