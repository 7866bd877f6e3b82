/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenCSD driving code shared by the benchmarks: the registers of a
 * struct pft_config given to OpenCSD's PTM or ETMv3 decoder, the chunked
 * feeding of a decode tree, and a full decode that counts instructions. */
#ifndef PFT_BENCH_OCSD_H
#define PFT_BENCH_OCSD_H

#include <stdint.h>
#include <string.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "pft/common.h"

#include "bench_util.h"

/* OpenCSD's configuration (ocsd_ptm_cfg or ocsd_etmv3_cfg, which name
 * their fields alike) from the registers of a struct pft_config. */
#define BENCH_OCSD_REGS(oc, cfg)                                                                   \
	do {                                                                                       \
		memset(&(oc), 0, sizeof(oc));                                                      \
		(oc).reg_idr = (cfg)->etmidr;                                                      \
		(oc).reg_ctrl = (cfg)->etmcr;                                                      \
		(oc).reg_ccer = (cfg)->etmccer;                                                    \
		(oc).reg_trc_id = (cfg)->etmtraceidr;                                              \
		(oc).arch_ver = ARCH_V7;                                                           \
		(oc).core_prof = profile_CortexA;                                                  \
	} while (0)

/* Feed buf to the tree CHUNK bytes per call, then end of trace; the tree
 * is destroyed.  Process CPU seconds of the feeding, or -1 if OpenCSD
 * stopped on an error. */
static inline double bench_ocsd_feed(dcd_tree_handle_t t, const uint8_t *buf, size_t len,
				     size_t chunk)
{
	size_t pos = 0;
	double t0 = bench_cpu();

	while (pos < len) {
		uint32_t n = (uint32_t)(len - pos < chunk ? len - pos : chunk), done = 0;
		ocsd_datapath_resp_t r = ocsd_dt_process_data(t, OCSD_OP_DATA, (ocsd_trc_index_t)pos,
							      n, buf + pos, &done);
		if (OCSD_DATA_RESP_IS_FATAL(r) || done == 0) {
			ocsd_destroy_dcd_tree(t);
			return -1;
		}
		pos += done;
	}
	ocsd_dt_process_data(t, OCSD_OP_EOT, 0, 0, NULL, NULL);
	t0 = bench_cpu() - t0;
	ocsd_destroy_dcd_tree(t);
	return t0;
}

static inline ocsd_datapath_resp_t bench_ocsd_count_insns(const void *ctx, const ocsd_trc_index_t idx,
						   const uint8_t chan,
						   const ocsd_generic_trace_elem *e)
{
	(void)idx;
	(void)chan;
	if (e->elem_type == OCSD_GEN_TRC_ELEM_INSTR_RANGE)
		*(uint64_t *)ctx += e->num_instr_range;
	return OCSD_RESP_CONT;
}

/* OpenCSD's full decoder for PROTOCOL (OCSD_BUILTIN_DCD_PTM or
 * OCSD_BUILTIN_DCD_ETMV3) with the image KERNEL at 0xC0008000: *insns
 * counts the instructions of its ranges.  CPU seconds, or -1. */
static inline double bench_ocsd_decode(const char *protocol, const struct pft_config *cfg,
				       const uint8_t *kernel, size_t klen, const uint8_t *buf,
				       size_t len, size_t chunk, uint64_t *insns)
{
	dcd_tree_handle_t t = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
	ocsd_ptm_cfg pc;
	ocsd_etmv3_cfg ec;
	int ptm = !strcmp(protocol, OCSD_BUILTIN_DCD_PTM);
	unsigned char csid = 0;

	*insns = 0;
	if (!t)
		return -1;
	BENCH_OCSD_REGS(pc, cfg);
	BENCH_OCSD_REGS(ec, cfg);
	if (ocsd_dt_create_decoder(t, protocol, OCSD_CREATE_FLG_FULL_DECODER,
				   ptm ? (const void *)&pc : (const void *)&ec, &csid) != OCSD_OK ||
	    ocsd_dt_set_gen_elem_outfn(t, bench_ocsd_count_insns, insns) != OCSD_OK ||
	    ocsd_dt_add_buffer_mem_acc(t, 0xC0008000u, OCSD_MEM_SPACE_ANY, kernel,
				       (uint32_t)klen) != OCSD_OK) {
		ocsd_destroy_dcd_tree(t);
		return -1;
	}
	return bench_ocsd_feed(t, buf, len, chunk);
}

/* A packet processor only for PROTOCOL, its packets given to SINK (an
 * FnDefPktDataIn) with CTX.  CPU seconds, or -1. */
static inline double bench_ocsd_packets(const char *protocol, const struct pft_config *cfg,
					FnDefPktDataIn sink, void *ctx, const uint8_t *buf,
					size_t len, size_t chunk)
{
	dcd_tree_handle_t t = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
	ocsd_ptm_cfg pc;
	ocsd_etmv3_cfg ec;
	int ptm = !strcmp(protocol, OCSD_BUILTIN_DCD_PTM);
	unsigned char csid = 0;
	void *fnp; /* the C API takes the callback as a void pointer */

	memcpy(&fnp, &sink, sizeof(fnp));
	if (!t)
		return -1;
	BENCH_OCSD_REGS(pc, cfg);
	BENCH_OCSD_REGS(ec, cfg);
	if (ocsd_dt_create_decoder(t, protocol, OCSD_CREATE_FLG_PACKET_PROC,
				   ptm ? (const void *)&pc : (const void *)&ec, &csid) != OCSD_OK ||
	    ocsd_dt_attach_packet_callback(t, csid, OCSD_C_API_CB_PKT_SINK, fnp, ctx) != OCSD_OK) {
		ocsd_destroy_dcd_tree(t);
		return -1;
	}
	return bench_ocsd_feed(t, buf, len, chunk);
}

/* OpenCSD's full PTM decoder on s[0..n) in 1 MiB chunks, the image KERNEL
 * at 0xC0008000: the instructions of its ranges (bench_flow, bench_coverage). */
static inline uint64_t bench_ocsd_ptm_insns(const struct pft_config *cfg, const uint8_t *kernel,
					    size_t klen, const uint8_t *s, size_t n)
{
	uint64_t insns = 0;

	bench_ocsd_decode(OCSD_BUILTIN_DCD_PTM, cfg, kernel, klen, s, n, 0x100000, &insns);
	return insns;
}

#endif
