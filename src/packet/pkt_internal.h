/* SPDX-License-Identifier: BSD-3-Clause */
/* The packet decoder object and the interfaces between its floors.  Each
 * file calls only the floors below it, never one above:
 *   pkt_state.h, pkt_fields.h, pkt_fast.h, pkt_tables.c
 *                  configuration and compression state (shared with the
 *                  encoder), sub-field readers, in-place fast readers,
 *                  header and atom tables
 *   pkt_read.c     floor 1: one reader per packet type (bounds-checked, or
 *                  in place with PKT_FAST_AVAIL bytes readable)
 *   pkt_sync.c     floor 2: everything out of the in-place path: A-sync
 *                  search, unsynchronised runs counted across chunks, zero
 *                  runs, packets cut by a chunk end, errors, pft_pkt_decoder_resync()
 *   pkt_next.c     floor 3: pft_pkt_decoder_next() and pft_pkt_decoder_next_batch(): the
 *                  in-place loop, handing over to pkt_sync.c
 *   pkt_count.c    floor 3b: pft_pkt_decoder_count(): the items counted in
 *                  place without building packets, the rest through
 *                  pft_pkt_decoder_next()
 *   pkt_decoder.c  floor 4: life cycle (alloc, feed, end, offset) and
 *                  pft_pkt_decode_buffer()
 * The encoder (pkt_encoder.c) stands beside them on pkt_state.h and
 * pkt_fields.h alone.
 *
 * Three modes:
 *   SEARCH  unsynchronised: scan for >= 5 x 0x00 followed by 0x80; the bytes
 *           passed over come out as one PFT_PKT_UNSYNCED item when the A-sync
 *           is found, at the end of the stream, or at RUN_MAX bytes.  The run
 *           is counted across chunks, not copied: only its first 16 bytes are
 *           kept (head[]), so the item is the same however the input is cut.
 *   ZEROS   inside a run of 0x00 bytes that should end in 0x80 (A-sync); the
 *           run is only counted, never copied, so it may be any length.
 *   SYNC    one header-table lookup and one reader per packet type.  When the
 *           whole packet is inside the current chunk it is read in place (the
 *           fast path); a packet cut by the end of a chunk is copied into
 *           part[] (at most one packet, < 16 bytes) and completed from the
 *           next chunk.
 * Every byte fed is reported in exactly one item.  Readers never change the
 * decoder state unless they return a complete packet, so a reader can be
 * retried when more bytes arrive. */
#ifndef PFT_PACKET_PKT_INTERNAL_H
#define PFT_PACKET_PKT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "packet/pkt_state.h"
#include "packet/pkt_fields.h"

enum { M_SEARCH, M_ZEROS, M_SYNC };

/* Readers return the packet length (> 0), NEED_MORE, or one of these. */
#define NEED_MORE 0
#define R_ERROR (-1)  /* pkt holds a PFT_PKT_ERROR item (reason, size) */
#define R_ZEROS (-2)  /* 0x00 header: an A-sync starts */

/* Longest zero run kept as one A-sync (longer: the zeros before the last
 * ZRUN_MAX are skipped bytes), and longest UNSYNCED item.  Both limits are
 * applied at exact stream positions, whatever the chunking. */
#define ZRUN_MAX (1u << 29)
#define RUN_MAX (1u << 30)

struct pft_pkt_decoder {
	struct pkt_dec_cfg cfg;
	struct pkt_dec_state st;

	const uint8_t *buf;   /* current chunk (borrowed) */
	size_t len, pos;
	size_t fast_lim;      /* pos < fast_lim: in sync, no partial packet, and
	                         PKT_FAST_AVAIL bytes readable (see upd_fast) */
	uint64_t buf_off;     /* stream offset of buf[0] */

	uint8_t mode;
	uint8_t ended;        /* pft_pkt_decoder_end() called */
	uint8_t drained;      /* next() returned AGAIN for this chunk */
	uint8_t has_pend;
	uint8_t part_len;
	uint8_t part[PFT_PKT_MAX_BYTES];
	uint64_t part_off;

	/* SEARCH: the bytes not yet reported (the search run) start at
	 * run_off: `carry` bytes from earlier chunks, whose first
	 * min(carry, 16) are in head[], then buf[run_start .. pos).  zrun is
	 * the number of trailing zeros of the run.  Whenever part of a run is
	 * reported, what is left of it is zeros only.
	 * ZEROS: zrun zero bytes from run_off on (counted only). */
	uint64_t run_off;
	uint64_t carry;
	size_t run_start;
	uint64_t zrun;
	uint8_t head[PFT_PKT_MAX_BYTES];

	/* Resynchronisation at an I-sync (pkt_sync.c), as isync_resync (enum
	 * pft_isync_resync) says; synced_once: an A-sync was found.  win holds the last
	 * bytes of the search run (win_n of them, at most 8), lowest byte the
	 * newest, so that a candidate is seen whatever the chunking. */
	uint8_t isync_resync;
	uint8_t synced_once;
	uint8_t win_n;
	uint8_t found_isync;  /* search_scan: 0, or the bytes of the I-sync found */
	uint64_t win;

	struct pft_packet pend; /* one queued item (pft_pkt_decoder_resync) */
};

/* fast_lim for the current chunk and mode: pos < fast_lim means the packet
 * at pos can be read in place (pkt_next.c).  Call after any change of
 * mode, part_len or chunk. */
static inline void upd_fast(struct pft_pkt_decoder *d)
{
	d->fast_lim = (PKT_FAST && d->mode == M_SYNC && !d->part_len && d->len >= PKT_FAST_AVAIL)
			      ? d->len - PKT_FAST_AVAIL + 1
			      : 0;
}

/* The raw bytes of a packet read in place; bytes[] beyond size stay 0. */
static inline void pkt_copy_raw(struct pft_packet *pkt, const uint8_t *p, size_t avail,
				unsigned size)
{
	pkt->nbytes = (uint8_t)size;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (avail >= PFT_PKT_MAX_BYTES) {
		/* two 8-byte loads and masks instead of a variable-length copy */
		uint64_t lo, hi;
		memcpy(&lo, p, 8);
		memcpy(&hi, p + 8, 8);
		if (size >= 8) {
			hi &= size >= 16 ? ~0ull : (1ull << (8 * (size - 8))) - 1;
		} else {
			lo &= (1ull << (8 * size)) - 1;
			hi = 0;
		}
		memcpy(pkt->bytes, &lo, 8);
		memcpy(pkt->bytes + 8, &hi, 8);
		return;
	}
#else
	(void)avail;
#endif
	memcpy(pkt->bytes, p, size);
}

/* ---- floor 1, pkt_read.c ---- */

/* One packet at p (avail >= 1 bytes, pkt zeroed): the length, NEED_MORE,
 * R_ERROR or R_ZEROS.  The compression state changes only on a packet. */
int pkt_read_packet(struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
		    struct pft_packet *pkt);
/* pkt_read_packet() with avail >= PKT_FAST_AVAIL: no bounds checks for the
 * common packets. */
int pkt_read_packet_fast(struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
			 struct pft_packet *pkt);
/* With PKT_FAST_AVAIL bytes readable at p (stream offset off): a branch
 * packet with exception bytes or a 5-byte address (pkt_read_branch_full),
 * or any header but atoms, branches and I-syncs (pkt_read_other), as a
 * complete item with offset and raw bytes.  Return the size, or 0 for an
 * A-sync or an error (the general path reports those). */
unsigned pkt_read_branch_full(struct pft_pkt_decoder *d, const uint8_t *p, uint64_t off,
			      struct pft_packet *pkt);
unsigned pkt_read_other(struct pft_pkt_decoder *d, const uint8_t *p, uint64_t off,
			struct pft_packet *pkt);

/* ---- floor 2, pkt_sync.c ---- */

/* pkt_sync_next() returns this when the decoder is in sync with a packet
 * at pos to read in place (the caller's floor does that). */
#define PKT_IN_SYNC 1

/* The next item when the in-place path cannot give it (A-sync search, zero
 * runs, a partial packet, a queued item, chunk and stream end): 0 with an
 * item, PKT_IN_SYNC, -PFT_E_AGAIN or -PFT_E_EOS. */
int pkt_sync_next(struct pft_pkt_decoder *d, struct pft_packet *pkt);
/* Turn the R_ERROR result in pkt (reason, size) into an ERROR item for the
 * bytes at p (stream offset off) and start searching. */
int pkt_sync_on_error(struct pft_pkt_decoder *d, struct pft_packet *pkt, uint64_t off,
		      const uint8_t *p);

#endif
