/* SPDX-License-Identifier: BSD-3-Clause */
/* Parallel decode internals (pft/parallel.h).  Floors:
 *   par_split.c  sync points and cuts (bytes only)
 *   par_snap.c   the decoder pair (packet decoder, flow decoder) of a
 *                segment or of the serial decoder, and the snapshot of its
 *                whole state at a packet boundary
 *   par_seg.c    a segment decoded speculatively, recording snapshots
 *   par_join.c   the serial decoder, joining segments in stream order
 * Each calls only the floors before it.
 *
 * The snapshot reads the packet and flow decoders' internals (packet/
 * pkt_internal.h, flow/flow_int.h): a field added there that carries state
 * from one packet to the next must be added to struct par_state, or joins
 * could take a segment whose state differs (test_par_join checks, on
 * recordings and corrupted copies, that joined output equals serial). */
#ifndef PFT_PARALLEL_PAR_INT_H
#define PFT_PARALLEL_PAR_INT_H

#include <stddef.h>
#include <stdint.h>

#include "pft/parallel.h"
#include "state/rstack.h"

/* Everything a packet boundary carries to the next packet, field by field
 * (so that two states compare with memcmp: padding is zero). */
struct par_state {
	/* packet decoder */
	uint64_t ts;
	uint64_t win;       /* the I-sync search window, its win_n bytes */
	uint32_t base_addr;
	uint8_t base_isa, ns, hyp;
	uint8_t mode, synced_once, isync_resync, win_n;
	/* flow decoder (zero for PACKETS) */
	uint8_t synced, last_wp_valid, last_wp_isa;
	uint8_t cs_isa, cs_ns, cs_hyp, cs_vmid, cs_addr_valid, cs_cid_valid, cs_vmid_valid;
	uint8_t ls_isa, ls_ns, ls_hyp, ls_vmid, ls_addr_valid, ls_cid_valid, ls_vmid_valid;
	uint32_t cs_cid, ls_cid;
	uint64_t cs_addr, ls_addr;
	uint64_t last_wp_addr;
	uint32_t rs_n, rs_depth;
	uint64_t rs_addr[PFT_RSTACK_MAX]; /* newest first */
	uint8_t rs_isa[PFT_RSTACK_MAX];
	uint8_t rs_ns[PFT_RSTACK_MAX];
};

/* One recorded boundary of a segment. */
struct par_snap {
	uint64_t off;              /* stream offset of the boundary */
	uint64_t first_error;      /* first ERROR item after it (UINT64_MAX: none yet) */
	size_t nitems, ninsns;     /* items / instructions stored before it */
	uint64_t insn_index;       /* FLOW: instructions output before it */
	struct pft_par_counts counts; /* PACKETS: totals before it */
	struct pft_flow_stats st;  /* FLOW: totals before it */
	struct par_state s;
};

/* A packet decoder whose offsets are stream offsets (it starts at the
 * segment's), and (FLOW) a flow decoder.  Two modes: packets (the flow
 * decoder is given pkt's packets one at a time, pft_flow_decoder_put_packet,
 * so that each packet boundary can be seen and compared) and bytes (pkt is
 * moved into the flow decoder, which reads it itself: cheaper per packet;
 * pkt then holds the flow decoder's own, unused, packet decoder). */
struct par_dec {
	struct pft_pkt_decoder *pkt;
	struct pft_flow_decoder *flow;
	int bytes;
};

struct par_cfg {
	enum pft_par_kind kind;
	struct pft_config cfg;
	struct pft_image *img;
	enum pft_isync_resync mode;
};

/* ---- par_snap.c ---- */
/* 0 or -PFT_E_INVAL (kind, cfg, mode). */
int par_cfg_init(struct par_cfg *c, enum pft_par_kind kind, const struct pft_config *cfg,
		 struct pft_image *img, enum pft_isync_resync mode);
/* Fresh decoders starting at stream offset base (a flow decoder d already
 * holds is reused, made fresh): 0 or -PFT_E_NOMEM. */
int par_dec_open(struct par_dec *d, const struct par_cfg *c, uint64_t base);
/* Between packets (the flow decoder has returned -PFT_E_AGAIN): to bytes
 * mode and back (no-ops without a flow decoder, or in that mode). */
void par_dec_to_bytes(struct par_dec *d);
void par_dec_to_packets(struct par_dec *d);
void par_dec_close(struct par_dec *d);
/* At a packet boundary with nothing pending in either decoder: 1 and *s
 * filled; 0 if the boundary cannot be compared (inside a search, a packet
 * held, items queued). */
int par_dec_state(const struct par_dec *d, struct par_state *s);
/* Instructions output so far / totals (FLOW). */
uint64_t par_dec_index(const struct par_dec *d);
/* Shift the flow decoder's instruction index by delta (the items it has
 * queued too) and set its totals to st (FLOW): it goes on as the serial
 * decoder would. */
void par_dec_rebase(struct par_dec *d, uint64_t delta, const struct pft_flow_stats *st);
void par_counts_add(struct pft_par_counts *c, const struct pft_packet *p);
/* Add what pft_pkt_decoder_count counted. */
void par_counts_add_pkt(struct pft_par_counts *c, const struct pft_pkt_counts *k);
/* *a += b - since (every field; block-cache counts left alone) */
void par_stats_add_delta(struct pft_flow_stats *a, const struct pft_flow_stats *b,
			 const struct pft_flow_stats *since);

/* ---- par_seg.c ---- */
struct pft_par_seg {
	struct par_cfg c;
	struct par_dec dec;        /* NULL decoders once taken by a join */
	const uint8_t *buf;
	size_t len;
	uint64_t off;
	struct pft_par_buf out;
	size_t n, ninsns;          /* items / instructions stored */
	int decoded;               /* pft_par_seg_decode() ran (and the join has not used it) */
	int full;                  /* a buffer filled: stopped before the end */
	int held;                  /* FLOW: hold was pulled but not stored */
	struct pft_flow_item hold;
	int status;                /* the decoder's last status (-PFT_E_AGAIN at the end) */
	struct pft_par_counts counts; /* PACKETS: every item decoded */
	struct par_snap *snaps;
	unsigned nsnap;
};

#endif
