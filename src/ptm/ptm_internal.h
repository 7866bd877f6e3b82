/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM internals: the state shared by the files of the layer.
 * They stand on floors; a file calls only files of the floors below it:
 *   ptm_fifo.c, ptm_resources.c, ptm_regs.c   FIFO, resources, register file
 *   ptm_output.c     packets into the FIFO (ptm_emit), reading it out
 *   ptm_sync.c       I-sync, periodic sync, timestamps, cycle counts
 *   ptm_gen.c        trace generation per instruction, exception, event
 *   ptm_control.c    life cycle, register writes (starts and stops trace)
 *   ptm_ini.c        snapshot [regs] sections into register writes
 * The return stack is the shared state/rstack.c. */
#ifndef PFT_PTM_INTERNAL_H
#define PFT_PTM_INTERNAL_H

#include "pft/ptm.h"
#include "pft/isa.h"
#include "pft/packet.h"
#include "pft/frame.h"
#include "state/rstack.h"

#define PTM_RSTACK_MAX 15   /* return_stack_depth 0..15 (4.13) */

/* The block of instructions since the last waypoint (3.4.1). */
struct ptm_block {
	uint64_t start;      /* target of the previous waypoint (START) */
	uint64_t last_addr;  /* last instruction executed in the block */
	uint32_t cid;        /* state at the start of the block */
	uint32_t n_insn;     /* instructions executed in the block (waypoint excluded) */
	uint8_t isa, ns, hyp, user;
	uint8_t vmid;
	uint8_t last_isa;
	uint8_t known;       /* start is known (0 right after a debug/prohibited exit
	                        until the first instruction arrives) */
};

/* Trace FIFO plus the drained output, one ring: [rd .. drained) is output
 * waiting for pft_ptm_read, [drained .. wr) is still in the FIFO. */
struct ptm_fifo {
	uint8_t *buf;
	size_t cap;             /* ring size */
	uint64_t rd, drained, wr; /* running byte counters */
	uint32_t fifo_bytes;    /* 0 = unbounded */
	uint32_t drain_bytes, drain_cycles;
	uint64_t last_cycle;    /* cycle of the last drain */
	uint64_t credit;        /* drain remainder, in bytes * drain_cycles */
};

struct pft_ptm {
	struct pft_config cfg;
	struct pft_features f;
	struct pft_ptm_params par;
	uint32_t regs[PFT_PTM_NR_REGS];
	struct pft_pkt_encoder *enc;
	unsigned isa_opts;

	/* resources (appendix A) */
	uint16_t cnt[4];
	uint8_t n_cnt, n_ac, n_cidc, has_seq;
	uint8_t seq;            /* 0..2 = state 1..3 */
	uint8_t ss_state;       /* start/stop block on */
	uint8_t trig_done;      /* ETMSR[3] */
	uint8_t arc_held;       /* ARC include-mode matches held until next waypoint */
	uint16_t sac_hit;       /* SAC matches of the last step (one step only) */
	uint32_t ext_in;
	uint64_t ext_bus[4];
	uint32_t ext_out;
	uint8_t res_idle;       /* no event can fire: steps are trivial */
	uint64_t res_cycle;     /* cycle of the last resource step */

	/* processor state */
	uint8_t enabled;        /* ProgBit and PowerDown clear */
	uint8_t debug;          /* in Debug state */
	uint8_t prohibited;     /* in a prohibited region */
	uint8_t jazelle;        /* in Jazelle state */
	uint64_t cycle;         /* latest cycle seen */
	uint64_t ts_now;        /* latest timestamp value */
	uint32_t cur_cid;
	uint8_t cur_vmid;

	/* generation state */
	uint8_t tracing;        /* trace is on (I-sync sent, blocks being traced) */
	uint8_t isync_reason;   /* reason for the next non-periodic I-sync */
	uint8_t overflowed;     /* FIFO overflow: dropping until empty */
	uint8_t ovf_unreported; /* ETMSR[0] */
	uint8_t need_async;     /* A-sync before the next packet */
	uint8_t sync_pending;   /* periodic sync requested */
	uint8_t ext_sync_pending;
	struct ptm_block blk;
	uint64_t prev_wp_cycle; /* cycle of the waypoint that started blk */
	uint64_t last_cc_cycle; /* cycle of the last cycle count output */
	uint64_t sync_bytes;    /* bytes since the last periodic sync */
	uint32_t atom_bits;     /* held atoms, bit i = atom i is E (i = 0 oldest) */
	uint8_t atom_n;
	uint8_t out_ns, out_hyp;/* last NS/Hyp given in an I-sync or branch packet */
	uint32_t out_cid;       /* last traced context ID */
	uint8_t out_vmid;
	uint8_t vmid_due;       /* VMID packet due (after an I-sync) */

	/* timestamps (4.14, ETM 7.7.1) */
	uint8_t ts_req;         /* a timestamp is requested */
	uint8_t ts_full;        /* the next timestamp must be full */
	uint8_t ts_r;           /* clock changed since the last timestamp */
	uint8_t ts_forced;      /* request that must not be coalesced */
	uint8_t traced_since_ts;/* an instruction was traced since the last timestamp */
	uint8_t ts_off_req;     /* one request taken while trace was off */
	uint64_t ts_last_wp;    /* timestamp of the last traced waypoint */

	/* return stack (4.13) */
	struct pft_rstack rs;    /* depth = par.return_stack_depth */

	struct ptm_fifo fifo;
	struct pft_frame_encoder *fenc; /* pft_ptm_read_frames, on first use */
	pft_ptm_packet_cb cb;
	void *cb_arg;
	struct pft_ptm_stats st;
	int enc_err;            /* an encoder refusal, reported by the next call */
};

/* Instruction address as the packets carry it: bit 0 (Thumb) or bits
 * [1:0] (ARM) are not addresses but interworking bits. */
static inline uint64_t ptm_align(uint64_t addr, uint8_t isa)
{
	if (isa == PFT_ISA_ARM)
		return addr & ~3ull;
	if (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE)
		return addr & ~1ull;
	return addr;
}

static inline int ptm_take_err(struct pft_ptm *p)
{
	int e = p->enc_err;
	p->enc_err = 0;
	return e;
}

/* ptm_regs.c */
void ptm_regs_reset(struct pft_ptm *p);
int ptm_apply_config(struct pft_ptm *p);
void ptm_apply_ccr(struct pft_ptm *p);
uint32_t ptm_cr_writable(uint32_t cr, uint32_t ccer, uint32_t idr);
int ptm_cr_enabled(uint32_t cr);   /* ProgBit and PowerDown clear */
/* Write a register of the file (*old receives its previous value).  < 0 on
 * error (nothing changed), else what the caller must do next: */
#define PTM_REG_DONE           0  /* nothing */
#define PTM_REG_ENABLE_CHANGED 1  /* ETMCR ProgBit/PowerDown only: start or stop */
#define PTM_REG_RECONFIG       2  /* features changed: stop, ptm_apply_config, restart */
int ptm_reg_write(struct pft_ptm *p, unsigned regno, uint32_t v, uint32_t *old);

/* ptm_resources.c: one resource step at a block end (waypoint or exception).
 * has_block = instructions were executed in [start, end]; returns TraceEnable
 * for the block and updates counters, sequencer, start/stop, outputs and the
 * trigger (sets *trigger when a trigger packet is due). */
int ptm_res_step(struct pft_ptm *p, int has_block, uint64_t start, uint64_t end,
                 uint64_t cycle, int *trigger, int *ts_event);
/* Run the resources over the cycles before `cycle` (counters count every
 * cycle, 3.9); sets *trigger / *ts_event if they fired. */
void ptm_res_advance(struct pft_ptm *p, uint64_t cycle, int *trigger, int *ts_event);
void ptm_res_cycle(struct pft_ptm *p, int *trigger, int *ts_event);
/* Evaluate a 17-bit event register value against the current resources. */
int ptm_res_event(const struct pft_ptm *p, uint32_t ev);
void ptm_res_update_idle(struct pft_ptm *p);

/* ptm_fifo.c */
int ptm_fifo_init(struct ptm_fifo *q, const struct pft_ptm_params *par);
void ptm_fifo_free(struct ptm_fifo *q);
void ptm_fifo_drain(struct ptm_fifo *q, uint64_t cycle);
void ptm_fifo_drain_all(struct ptm_fifo *q);
int ptm_fifo_put(struct ptm_fifo *q, const uint8_t *b, size_t n); /* 0 or -NOSPC */
size_t ptm_fifo_level(const struct ptm_fifo *q);
size_t ptm_fifo_read(struct ptm_fifo *q, uint8_t *buf, size_t cap);
size_t ptm_fifo_pending(const struct ptm_fifo *q);

/* ptm_output.c: encode one packet into the FIFO.  0, or < 0 when it was
 * not output (PTM disabled, FIFO overflowed, encoder refusal in enc_err). */
int ptm_emit(struct pft_ptm *p, struct pft_packet *pkt);
void ptm_flush_atoms(struct pft_ptm *p);

/* ptm_sync.c: synchronisation and timestamps */
void ptm_emit_isync(struct pft_ptm *p, unsigned reason, uint64_t addr, uint8_t isa,
                    uint8_t ns, uint8_t hyp, uint32_t cid, uint64_t cc_cycle);
void ptm_ts_request(struct pft_ptm *p, int forced);
void ptm_ts_service(struct pft_ptm *p);
void ptm_sync_service(struct pft_ptm *p);
uint32_t ptm_cc(struct pft_ptm *p, uint64_t cycle);

#endif
