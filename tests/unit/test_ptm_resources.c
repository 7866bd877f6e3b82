/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM TraceEnable, resources and events (spec 3.3-3.13, appendix
 * A): each case cites the section whose behaviour it checks.  Blocks are
 * fed as "B to the next block" waypoints; a block is traced when its atom
 * (or an I-sync at its start) appears. */
#include <stdlib.h>
#include <string.h>

#include "ptm_harness.h"

/* One block: nops from a to the waypoint at w, a taken B to `to`. */
static void blk(struct h *h, uint64_t a, uint64_t w, uint64_t to)
{
	for (; a < w; a += 4)
		h_nop(h, a);
	h_b(h, w, to, 1);
}

/* Number of atoms traced so far (flushes first). */
static unsigned atoms(struct h *h)
{
	unsigned n = 0;
	pft_ptm_flush(h->p);
	for (unsigned i = 0; i < h->n; i++)
		if (h->pk[i].type == PFT_PKT_ATOM)
			n += h->pk[i].atom_count;
	return n;
}

static struct h *mk(uint32_t etmcr, int v11)
{
	struct h *h = malloc(sizeof(*h));
	if (h_init(h, etmcr, v11, NULL) < 0)
		abort();
	return h;
}

static void done(struct h *h)
{
	h_free(h);
	free(h);
}

/* 3.3.4, 3.4.3: include mode traces the blocks that overlap the range
 * (CompAddrLow <= END and CompAddrHigh > START); exclude mode drops only
 * blocks wholly inside it. */
static void include_exclude(void)
{
	struct h *h = mk(0, 1);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(1), 0x2008);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(2), 0x3000);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMTECR1, 0x00000001); /* include ARC 1 */
	blk(h, 0x1000, 0x1010, 0x2000); /* [0x1000,0x1010]: outside */
	blk(h, 0x2000, 0x2010, 0x4000); /* overlaps 0x2008.. */
	blk(h, 0x4000, 0x4010, 0x2FFC); /* outside */
	blk(h, 0x2FFC, 0x2FFC, 0x5000); /* START 0x2FFC < high 0x3000 */
	CHECK_EQ(atoms(h), 2);
	CHECK_SEQ(h, 0, "async isync atom isync atom");
	CHECK_EQ(h->pk[1].address, 0x2000);
	CHECK_EQ(h->pk[3].address, 0x2FFC);
	done(h);

	h = mk(0, 1);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(1), 0x2000);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(2), 0x3000);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMTECR1, 0x01000001); /* exclude ARC 1 */
	blk(h, 0x1000, 0x1010, 0x2000); /* traced */
	blk(h, 0x2000, 0x2FF8, 0x2FFC); /* inside: excluded */
	blk(h, 0x2FFC, 0x3004, 0x6000); /* crosses the end: traced */
	CHECK_EQ(atoms(h), 2);
	done(h);
}

/* 3.3.3: start/stop block: the block holding the start point is traced;
 * the block holding the stop point is traced and the next is not; start
 * and stop in one block: on for it, off after.  ETMSR[2] shows the state. */
static void start_stop(void)
{
	uint32_t sr;
	struct h *h = mk(0, 1);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(1), 0x2004); /* start */
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(2), 0x4008); /* stop */
	pft_ptm_set_reg(h->p, PFT_PTM_ETMTSSCR, 0x00020001);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMTECR1, 0x03000000);
	blk(h, 0x1000, 0x1010, 0x2000); /* off */
	blk(h, 0x2000, 0x2010, 0x3000); /* start: traced */
	pft_ptm_get_reg(h->p, PFT_PTM_ETMSR, &sr);
	CHECK_EQ(sr & 4, 4);
	blk(h, 0x3000, 0x3010, 0x4000); /* on */
	blk(h, 0x4000, 0x4010, 0x5000); /* stop: traced */
	blk(h, 0x5000, 0x5010, 0x1000); /* off */
	pft_ptm_get_reg(h->p, PFT_PTM_ETMSR, &sr);
	CHECK_EQ(sr & 4, 0);
	CHECK_EQ(atoms(h), 3);
	/* start and stop in one block */
	unsigned before = atoms(h);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(2), 0x2008);
	blk(h, 0x2000, 0x2010, 0x3000); /* traced */
	blk(h, 0x3000, 0x3010, 0x4000); /* off */
	CHECK_EQ(atoms(h), before + 1);
	done(h);
}

/* 3.5, Table 3-27: an address comparator filtered by a context ID
 * comparator (ETMACTR[9:8]) and ETMCIDCMR masking. */
static void cid_filter(void)
{
	struct h *h = mk(0, 1);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(1), 0x0);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(2), 0xFFFFFF00u);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACTR(1), 0x101);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACTR(2), 0x101);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMCIDCVR(1), 0x1230);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMCIDCMR, 0x0000000F);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMTECR1, 0x00000001);
	h->cid = 0x1234; /* matches under the mask */
	blk(h, 0x1000, 0x1000, 0x2000);
	h->cid = 0x1244;
	blk(h, 0x2000, 0x2000, 0x3000);
	h->cid = 0x123F;
	blk(h, 0x3000, 0x3000, 0x4000);
	CHECK_EQ(atoms(h), 2);
	done(h);
}

/* Table 3-27/3-28 (v1.1): ETMACTR[12,10] = 01 never matches in Secure
 * state; [15] requires the VMID comparator (3.6). */
static void state_vmid_filter(void)
{
	struct h *h = mk(0, 1);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(1), 0x0);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(2), 0xFFFFFF00u);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACTR(1), 0x401 | 0x8000);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMVMIDCVR, 7);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMTECR1, 0x00000001);
	h->vmid = 7;
	blk(h, 0x1000, 0x1000, 0x2000); /* Secure: no */
	h->fl = PFT_PTM_I_NS;
	blk(h, 0x2000, 0x2000, 0x3000); /* NS, VMID 7: yes */
	h->vmid = 8;
	blk(h, 0x3000, 0x3000, 0x4000); /* VMID 8: no */
	CHECK_EQ(atoms(h), 1);
	done(h);
}

/* 3.9: a counter counts down every cycle its enable event is TRUE (also
 * between waypoints), stays at zero, its resource is TRUE at zero, and its
 * reload event (priority over enable) loads ETMCNTRLDVR.  The harness
 * retires one instruction every 2 cycles; each block here is one
 * instruction, so the counter drops by 2 per block. */
static void counter(void)
{
	struct h *h = mk(0, 1);
	uint32_t v;
	pft_ptm_set_reg(h->p, PFT_PTM_ETMCNTVR(1), 10);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMCNTRLDVR(1), 100);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMCNTENR(1), PFT_PTM_EVENT_ALWAYS);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(1), 0x7000);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMCNTRLDEVR(1), PFT_PTM_EVENT(0, 0, PFT_PTM_RES_SAC(1)));
	pft_ptm_set_reg(h->p, PFT_PTM_ETMTEEVR, PFT_PTM_EVENT(0, 0, PFT_PTM_RES_COUNTER(1)));
	uint64_t a = 0x1000;
	for (int k = 1; k <= 3; k++, a += 0x1000)
		blk(h, a, a, a + 0x1000); /* cycles 2, 4, 6 */
	pft_ptm_get_reg(h->p, PFT_PTM_ETMCNTVR(1), &v);
	CHECK_EQ(v, 4); /* 10 - 6 cycles */
	blk(h, a, a, a + 0x1000); /* cycle 8: 2 at the waypoint, then 1 */
	a += 0x1000;
	blk(h, a, a, a + 0x1000); /* cycle 10: 1 at the waypoint, then 0 */
	a += 0x1000;
	CHECK_EQ(atoms(h), 0);
	blk(h, a, a, 0x7000); /* cycle 12: at zero: traced */
	CHECK_EQ(atoms(h), 1);
	pft_ptm_get_reg(h->p, PFT_PTM_ETMCNTVR(1), &v);
	CHECK_EQ(v, 0); /* stays at zero */
	blk(h, 0x7000, 0x7000, 0x8000); /* zero and SAC1: traced, then reload */
	pft_ptm_get_reg(h->p, PFT_PTM_ETMCNTVR(1), &v);
	CHECK_EQ(v, 100);
	blk(h, 0x8000, 0x8000, 0x9000); /* 100 - 1: not traced */
	CHECK_EQ(atoms(h), 2);
	pft_ptm_get_reg(h->p, PFT_PTM_ETMCNTVR(1), &v);
	CHECK_EQ(v, 98);
	/* a long stretch between waypoints counts every cycle */
	h->cyc += 1000;
	blk(h, 0x9000, 0x9000, 0xA000);
	pft_ptm_get_reg(h->p, PFT_PTM_ETMCNTVR(1), &v);
	CHECK_EQ(v, 0);
	done(h);
}

/* 3.10: the sequencer moves 1->2 on SAC1, 2->3 on SAC2; both transition
 * events of a state active together keep it; TraceEnable on state 3. */
static void sequencer(void)
{
	struct h *h = mk(0, 1);
	uint32_t v;
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(1), 0x2000);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(2), 0x3000);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMSQ12EVR, PFT_PTM_EVENT(0, 0, PFT_PTM_RES_SAC(1)));
	pft_ptm_set_reg(h->p, PFT_PTM_ETMSQ23EVR, PFT_PTM_EVENT(0, 0, PFT_PTM_RES_SAC(2)));
	pft_ptm_set_reg(h->p, PFT_PTM_ETMSQ21EVR, PFT_PTM_EVENT(0, 0, PFT_PTM_RES_SAC(2)));
	pft_ptm_set_reg(h->p, PFT_PTM_ETMTEEVR, PFT_PTM_EVENT(0, 0, PFT_PTM_RES_SEQ(3)));
	blk(h, 0x3000, 0x3000, 0x2000); /* SAC2 in state 1: no transition */
	blk(h, 0x2000, 0x2000, 0x3000); /* 1 -> 2 */
	pft_ptm_get_reg(h->p, PFT_PTM_ETMSQR, &v);
	CHECK_EQ(v, 1);
	blk(h, 0x3000, 0x3000, 0x3000); /* 2->3 and 2->1 both: stays in 2 */
	pft_ptm_get_reg(h->p, PFT_PTM_ETMSQR, &v);
	CHECK_EQ(v, 1);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMSQ21EVR, PFT_PTM_EVENT_NEVER);
	blk(h, 0x3000, 0x3000, 0x4000); /* 2 -> 3 */
	pft_ptm_get_reg(h->p, PFT_PTM_ETMSQR, &v);
	CHECK_EQ(v, 2);
	CHECK_EQ(atoms(h), 0);
	blk(h, 0x4000, 0x4000, 0x5000); /* state 3: traced */
	CHECK_EQ(atoms(h), 1);
	done(h);
}

/* 3.14, 4.5.6, 3.16.4: the trigger event gives one trigger packet after
 * the waypoint, sets ETMSR[3] and does not fire again. Boolean functions of
 * Table 3-7 (A AND NOT B here, as NOT(B) AND A: function 011 swaps). */
static void trigger(void)
{
	struct h *h = mk(0, 1);
	uint32_t sr;
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(1), 0x2000);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMTRIGGER,
			PFT_PTM_EVENT(3, PFT_PTM_RES_SAC(1), PFT_PTM_RES_EXTIN(1)));
	blk(h, 0x1000, 0x1000, 0x2000);
	blk(h, 0x2000, 0x2000, 0x3000);
	CHECK_SEQ(h, 0, "async isync atom trigger");
	pft_ptm_get_reg(h->p, PFT_PTM_ETMSR, &sr);
	CHECK_EQ(sr & 8, 8);
	blk(h, 0x3000, 0x3000, 0x2000);
	blk(h, 0x2000, 0x2000, 0x3000);
	pft_ptm_flush(h->p);
	CHECK_EQ(h_find(h, PFT_PKT_TRIGGER, 4), -1);
	done(h);
	/* external input 1 high blocks it: NOT(in1) AND SAC1 */
	h = mk(0, 1);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(1), 0x2000);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMTRIGGER,
			PFT_PTM_EVENT(3, PFT_PTM_RES_SAC(1), PFT_PTM_RES_EXTIN(1)));
	pft_ptm_set_inputs(h->p, 1, NULL, 0);
	blk(h, 0x2000, 0x2000, 0x3000);
	pft_ptm_flush(h->p);
	CHECK_EQ(h_find(h, PFT_PKT_TRIGGER, 0), -1);
	done(h);
}

/* 3.13, 3.12.1, 3.12.2: external outputs follow their events; external
 * and extended external inputs (ETMEXTINSEL) are resources. */
static void ext_io(void)
{
	struct h *h = mk(0, 1);
	uint64_t bus[4] = { 0, 0, 0, 0 };
	pft_ptm_set_reg(h->p, PFT_PTM_ETMEXTOUTEVR(1), PFT_PTM_EVENT(0, 0, PFT_PTM_RES_EXTIN(2)));
	pft_ptm_set_reg(h->p, PFT_PTM_ETMEXTOUTEVR(2), PFT_PTM_EVENT(0, 0, PFT_PTM_RES_EXTSEL(2)));
	pft_ptm_set_reg(h->p, PFT_PTM_ETMEXTINSEL, 0x00004500); /* selector 2 = bus bit 0x45 */
	pft_ptm_set_inputs(h->p, 2, bus, 10);
	CHECK_EQ(pft_ptm_get_outputs(h->p), 1);
	bus[1] = 1ull << 5;
	pft_ptm_set_inputs(h->p, 0, bus, 11);
	CHECK_EQ(pft_ptm_get_outputs(h->p), 2);
	done(h);
}

/* 3.16.33, 4.14: the timestamp event requests a timestamp. */
static void ts_event(void)
{
	struct h *h = mk(1u << 28, 1);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMACVR(1), 0x3000);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMTSEVR, PFT_PTM_EVENT(0, 0, PFT_PTM_RES_SAC(1)));
	blk(h, 0x1000, 0x1000, 0x2000); /* trace-on T-sync */
	blk(h, 0x2000, 0x2000, 0x3000);
	unsigned n = h->n;
	blk(h, 0x3000, 0x3000, 0x4000);
	CHECK_SEQ(h, n, "atom timestamp");
	done(h);
}

/* 4.7.1: in a prohibited region comparators do not match; the prohibited
 * resource is TRUE and the Non-secure resource FALSE. */
static void prohibited_resources(void)
{
	struct h *h = mk(0, 1);
	pft_ptm_set_reg(h->p, PFT_PTM_ETMEXTOUTEVR(1), PFT_PTM_EVENT(0, 0, PFT_PTM_RES_PROHIBITED));
	pft_ptm_set_reg(h->p, PFT_PTM_ETMEXTOUTEVR(2), PFT_PTM_EVENT(0, 0, PFT_PTM_RES_NS));
	h->fl = PFT_PTM_I_NS;
	blk(h, 0x1000, 0x1000, 0x2000);
	CHECK_EQ(pft_ptm_get_outputs(h->p), 2);
	pft_ptm_prohibited(h->p, 1, h->cyc);
	blk(h, 0x2000, 0x2000, 0x3000);
	CHECK_EQ(pft_ptm_get_outputs(h->p), 1);
	done(h);
}

int main(void)
{
	include_exclude();
	start_stop();
	cid_filter();
	state_vmid_filter();
	counter();
	sequencer();
	trigger();
	ext_io();
	ts_event();
	prohibited_resources();
	return check_report();
}
