/* SPDX-License-Identifier: BSD-3-Clause */
/* Small harness for focused software PTM tests: feed hand-written
 * instruction sequences and look at the packets the PTM emitted (through
 * its packet callback) as a list of type names, and at the decoded bytes. */
#ifndef PFT_TEST_PTM_HARNESS_H
#define PFT_TEST_PTM_HARNESS_H

#include <stdint.h>

#include "check.h"
#include "pft/ptm.h"

#define H_MAX 4096

struct h {
	struct pft_ptm *p;
	struct pft_config cfg;
	struct pft_packet pk[H_MAX];
	unsigned n;
	uint64_t cyc;
	uint32_t cid;
	uint8_t vmid;
	uint16_t fl;         /* PFT_PTM_I_NS / HYP for the instructions fed */
	char seq[8192];
};

/* The PTM's packet callback: appends k to h->pk (arg is the struct h). */
void h_cb(const struct pft_packet *k, void *arg);

/* A PTM with its packet callback set; etmcr: ETMCR (ProgBit clear); v11:
 * PFTv1.1 (else v1.0).  Returns 0, -1 if the PTM cannot be made. */
int h_init(struct h *h, uint32_t etmcr, int v11, const struct pft_ptm_params *par);

/* Frees the PTM. */
void h_free(struct h *h);

/* Feed one instruction (2 cycles after the previous one). */
int h_insn(struct h *h, uint64_t addr, unsigned isa, unsigned size, unsigned cls,
	   uint64_t next, unsigned nisa, uint16_t flags);

/* ARM nonwaypoint */
int h_nop(struct h *h, uint64_t addr);

/* ARM direct branch, taken or not */
int h_b(struct h *h, uint64_t addr, uint64_t target, int taken);

/* ARM indirect branch (taken) */
int h_bx(struct h *h, uint64_t addr, uint64_t target, unsigned tisa);

/* An exception of a type to an ARM vector (3 cycles later). */
int h_exc(struct h *h, unsigned type, uint64_t vector, uint8_t eflags);

/* Packet types from index `from`, space separated. */
const char *h_seq(struct h *h, unsigned from);

/* Index of the first packet of a type at or after from, or -1. */
int h_find(const struct h *h, unsigned type, unsigned from);

/* The packet types from index `from` must be `want` (a failed check prints
 * both lists). */
#define CHECK_SEQ(h, from, want) h_check_seq((h), (from), (want), __FILE__, __LINE__)
void h_check_seq(struct h *h, unsigned from, const char *want, const char *file, int line);

#endif
