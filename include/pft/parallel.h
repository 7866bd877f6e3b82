/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft parallel decode of one PFT or ETMv3 stream (pft_par_): split the stream at
 * sync points, decode the segments independently (on any threads), and
 * join them in stream order so that the items are exactly those of one
 * serial decoder, for every input (corrupt ones included).
 *
 *     par = pft_par_alloc(PFT_PAR_FLOW, &cfg, img, PFT_ISYNC_RESYNC_LOST);
 *     for each window of the stream (bytes win[0..len), stream offset off):
 *         n = pft_par_split(win, len, jobs, cuts);     (cuts[0] = 0, cuts[n] = len)
 *         on thread i < n:                             (one segment object each)
 *             pft_par_seg_decode(seg[i], win + cuts[i], cuts[i+1] - cuts[i],
 *                                off + cuts[i], &buf[i]);
 *         for i in 0..n-1, in order:
 *             pft_par_join(par, seg[i], win + cuts[i], cuts[i+1] - cuts[i], off + cuts[i]);
 *             while (pft_par_next_item(par, &it, sizeof it) == 0)  (then -PFT_E_AGAIN)
 *                 use(&it);
 *     pft_par_end(par); drain until -PFT_E_EOS; pft_par_free(par);
 *
 * The rule (doc/parallel.md).  A segment is decoded speculatively by a
 * fresh decoder from its first byte, which records a snapshot of its whole
 * state (packet decoder: mode, compression state, timestamp, resync window;
 * flow: current and last state, return stack, last waypoint, sync; ETMv3:
 * compression state, timestamp, and the flow's address, ISA, security,
 * context, pending W cycles, walk and held range) at its
 * first PFT_PAR_SNAPSHOTS packet boundaries after it is in sync.  The join
 * runs the serial decoder on into the segment, packet by packet; where it
 * reaches a boundary the segment recorded with an equal state, both
 * decoders would produce the same items from there on (the decoders are
 * deterministic and chunking-invariant), so the segment's items from that
 * point are taken (instruction indices and totals shifted) and its decoder
 * becomes the serial one.  If no boundary agrees, the serial decoder
 * decodes the whole segment itself: slower, never different.  The state a
 * segment inherits (address, ISA, security, context ID, VMID, return stack,
 * atoms before its first I-sync, unsynchronised runs across the boundary, a
 * packet cut by the boundary, errors) is therefore always the serial
 * decoder's.
 *
 * Threads: the library starts none.  pft_par_seg_decode() on different
 * segment objects may run at the same time on different threads; the
 * image (pft/image.h) is only read then (an image with a read callback
 * must allow concurrent calls).  Everything else is called from one
 * thread.  Memory: what the caller gives (pft_par_buf) plus, per segment
 * object, its decoders and PFT_PAR_SNAPSHOTS snapshots (about 0.45 MB).
 *
 * Both protocols: with a configuration that describes an ETMv3
 * (pft_etm3_config_features() accepts it: ETMIDR[11:8] = 2) the decoders
 * are the ETMv3 ones (pft/etm3.h, pft/etm3flow.h).  FLOW items are struct
 * pft_flow_item either way;
 * PACKETS items are struct pft_etm3_packet, pulled with
 * pft_par_next_etm3_packet() and counted by pft_par_get_etm3_counts().  A
 * resync (pft_par_resync) resets the ETMv3 packet decoder only, the flow
 * goes on (as the serial decode, whose flow sees the unsynced run). */
#ifndef PFT_PARALLEL_H
#define PFT_PARALLEL_H

#include "pft/common.h"
#include "pft/etm3.h"
#include "pft/packet.h"
#include "pft/flow.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pft_image;

enum pft_par_kind {
	PFT_PAR_PACKETS = 1, /* items are struct pft_packet (pft/packet.h), or
	                        struct pft_etm3_packet (pft/etm3.h) for ETMv3 */
	PFT_PAR_FLOW = 2     /* items are struct pft_flow_item (pft/flow.h) */
};

/* Packet boundaries a segment records after it is in sync; a join needs
 * the serial decoder to agree at one of them. */
#define PFT_PAR_SNAPSHOTS 256

/* Where a segment may start: the offset of the first zero of the first
 * A-sync (5 or more 0x00 then 0x80, in PFT and in ETMv3) that ends at or
 * after pos, with no zero of it before lo; len if none. */
PFT_API size_t pft_par_find_sync(const uint8_t *buf, size_t len, size_t lo, size_t pos);

/* Cut buf[0..len) into at most n (1..PFT_PAR_MAX_SPLIT) segments at
 * A-syncs near len * i / n: cuts[0] = 0, cuts[k] = len where k is the number
 * returned (>= 1; cuts needs n + 1 entries).  0 if n is out of range. */
#define PFT_PAR_MAX_SPLIT 64
PFT_API unsigned pft_par_split(const uint8_t *buf, size_t len, unsigned n, size_t *cuts);

/* Totals of PFT packet items (PFT_PAR_PACKETS), by enum pft_pkt_type (an
 * ETMv3 stream's: pft_par_get_etm3_counts). */
struct pft_par_counts {
	uint64_t count[PFT_PKT_NR_TYPES];
	uint64_t bytes[PFT_PKT_NR_TYPES];
	uint64_t errors;      /* PFT_PKT_ERROR items */
	uint64_t first_error; /* stream offset of the first (if errors) */
};

/* The caller's buffers for one segment's items.  A NULL array keeps no
 * items: only the totals (counts, or flow statistics) are kept, which is
 * all a statistics run needs.  When a buffer fills, the segment stops
 * there: the join takes its items so far and the serial decoder goes on
 * from that point (the rest of the segment is decoded serially). */
struct pft_par_buf {
	struct pft_packet *pkts;     /* PACKETS, PFT */
	size_t pkts_cap;
	struct pft_flow_item *items; /* FLOW */
	size_t items_cap;
	struct pft_insn *insns;      /* FLOW: the ranges' instructions are copied
	                                here (a range's insns points into it); NULL:
	                                ranges come with insns NULL */
	size_t insns_cap;
	struct pft_etm3_packet *etm3_pkts; /* PACKETS, ETMv3 */
	size_t etm3_pkts_cap;
	uint32_t *cycles;            /* FLOW: a range's insn_cycles (ETMv3
	                                cycle-accurate) are copied here; NULL
	                                or full: the segment stops there */
	size_t cycles_cap;
};

/* ---- segments (any thread) ---- */
struct pft_par_seg;

/* A segment object for streams of cfg (copied); img is borrowed (FLOW;
 * NULL with PACKETS) and prepared here (pft_image_prepare): add nothing to
 * it while segments decode.  NULL if out of memory, cfg fails
 * pft_config_features(), or an argument is out of range. */
PFT_API struct pft_par_seg *pft_par_seg_alloc(enum pft_par_kind kind, const struct pft_config *cfg,
					      struct pft_image *img, enum pft_isync_resync mode);
PFT_API void pft_par_seg_free(struct pft_par_seg *seg);

/* Decode buf[0..len), which starts at stream offset off, with a fresh
 * decoder, into out (borrowed, as buf, until the join).  Forgets any
 * earlier segment.  0, or -PFT_E_NOMEM / -PFT_E_INVAL. */
PFT_API int pft_par_seg_decode(struct pft_par_seg *seg, const uint8_t *buf, size_t len, uint64_t off,
			       const struct pft_par_buf *out);

/* ---- the join (one thread, in stream order) ---- */
struct pft_par;

/* The serial decoder, before any input.  Same arguments as
 * pft_par_seg_alloc(). */
PFT_API struct pft_par *pft_par_alloc(enum pft_par_kind kind, const struct pft_config *cfg,
				      struct pft_image *img, enum pft_isync_resync mode);
PFT_API void pft_par_free(struct pft_par *par);

/* The next stretch of the stream: buf[0..len) at stream offset off (which
 * must follow the previous stretch).  seg (may be NULL: serial) decoded
 * exactly these bytes with pft_par_seg_decode(); it is used or dropped
 * here and may be decoded again once its items have been pulled.  Pull the
 * items with pft_par_next_*() until -PFT_E_AGAIN before the next call.
 * 0, or -PFT_E_INVAL (items pending, an offset that does not follow, a
 * segment of other bytes or kind, after pft_par_end()). */
PFT_API int pft_par_join(struct pft_par *par, struct pft_par_seg *seg, const uint8_t *buf,
			 size_t len, uint64_t off);

/* A gap in the stream before the next stretch: as
 * pft_pkt_decoder_resync() / pft_flow_decoder_resync().  Pull the items. */
PFT_API int pft_par_resync(struct pft_par *par);

/* No more input.  Pull the items until -PFT_E_EOS. */
PFT_API int pft_par_end(struct pft_par *par);

/* The next item in serial order: 0, -PFT_E_AGAIN when the stretch is done,
 * -PFT_E_EOS after pft_par_end() and the last item, -PFT_E_INVAL (wrong
 * kind, size not that of the struct).  A flow range's insns stay valid
 * until the next call (they point into the segment's pft_par_buf, or into
 * the serial decoder). */
PFT_API int pft_par_next_packet(struct pft_par *par, struct pft_packet *pkt, size_t size);
PFT_API int pft_par_next_etm3_packet(struct pft_par *par, struct pft_etm3_packet *pkt,
				     size_t size);
PFT_API int pft_par_next_item(struct pft_par *par, struct pft_flow_item *item, size_t size);

/* Every item of the stretch pulled and dropped, as pulling until
 * -PFT_E_AGAIN (or -PFT_E_EOS) would, the totals kept: for a caller that
 * wants only the totals.  Packets the join does not need one by one are
 * counted without being built (pft_pkt_decoder_count).  Returns that
 * status, or -PFT_E_INVAL. */
PFT_API int pft_par_drain(struct pft_par *par);

/* Totals of everything given so far (PACKETS: PFT, or ETMv3 as
 * pft_etm3_decoder_count counts them; FLOW: the flow statistics, whose
 * block-cache counts are those of the decoder now serial only; for ETMv3,
 * whose flow keeps no totals, they are counted here: packets but unsynced
 * and error items, instructions, ranges and events output, bytes decoded;
 * block-cache counts 0). */
PFT_API int pft_par_get_counts(const struct pft_par *par, struct pft_par_counts *c, size_t size);
PFT_API int pft_par_get_etm3_counts(const struct pft_par *par, struct pft_etm3_counts *c,
				    size_t size);
PFT_API int pft_par_get_stats(const struct pft_par *par, struct pft_flow_stats *st, size_t size);

/* How the stretches were joined: segments whose decoder was taken over at
 * an agreeing boundary, stretches decoded serially (no segment, or no
 * agreement), and packets the serial decoder decoded in the joins. */
struct pft_par_join_stats {
	uint64_t joined;
	uint64_t serial;
	uint64_t overlap_packets;
};
PFT_API int pft_par_get_join_stats(const struct pft_par *par, struct pft_par_join_stats *js,
				   size_t size);

#ifdef __cplusplus
}
#endif
#endif
