/* SPDX-License-Identifier: BSD-3-Clause */
/* PFT packet decoder, floor 3: pft_pkt_decoder_next() and pft_pkt_decoder_next_batch().
 * Packets in the middle of a chunk are read in place (the fast path, with
 * the readers of pkt_read.c); anything else (A-sync, unsynchronised bytes,
 * packets cut by a chunk end, errors) is pkt_sync.c's.  See pkt_internal.h
 * for the floors. */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "common/struct_size.h"
#include "packet/pkt_internal.h"
#include "packet/pkt_fast.h"

#if PKT_FAST
#define PKT_NOINLINE __attribute__((noinline))
#else
#define PKT_NOINLINE
#endif

static PKT_NOINLINE int next_general(struct pft_pkt_decoder *dec, struct pft_packet *pkt,
				     size_t size);

#if PKT_FAST
/* One packet at p (PKT_FAST_AVAIL bytes readable, in sync, no partial
 * packet), at stream offset off.  Returns its size, or 0 to leave it to the
 * general path.  ca is constant after inlining. */
static PKT_INLINE unsigned fast_one(struct pft_pkt_decoder *d, const uint8_t *p, uint64_t off,
				    struct pft_packet *pkt, const int ca)
{
	uint64_t w = pkt_ld64(p);
	unsigned h = (uint8_t)w, n;

	if (PKT_LIKELY((h & 0x81) == 0x80))
		return ca ? pkt_fast_atom_ca(w, off, pkt) : pkt_fast_atom(h, off, pkt);
	if (h & 1) {
		n = pkt_fast_branch(&d->st, p, w, off, pkt, ca);
		return PKT_LIKELY(n) ? n : pkt_read_branch_full(d, p, off, pkt);
	}
	if (h == 0x08)
		return pkt_fast_isync(&d->cfg, &d->st, p, off, pkt);
	return pkt_read_other(d, p, off, pkt);
}
#endif

#if PKT_FAST
/* pft_pkt_decoder_next() for everything but the atoms it reads itself. */
static PKT_NOINLINE int next_other(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	size_t pos = dec->pos;

	if (PKT_LIKELY(pos < dec->fast_lim)) {
		const uint8_t *p = dec->buf + pos;
		uint64_t off = dec->buf_off + pos;
		unsigned n = dec->cfg.ca ? fast_one(dec, p, off, pkt, 1) : fast_one(dec, p, off, pkt, 0);
		if (PKT_LIKELY(n)) {
			dec->pos = pos + n;
			return 0;
		}
	}
	return next_general(dec, pkt, size);
}
#endif

#if PKT_FAST
/* pft_pkt_decoder_next() for one configuration class (ca constant): atoms in the
 * middle of a chunk are read here, other packets by next_other().  Only
 * tail calls, so that no register needs saving. */
static PKT_INLINE int next_atom(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size,
				const int ca)
{
	size_t pos = dec->pos;

	if (PKT_LIKELY(pos < dec->fast_lim)) {
		uint64_t w = pkt_ld64(dec->buf + pos);
		if (PKT_LIKELY((w & 0x81) == 0x80)) {
			unsigned n = ca ? pkt_fast_atom_ca(w, dec->buf_off + pos, pkt)
					: pkt_fast_atom((uint8_t)w, dec->buf_off + pos, pkt);
			if (PKT_LIKELY(n)) {
				dec->pos = pos + n;
				return 0;
			}
		}
	}
	return next_other(dec, pkt, size);
}

static PKT_NOINLINE int next_ca(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	return next_atom(dec, pkt, size, 1);
}

static PKT_NOINLINE int next_nca(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	return next_atom(dec, pkt, size, 0);
}
#endif

/* The hot path: packets in the middle of a chunk are read in place (see
 * next_atom() and fast_one()); anything else (A-sync, errors, chunk ends,
 * partial packets, unsynchronised bytes) goes to next_general(). */
static int next_sized(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size);

int pft_pkt_decoder_next(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	if (PKT_UNLIKELY(!dec || !pkt || size != sizeof(*pkt)))
		return next_sized(dec, pkt, size);
#if PKT_FAST
	return dec->cfg.ca ? next_ca(dec, pkt, size) : next_nca(dec, pkt, size);
#else
	return next_general(dec, pkt, size);
#endif
}

#if PKT_FAST
/* pft_pkt_decoder_next_batch's inner loop: fast_one() while it can. */
static PKT_INLINE size_t batch_fast(struct pft_pkt_decoder *dec, struct pft_packet *pkts,
				    size_t max, const int ca)
{
	const uint8_t *p = dec->buf + dec->pos, *lim = dec->buf + dec->fast_lim;
	uint64_t delta = dec->buf_off - (uint64_t)(uintptr_t)dec->buf; /* offset - address */
	struct pft_packet *pkt = pkts;

	/* every packet is at least one byte: while fewer than max - i bytes
	 * have been read, fewer than max - i packets have been written */
	while (p < lim) {
		size_t left = max - (size_t)(pkt - pkts);
		const uint8_t *stop = (size_t)(lim - p) > left ? p + left : lim;
		if (!left)
			break;
		do {
			unsigned n = fast_one(dec, p, (uint64_t)(uintptr_t)p + delta, pkt, ca);
			if (PKT_UNLIKELY(!n))
				goto out;
			p += n;
			pkt++;
		} while (p < stop);
	}
out:
	dec->pos = (size_t)(p - dec->buf);
	return (size_t)(pkt - pkts);
}
#endif

int pft_pkt_decoder_next_batch(struct pft_pkt_decoder *dec, struct pft_packet *pkts, size_t max,
		       size_t size)
{
	size_t i = 0;
	int r;

	if (!dec || !pkts || !max || !size)
		return -PFT_E_INVAL;
	if (max > INT_MAX)
		max = INT_MAX;
	for (;;) {
#if PKT_FAST
		if (size == sizeof(*pkts) && dec->pos < dec->fast_lim) {
			i += dec->cfg.ca ? batch_fast(dec, pkts + i, max - i, 1)
					 : batch_fast(dec, pkts + i, max - i, 0);
			if (i == max)
				break;
		}
#endif
		r = size == sizeof(*pkts) ? next_general(dec, pkts + i, size)
					  : next_sized(dec, (struct pft_packet *)(void *)((char *)pkts + i * size), size);
		if (r < 0)
			return i ? (int)i : r;
		if (++i == max)
			break;
	}
	return (int)i;
}

static int next_general_impl(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size);

/* A caller's struct pft_packet of another size (an older or newer
 * pft/packet.h): decode into the library's, copy the smaller size, zero
 * the rest. */
static int next_sized(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	struct pft_packet tmp;
	int r;

	if (!dec || !pkt || !size)
		return -PFT_E_INVAL;
	r = next_general(dec, &tmp, sizeof(tmp));
	pft_copy_out(pkt, size, &tmp, sizeof(tmp));
	return r;
}

static int next_general(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	int r = next_general_impl(dec, pkt, size);
	if (dec)
		upd_fast(dec);
	return r;
}

/* The packet at pos, read in place (in sync, no partial packet, no queued
 * item, pos < len): 0 with an item, or 1 when the reader found no complete
 * packet (an A-sync, or a packet the chunk cuts) and changed the mode for
 * pkt_sync.c. */
static int next_in_place(struct pft_pkt_decoder *dec, struct pft_packet *pkt)
{
	const uint8_t *p = dec->buf + dec->pos;
	size_t avail = dec->len - dec->pos;
	int r;

	memset(pkt, 0, sizeof(*pkt));
	if (avail >= PKT_FAST_AVAIL)
		r = pkt_read_packet_fast(dec, p, avail, pkt);
	else
		r = pkt_read_packet(dec, p, avail, pkt);
	if (r > 0) {
		pkt->offset = dec->buf_off + dec->pos;
		pkt_copy_raw(pkt, p, avail, (unsigned)r);
		dec->pos += (size_t)r;
		return 0;
	}
	if (r == R_ERROR) {
		uint64_t off = dec->buf_off + dec->pos;
		dec->pos += pkt->size;
		return pkt_sync_on_error(dec, pkt, off, p);
	}
	if (r == NEED_MORE) {
		/* the packet continues in the next chunk */
		dec->part_off = dec->buf_off + dec->pos;
		dec->part_len = (uint8_t)avail;
		memcpy(dec->part, p, avail);
		dec->pos = dec->len;
	} else {
		dec->mode = M_ZEROS;
		dec->run_off = dec->buf_off + dec->pos;
		dec->zrun = 0;
	}
	return 1;
}

static int next_general_impl(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size)
{
	int r;

	if (!dec || !pkt || size < sizeof(*pkt))
		return -PFT_E_INVAL;
	for (;;) {
		if (dec->mode == M_SYNC && !dec->part_len && !dec->has_pend && dec->pos < dec->len) {
			r = next_in_place(dec, pkt);
			if (r <= 0)
				return r;
		}
		r = pkt_sync_next(dec, pkt);
		if (r != PKT_IN_SYNC)
			return r;
	}
}
