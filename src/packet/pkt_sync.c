/* SPDX-License-Identifier: BSD-3-Clause */
/* PFT packet decoder, floor 2: everything out of the in-place path.  The
 * A-sync search with its unsynchronised run counted across chunks (only the
 * first 16 bytes kept), zero runs, a packet cut by the end of a chunk
 * (part[]) completed from the next one with the readers of pkt_read.c,
 * errors, and pft_pkt_decoder_resync().  Every byte fed is reported in exactly one
 * item.  See pkt_internal.h for the floors. */
#include <stddef.h>
#include <string.h>

#include "packet/pkt_internal.h"

static void enter_search(struct pft_pkt_decoder *d)
{
	pkt_dec_state_reset(&d->st);
	d->mode = M_SEARCH;
	d->run_off = d->buf_off + d->pos;
	d->carry = 0;
	d->run_start = d->pos;
	d->zrun = 0;
	d->win_n = 0;
}

/* SEARCH, end of a chunk: the run's bytes in it become carry (the first 16
 * of the run are copied while buf is still valid). */
static void stash_run(struct pft_pkt_decoder *d)
{
	size_t n = d->pos - d->run_start;

	if (d->carry < PFT_PKT_MAX_BYTES) {
		size_t k = PFT_PKT_MAX_BYTES - (size_t)d->carry;
		if (k > n)
			k = n;
		if (k)
			memcpy(d->head + d->carry, d->buf + d->run_start, k);
	}
	d->carry += n;
	d->run_start = d->pos;
}

static void resync(struct pft_pkt_decoder *dec);

void pft_pkt_decoder_resync(struct pft_pkt_decoder *dec)
{
	if (!dec)
		return;
	resync(dec);
	upd_fast(dec);
}

static void resync(struct pft_pkt_decoder *dec)
{
	if (dec->mode == M_SYNC && dec->part_len && !dec->has_pend) {
		struct pft_packet *u = &dec->pend;
		memset(u, 0, sizeof(*u));
		u->type = PFT_PKT_UNSYNCED;
		u->offset = dec->part_off;
		u->size = dec->part_len;
		u->nbytes = dec->part_len;
		memcpy(u->bytes, dec->part, dec->part_len);
		dec->has_pend = 1;
		dec->part_len = 0;
	}
	if (dec->mode == M_SEARCH) {
		pkt_dec_state_reset(&dec->st);
		return;
	}
	if (dec->mode == M_ZEROS) {
		/* the zeros counted so far start the search run */
		pkt_dec_state_reset(&dec->st);
		dec->mode = M_SEARCH;
		dec->carry = dec->zrun; /* zero bytes before buf[pos] */
		memset(dec->head, 0, sizeof(dec->head));
		dec->run_start = dec->pos;
		return;
	}
	enter_search(dec);
}

/* Fill bytes[] of an item whose range is `zeros` zero bytes followed by src
 * (A-sync, zero runs). */
static void fill_bytes(struct pft_packet *pkt, uint64_t zeros, const uint8_t *src, uint64_t size)
{
	unsigned n = size < PFT_PKT_MAX_BYTES ? (unsigned)size : PFT_PKT_MAX_BYTES;
	unsigned z = zeros < n ? (unsigned)zeros : n;

	memset(pkt->bytes, 0, sizeof(pkt->bytes));
	if (n > z && src)
		memcpy(pkt->bytes + z, src, n - z);
	pkt->nbytes = (uint8_t)n;
}

static void item(struct pft_packet *pkt, unsigned type, uint64_t off, uint64_t size)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->type = (uint16_t)type;
	pkt->offset = off;
	pkt->size = (uint32_t)size;
}

/* Report the first n bytes of the search run as UNSYNCED: bytes[] from
 * head[] (the carried part) then from the chunk.  What is left of the run
 * is zeros only. */
static void emit_unsynced(struct pft_pkt_decoder *d, struct pft_packet *pkt, uint64_t n)
{
	unsigned nb = n < PFT_PKT_MAX_BYTES ? (unsigned)n : PFT_PKT_MAX_BYTES;
	unsigned h = d->carry < nb ? (unsigned)d->carry : nb;

	item(pkt, PFT_PKT_UNSYNCED, d->run_off, n);
	memcpy(pkt->bytes, d->head, h);
	if (nb > h)
		memcpy(pkt->bytes + h, d->buf + d->run_start, nb - h);
	pkt->nbytes = (uint8_t)nb;
	d->run_off += n;
	if (n <= d->carry) {
		d->carry -= n;
		memset(d->head, 0, sizeof(d->head));
	} else {
		d->run_start += (size_t)(n - d->carry);
		d->carry = 0;
	}
}

int pkt_sync_on_error(struct pft_pkt_decoder *d, struct pft_packet *pkt, uint64_t off,
		      const uint8_t *p)
{
	unsigned size = pkt->size;
	unsigned reason = pkt->reason;

	item(pkt, PFT_PKT_ERROR, off, size);
	pkt->reason = (uint8_t)reason;
	pkt->nbytes = (uint8_t)size;
	memcpy(pkt->bytes, p, size);
	enter_search(d);
	return 0;
}

/* The piece functions below return 0 with an item, PKT_IN_SYNC, a
 * negative status, or STEP_AGAIN when the mode changed without an item. */
#define STEP_AGAIN 2

/* Every byte of the chunk is accounted for. */
static int chunk_done(struct pft_pkt_decoder *d)
{
	if (d->ended)
		return -PFT_E_EOS;
	d->drained = 1;
	return -PFT_E_AGAIN;
}

/* An ERROR item for the `size` bytes from stream offset off: the first
 * zeros of them are zero bytes, the rest (if any) come from src. */
static void error_item(struct pft_packet *pkt, unsigned reason, uint64_t off, uint64_t size,
		       uint64_t zeros, const uint8_t *src)
{
	item(pkt, PFT_PKT_ERROR, off, size);
	pkt->reason = (uint8_t)reason;
	fill_bytes(pkt, zeros, src, size);
}

/* SYNC with a packet cut at the end of the last chunk (part[]): complete it
 * from this chunk.  Without one, the in-place path reads on. */
static int sync_part(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	unsigned old = d->part_len, total, take;
	int r;

	if (!old)
		return d->pos < d->len ? PKT_IN_SYNC : chunk_done(d);
	take = PFT_PKT_MAX_BYTES - old;
	if (take > d->len - d->pos)
		take = (unsigned)(d->len - d->pos);
	if (!take && !d->ended)
		return chunk_done(d);
	memcpy(d->part + old, d->buf + d->pos, take);
	total = old + take;
	memset(pkt, 0, sizeof(*pkt));
	r = pkt_read_packet(d, d->part, total, pkt);
	if (r > 0) {
		pkt->offset = d->part_off;
		pkt->nbytes = (uint8_t)r;
		memcpy(pkt->bytes, d->part, (size_t)r);
		d->pos += (size_t)r - old;
		d->part_len = 0;
		return 0;
	}
	if (r == R_ERROR) {
		unsigned esz = pkt->size < old ? old : pkt->size;
		pkt->size = esz;
		d->pos += esz - old;
		d->part_len = 0;
		return pkt_sync_on_error(d, pkt, d->part_off, d->part);
	}
	/* still incomplete: everything left was taken */
	d->part_len = (uint8_t)total;
	d->pos = d->len;
	if (!d->ended)
		return chunk_done(d);
	error_item(pkt, PFT_PERR_TRUNCATED, d->part_off, total, 0, d->part);
	d->part_len = 0;
	enter_search(d);
	return 0;
}

/* ZEROS, the run longer than ZRUN_MAX: all but the last five zeros are
 * reported as skipped, and the search goes on. */
static int zeros_too_long(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	uint64_t n = d->zrun - 5;

	pkt_dec_state_reset(&d->st);
	d->mode = M_SEARCH;
	d->carry = d->zrun;
	memset(d->head, 0, sizeof(d->head));
	d->run_start = d->pos;
	emit_unsynced(d, pkt, n);
	d->zrun = 5;
	return 0;
}

/* ZEROS: count the zero run; it ends in an A-sync (>= 5 zeros then 0x80),
 * or is a bad A-sync, or is cut by the end of the stream. */
static int sync_zeros(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	const uint8_t *b = d->buf;
	size_t pos = d->pos, len = d->len, lim = len;

	/* stop at the zero that makes the run longer than ZRUN_MAX */
	if (lim - pos > ZRUN_MAX + 1 - d->zrun)
		lim = pos + (size_t)(ZRUN_MAX + 1 - d->zrun);
	while (pos < lim && b[pos] == 0)
		pos++;
	d->zrun += pos - d->pos;
	d->pos = pos;
	if (d->zrun > ZRUN_MAX)
		return zeros_too_long(d, pkt);
	if (pos == len) {
		if (!d->ended)
			return chunk_done(d);
		if (!d->zrun) {
			enter_search(d);
			return STEP_AGAIN;
		}
		/* the stream ends inside an A-sync */
		error_item(pkt, PFT_PERR_TRUNCATED, d->run_off, d->zrun, d->zrun, NULL);
		enter_search(d);
		return 0;
	}
	if (b[pos] == 0x80 && d->zrun >= 5) {
		item(pkt, PFT_PKT_ASYNC, d->run_off, d->zrun + 1);
		fill_bytes(pkt, d->zrun, b + pos, d->zrun + 1);
		d->pos = pos + 1;
		d->mode = M_SYNC;
		d->synced_once = 1;
		return 0;
	}
	/* fewer than 5 zeros, or not followed by 0x80 */
	error_item(pkt, PFT_PERR_BAD_ASYNC, d->run_off, d->zrun, d->zrun, NULL);
	enter_search(d);
	return 0;
}

/* Does the search window end with the first bytes of an I-sync?  An I-sync
 * whose fixed bits hold (doc/packets.md, "Resynchronisation at an I-sync"):
 * header 0x08; an ARM address (T = 0) with bit 1 clear; an information byte
 * with b7 = 0, b4 = 0, b0 = 1 and no Hyp bit before PFTv1.1; with cycle
 * accuracy and a reason other than periodic, the first cycle-count byte
 * with M = 1 and b1:b0 = 0.  Returns the bytes seen of it (6 or 7; the rest
 * of the packet follows), or 0. */
static unsigned isync_candidate(const struct pft_pkt_decoder *d)
{
	uint64_t w = d->win;
	unsigned n = d->win_n, len = 6;
	uint8_t info = (uint8_t)w, a0, reason;

	if (d->cfg.ca && n >= 7 && (uint8_t)(w >> 48) == 0x08 && ((w >> 13) & 3) != 0) {
		if ((w & 0x83) != 0x80)
			return 0;
		len = 7;
		info = (uint8_t)(w >> 8);
	} else if (n < 6 || (uint8_t)(w >> 40) != 0x08) {
		return 0;
	}
	reason = (info >> 5) & 3;
	if ((info & 0x91) != 0x01 || (!d->cfg.v11 && (info & 0x02)))
		return 0;
	if (len == 6 && d->cfg.ca && reason != 0)
		return 0; /* its cycle count byte is not there yet */
	a0 = (uint8_t)(w >> (8 * (len - 2)));
	if (!(a0 & 1) && (a0 & 2))
		return 0;
	return len;
}

/* SEARCH: scan for >= 5 zeros followed by 0x80 and, when resynchronising
 * mid-stream, for an I-sync (isync_candidate), up to the end of the chunk
 * or RUN_MAX bytes of run.  Returns the position reached (lim if nothing was
 * found); d->zrun counts the trailing zeros; d->found_isync tells an I-sync
 * ending at the position returned. */
static size_t search_scan(struct pft_pkt_decoder *d, size_t lim)
{
	const uint8_t *b = d->buf;
	size_t pos = d->pos;
	uint64_t z = d->zrun;
	int isync = d->isync_resync == PFT_ISYNC_RESYNC_ALWAYS ||
		    (d->isync_resync == PFT_ISYNC_RESYNC_LOST && d->synced_once);

	d->found_isync = 0;
	while (pos < lim) {
		uint8_t c = b[pos];
		if (c == 0) {
			z++;
		} else if (c == 0x80 && z >= 5) {
			break;
		} else {
			z = 0;
		}
		if (isync) {
			d->win = d->win << 8 | c;
			if (d->win_n < 8)
				d->win_n++;
			if (c != 0 && (d->found_isync = (uint8_t)isync_candidate(d)) != 0)
				break;
		}
		pos++;
	}
	d->zrun = z;
	d->pos = pos;
	return pos;
}

/* SEARCH found an I-sync whose last byte seen is at pos: the run before it
 * is reported, and its bytes go to part[] to be read as a packet in SYNC. */
static int isync_found(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	unsigned len = d->found_isync, i;
	uint64_t start = d->buf_off + d->pos + 1 - len;
	uint64_t n = start - d->run_off;

	d->pos++;
	if (n)
		emit_unsynced(d, pkt, n);
	for (i = 0; i < len; i++)
		d->part[i] = (uint8_t)(d->win >> (8 * (len - 1 - i)));
	d->part_len = (uint8_t)len;
	d->part_off = start;
	d->carry = 0;
	d->zrun = 0;
	d->win_n = 0;
	d->found_isync = 0;
	d->mode = M_SYNC;
	return n ? 0 : STEP_AGAIN;
}

/* SEARCH: the unsynchronised run is reported when an A-sync ends it, when it
 * reaches RUN_MAX bytes, or at the end of the stream; at the end of a chunk
 * it is carried over. */
static int sync_search(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	size_t lim = d->len;
	uint64_t run = d->carry + (d->pos - d->run_start), zs;

	/* stop where the run reaches RUN_MAX bytes */
	if (lim - d->pos > RUN_MAX - run)
		lim = d->pos + (size_t)(RUN_MAX - run);
	if (search_scan(d, lim) < lim) {
		if (d->found_isync)
			return isync_found(d, pkt);
		/* A-sync found: its zeros (at most ZRUN_MAX) end the run */
		run = d->carry + (d->pos - d->run_start);
		zs = d->zrun > ZRUN_MAX ? ZRUN_MAX : d->zrun;
		d->zrun = zs;
		d->mode = M_ZEROS;
		if (run == zs)
			return STEP_AGAIN;
		emit_unsynced(d, pkt, run - zs);
		return 0;
	}
	run = d->carry + (d->pos - d->run_start);
	if (run == RUN_MAX) {
		/* longest item: report all but the trailing zeros (at most
		 * ZRUN_MAX), which an A-sync may end */
		zs = d->zrun > ZRUN_MAX ? ZRUN_MAX : d->zrun;
		emit_unsynced(d, pkt, run - zs);
		d->zrun = zs;
		return 0;
	}
	/* pos == len */
	if (d->ended) {
		if (!run)
			return -PFT_E_EOS;
		emit_unsynced(d, pkt, run);
		d->zrun = 0;
		return 0;
	}
	stash_run(d);
	return chunk_done(d);
}

int pkt_sync_next(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	int r;

	if (d->has_pend) {
		*pkt = d->pend;
		d->has_pend = 0;
		return 0;
	}
	do {
		switch (d->mode) {
		case M_SYNC:
			r = sync_part(d, pkt);
			break;
		case M_ZEROS:
			r = sync_zeros(d, pkt);
			break;
		case M_SEARCH:
			r = sync_search(d, pkt);
			break;
		default:
			return -PFT_E_INTERNAL;
		}
	} while (r == STEP_AGAIN);
	return r;
}
