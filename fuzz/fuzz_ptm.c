/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target for the software PTM: the input is a snapshot [regs]
 * text (up to the first NUL), then 16-byte records driving the model
 * (instructions, exceptions, debug, prohibited regions, WFI, inputs,
 * timestamps, sync requests, register writes, flushes).  Whatever the
 * registers and the execution, the model must not crash, and the bytes it
 * emits must decode without a single malformed packet. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/ptm.h"

static uint64_t rd(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static int no_error(const struct pft_packet *k, void *arg)
{
	(void)arg;
	if (k->type == PFT_PKT_ERROR || k->type == PFT_PKT_UNSYNCED)
		__builtin_trap();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[1 << 16];
	static uint8_t all[1 << 20];
	size_t nall = 0;
	const uint8_t *nul = memchr(data, 0, size);
	size_t tl = nul ? (size_t)(nul - data) : 0;
	struct pft_config cfg;
	struct pft_ptm_params par;
	pft_config_init(&cfg);
	pft_ptm_params_init(&par);
	if (size > tl + 4) {
		par.fifo_bytes = data[tl + 1] % 4 ? 16u + data[tl + 1] : 0;
		par.drain_bytes = 1 + data[tl + 2] % 4;
		par.drain_cycles = data[tl + 3] % 8;
		par.return_stack_depth = data[tl + 4] % 16;
	}
	struct pft_ptm *p = pft_ptm_alloc(&cfg, &par);
	if (!p)
		return 0;
	int feature_change = 0;
	if (tl) {
		pft_ptm_load_ini_regs(p, (const char *)data, tl);
		uint32_t v; /* start, with whatever features it set */
		pft_ptm_get_reg(p, PFT_PTM_ETMCR, &v);
		pft_ptm_set_reg(p, PFT_PTM_ETMCR, v & ~0x401u);
	}
	uint64_t cyc = 0;
	const uint8_t *r = data + (nul ? tl + 5 : 0);
	const uint8_t *end = data + size;
	for (; r + 16 <= end; r += 16) {
		cyc += r[1] & 7;
		uint64_t a = rd(r + 2, 4), t = rd(r + 6, 4);
		uint8_t isa = r[10] & 1, nisa = (r[10] >> 1) & 1;
		switch (r[0] % 16) {
		case 10: {
			struct pft_ptm_exception e;
			memset(&e, 0, sizeof(e));
			e.type = (uint16_t)(1 + r[11] % 15);
			if (e.type == PFT_EXC_DEBUG_HALT)
				e.type = PFT_EXC_IRQ;
			e.vector = t & (isa ? ~1ull : ~3ull);
			e.isa = isa;
			e.flags = r[12] & 7;
			e.context_id = (uint32_t)rd(r + 13, 2);
			e.vmid = r[15];
			e.cycle = cyc;
			pft_ptm_exception(p, &e);
			break;
		}
		case 11:
			if (r[11] & 1)
				pft_ptm_debug_entry(p, cyc);
			else
				pft_ptm_debug_exit(p, a & ~3ull, PFT_ISA_ARM, r[12] & 3, cyc);
			break;
		case 12:
			pft_ptm_prohibited(p, r[11] & 1, cyc);
			break;
		case 13: {
			uint64_t bus[4] = { a, t, rd(r + 11, 4), 0 };
			pft_ptm_set_inputs(p, r[15], bus, cyc);
			break;
		}
		case 14:
			switch (r[11] % 4) {
			case 0: pft_ptm_timestamp(p, a << 8 | r[12], r[13] & 1); break;
			case 1: pft_ptm_sync_request(p); break;
			case 2: pft_ptm_wfi(p, cyc); break;
			default: pft_ptm_flush(p); break;
			}
			break;
		case 15: {
			unsigned reg = (unsigned)rd(r + 11, 2) % PFT_PTM_NR_REGS;
			if (reg == PFT_PTM_ETMCR || reg == PFT_PTM_ETMIDR || reg == PFT_PTM_ETMCCER)
				feature_change = 1;
			pft_ptm_set_reg(p, reg, (uint32_t)a);
			break;
		}
		default: {
			struct pft_ptm_insn x;
			memset(&x, 0, sizeof(x));
			x.isa = isa;
			x.size = (uint8_t)(isa && (r[11] & 1) ? 2 : 4);
			x.addr = a & (isa ? ~1ull : ~3ull);
			x.next_isa = nisa;
			x.next_addr = (r[11] & 2) ? x.addr + x.size : t;
			x.cycle = cyc;
			x.opcode = (uint32_t)t;
			x.wp_class = (uint8_t)(r[12] % PFT_WP_NR);
			x.flags = (uint16_t)(rd(r + 13, 2) & 0x1FF);
			x.context_id = r[15];
			x.vmid = r[15] >> 4;
			pft_ptm_insn(p, &x);
			break;
		}
		}
		size_t n = pft_ptm_read(p, out, sizeof(out));
		if (nall + n <= sizeof(all)) {
			memcpy(all + nall, out, n);
			nall += n;
		}
	}
	pft_ptm_flush(p);
	size_t n;
	while ((n = pft_ptm_read(p, out, sizeof(out))) > 0)
		if (nall + n <= sizeof(all)) {
			memcpy(all + nall, out, n);
			nall += n;
		}
	uint8_t frames[256];
	(void)pft_ptm_read_frames(p, frames, sizeof(frames), 1);
	if (!feature_change) {
		struct pft_config dc = cfg;
		uint32_t v;
		pft_ptm_get_reg(p, PFT_PTM_ETMCR, &v);
		dc.etmcr = v;
		pft_ptm_get_reg(p, PFT_PTM_ETMCCER, &dc.etmccer);
		pft_ptm_get_reg(p, PFT_PTM_ETMIDR, &dc.etmidr);
		pft_ptm_get_reg(p, PFT_PTM_ETMTRACEIDR, &dc.etmtraceidr);
		if (nall < sizeof(all))
			pft_pkt_decode_buffer(&dc, all, nall, no_error, NULL);
	}
	pft_ptm_free(p);
	return 0;
}
