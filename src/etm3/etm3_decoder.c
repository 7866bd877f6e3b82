/* SPDX-License-Identifier: BSD-3-Clause */
/* The ETMv3 stream decoder: A-sync search, unsynced runs, packets that
 * straddle chunks, errors and resynchronisation (doc/etm3.md, "Stream").
 * Packets themselves are read by etm3_read(). */
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "etm3/etm3_internal.h"

#define RUN_SPLIT (1ull << 30) /* an unsynced run is reported at this size */
#define MAX_ZEROS (1ull << 29) /* zeros before an A-sync's 0x80 beyond this are unsynced */
#define CARRY_CAP 32

struct pft_etm3_decoder {
	struct pft_etm3_features f;
	/* Every P-header byte decoded once at allocation, as the item it gives
	 * (offset 0), or type NONE for a reserved encoding: the fast path of
	 * pft_etm3_decoder_next(_batch), since most of an ETMv3 stream is one-byte
	 * P-headers.  Indexed by byte & 0x7F (entries with bit 0 set unused). */
	struct pft_etm3_packet phdr[128];
	/* phdr_ok[b]: byte b is a one-byte P-header (phdr[b & 0x7F] has a type) */
	uint8_t phdr_ok[256];
	struct etm3_state st;
	const uint8_t *buf;
	size_t len, pos;
	uint64_t base;      /* stream offset of buf[0] */
	uint64_t next_off;  /* offset of the next item */
	int ended, synced, in_async;
	/* unsynced run and the zeros that may start an A-sync */
	uint64_t run, zeros;
	uint8_t run_bytes[PFT_ETM3_MAX_BYTES];
	/* partial packet from the previous chunk */
	uint8_t carry[CARRY_CAP];
	size_t carry_len;
	int have_pending;
	struct pft_etm3_packet pending;
	/* buf[pos..run_end) are P-headers (pft_etm3_decoder_peek); 0 after a feed */
	size_t run_end;
};

struct pft_etm3_decoder *pft_etm3_decoder_alloc(const struct pft_config *cfg)
{
	struct pft_etm3_decoder *d;
	struct pft_etm3_features f;
	unsigned i;

	if (pft_etm3_config_features(cfg, &f, NULL, 0))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->f = f;
	etm3_state_reset(&d->st);
	for (i = 0; i < 128; i++)
		d->phdr_ok[0x80 | i] = (uint8_t)(pft_etm3_phdr_byte(&f, (uint8_t)(0x80 | i), &d->phdr[i],
								  sizeof(d->phdr[i])) == 1);
	return d;
}

void pft_etm3_decoder_free(struct pft_etm3_decoder *dec)
{
	free(dec);
}

int pft_etm3_decoder_feed(struct pft_etm3_decoder *d, const uint8_t *buf, size_t len)
{
	if (!d || (!buf && len) || d->ended || d->pos < d->len || d->have_pending)
		return -PFT_E_INVAL;
	d->base += d->len;
	d->buf = buf;
	d->len = len;
	d->pos = 0;
	d->run_end = 0;
	return 0;
}

int pft_etm3_decoder_end(struct pft_etm3_decoder *d)
{
	if (!d)
		return -PFT_E_INVAL;
	d->ended = 1;
	return 0;
}

static void put_item(struct pft_etm3_decoder *d, struct pft_etm3_packet *pkt, unsigned type,
		     uint64_t size, const uint8_t *src, size_t nsrc);

/* Forget the state and search for an A-sync (after an error). */
static void reset(struct pft_etm3_decoder *d)
{
	d->synced = 0;
	d->in_async = 0;
	d->carry_len = 0;
	etm3_state_reset(&d->st);
}

void pft_etm3_decoder_resync(struct pft_etm3_decoder *d)
{
	if (!d)
		return;
	if (d->synced && d->carry_len && !d->have_pending) {
		/* a packet cut by the gap: its bytes are an unsynced item */
		memset(&d->pending, 0, sizeof(d->pending));
		put_item(d, &d->pending, PFT_ETM3_UNSYNCED, d->carry_len, d->carry, d->carry_len);
		d->have_pending = 1;
	}
	reset(d);
}

uint64_t pft_etm3_decoder_get_offset(const struct pft_etm3_decoder *d)
{
	return d ? d->next_off : 0;
}

/* Item covering the next `size` bytes of the stream; raw bytes from src. */
static void put_item(struct pft_etm3_decoder *d, struct pft_etm3_packet *pkt, unsigned type,
		     uint64_t size, const uint8_t *src, size_t nsrc)
{
	pkt->type = (uint16_t)type;
	pkt->offset = d->next_off;
	pkt->size = (uint32_t)size;
	pkt->nbytes = (uint8_t)(nsrc < PFT_ETM3_MAX_BYTES ? nsrc : PFT_ETM3_MAX_BYTES);
	if (src)
		memcpy(pkt->bytes, src, pkt->nbytes);
	d->next_off += size;
}

static void put_zeros_item(struct pft_etm3_decoder *d, struct pft_etm3_packet *pkt,
			   unsigned type, uint64_t size)
{
	memset(pkt, 0, sizeof(*pkt));
	put_item(d, pkt, type, size, NULL, size < PFT_ETM3_MAX_BYTES ? (size_t)size
								   : PFT_ETM3_MAX_BYTES);
	if (type == PFT_ETM3_ASYNC && size <= PFT_ETM3_MAX_BYTES)
		pkt->bytes[size - 1] = 0x80;
}

static void put_run(struct pft_etm3_decoder *d, struct pft_etm3_packet *pkt)
{
	size_t nb = d->run < PFT_ETM3_MAX_BYTES ? (size_t)d->run : PFT_ETM3_MAX_BYTES;
	memset(pkt, 0, sizeof(*pkt));
	put_item(d, pkt, PFT_ETM3_UNSYNCED, d->run, d->run_bytes, nb);
	d->run = 0;
}

static void run_add(struct pft_etm3_decoder *d, uint64_t zeros, uint8_t byte)
{
	uint64_t i;
	for (i = 0; i < zeros && d->run + i < PFT_ETM3_MAX_BYTES; i++)
		d->run_bytes[d->run + i] = 0;
	d->run += zeros;
	if (d->run < PFT_ETM3_MAX_BYTES)
		d->run_bytes[d->run] = byte;
	d->run++;
}

/* Unsynchronised: skip bytes up to an A-sync.  1 with an item, 0 when the
 * chunk is used up. */
static int scan_unsynced(struct pft_etm3_decoder *d, struct pft_etm3_packet *pkt)
{
	while (d->pos < d->len) {
		uint8_t b = d->buf[d->pos++];
		if (b == 0) {
			if (d->zeros == MAX_ZEROS)
				run_add(d, 0, 0);
			else
				d->zeros++;
		} else if (b == 0x80 && d->zeros >= 5) {
			uint64_t asz = d->zeros + 1;
			d->zeros = 0;
			d->synced = 1;
			etm3_state_reset(&d->st);
			if (d->run) {
				put_run(d, pkt);
				d->have_pending = 1;
				put_zeros_item(d, &d->pending, PFT_ETM3_ASYNC, asz);
				return 1;
			}
			put_zeros_item(d, pkt, PFT_ETM3_ASYNC, asz);
			return 1;
		} else {
			run_add(d, d->zeros, b);
			d->zeros = 0;
		}
		if (d->run >= RUN_SPLIT) {
			put_run(d, pkt);
			return 1;
		}
	}
	return 0;
}

/* Synchronised, inside zeros that began at a 0x00 header. */
static int scan_async(struct pft_etm3_decoder *d, struct pft_etm3_packet *pkt)
{
	while (d->pos < d->len) {
		uint8_t b = d->buf[d->pos];
		if (b == 0 && d->zeros < MAX_ZEROS) {
			d->zeros++;
			d->pos++;
			continue;
		}
		d->in_async = 0;
		if (b == 0x80 && d->zeros >= 5) {
			d->pos++;
			put_zeros_item(d, pkt, PFT_ETM3_ASYNC, d->zeros + 1);
		} else {
			/* the zeros are an error; the byte is searched again */
			put_zeros_item(d, pkt, PFT_ETM3_ERROR, d->zeros);
			pkt->reason = PFT_E3ERR_BAD_ASYNC;
			reset(d);
		}
		d->zeros = 0;
		return 1;
	}
	return 0;
}

static void put_error(struct pft_etm3_decoder *d, struct pft_etm3_packet *pkt, size_t size,
		      const uint8_t *src, unsigned reason)
{
	memset(pkt, 0, sizeof(*pkt));
	put_item(d, pkt, PFT_ETM3_ERROR, size, src, size);
	pkt->reason = (uint8_t)reason;
	reset(d);
}

static int next_packet(struct pft_etm3_decoder *d, struct pft_etm3_packet *pkt);

int pft_etm3_decoder_next(struct pft_etm3_decoder *d, struct pft_etm3_packet *pkt, size_t size)
{
	struct pft_etm3_packet tmp;
	int r;

	if (!d || !pkt || !size)
		return -PFT_E_INVAL;
	if (size == sizeof(*pkt))
		return next_packet(d, pkt);
	memset(&tmp, 0, sizeof(tmp));
	r = next_packet(d, &tmp);
	pft_copy_out(pkt, size, &tmp, sizeof(tmp));
	return r;
}

static int next_packet(struct pft_etm3_decoder *d, struct pft_etm3_packet *pkt)
{
	int r;

	if (d->have_pending) {
		*pkt = d->pending;
		d->have_pending = 0;
		return 0;
	}
	/* fast path: a one-byte P-header in the middle of a chunk */
	if (d->synced & !d->in_async & !d->carry_len && d->pos < d->len) {
		uint8_t b = d->buf[d->pos];
		const struct pft_etm3_packet *e = &d->phdr[b & 0x7F];
		if (b & 0x80 && e->type) {
			*pkt = *e;
			pkt->offset = d->next_off++;
			d->pos++;
			return 0;
		}
	}
	for (;;) {
		if (!d->synced) {
			if (scan_unsynced(d, pkt))
				return 0;
			if (!d->ended)
				return -PFT_E_AGAIN;
			if (d->run || d->zeros) {
				if (d->zeros)
					run_add(d, d->zeros - 1, 0);
				d->zeros = 0;
				put_run(d, pkt);
				return 0;
			}
			return -PFT_E_EOS;
		}
		if (d->in_async) {
			if (scan_async(d, pkt))
				return 0;
			if (!d->ended)
				return -PFT_E_AGAIN;
			put_zeros_item(d, pkt, PFT_ETM3_ERROR, d->zeros);
			pkt->reason = PFT_E3ERR_TRUNCATED;
			d->zeros = 0;
			reset(d);
			return 0;
		}
		if (d->carry_len) {
			size_t have = d->carry_len, take = d->len - d->pos;
			if (take > CARRY_CAP - have)
				take = CARRY_CAP - have;
			memcpy(d->carry + have, d->buf + d->pos, take);
			memset(pkt, 0, sizeof(*pkt));
			r = etm3_read(&d->f, &d->st, d->carry, have + take, pkt);
			if (r == 0) {
				d->pos += take;
				if (!d->ended) {
					d->carry_len = have + take;
					return -PFT_E_AGAIN;
				}
				put_error(d, pkt, have + take, d->carry, PFT_E3ERR_TRUNCATED);
				return 0;
			}
			d->carry_len = 0;
			if (r < 0) {
				unsigned why = pkt->reason;
				d->pos += (size_t)-r - have;
				put_error(d, pkt, (size_t)-r, d->carry, why);
				return 0;
			}
			d->pos += (size_t)r - have;
			put_item(d, pkt, pkt->type, (uint64_t)r, d->carry, (size_t)r);
			return 0;
		}
		if (d->pos >= d->len) {
			if (!d->ended)
				return -PFT_E_AGAIN;
			return -PFT_E_EOS;
		}
		if (d->buf[d->pos] == 0) {
			d->in_async = 1;
			d->zeros = 1;
			d->pos++;
			continue;
		}
		memset(pkt, 0, sizeof(*pkt));
		r = etm3_read(&d->f, &d->st, d->buf + d->pos, d->len - d->pos, pkt);
		if (r > 0) {
			put_item(d, pkt, pkt->type, (uint64_t)r, d->buf + d->pos, (size_t)r);
			d->pos += (size_t)r;
			return 0;
		}
		if (r < 0) {
			unsigned why = pkt->reason;
			put_error(d, pkt, (size_t)-r, d->buf + d->pos, why);
			d->pos += (size_t)-r;
			return 0;
		}
		/* partial packet: keep it for the next chunk */
		if (d->ended) {
			size_t rest = d->len - d->pos;
			put_error(d, pkt, rest, d->buf + d->pos, PFT_E3ERR_TRUNCATED);
			d->pos = d->len;
			return 0;
		}
		memcpy(d->carry, d->buf + d->pos, d->len - d->pos);
		d->carry_len = d->len - d->pos;
		d->pos = d->len;
		return -PFT_E_AGAIN;
	}
}

int pft_etm3_decoder_next_batch(struct pft_etm3_decoder *d, struct pft_etm3_packet *pkts, size_t max,
			size_t size)
{
	size_t n = 0;
	int r;

	if (!d || !pkts || !max || !size)
		return -PFT_E_INVAL;
	if (size != sizeof(*pkts)) {
		/* elements of another pft/etm3.h: one at a time, the caller's stride */
		if (max > 0x7FFFFFFF)
			max = 0x7FFFFFFF;
		for (n = 0; n < max; n++) {
			r = pft_etm3_decoder_next(d, (struct pft_etm3_packet *)(void *)((char *)pkts + n * size),
						  size);
			if (r < 0)
				return n ? (int)n : r;
		}
		return (int)n;
	}
	if (max > 0x7FFFFFFF)
		max = 0x7FFFFFFF;
	while (n < max) {
		struct pft_etm3_packet *pkt = (struct pft_etm3_packet *)(void *)((char *)pkts + n * size);
		if (d->synced & !d->in_async & !d->carry_len & !d->have_pending) {
			/* run of one-byte P-headers: the state stays in registers */
			const uint8_t *buf = d->buf;
			size_t pos = d->pos, len = d->len;
			uint64_t off = d->next_off;
			while (pos < len && n < max) {
				uint8_t b = buf[pos];
				const struct pft_etm3_packet *e = &d->phdr[b & 0x7F];
				if (!(b & 0x80) || !e->type)
					break;
				*pkt = *e;
				pkt->offset = off++;
				pos++;
				n++;
				pkt = (struct pft_etm3_packet *)(void *)((char *)pkt + size);
			}
			d->pos = pos;
			d->next_off = off;
			if (n == max)
				break;
		}
		r = pft_etm3_decoder_next(d, pkt, size);
		if (r < 0)
			return n ? (int)n : r;
		n++;
	}
	return (int)n;
}

/* The chunk's bytes are read in place only in the plain state: synchronised,
 * not inside an A-sync, no partial packet and no item waiting. */
static int plain(const struct pft_etm3_decoder *d)
{
	return d->synced & !d->in_async & !d->carry_len & !d->have_pending;
}

size_t pft_etm3_decoder_peek(struct pft_etm3_decoder *d, const uint8_t **bytes, uint64_t *offset)
{
	if (!d || !bytes || !offset || !plain(d) || d->pos >= d->len)
		return 0;
	if (d->run_end <= d->pos) {
		/* measure the run: eight bytes a step, as in count_run() */
		const uint8_t *b = d->buf, *ok = d->phdr_ok;
		size_t pos = d->pos, len = d->len;

		while (len - pos >= 8 && (ok[b[pos]] & ok[b[pos + 1]] & ok[b[pos + 2]] &
					   ok[b[pos + 3]] & ok[b[pos + 4]] & ok[b[pos + 5]] &
					   ok[b[pos + 6]] & ok[b[pos + 7]]))
			pos += 8;
		while (pos < len && ok[b[pos]])
			pos++;
		d->run_end = pos;
	}
	*bytes = d->buf + d->pos;
	*offset = d->next_off;
	return d->run_end - d->pos;
}

int pft_etm3_decoder_skip_phdrs(struct pft_etm3_decoder *d, size_t n)
{
	if (!d)
		return -PFT_E_INVAL;
	/* only bytes a peek found to be P-headers */
	if (!plain(d) || d->pos >= d->len || n > d->run_end - d->pos)
		return n ? -PFT_E_INVAL : 0;
	d->pos += n;
	d->next_off += n;
	return 0;
}

_Static_assert(PFT_ETM3_NR_TYPES <= PFT_ETM3_COUNT_TYPES, "struct pft_etm3_counts too small");

static void count_item(struct pft_etm3_counts *c, const struct pft_etm3_packet *p)
{
	unsigned t = p->type < PFT_ETM3_NR_TYPES ? p->type : PFT_ETM3_ERROR;

	if (t == PFT_ETM3_ERROR && !c->items[PFT_ETM3_ERROR])
		c->first_error = p->offset;
	c->items[t]++;
	c->bytes[t] += p->size;
}

/* pft_etm3_decoder_count(): runs of one-byte P-headers in the middle of a
 * chunk are measured with the table phdr_ok, eight bytes a step (the eight
 * lookups and'ed, one jump), and counted without a packet; any other item
 * comes from next_packet(). */
static int count_run(struct pft_etm3_decoder *d, struct pft_etm3_counts *c)
{
	struct pft_etm3_packet pkt;
	int r;

	for (;;) {
		if (d->synced & !d->in_async & !d->carry_len & !d->have_pending) {
			const uint8_t *b = d->buf, *ok = d->phdr_ok;
			size_t pos = d->pos, len = d->len, n;
			while (len - pos >= 8 && (ok[b[pos]] & ok[b[pos + 1]] & ok[b[pos + 2]] &
						   ok[b[pos + 3]] & ok[b[pos + 4]] & ok[b[pos + 5]] &
						   ok[b[pos + 6]] & ok[b[pos + 7]]))
				pos += 8;
			while (pos < len && ok[b[pos]])
				pos++;
			n = pos - d->pos;
			c->items[PFT_ETM3_PHDR] += n;
			c->bytes[PFT_ETM3_PHDR] += n;
			d->next_off += n;
			d->pos = pos;
		}
		r = next_packet(d, &pkt);
		if (r)
			return r;
		count_item(c, &pkt);
	}
}

int pft_etm3_decoder_count(struct pft_etm3_decoder *d, struct pft_etm3_counts *counts, size_t size)
{
	struct pft_etm3_counts local;
	size_t n = size < sizeof(local) ? size : sizeof(local);
	int r;

	if (!d || !counts || !size)
		return -PFT_E_INVAL;
	if (size == sizeof(local))
		return count_run(d, counts);
	/* a struct of another size: its common part */
	memset(&local, 0, sizeof(local));
	memcpy(&local, counts, n);
	r = count_run(d, &local);
	memcpy(counts, &local, n);
	return r;
}

int pft_etm3_decode_buffer(const struct pft_config *cfg, const uint8_t *buf, size_t len,
			   int (*cb)(const struct pft_etm3_packet *pkt, void *arg), void *arg)
{
	struct pft_etm3_decoder *d;
	struct pft_etm3_packet p;
	int r;

	if (!cb || (!buf && len))
		return -PFT_E_INVAL;
	d = pft_etm3_decoder_alloc(cfg);
	if (!d)
		return -PFT_E_BAD_CONFIG;
	pft_etm3_decoder_feed(d, buf, len);
	pft_etm3_decoder_end(d);
	while ((r = pft_etm3_decoder_next(d, &p, sizeof(p))) == 0) {
		r = cb(&p, arg);
		if (r)
			break;
	}
	pft_etm3_decoder_free(d);
	return r == -PFT_E_EOS ? 0 : r;
}

/* ---- parallel decode (etm3_par.h) ---- */
#include "etm3/etm3_par.h"

void etm3_decoder_set_base(struct pft_etm3_decoder *d, uint64_t off)
{
	d->base = off;
	d->next_off = off;
}

int etm3_decoder_state(const struct pft_etm3_decoder *d, struct etm3_dec_state *s)
{
	if (!d->synced || d->in_async || d->carry_len || d->have_pending || d->run || d->zeros ||
	    d->ended)
		return 0;
	memset(s, 0, sizeof(*s));
	s->ts = d->st.ts;
	s->addr = d->st.addr;
	s->daddr = d->st.daddr;
	s->isa = d->st.isa;
	s->altis = d->st.altis;
	return 1;
}
