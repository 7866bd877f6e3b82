/* SPDX-License-Identifier: BSD-3-Clause */
/* Parallel decode (pft/parallel.h) against the serial decoders, the parts
 * test_par_join (PFT) and test_par_etm3 (ETMv3) share: a record of what a
 * decoder gave (flow items with their instructions and cycle counts, or
 * packets) and its comparison, the parallel path driven over a buffer in
 * windows cut into segments, and random corruption of a stream. */
#ifndef PFT_TEST_PAR_CHECK_H
#define PFT_TEST_PAR_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "pft/pft.h"

/* What a decoder gave, in order.  Flow items are kept with insns and
 * insn_cycles NULL; a range's instructions and cycle counts (0xFFFFFFFF
 * where it has none) follow each other in in[] and cyc[].  Packets: PFT in
 * pk[], ETMv3 in e3[] (etm3 set).  All zero is empty; par_rec_free()
 * empties it. */
struct par_rec {
	struct pft_flow_item *it;
	size_t n, cap;
	struct pft_insn *in;
	uint32_t *cyc;
	size_t nin, capin;
	struct pft_packet *pk;
	struct pft_etm3_packet *e3;
	size_t npk, cappk;
	int etm3;
};

void par_rec_item(struct par_rec *r, const struct pft_flow_item *it);
void par_rec_packet(struct par_rec *r, const struct pft_packet *p);
void par_rec_etm3_packet(struct par_rec *r, const struct pft_etm3_packet *p);
void par_rec_free(struct par_rec *r);

/* 1 if a (serial) and b (joined) hold the same items, every field, and
 * with insns the same instructions and cycle counts; else a failed check
 * naming the first difference, and 0. */
int par_same_items(const struct par_rec *a, const struct par_rec *b, int insns);

/* The same for packets (PFT or ETMv3, whichever a holds), each compared up
 * to the end of its bytes[] (the tail padding is not set).  With
 * $PFT_PAR_DEBUG the first differing packets' bytes are printed. */
int par_same_pkts(const struct par_rec *a, const struct par_rec *b);

/* How the parallel path is driven. */
struct par_opts {
	size_t window;               /* bytes per window */
	unsigned jobs;               /* segments per window, 1-8 */
	size_t items_cap, insns_cap; /* each segment's buffers; items_cap 0:
	                                none, totals only (pft_par_drain) */
	int gap;                     /* a resync before every other window */
};

/* The totals of a parallel run, those of its kind and protocol. */
struct par_totals {
	struct pft_flow_stats st;         /* FLOW */
	struct pft_par_counts pc;         /* PACKETS, PFT */
	struct pft_etm3_counts e3c;       /* PACKETS, ETMv3 */
	struct pft_par_join_stats js;
};

/* The parallel path over b[0..len) with cfg's protocol (ETMv3 when
 * pft_etm3_config_features() takes cfg): windows of o->window bytes, each
 * split into at most o->jobs segments, decoded one after another, joined
 * in order, what each join gives pulled (items or packets into out, or
 * drained); then the end, and the totals into *t (zeroed first).  A failed
 * check on any unexpected status. */
void par_check_run(enum pft_par_kind kind, const struct pft_config *cfg, struct pft_image *img,
		   const uint8_t *b, size_t len, const struct par_opts *o, struct par_rec *out,
		   struct par_totals *t);

/* Corrupts b[0..*len) in place, 1-6 times: a bit flipped, 1-8 bytes cut
 * out (*len shrinks), 1-12 bytes zeroed, and with asyncs an A-sync planted
 * where there was none (a false cut for the split). */
void par_corrupt(uint8_t *b, size_t *len, uint64_t *rng, int asyncs);

#endif
