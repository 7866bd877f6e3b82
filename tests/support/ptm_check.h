/* SPDX-License-Identifier: BSD-3-Clause */
/* A reference PFT decompressor for the software PTM tests (spec appendix B),
 * written against the random program's ground truth (ptm_prog.h) instead
 * of an instruction classifier: it walks packets from pft_pkt_decode_buffer
 * (chk_packet is its callback) and rebuilds the executed instructions and
 * exceptions, checking cycle counts and timestamps on the way.  Independent of the PTM's code: it only
 * knows the packet stream and the program. */
#ifndef PFT_TEST_PTM_CHECK_H
#define PFT_TEST_PTM_CHECK_H

#include <stdint.h>

#include "pft/packet.h"
#include "ptm_prog.h"

struct chk_out {
	uint64_t addr;
	uint32_t cid;
	uint32_t seg;        /* non-periodic I-syncs before it */
	uint8_t exc, isa, ns, hyp, vmid;
};

struct chk {
	const struct prog *g;
	struct pft_features f;
	struct chk_out *out;
	uint32_t nout, cap;
	int synced;
	uint64_t addr;
	uint32_t cid;
	uint8_t isa, ns, hyp, vmid;
	struct { uint64_t a; uint8_t isa; } rs[64];
	unsigned nrs;
	uint64_t cum;            /* decoded cycle counter */
	uint64_t last_cycle;     /* expected cycle of the last decoded item */
	uint64_t last_ts;        /* expected timestamp of the last decoded item */
	int have_last;
	const struct prog_ev *const *exp; /* expected items, to check cycles and timestamps */
	uint32_t nexp;
	int check_cc;
	int no_ts;               /* timestamps not checked (trace lost to overflows) */
	uint32_t segs;
	int errors;
	unsigned isyncs, periodic, wpus, excs, atoms, branches, ts, cids, vmids, erets, triggers;
	char msg[256];
};

/* Counts an error; the first one is kept in c->msg with its packet. */
void chk_fail(struct chk *c, const struct pft_packet *k, const char *what);

/* Decodes one packet (arg is the struct chk); returns 1 to stop after an
 * error, else 0. */
int chk_packet(const struct pft_packet *k, void *arg);

#endif
