/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM FIFO (spec 4.8): configurable size and drain rate; when it
 * fills, tracing stops, restarts only once it has emptied, with an I-sync
 * of reason "overflow" and a full timestamp (ETM 7.7.1); ETMSR[0] shows an
 * overflow not yet traced.  The output is checked with the packet decoder. */
#include <stdlib.h>
#include <string.h>

#include "ptm_harness.h"

struct scan {
	unsigned isync_ovf, errors, ts_full_after_ovf, ts_after_ovf;
	int seen_ovf;
	unsigned ts_bits;
};

static int scan_cb(const struct pft_packet *k, void *arg)
{
	struct scan *s = arg;
	if (k->type == PFT_PKT_ERROR || k->type == PFT_PKT_UNSYNCED)
		s->errors++;
	if (k->type == PFT_PKT_ISYNC && k->reason == PFT_ISYNC_OVERFLOW) {
		s->isync_ovf++;
		s->seen_ovf = 1;
	}
	if (k->type == PFT_PKT_TIMESTAMP && s->seen_ovf) {
		s->ts_after_ovf++;
		if (k->ts_bytes == (s->ts_bits == 64 ? 9 : 7))
			s->ts_full_after_ovf++;
		s->seen_ovf = 0;
	}
	return 0;
}

static void overflow(void)
{
	struct pft_ptm_params par;
	pft_ptm_params_init(&par);
	par.fifo_bytes = 48;
	par.drain_bytes = 1;
	par.drain_cycles = 4;
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 1u << 28, 1, &par), 0);
	uint32_t sr;
	int saw_sr = 0;
	uint64_t a = 0x100000;
	for (int round = 0; round < 5; round++) {
		/* a burst: a far indirect branch every 2 cycles */
		for (int i = 0; i < 60; i++, a += 0x12340)
			h_bx(h, a & 0xFFFFFFFC, (a + 0x12340) & 0xFFFFFFFC, PFT_ISA_ARM);
		pft_ptm_get_reg(h->p, PFT_PTM_ETMSR, &sr);
		saw_sr |= sr & 1;
		/* quiet code: nonwaypoints let the FIFO drain */
		uint64_t b = (a + 0x12340) & 0xFFFFFFFC;
		for (int i = 0; i < 200; i++)
			h_nop(h, b + 4u * (unsigned)i);
		CHECK_EQ(pft_ptm_fifo_level(h->p), 0);
		h_bx(h, b + 800, a & 0xFFFFFFFC, PFT_ISA_ARM);
	}
	struct pft_ptm_stats st;
	pft_ptm_get_stats(h->p, &st, sizeof(st));
	CHECK(st.overflows >= 5);
	CHECK(st.lost_packets > 0);
	CHECK(saw_sr);
	pft_ptm_get_reg(h->p, PFT_PTM_ETMSR, &sr);
	CHECK_EQ(sr & 1, 0); /* cleared when trace restarted */
	pft_ptm_flush(h->p);
	size_t cap = pft_ptm_pending(h->p) + 16;
	uint8_t *buf = malloc(cap);
	size_t n = pft_ptm_read(h->p, buf, cap);
	CHECK(n > 0);
	struct scan s;
	memset(&s, 0, sizeof(s));
	s.ts_bits = 64;
	pft_pkt_decode_buffer(&h->cfg, buf, n, scan_cb, &s);
	CHECK_EQ(s.errors, 0);
	CHECK(s.isync_ovf >= 5);
	CHECK_EQ(s.ts_full_after_ovf, s.ts_after_ovf);
	CHECK(s.ts_after_ovf >= 1);
	free(buf);
	h_free(h);
	free(h);
}

/* The drain rate: drain_bytes per drain_cycles. */
static void drain_rate(void)
{
	struct pft_ptm_params par;
	pft_ptm_params_init(&par);
	par.fifo_bytes = 4096;
	par.drain_bytes = 3;
	par.drain_cycles = 2;
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, &par), 0);
	for (int i = 0; i < 10; i++)
		h_bx(h, 0x1000u * (unsigned)(i + 1), 0x1000u * (unsigned)(i + 2) + 0x123400u * (unsigned)i,
		     PFT_ISA_ARM);
	size_t lvl = pft_ptm_fifo_level(h->p);
	CHECK(lvl > 0);
	/* 10 more cycles of quiet code drain 15 bytes */
	uint64_t c0 = h->cyc;
	while (h->cyc < c0 + 10)
		h_nop(h, 0x50000 + (h->cyc - c0) * 2);
	CHECK_EQ(lvl - pft_ptm_fifo_level(h->p), 15 < lvl ? 15 : lvl);
	CHECK_EQ(pft_ptm_wfi(h->p, h->cyc), 0); /* 4.9: WFI drains it */
	CHECK_EQ(pft_ptm_fifo_level(h->p), 0);
	h_free(h);
	free(h);
}

/* A caller that does not read: the output buffer fills and the FIFO
 * overflows instead of growing without bound. */
static void out_full(void)
{
	struct pft_ptm_params par;
	pft_ptm_params_init(&par);
	par.out_bytes = 256;
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, &par), 0);
	for (unsigned i = 0; i < 400; i++)
		h_bx(h, 0x1000u + 0x10000u * i, 0x1000u + 0x10000u * (i + 1), PFT_ISA_ARM);
	struct pft_ptm_stats st;
	pft_ptm_get_stats(h->p, &st, sizeof(st));
	CHECK(st.overflows > 0);
	CHECK(pft_ptm_pending(h->p) <= 256);
	h_free(h);
	free(h);
}

int main(void)
{
	overflow();
	drain_rate();
	out_full();
	return check_report();
}
