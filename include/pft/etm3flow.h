/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft ETMv3 instruction flow (pft_etm3_flow_): ETMv3 packets (etm3.h)
 * walked against a program image, giving the same struct pft_flow_item
 * ranges and events as the PFT flow decoder (flow.h), so that everything
 * above the flow serves both protocols.
 *
 *     fl = pft_etm3_flow_decoder_alloc(&cfg, img);
 *     for each packet from pft_etm3_decoder_next():
 *         pft_etm3_flow_decoder_put_packet(fl, &pkt);
 *         while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0)
 *             use(&it);                (then -PFT_E_AGAIN)
 *     (or, for n packets from pft_etm3_decoder_next_batch(), while n:
 *         k = pft_etm3_flow_decoder_put_packets(fl, pkts, n, sizeof *pkts);
 *         pull as above; pkts += k; n -= k;)
 *     pft_etm3_flow_decoder_end(fl);
 *     while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0)
 *         use(&it);                    (then -PFT_E_EOS)
 *
 * The last range is held back until the next packet arrives (or the end):
 * the next P-header may make it longer, and a branch packet with exception
 * information and the cancel bit says that its last instruction did not
 * complete, and then that instruction is not output (the exception event's
 * next is its address).
 *
 * ETMv3 traces every instruction: each atom of a P-header is one
 * instruction, E when it executed (passed its condition), N when its
 * condition failed.  A range is a run of instructions executed one after
 * the other: it ends at a branch (end_kind PFT_RANGE_TAKEN for E, the next
 * address from the instruction or, after an indirect branch, from the branch
 * packet that follows; PFT_RANGE_NOT_TAKEN for N), at an N atom on any other
 * instruction (PFT_RANGE_NOT_TAKEN: a condition-failed instruction is always
 * the last of its range), and otherwise with PFT_RANGE_MORE (before an event
 * or an I-sync, at most 32 instructions).  In cycle-accurate mode
 * insn_cycles gives each instruction's cycles (the W marks since the
 * previous atom) and cycles their sum.  Layout and rules: doc/etm3.md. */
#ifndef PFT_ETM3FLOW_H
#define PFT_ETM3FLOW_H

#include "pft/etm3.h"
#include "pft/flow.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pft_image;
struct pft_etm3_flow_decoder;

/* NULL if out of memory or cfg fails pft_etm3_config_features().  img is
 * borrowed (NULL: nothing is readable). */
PFT_API struct pft_etm3_flow_decoder *pft_etm3_flow_decoder_alloc(const struct pft_config *cfg,
						  const struct pft_image *img);
PFT_API void pft_etm3_flow_decoder_free(struct pft_etm3_flow_decoder *fl);

/* The next packet of the stream, in order (UNSYNCED and ERROR items
 * included).  All items of the previous packet must have been pulled
 * (until -PFT_E_AGAIN; else -PFT_E_INVAL). */
PFT_API int pft_etm3_flow_decoder_put_packet(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *pkt);

/* The same for the next packets of an array (as pft_etm3_decoder_next_batch
 * gives them; size is the caller's sizeof *pkts): takes packets in order
 * until one of them makes an item ready to pull, or all n.  Returns how many
 * it took, or -PFT_E_INVAL as pft_etm3_flow_decoder_put_packet.  Then pull
 * until -PFT_E_AGAIN and give the rest.  The items are those of
 * pft_etm3_flow_decoder_put_packet called on each packet; most packets make
 * none (a range grows over several), so this saves two calls per packet. */
PFT_API int pft_etm3_flow_decoder_put_packets(struct pft_etm3_flow_decoder *fl,
					      const struct pft_etm3_packet *pkts, size_t n,
					      size_t size);

/* The same, the packets taken straight from the ETMv3 packet decoder dec
 * (the caller feeds it and ends it): in order, until one of them makes an
 * item ready to pull (0), or until pft_etm3_decoder_next() returns a
 * negative status, which is returned (-PFT_E_AGAIN: feed dec more;
 * -PFT_E_EOS: dec is ended and drained, call pft_etm3_flow_decoder_end()).
 * Runs of P-header bytes are read in place (pft_etm3_decoder_peek()),
 * without building their packets: the fast way to decode, and the items
 * are those of pft_etm3_flow_decoder_put_packet() on every packet of dec.
 * -PFT_E_INVAL as pft_etm3_flow_decoder_put_packet. */
PFT_API int pft_etm3_flow_decoder_put_from(struct pft_etm3_flow_decoder *fl,
					   struct pft_etm3_decoder *dec);

/* Totals as pft_flow_decoder_get_stats() gives them for PFT: packets
 * given (UNSYNCED and ERROR items not counted), bytes (the end of the last
 * item given), ranges, instructions and events pulled; no cache counts.
 * size is sizeof *st.  0, or -PFT_E_INVAL for NULL or size 0. */
PFT_API int pft_etm3_flow_decoder_get_stats(const struct pft_etm3_flow_decoder *fl,
					    struct pft_flow_stats *st, size_t size);

/* No more packets: the held range comes out, then -PFT_E_EOS. */
PFT_API int pft_etm3_flow_decoder_end(struct pft_etm3_flow_decoder *fl);

/* Next item: 0, -PFT_E_AGAIN when the packet is used up, -PFT_E_EOS after
 * pft_etm3_flow_decoder_end() and the last item.  size is sizeof *item.  A range's
 * insns stay valid until the next call. */
PFT_API int pft_etm3_flow_decoder_next(struct pft_etm3_flow_decoder *fl, struct pft_flow_item *item, size_t size);

#ifdef __cplusplus
}
#endif
#endif
