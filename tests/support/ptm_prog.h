/* SPDX-License-Identifier: BSD-3-Clause */
/* Random programs for the software PTM tests and bench: real A32/T32
 * encodings written into two memory regions (an ARM one and a Thumb one),
 * generated lazily as execution reaches them, and a tiny abstract
 * interpreter that "executes" them: branch outcomes and indirect targets are
 * chosen at random, direct targets come from the encodings.  Every executed
 * instruction and exception is fed to a PTM and written to a log, the ground
 * truth the tests compare the decoded trace with. */
#ifndef PFT_TEST_PTM_PROG_H
#define PFT_TEST_PTM_PROG_H

#include <stdint.h>

#include "pft/isa.h"
#include "pft/packet.h"
#include "pft/ptm.h"

#define PROG_REGION 0x10000u /* bytes per region */

enum prog_kind {
	PK_NOP = 0,   /* data processing, not a waypoint */
	PK_DIRECT,    /* B, B<cond>, CBZ/CBNZ, BL, BLX imm */
	PK_INDIRECT,  /* BX, BLX reg, LDR PC, POP {pc} */
	PK_EXC_RET,   /* SUBS PC, LR / ERET */
	PK_ISB,
	PK_DMB,
	PK_SVC
};

struct prog_insn {
	uint32_t opcode;     /* A32 word, T32 hw1<<16|hw2, T16 hw */
	uint64_t target;     /* direct branch target */
	uint8_t size, isa, kind, cond; /* cond: 1 = can fail its condition */
	uint8_t wp_class, link, ret, target_isa; /* ret: prefers the call stack */
};

struct prog_region {
	uint64_t base;
	uint8_t isa;
	uint8_t mem[PROG_REGION];
	uint8_t state[PROG_REGION / 2];   /* per halfword: 0 free, 1 start, 2 continuation,
	                                     3 free but a branch target */
	struct prog_insn insn[PROG_REGION / 2];
};

struct prog_frame {
	uint64_t ret;
	uint32_t cid;
	uint8_t isa, ns, hyp, vmid, prohib;
};

/* One executed instruction or exception of the log. */
struct prog_ev {
	uint64_t addr;       /* insn address, or exception vector */
	uint64_t cycle;
	uint64_t ts;
	uint32_t cid;
	uint32_t blk;        /* block number */
	uint8_t exc;         /* 0 = instruction, else exception type */
	uint8_t isa, ns, hyp, vmid, wp;
	uint8_t dropped;     /* instruction the trace cannot show (before a reset) */
	uint8_t prohib;      /* executed (or taken) in a prohibited region */
};

struct prog_blk {
	uint64_t start, end;  /* START and END addresses (3.4.1) */
	uint32_t first, n;    /* events [first, first+n) */
	uint32_t n_insn;
	uint8_t ns, hyp, exc;
	uint8_t end_t32;      /* the last instruction is a 32-bit Thumb one */
};

struct prog_opts {
	uint8_t thumb_vectors;  /* vectors in the Thumb region */
	uint8_t security;       /* change NS on exceptions */
	uint8_t hyp;            /* v1.1: Hyp changes */
	uint8_t cid_changes, vmid_changes;
	uint8_t exceptions;     /* per-mille chance of an exception after an insn */
	uint8_t debug;          /* per-mille chance of a debug entry */
	uint8_t resets;
	uint8_t prohibited;     /* some SMCs enter a prohibited region (4.7) */
	uint8_t no_eret;        /* exception returns only as SUBS PC, LR (OpenCSD 1.3.3
	                           does not take ERET for a waypoint) */
};

struct prog {
	struct prog_region r[2]; /* 0 = ARM, 1 = Thumb */
	uint64_t rng;
	struct prog_opts o;
	/* processor state */
	uint64_t pc, cycle;
	uint32_t cid;
	uint8_t isa, ns, hyp, vmid, prohib;
	uint8_t just_left;      /* left a prohibited region; nothing executed since */
	struct prog_frame calls[32];
	unsigned ncalls;
	struct prog_frame excs[8];
	unsigned nexcs;
	/* log */
	struct prog_ev *ev;
	uint32_t nev, cap;
	struct prog_blk *blk;
	uint32_t nblk, blkcap;
	uint32_t cur_blk_first;
	uint64_t cur_blk_start;
	int fed_errors;
	uint8_t dmb_wp;         /* ETMCCER[24]: DMB/DSB end blocks */
	uint64_t gen_pc;        /* instruction being generated */
};

/* A random ETMCR of the kinds the software PTM tests run, drawn from *r:
 * cycle accuracy, branch broadcast or the return stack, timestamps, a
 * context ID size, and VMID if v11. */
uint32_t prog_random_etmcr(uint64_t *r, int v11);

/* A random configuration: PFTv1.1 (two times in three) or v1.0, the ETMCR
 * of prog_random_etmcr, and the ETMIDR and ETMCCER of the version, in v1.1
 * with a random timestamp encoding (ETMCCER[29:28]); the rest as
 * pft_config_init.  Returns whether it is v1.1. */
int prog_random_config(struct pft_config *c, uint64_t *r);

/* Random program options, drawn from *r: vectors in the Thumb region or
 * not, NS changes, Hyp changes (if v11), context ID and VMID changes, up to
 * 3.9% exceptions and 0.3% debug entries; the others 0. */
void prog_random_opts(struct prog_opts *o, uint64_t *r, int v11);

/* A fresh program (nothing generated yet) and processor state from seed:
 * the same seed and options give the same program and run. */
void prog_init(struct prog *g, uint64_t seed, const struct prog_opts *o);

/* Frees the log. */
void prog_fini(struct prog *g);

/* Run n instructions with random exceptions and debug entries, each fed to
 * ptm (if not NULL) and logged; v11: PFTv1.1 PTM (Hyp, VMID); classify: the
 * PTM classifies the instructions itself (from their encodings) instead of
 * taking the program's waypoint classes.  Returns 0, or -1 if the generator
 * went astray. */
int prog_run(struct prog *g, struct pft_ptm *ptm, unsigned n, int v11, int classify);

#endif
