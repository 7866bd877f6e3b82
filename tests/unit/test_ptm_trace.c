/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM trace generation against the spec's worked examples and
 * rules (chapters 4 and 5): each case cites its section. */
#include <stdlib.h>
#include <string.h>

#include "ptm_harness.h"
#include "pft/frame.h"

#define INS 0 /* index of the first packet (the A-sync) */

/* 5.2.1, Table 5-1: an IRQ after two nonwaypoint instructions. */
static void table_5_1(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, NULL), 0);
	h_b(h, 0x0F00, 0x1004, 1);
	h_nop(h, 0x1004);
	h_nop(h, 0x1008);
	h_exc(h, PFT_EXC_IRQ, 0x18, 0);
	CHECK_SEQ(h, INS, "async isync atom waypoint_update branch");
	CHECK_EQ(h->pk[1].address, 0x0F00);
	CHECK_EQ(h->pk[1].reason, PFT_ISYNC_TRACE_ON);
	CHECK_EQ(h->pk[2].atom_count, 1);
	CHECK_EQ(h->pk[2].atoms, 1);
	CHECK_EQ(h->pk[3].address, 0x1008);
	CHECK_EQ(h->pk[4].address, 0x18);
	CHECK_EQ(h->pk[4].exception, PFT_EXC_IRQ);
	h_bx(h, 0x18, 0x3000, PFT_ISA_ARM); /* LDR PC: a normal indirect branch */
	CHECK_SEQ(h, 5, "branch");
	CHECK_EQ(h->pk[5].address, 0x3000);
	CHECK_EQ(h->pk[5].exception, 0);
	h_free(h);
	free(h);
}

/* 5.2.2, Table 5-2: an IRQ straight after a waypoint: no WPU. */
static void table_5_2(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, NULL), 0);
	h_b(h, 0x0F00, 0x1004, 1);
	h_exc(h, PFT_EXC_IRQ, 0x18, 0);
	CHECK_SEQ(h, INS, "async isync atom branch");
	CHECK_EQ(h->pk[3].exception, PFT_EXC_IRQ);
	h_free(h);
	free(h);
}

/* 5.2.3, Table 5-3: back-to-back IRQ and FIQ: two exception packets, no
 * WPU between them; returns are normal branches. */
static void table_5_3(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, NULL), 0);
	h_b(h, 0x0F00, 0x1000, 1);
	h_nop(h, 0x1000);
	h_exc(h, PFT_EXC_IRQ, 0x18, 0);
	h_exc(h, PFT_EXC_FIQ, 0x1C, 0);
	CHECK_SEQ(h, INS, "async isync atom waypoint_update branch branch");
	CHECK_EQ(h->pk[3].address, 0x1000);
	CHECK_EQ(h->pk[4].exception, PFT_EXC_IRQ);
	CHECK_EQ(h->pk[5].exception, PFT_EXC_FIQ);
	CHECK_EQ(h->pk[5].address, 0x1C);
	h_bx(h, 0x1C, 0x2000, PFT_ISA_ARM);
	h_insn(h, 0x2000, PFT_ISA_ARM, 4, PFT_WP_INDIRECT, 0x18, PFT_ISA_ARM, PFT_PTM_I_EXC_RETURN);
	CHECK_SEQ(h, 6, "branch branch exception_return");
	CHECK_EQ(h->pk[7].address, 0x18);
	h_free(h);
	free(h);
}

/* 4.16.1, Table 4-9: with ETMIDR[18] = 0 an upgraded 32-bit Thumb
 * instruction is named by its upper halfword. */
static void thumb32_halves(void)
{
	for (int single = 0; single <= 1; single++) {
		struct h *h = malloc(sizeof(*h));
		memset(h, 0, sizeof(*h));
		pft_config_init(&h->cfg);
		if (!single)
			h->cfg.etmidr &= ~(1u << 18);
		h->p = pft_ptm_alloc(&h->cfg, NULL);
		pft_ptm_set_packet_cb(h->p, h_cb, h);
		h->pk[h->n++].type = PFT_PKT_ASYNC;
		h_insn(h, 0x1000, PFT_ISA_THUMB, 2, PFT_WP_DIRECT, 0x2000, PFT_ISA_THUMB, 0);
		h_insn(h, 0x2000, PFT_ISA_THUMB, 4, PFT_WP_NONE, 0x2004, PFT_ISA_THUMB, 0);
		h_exc(h, PFT_EXC_IRQ, 0x18, 0);
		CHECK_SEQ(h, INS, "async isync atom waypoint_update branch");
		CHECK_EQ(h->pk[3].address, single ? 0x2000 : 0x2002);
		h_free(h);
		free(h);
	}
}

/* 5.3.1: a reset never gives a WPU. 5.3.3: an SVC is upgraded itself. */
static void reset_and_svc(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, NULL), 0);
	h_b(h, 0x0F00, 0x1000, 1);
	h_nop(h, 0x1000);
	h_nop(h, 0x1004);
	h_exc(h, PFT_EXC_RESET, 0x0, 0);
	CHECK_SEQ(h, INS, "async isync atom branch");
	CHECK_EQ(h->pk[3].exception, PFT_EXC_RESET);
	h_nop(h, 0x0);
	h_nop(h, 0x4); /* the SVC, a nonwaypoint */
	h_exc(h, PFT_EXC_SVC, 0x8, 0);
	CHECK_SEQ(h, 4, "waypoint_update branch");
	CHECK_EQ(h->pk[4].address, 0x4);
	CHECK_EQ(h->pk[5].exception, PFT_EXC_SVC);
	h_free(h);
	free(h);
}

/* 5.3.8 and 4.18: Debug entry is exception 1 to address 0; exit gives an
 * I-sync with reason "debug exit" at the restart address. */
static void debug_state(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, NULL), 0);
	h_b(h, 0x0F00, 0x1000, 1);
	h_nop(h, 0x1000);
	CHECK_EQ(pft_ptm_debug_entry(h->p, h->cyc + 1), 0);
	CHECK_SEQ(h, INS, "async isync atom waypoint_update branch");
	CHECK_EQ(h->pk[4].exception, PFT_EXC_DEBUG_HALT);
	CHECK_EQ(h->pk[4].address, 0);
	h_nop(h, 0x9000); /* executed in Debug state: ignored */
	CHECK_EQ(pft_ptm_debug_exit(h->p, 0x1004, PFT_ISA_ARM, 0, h->cyc + 50), 0);
	h_nop(h, 0x1004);
	h_b(h, 0x1008, 0x4000, 1);
	CHECK_SEQ(h, 5, "isync");
	CHECK_EQ(h->pk[5].reason, PFT_ISYNC_DEBUG_EXIT);
	CHECK_EQ(h->pk[5].address, 0x1004);
	h_free(h);
	free(h);
}

/* 4.10: a waypoint more than 4096 bytes after the block start gets a WPU
 * at the instruction before it. */
static void large_block(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, NULL), 0);
	h_b(h, 0x0F00, 0x10000, 1);
	uint64_t a = 0x10000;
	for (; a < 0x10000 + 4400; a += 4)
		h_nop(h, a);
	h_b(h, a, 0x20000, 1);
	CHECK_SEQ(h, INS, "async isync atom waypoint_update");
	CHECK_EQ(h->pk[3].address, a - 4);
	/* a block of exactly 4096 bytes does not */
	for (a = 0x20000; a < 0x20000 + 4096; a += 4)
		h_nop(h, a);
	h_b(h, a, 0x30000, 1);
	pft_ptm_flush(h->p);
	CHECK_SEQ(h, INS, "async isync atom waypoint_update atom");
	CHECK_EQ(h->pk[4].atom_count, 2);
	h_free(h);
	free(h);
}

/* 4.13, Table 4-13: the return stack turns a matching return into an E
 * atom; a mismatch is a branch packet; an I-sync clears the stack. */
static void return_stack(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 1u << 29, 1, NULL), 0);
	h_insn(h, 0x1000, PFT_ISA_ARM, 4, PFT_WP_DIRECT, 0x2000, PFT_ISA_ARM, PFT_PTM_I_LINK);
	h_nop(h, 0x2000);
	h_bx(h, 0x2004, 0x1004, PFT_ISA_ARM); /* BX LR: matches */
	h_bx(h, 0x1004, 0x3000, PFT_ISA_ARM); /* no entry: branch packet */
	CHECK_SEQ(h, INS, "async isync atom branch");
	CHECK_EQ(h->pk[2].atom_count, 2);
	CHECK_EQ(h->pk[2].atoms, 3);
	/* BLX reg (4.13 ordering): compare/pop first, then push */
	h_insn(h, 0x3000, PFT_ISA_ARM, 4, PFT_WP_INDIRECT, 0x5000, PFT_ISA_THUMB, PFT_PTM_I_LINK);
	h_insn(h, 0x5000, PFT_ISA_THUMB, 2, PFT_WP_INDIRECT, 0x3004, PFT_ISA_ARM, 0);
	pft_ptm_flush(h->p);
	CHECK_SEQ(h, INS, "async isync atom branch branch atom");
	CHECK_EQ(h->pk[4].isa, PFT_ISA_THUMB);
	/* wrong ISA in the return: no match (address, ISA and security state) */
	h_insn(h, 0x3004, PFT_ISA_ARM, 4, PFT_WP_DIRECT, 0x6000, PFT_ISA_ARM, PFT_PTM_I_LINK);
	h_insn(h, 0x6000, PFT_ISA_ARM, 4, PFT_WP_INDIRECT, 0x3009, PFT_ISA_THUMB, 0);
	CHECK_SEQ(h, INS, "async isync atom branch branch atom atom branch");
	h_free(h);
	free(h);
}

/* 4.6: branch broadcast: taken direct branches and ISBs are branch packets,
 * failed ones N atoms; no E atoms. */
static void branch_broadcast(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 1u << 8, 1, NULL), 0);
	h_b(h, 0x1000, 0x2000, 1);
	h_b(h, 0x2000, 0x3000, 0);
	h_insn(h, 0x2004, PFT_ISA_ARM, 4, PFT_WP_ISB, 0x2008, PFT_ISA_ARM, 0);
	pft_ptm_flush(h->p);
	CHECK_SEQ(h, INS, "async isync branch atom branch");
	CHECK_EQ(h->pk[2].address, 0x2000);
	CHECK_EQ(h->pk[3].atoms, 0);
	CHECK_EQ(h->pk[4].address, 0x2008);
	h_free(h);
	free(h);
}

/* 4.5.10: exception return packets are PFTv1.1 only. */
static void exception_return(void)
{
	for (int v11 = 0; v11 <= 1; v11++) {
		struct h *h = malloc(sizeof(*h));
		CHECK_EQ(h_init(h, 0, v11, NULL), 0);
		h_insn(h, 0x1000, PFT_ISA_ARM, 4, PFT_WP_INDIRECT, 0x2000, PFT_ISA_ARM,
		       PFT_PTM_I_EXC_RETURN);
		CHECK_SEQ(h, INS, v11 ? "async isync branch exception_return" : "async isync branch");
		h_free(h);
		free(h);
	}
}

/* 4.5.7, Table 4-10: a context ID change made before an ISB is traced after
 * the atoms held, before the next waypoint's packet. */
static void table_4_10(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 3u << 14, 1, NULL), 0);
	h->cid = 0x11;
	h_b(h, 0x0F00, 0x1000, 1);
	h_nop(h, 0x1000);
	h_nop(h, 0x1004); /* MCR to CONTEXTIDR */
	h_insn(h, 0x1008, PFT_ISA_ARM, 4, PFT_WP_ISB, 0x100C, PFT_ISA_ARM, 0);
	h->cid = 0x22;
	h_nop(h, 0x100C);
	h_nop(h, 0x1010);
	h_bx(h, 0x1014, 0x2000, PFT_ISA_ARM); /* LDR PC */
	CHECK_SEQ(h, INS, "async isync atom context_id branch");
	CHECK_EQ(h->pk[1].context_id, 0x11);
	CHECK_EQ(h->pk[2].atom_count, 2);
	CHECK_EQ(h->pk[3].context_id, 0x22);
	/* 4.12.1: a change on an exception follows the exception packet */
	h->cid = 0x33;
	h_exc(h, PFT_EXC_SVC, 0x8, 0);
	CHECK_SEQ(h, 5, "branch context_id");
	h_free(h);
	free(h);
}

/* 4.12: an exception to Secure state and a return to Non-secure are
 * branch packets with the NS bit; a direct branch that changes state too. */
static void security(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, NULL), 0);
	h->fl = PFT_PTM_I_NS;
	h_b(h, 0x1000, 0x2000, 1);
	CHECK_EQ(h->pk[1].flags & PFT_PKT_F_NS, PFT_PKT_F_NS);
	h_exc(h, PFT_EXC_SMC, 0x8, 0); /* to Secure */
	h->fl = 0;
	h_insn(h, 0x8, PFT_ISA_ARM, 4, PFT_WP_INDIRECT, 0x2000, PFT_ISA_ARM,
	       PFT_PTM_I_EXC_RETURN | PFT_PTM_I_NEXT_NS);
	CHECK_SEQ(h, INS, "async isync atom branch branch exception_return");
	CHECK_EQ(h->pk[3].flags & PFT_PKT_F_NS, 0);
	CHECK_EQ(h->pk[4].flags & PFT_PKT_F_NS, PFT_PKT_F_NS);
	CHECK_EQ(h->pk[4].exception, 0);
	h->fl = PFT_PTM_I_NS;
	/* a direct branch whose next state differs: branch packet */
	h_insn(h, 0x2000, PFT_ISA_ARM, 4, PFT_WP_DIRECT, 0x3000, PFT_ISA_ARM, 0);
	h->fl = 0;
	h_insn(h, 0x3000, PFT_ISA_ARM, 4, PFT_WP_DIRECT, 0x4000, PFT_ISA_ARM, PFT_PTM_I_NS);
	pft_ptm_flush(h->p);
	CHECK_SEQ(h, 6, "atom branch");
	h_free(h);
	free(h);
}

/* 4.7: an exception into a prohibited region: branch to address 0, Secure,
 * ARM, with the exception; silence; an I-sync at the first instruction
 * after the region. */
static void prohibited(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 3u << 14, 1, NULL), 0);
	h->fl = PFT_PTM_I_NS;
	h_b(h, 0x1000, 0x2000, 1);
	h_nop(h, 0x2000);
	h_exc(h, PFT_EXC_SMC, 0x8, PFT_PTM_E_PROHIBITED);
	CHECK_SEQ(h, INS, "async isync atom waypoint_update branch");
	CHECK_EQ(h->pk[4].address, 0);
	CHECK_EQ(h->pk[4].isa, PFT_ISA_ARM);
	CHECK_EQ(h->pk[4].flags & (PFT_PKT_F_NS | PFT_PKT_F_HYP), 0);
	CHECK_EQ(h->pk[4].exception, PFT_EXC_SMC);
	h->cid = 0x77; /* not traced in the region */
	h_nop(h, 0x8);
	h_bx(h, 0xC, 0x2004, PFT_ISA_ARM);
	CHECK_EQ(h->n, 5);
	CHECK_EQ(pft_ptm_prohibited(h->p, 0, h->cyc), 0);
	h_nop(h, 0x2004);
	h_b(h, 0x2008, 0x2000, 1);
	CHECK_SEQ(h, 5, "isync");
	CHECK_EQ(h->pk[5].address, 0x2004);
	CHECK_EQ(h->pk[5].context_id, 0x77);
	/* NIDEN-style entry: atoms flushed, no branch packet */
	CHECK_EQ(pft_ptm_prohibited(h->p, 1, h->cyc), 0);
	CHECK_SEQ(h, 5, "isync atom");
	CHECK_EQ(pft_ptm_prohibited(h->p, 0, h->cyc), 0);
	/* an exception return into the region: a branch to 0 without an
	 * exception, then silence */
	h_nop(h, 0x3000);
	h_insn(h, 0x3004, PFT_ISA_ARM, 4, PFT_WP_INDIRECT, 0x9000, PFT_ISA_ARM,
	       PFT_PTM_I_EXC_RETURN | PFT_PTM_I_NEXT_PROHIBITED);
	CHECK_SEQ(h, 5, "isync atom isync branch exception_return");
	CHECK_EQ(h->pk[8].address, 0);
	CHECK_EQ(h->pk[8].exception, 0);
	h_bx(h, 0x9000, 0x9100, PFT_ISA_ARM);
	CHECK_EQ(h->n, 10);
	h_free(h);
	free(h);
}

/* 4.9, 4.15: WFI flushes the atoms held; an ATB flush adds a timestamp. */
static void wfi_flush(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 1u << 28, 1, NULL), 0);
	h_b(h, 0x1000, 0x2000, 1);
	/* T-sync of trace-on (4.11.1), after the first traced waypoint */
	CHECK_SEQ(h, INS, "async isync atom timestamp");
	CHECK_EQ(h->pk[3].ts_bytes, 9);
	h_b(h, 0x2000, 0x3000, 1);
	CHECK_EQ(pft_ptm_wfi(h->p, h->cyc), 0);
	CHECK_SEQ(h, 4, "atom");
	h_b(h, 0x3000, 0x4000, 0);
	pft_ptm_timestamp(h->p, 0x1234, 0);
	CHECK_EQ(pft_ptm_flush(h->p), 0);
	CHECK_SEQ(h, 4, "atom atom timestamp");
	/* 4.14: ISB requests a timestamp: of the last traced waypoint (v1.1) */
	pft_ptm_timestamp(h->p, 0x5678, 0);
	h_insn(h, 0x3004, PFT_ISA_ARM, 4, PFT_WP_ISB, 0x3008, PFT_ISA_ARM, 0);
	CHECK_SEQ(h, 4, "atom atom timestamp atom timestamp");
	CHECK_EQ(h->pk[8].timestamp, 0x5678);
	/* requests with nothing traced in between are coalesced */
	CHECK_EQ(pft_ptm_flush(h->p), 0);
	CHECK_EQ(h->n, 9);
	/* a clock change is never dropped: R bit */
	pft_ptm_timestamp(h->p, 0x6000, 1);
	h_b(h, 0x3008, 0x4000, 1);
	CHECK_SEQ(h, 9, "atom timestamp");
	CHECK_EQ(h->pk[10].flags & PFT_PKT_F_TS_R, PFT_PKT_F_TS_R);
	h_free(h);
	free(h);
}

/* 4.4 and 4.5.3: cycle-accurate atoms carry the cycles since the last
 * count; the first I-sync counts from the Programming bit clearing. */
static void cycle_accurate(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 1u << 12, 1, NULL), 0);
	h_b(h, 0x1000, 0x2000, 1);      /* cycle 2 */
	h_nop(h, 0x2000);               /* 4 */
	h_b(h, 0x2004, 0x3000, 0);      /* 6 */
	h_bx(h, 0x2008, 0x4000, PFT_ISA_THUMB); /* 8 */
	CHECK_SEQ(h, INS, "async isync atom atom branch");
	CHECK_EQ(h->pk[1].cycles, 2);
	CHECK_EQ(h->pk[2].cycles, 0);
	CHECK_EQ(h->pk[3].cycles, 4);
	CHECK_EQ(h->pk[3].atoms, 0);
	CHECK_EQ(h->pk[4].cycles, 2);
	h_exc(h, PFT_EXC_IRQ, 0x18, 0); /* cycle 11 */
	CHECK_EQ(h->pk[5].cycles, 3);
	h_free(h);
	free(h);
}

/* 4.11.1: periodic synchronisation from ETMSYNCFR: A-sync, periodic I-sync
 * at the target of the waypoint just traced, T-sync. */
static void periodic_sync(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 1u << 28, 1, NULL), 0);
	CHECK_EQ(pft_ptm_set_reg_by_name(h->p, "ETMSYNCFR", 0x20), 0);
	uint64_t a = 0x1000;
	for (int i = 0; i < 40; i++, a += 0x1000)
		h_bx(h, a, a + 0x1000, PFT_ISA_ARM);
	int i = h_find(h, PFT_PKT_ASYNC, 1);
	CHECK(i > 0);
	if (i > 0) {
		CHECK_EQ(h->pk[i + 1].type, PFT_PKT_ISYNC);
		CHECK_EQ(h->pk[i + 1].reason, PFT_ISYNC_PERIODIC);
		CHECK_EQ(h->pk[i + 1].address, h->pk[i - 1].address);
		CHECK_EQ(h->pk[i + 2].type, PFT_PKT_TIMESTAMP);
	}
	/* 4.11.1 forced overflow: a second request while one is pending */
	unsigned n0 = h->n;
	pft_ptm_sync_request(h->p);
	pft_ptm_sync_request(h->p);
	h_bx(h, a, a + 0x1000, PFT_ISA_ARM);
	CHECK_EQ(h->pk[n0].type, PFT_PKT_ASYNC);
	CHECK_EQ(h->pk[n0 + 1].type, PFT_PKT_ISYNC);
	CHECK_EQ(h->pk[n0 + 1].reason, PFT_ISYNC_OVERFLOW);
	h_free(h);
	free(h);
}

/* 4.17: a branch into Jazelle is traced; trace restarts with an I-sync at
 * the first instruction outside Jazelle state. */
static void jazelle(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, NULL), 0);
	h_insn(h, 0x1000, PFT_ISA_ARM, 4, PFT_WP_INDIRECT, 0x8001, PFT_ISA_JAZELLE, 0);
	CHECK_SEQ(h, INS, "async isync branch");
	CHECK_EQ(h->pk[2].isa, PFT_ISA_JAZELLE);
	h_insn(h, 0x8001, PFT_ISA_JAZELLE, 2, PFT_WP_NONE, 0x8002, PFT_ISA_JAZELLE, 0);
	h_nop(h, 0x1004);
	h_b(h, 0x1008, 0x1000, 1);
	CHECK_SEQ(h, 3, "isync");
	CHECK_EQ(h->pk[3].address, 0x1004);
	h_free(h);
	free(h);
}

/* ThumbEE (4.5.4): ENTERX is traced with a branch packet whose exception
 * byte carries AltIS; the packet decoder reads ThumbEE back. */
static int isa_of_branches(const struct pft_packet *k, void *arg)
{
	unsigned *isas = arg;
	if (k->type == PFT_PKT_BRANCH)
		isas[isas[0]++ + 1] = k->isa;
	return 0;
}

static void thumbee(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, NULL), 0);
	h_insn(h, 0x1000, PFT_ISA_THUMB, 2, PFT_WP_ISA_CHANGE, 0x1002, PFT_ISA_THUMBEE, 0);
	h_insn(h, 0x1002, PFT_ISA_THUMBEE, 2, PFT_WP_INDIRECT, 0x2000, PFT_ISA_THUMBEE, 0);
	h_insn(h, 0x2000, PFT_ISA_THUMBEE, 2, PFT_WP_ISA_CHANGE, 0x2002, PFT_ISA_THUMB, 0);
	CHECK_SEQ(h, INS, "async isync branch branch branch");
	CHECK_EQ(h->pk[2].flags & PFT_PKT_F_ALTIS, PFT_PKT_F_ALTIS);
	uint8_t b[128];
	pft_ptm_flush(h->p);
	size_t n = pft_ptm_read(h->p, b, sizeof(b));
	unsigned isas[8] = { 0 };
	pft_pkt_decode_buffer(&h->cfg, b, n, isa_of_branches, isas);
	CHECK_EQ(isas[0], 3);
	CHECK_EQ(isas[1], PFT_ISA_THUMBEE);
	CHECK_EQ(isas[2], PFT_ISA_THUMBEE);
	CHECK_EQ(isas[3], PFT_ISA_THUMB);
	h_free(h);
	free(h);
}

/* PFTv1.0: Hyp is never traced. */
static void v10_hyp(void)
{
	struct h *h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 0, NULL), 0);
	h->fl = PFT_PTM_I_HYP;
	h_bx(h, 0x1000, 0x2000, PFT_ISA_ARM);
	h_exc(h, PFT_EXC_IRQ, 0x18, PFT_PTM_E_HYP);
	CHECK_SEQ(h, INS, "async isync branch branch");
	CHECK_EQ(h->pk[1].flags & PFT_PKT_F_HYP, 0);
	CHECK_EQ(h->pk[3].flags & PFT_PKT_F_HYP, 0);
	h_free(h);
	free(h);
	h = malloc(sizeof(*h));
	CHECK_EQ(h_init(h, 0, 1, NULL), 0);
	h_bx(h, 0x1000, 0x2000, PFT_ISA_ARM);
	h_exc(h, PFT_EXC_HYP, 0x14, PFT_PTM_E_HYP);
	CHECK_EQ(h->pk[3].flags & PFT_PKT_F_HYP, PFT_PKT_F_HYP);
	CHECK_EQ(h->pk[3].exception, PFT_EXC_HYP);
	h_free(h);
	free(h);
}

/* Frames: pft_ptm_read_frames carries the same bytes as pft_ptm_read,
 * under the ETMTRACEIDR trace ID. */
static void frames(void)
{
	struct pft_config cfg;
	pft_config_init(&cfg);
	cfg.etmtraceidr = 0x13;
	struct pft_ptm *a = pft_ptm_alloc(&cfg, NULL), *b = pft_ptm_alloc(&cfg, NULL);
	CHECK(a && b);
	if (!a || !b)
		return;
	for (int i = 0; i < 300; i++) {
		struct pft_ptm_insn x;
		memset(&x, 0, sizeof(x));
		x.addr = 0x8000 + 8u * (unsigned)i;
		x.next_addr = x.addr + 0x1230 * (unsigned)(i % 7);
		x.cycle = (uint64_t)i;
		x.size = 4;
		x.wp_class = i % 3 ? PFT_WP_INDIRECT : PFT_WP_NONE;
		pft_ptm_insn(a, &x);
		pft_ptm_insn(b, &x);
	}
	pft_ptm_flush(a);
	pft_ptm_flush(b);
	static uint8_t raw[8192], fr[16384], back[8192];
	size_t n = pft_ptm_read(a, raw, sizeof(raw));
	int64_t m = pft_ptm_read_frames(b, fr, sizeof(fr), 1);
	CHECK(n > 100);
	CHECK(m > 0 && m % 16 == 0);
	int64_t k = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, fr, (size_t)m, back, sizeof(back), NULL);
	CHECK_EQ(k, n);
	CHECK(k == (int64_t)n && !memcmp(raw, back, n));
	pft_ptm_free(a);
	pft_ptm_free(b);
}

int main(void)
{
	table_5_1();
	table_5_2();
	table_5_3();
	reset_and_svc();
	thumb32_halves();
	debug_state();
	large_block();
	return_stack();
	branch_broadcast();
	exception_return();
	table_4_10();
	security();
	prohibited();
	wfi_flush();
	cycle_accurate();
	periodic_sync();
	jazelle();
	v10_hyp();
	thumbee();
	frames();
	return check_report();
}
