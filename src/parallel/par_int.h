/* SPDX-License-Identifier: BSD-3-Clause */
/* Parallel decode internals (pft/parallel.h).  Floors:
 *   par_split.c  sync points and cuts (bytes only)
 *   par_e3dec.c  the ETMv3 decoder pair (ETMv3 packet decoder and flow)
 *   par_snap.c   the decoder pair (packet decoder, flow decoder) of a
 *                segment or of the serial decoder, for either protocol
 *                (ETMv3 through par_e3dec.c), and the snapshot of its whole
 *                state at a packet boundary
 *   par_seg.c    a segment decoded speculatively, recording snapshots
 *   par_join.c   the serial decoder, joining segments in stream order
 * Each calls only the floors before it.
 *
 * The snapshot reads the packet and flow decoders' internals (packet/
 * pkt_internal.h, flow/flow_int.h; for ETMv3 etm3/etm3_par.h and
 * etm3flow/etm3_flow_par.h): a field added there that carries state from
 * one packet to the next must be added to struct par_state (or to the
 * ETMv3 states), or joins could take a segment whose state differs
 * (test_par_join and test_par_etm3 check, on recordings and corrupted
 * copies, that joined output equals serial). */
#ifndef PFT_PARALLEL_PAR_INT_H
#define PFT_PARALLEL_PAR_INT_H

#include <stddef.h>
#include <stdint.h>

#include "etm3/etm3_par.h"
#include "etm3flow/etm3_flow_par.h"
#include "pft/etm3.h"
#include "pft/etm3flow.h"
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
	/* ETMv3 (zero for PFT) */
	struct etm3_dec_state e3d;
	struct etm3_flow_state e3f; /* zero for PACKETS */
};

/* Item totals by packet type of either protocol (enum pft_pkt_type or
 * enum pft_etm3_pkt_type). */
#define PAR_NTYPES 32
struct par_counts {
	uint64_t count[PAR_NTYPES];
	uint64_t bytes[PAR_NTYPES];
	uint64_t errors;      /* ERROR items */
	uint64_t first_error; /* stream offset of the first (if errors) */
};

/* One recorded boundary of a segment. */
struct par_snap {
	uint64_t off;              /* stream offset of the boundary */
	uint64_t first_error;      /* first ERROR item after it (UINT64_MAX: none yet) */
	size_t nitems, ninsns;     /* items / instructions stored before it */
	uint64_t insn_index;       /* FLOW: instructions output before it */
	struct par_counts counts;  /* PACKETS: totals before it */
	struct pft_flow_stats st;  /* FLOW: totals before it */
	struct par_state s;
};

/* A packet decoder whose offsets are stream offsets (it starts at the
 * segment's), and (FLOW) a flow decoder, of either protocol.  Two modes:
 * packets (the flow decoder is given the packets one at a time, so that
 * each packet boundary can be seen and compared) and bytes (the flow reads
 * the packets itself: cheaper per packet).  PFT: in bytes mode pkt is moved
 * into the flow decoder, which reads it itself (pkt then holds the flow
 * decoder's own, unused, packet decoder).  ETMv3: in bytes mode
 * the flow reads the packet decoder in place
 * (pft_etm3_flow_decoder_put_from), as the CLI's serial path does. */
struct par_dec {
	int e3;                                /* ETMv3 */
	int bytes;
	int flow_ended;                        /* the flow decoder's end was called */
	/* PFT */
	struct pft_pkt_decoder *pkt;
	struct pft_flow_decoder *flow;
	/* ETMv3 */
	struct pft_etm3_decoder *e3pkt;
	struct pft_etm3_flow_decoder *e3flow;
	struct pft_flow_stats e3st;            /* FLOW totals (bytes: the packet decoder's offset) */
	struct pft_flow_stats e3base;          /* the flow's own totals when e3st was last set:
	                                          e3st + (the flow's now - e3base) is the total */
};

/* One packet of either protocol. */
union par_pkt {
	struct pft_packet p;
	struct pft_etm3_packet e;
};

struct par_cfg {
	enum pft_par_kind kind;
	int e3;                    /* an ETMv3 configuration */
	struct pft_config cfg;
	struct pft_image *img;
	enum pft_isync_resync mode;
};

/* ---- par_e3dec.c (ETMv3 halves of par_snap.c's functions) ---- */
int par_e3_open(struct par_dec *d, const struct par_cfg *c, uint64_t base);
void par_e3_close(struct par_dec *d);
int par_e3_state(const struct par_dec *d, struct par_state *s);
int par_e3_next_item(struct par_dec *d, struct pft_flow_item *it);
void par_e3_put(struct par_dec *d, const struct pft_etm3_packet *p);
void par_e3_get_stats(const struct par_dec *d, struct pft_flow_stats *st);
/* The totals go on from *st (bytes: the packet decoder's offset). */
void par_e3_set_stats(struct par_dec *d, const struct pft_flow_stats *st);

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
/* The next stretch of bytes, to the packet decoder (or, in bytes mode, to
 * the flow): as pft_pkt_decoder_feed. */
int par_dec_feed(struct par_dec *d, const uint8_t *buf, size_t len);
/* Packets mode: the next packet into *u (0, or the packet decoder's
 * status); its end offset; whether it is an error item. */
int par_dec_next_pkt(struct par_dec *d, union par_pkt *u);
uint64_t par_pkt_offset(const struct par_dec *d, const union par_pkt *u);
uint64_t par_pkt_end(const struct par_dec *d, const union par_pkt *u);
/* Packets mode: give the packet to the flow decoder. */
void par_dec_put(struct par_dec *d, const union par_pkt *u);
/* The flow decoder's next item (bytes mode: reading packets as needed). */
int par_dec_next_item(struct par_dec *d, struct pft_flow_item *it);
/* Bytes mode: every item the flow decoder can give dropped (its totals
 * kept), as calling par_dec_next_item until it fails; that status. */
int par_dec_skip_items(struct par_dec *d);
/* No more input (in bytes mode the flow's end follows by itself); the flow's
 * end, once, in packets mode after the packet decoder's -PFT_E_EOS. */
void par_dec_end(struct par_dec *d);
void par_dec_flow_end(struct par_dec *d);
/* A gap in the stream (as pft_flow_decoder_resync / the packet decoder's). */
void par_dec_resync(struct par_dec *d);
/* Packets: every item the packet decoder holds counted into *c (as
 * pft_pkt_decoder_count); its status. */
int par_dec_count(struct par_dec *d, struct par_counts *c);
/* At a packet boundary with nothing pending in either decoder: 1 and *s
 * filled; 0 if the boundary cannot be compared (inside a search, a packet
 * held, items queued). */
int par_dec_state(const struct par_dec *d, struct par_state *s);
/* Instructions output so far / totals (FLOW). */
uint64_t par_dec_index(const struct par_dec *d);
void par_dec_get_stats(const struct par_dec *d, struct pft_flow_stats *st);
/* Shift the flow decoder's instruction index by delta (the items it has
 * queued too) and set its totals to st (FLOW): it goes on as the serial
 * decoder would. */
void par_dec_rebase(struct par_dec *d, uint64_t delta, const struct pft_flow_stats *st);
/* One packet counted. */
void par_counts_add(struct par_counts *c, const struct par_dec *d, const union par_pkt *u);
/* *a += *b */
void par_counts_merge(struct par_counts *a, const struct par_counts *b);
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
	size_t n, ninsns, ncycles; /* items / instructions / cycle counts stored */
	int decoded;               /* pft_par_seg_decode() ran (and the join has not used it) */
	int full;                  /* a buffer filled: stopped before the end */
	int held;                  /* FLOW: hold was pulled but not stored */
	struct pft_flow_item hold;
	int status;                /* the decoder's last status (-PFT_E_AGAIN at the end) */
	struct par_counts counts;  /* PACKETS: every item decoded */
	struct par_snap *snaps;
	unsigned nsnap;
};

#endif
