/* SPDX-License-Identifier: BSD-3-Clause */
/* PFT packet decoder, out of the in-place path: the A-sync search with its
 * unsynchronised run counted across chunks (only the first 16 bytes kept),
 * zero runs, a packet cut by the end of a chunk (part[]) completed from the
 * next one, errors, and pft_pkt_resync().  Every byte fed is reported in
 * exactly one item. */
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

void pft_pkt_resync(struct pft_pkt_decoder *dec)
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

int pkt_dec_on_error(struct pft_pkt_decoder *d, struct pft_packet *pkt, uint64_t off,
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

int pkt_dec_next_slow(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	if (d->has_pend) {
		*pkt = d->pend;
		d->has_pend = 0;
		return 0;
	}
	for (;;) {
		switch (d->mode) {
		case M_SYNC: {
			unsigned old, total, take;
			int r;

			if (!d->part_len) {
				if (d->pos < d->len)
					return pkt_dec_next_in_sync(d, pkt);
				goto chunk_done;
			}
			/* complete the packet cut at the end of the last chunk */
			old = d->part_len;
			take = PFT_PKT_MAX_BYTES - old;
			if (take > d->len - d->pos)
				take = (unsigned)(d->len - d->pos);
			if (!take && !d->ended)
				goto chunk_done;
			memcpy(d->part + old, d->buf + d->pos, take);
			total = old + take;
			memset(pkt, 0, sizeof(*pkt));
			r = pkt_dec_read_one(d, d->part, total, pkt);
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
				return pkt_dec_on_error(d, pkt, d->part_off, d->part);
			}
			/* still incomplete: everything left was taken */
			d->part_len = (uint8_t)total;
			d->pos = d->len;
			if (d->ended) {
				item(pkt, PFT_PKT_ERROR, d->part_off, total);
				pkt->reason = PFT_PERR_TRUNCATED;
				pkt->nbytes = (uint8_t)total;
				memcpy(pkt->bytes, d->part, total);
				d->part_len = 0;
				enter_search(d);
				return 0;
			}
			goto chunk_done;
		}
		case M_ZEROS: {
			const uint8_t *b = d->buf;
			size_t pos = d->pos, len = d->len, lim = len;
			/* stop at the zero that makes the run longer than ZRUN_MAX */
			if (lim - pos > ZRUN_MAX + 1 - d->zrun)
				lim = pos + (size_t)(ZRUN_MAX + 1 - d->zrun);
			while (pos < lim && b[pos] == 0)
				pos++;
			d->zrun += pos - d->pos;
			d->pos = pos;
			if (d->zrun > ZRUN_MAX) {
				/* absurdly long zero run: report all but the last
				 * five zeros as skipped and keep searching */
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
			if (pos == len) {
				if (!d->ended)
					goto chunk_done;
				if (!d->zrun) {
					enter_search(d);
					continue;
				}
				/* the stream ends inside an A-sync */
				item(pkt, PFT_PKT_ERROR, d->run_off, d->zrun);
				pkt->reason = PFT_PERR_TRUNCATED;
				fill_bytes(pkt, d->zrun, NULL, d->zrun);
				enter_search(d);
				return 0;
			}
			if (b[pos] == 0x80 && d->zrun >= 5) {
				item(pkt, PFT_PKT_ASYNC, d->run_off, d->zrun + 1);
				fill_bytes(pkt, d->zrun, b + pos, d->zrun + 1);
				d->pos = pos + 1;
				d->mode = M_SYNC;
				return 0;
			}
			/* fewer than 5 zeros, or not followed by 0x80 */
			item(pkt, PFT_PKT_ERROR, d->run_off, d->zrun);
			pkt->reason = PFT_PERR_BAD_ASYNC;
			fill_bytes(pkt, d->zrun, NULL, d->zrun);
			enter_search(d);
			return 0;
		}
		case M_SEARCH: {
			const uint8_t *b = d->buf;
			size_t pos = d->pos, len = d->len, lim = len;
			uint64_t z = d->zrun, n, run = d->carry + (pos - d->run_start);

			/* stop where the run reaches RUN_MAX bytes */
			if (lim - pos > RUN_MAX - run)
				lim = pos + (size_t)(RUN_MAX - run);
			while (pos < lim) {
				uint8_t c = b[pos];
				if (c == 0) {
					z++;
				} else if (c == 0x80 && z >= 5) {
					break;
				} else {
					z = 0;
				}
				pos++;
			}
			d->zrun = z;
			d->pos = pos;
			run = d->carry + (pos - d->run_start);
			if (pos < lim) {
				/* A-sync found: its zeros (at most ZRUN_MAX) end the run */
				uint64_t zs = z > ZRUN_MAX ? ZRUN_MAX : z;
				n = run - zs;
				d->zrun = zs;
				d->mode = M_ZEROS;
				if (n) {
					emit_unsynced(d, pkt, n);
					return 0;
				}
				continue;
			}
			if (run == RUN_MAX) {
				/* longest item: report all but the trailing zeros
				 * (at most ZRUN_MAX), which an A-sync may end */
				uint64_t zs = z > ZRUN_MAX ? ZRUN_MAX : z;
				emit_unsynced(d, pkt, run - zs);
				d->zrun = zs;
				return 0;
			}
			/* pos == len */
			if (d->ended) {
				if (run) {
					emit_unsynced(d, pkt, run);
					d->zrun = 0;
					return 0;
				}
				return -PFT_E_EOS;
			}
			stash_run(d);
			goto chunk_done;
		}
		default:
			return -PFT_E_INTERNAL;
		}
	}
chunk_done:
	if (d->ended)
		return -PFT_E_EOS;
	d->drained = 1;
	return -PFT_E_AGAIN;
}
