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

#include "bench_util.h"

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
	double t0, tp, to;
	uint64_t ip, io;

	snprintf(path, sizeof(path), "%s/TC2/cstrace.bin", data);
	cap = bench_read_file(path, &caplen);
	snprintf(path, sizeof(path), "%s/TC2/kernel_dump.bin", data);
	kernel = bench_read_file(path, &klen);
	if (!cap || !kernel) {
		fprintf(stderr, "bench_flow: cannot read the TC2 snapshot under %s\n", data);
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
	ip = pft_run(&cfg, img, big, n);
	tp = bench_cpu() - t0;
	t0 = bench_cpu();
	io = ocsd_run(&cfg, kernel, klen, big, n);
	to = bench_cpu() - t0;

	printf("stream: %.1f MB (TC2 0x13 repeated), image %zu bytes\n", (double)n / 1048576.0, klen);
	printf("libpft : %12" PRIu64 " instructions in %.3f s: %7.1f M instr/s, %7.1f MB/s\n", ip, tp,
	       (double)ip / tp / 1e6, (double)n / tp / 1048576.0);
	printf("OpenCSD: %12" PRIu64 " instructions in %.3f s: %7.1f M instr/s, %7.1f MB/s\n", io, to,
	       (double)io / to / 1e6, (double)n / to / 1048576.0);
	printf("ratio  : %.1fx\n", to / tp);
	if (ip != io)
		printf("note: instruction counts differ (%" PRIu64 " vs %" PRIu64 ")\n", ip, io);
	pft_image_free(img);
	free(big);
	free(s);
	free(cap);
	free(kernel);
	return 0;
}
