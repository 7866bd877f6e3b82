/* SPDX-License-Identifier: BSD-3-Clause */
/* ETMv2 trace port decoder / synchroniser: port cycles -> pipeline statuses,
 * TFOs and the byte-aligned FIFO stream.
 *
 * ARM IHI 0014Q chapter 6: 6.1.6 (TD cycles: TRACEPKT[0] = 1 marks a TFO),
 * 6.1.7 (TR: replaced status on TRACEPKT[3:0]; TD there = TFO pending, its
 * value on the next cycle(s); a trigger during the upper TFO nibble or the
 * gap nibble pushes that nibble to the next cycle), "Trace FIFO offsets"
 * (Table 6.4, the 4-bit two-cycle value, the 0x6 gap nibble after a mid-byte
 * TFO, the TFO value counting the bytes before the header with a partly
 * output byte as one), 6.5.3/6.5.4 (header and reason; reason b00 = periodic
 * sync, which implies an IE on the TD cycle).
 *
 * Model (doc/tfo.md): every TRACEPKT lane of a cycle that is not TD, not TR,
 * not part of a TFO value and not a gap nibble carries a FIFO byte (or
 * nibble).  The header of a TFO is found 2*V nibbles (4-bit) or V bytes
 * after its value whatever the nibble phase, so the first TFO synchronises
 * a decoder that starts anywhere; bytes are delivered from that header on.
 * While a TFO header is outstanding, the items after the TFO are held (the
 * implied IE needs the reason from the header); the queue is bounded. */
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "pft/tfo.h"

#define QCAP 1024u      /* item queue (a TFO holds at most ~400 items) */
#define QRESERVE 64u    /* room one cycle may need (each dropped TFO adds an error) */
#define MAXPEND 16u     /* TFO headers outstanding at once */

enum tphase { T_NONE, T_WAIT_VALUE, T_WAIT_HI, T_WAIT_GAP };

struct qitem {
	struct pft_tfo_item it;
	uint8_t drop;   /* resolved to nothing (placeholder of a non-sync TFO) */
};

struct pending {
	uint32_t left;     /* nibbles (4-bit) or bytes before the header */
	uint32_t tfo_q;    /* queue sequence number of the TFO item */
	uint32_t serial;   /* TFOs are numbered in order */
	uint8_t at_header; /* 4-bit: header low nibble seen */
};

struct pft_tfo_decoder {
	struct pft_tfo_port port;
	uint64_t cycle;          /* index of the cycle being processed */
	uint64_t offset;         /* stream offset of the next delivered byte */
	uint8_t synced, ended;
	/* 4-bit byte assembly; while unsynchronised, the nibble phase is still
	 * known from the end of a TFO value on (slots are 2 nibbles) */
	uint8_t have_lo, lo, lo_is_header, phase_known, odd;
	uint64_t lo_cycle;
	/* TFO value being output */
	enum tphase tphase;
	uint8_t val_lo, val_gap_expected, cur_trigger;
	uint32_t cur_q;          /* sequence number of the current TFO item */
	struct pending pend[MAXPEND];
	unsigned npend;
	uint32_t serial;         /* of the next TFO */
	uint32_t anchor;         /* serial of the TFO the nibble phase comes from */
	/* skipped lanes not yet reported */
	uint64_t skip_first, skip_last, skip_count;
	/* item ring; seq numbers grow forever, slot = seq % QCAP */
	struct qitem q[QCAP];
	uint32_t qhead, qtail;   /* seq of first item, seq after last */
	uint32_t hold_from;      /* items from this seq on wait for a TFO header */
};

struct pft_tfo_decoder *pft_tfo_decoder_alloc(const struct pft_tfo_port *port)
{
	struct pft_tfo_decoder *d;

	if (pft_tfo_port_check(port))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->port = *port;
	return d;
}

void pft_tfo_decoder_free(struct pft_tfo_decoder *d)
{
	free(d);
}

uint64_t pft_tfo_decoder_get_offset(const struct pft_tfo_decoder *d)
{
	return d ? d->cycle : 0;
}

static uint32_t qcount(const struct pft_tfo_decoder *d)
{
	return d->qtail - d->qhead;
}

static struct qitem *qat(struct pft_tfo_decoder *d, uint32_t seq)
{
	return &d->q[seq % QCAP];
}

/* Append an item (held by update_holds when a TFO header is outstanding). */
static struct pft_tfo_item *emit(struct pft_tfo_decoder *d, unsigned kind, uint32_t *seq)
{
	struct qitem *qi = qat(d, d->qtail);

	memset(qi, 0, sizeof(*qi));
	qi->it.kind = (uint8_t)kind;
	qi->it.cycle = d->cycle;
	if (seq)
		*seq = d->qtail;
	d->qtail++;
	return &qi->it;
}

static void emit_error(struct pft_tfo_decoder *d, int err, unsigned detail)
{
	struct pft_tfo_item *it = emit(d, PFT_TFO_ITEM_ERROR, NULL);

	it->error = err;
	it->detail = (uint16_t)detail;
}

static void flush_skip(struct pft_tfo_decoder *d)
{
	struct pft_tfo_item *it;

	if (!d->skip_count)
		return;
	it = emit(d, PFT_TFO_ITEM_SKIPPED, NULL);
	it->cycle = d->skip_first;
	it->cycle_end = d->skip_last;
	it->count = d->skip_count;
	it->flags = d->port.width == 4 ? PFT_TFO_F_NIBBLES : 0;
	d->skip_count = 0;
}

static void skip_lanes(struct pft_tfo_decoder *d, uint64_t n)
{
	if (!d->skip_count)
		d->skip_first = d->cycle;
	d->skip_last = d->cycle;
	d->skip_count += n;
}

/* Hold everything from the oldest unresolved TFO on. */
static void update_holds(struct pft_tfo_decoder *d)
{
	uint32_t from = d->qtail;
	unsigned i;

	for (i = 0; i < d->npend; i++)
		if (d->pend[i].tfo_q - d->qhead < from - d->qhead)
			from = d->pend[i].tfo_q;
	if (d->tphase != T_NONE && d->cur_q - d->qhead < from - d->qhead)
		from = d->cur_q;
	d->hold_from = from;
}

static int head_held(const struct pft_tfo_decoder *d)
{
	return qcount(d) && d->qhead == d->hold_from;
}

/* Resolve a TFO item and its placeholder (seq + 1). */
static void resolve_tfo(struct pft_tfo_decoder *d, uint32_t tfo_q, int have_header, unsigned header,
			uint64_t header_offset)
{
	struct pft_tfo_item *t = &qat(d, tfo_q)->it;
	struct qitem *ph = qat(d, tfo_q + 1);
	unsigned reason = 0;
	int lsm = 0;

	if (!have_header) {
		t->flags |= PFT_TFO_F_NO_HEADER;
		ph->drop = 1;
		return;
	}
	if (pft_tfo_header_decode(header, &reason, &lsm) < 0) {
		uint64_t save = d->cycle;

		d->cycle = t->cycle;
		emit_error(d, -PFT_E_BAD_PACKET, PFT_TFO_ERR_HEADER);
		d->cycle = save;
	}
	t->header = (uint8_t)header;
	t->reason = (uint8_t)reason;
	t->offset = header_offset;
	if (lsm)
		t->flags |= PFT_TFO_F_LSM;
	if (reason == PFT_TFO_REASON_SYNC) {
		ph->it.kind = PFT_TFO_ITEM_STATUS;
		ph->it.status = PFT_TFO_PS_IE;
		ph->it.flags = PFT_TFO_F_IMPLIED | (t->flags & PFT_TFO_F_TRIGGER);
		ph->it.cycle = t->cycle;
	} else {
		ph->drop = 1;
	}
}

static void remove_pending(struct pft_tfo_decoder *d, unsigned i)
{
	memmove(d->pend + i, d->pend + i + 1, (d->npend - i - 1) * sizeof(d->pend[0]));
	d->npend--;
}

/* Lose synchronisation: abandon the TFO being output and every outstanding
 * header; data is skipped until the next TFO header. */
static void lose_sync(struct pft_tfo_decoder *d)
{
	while (d->npend) {
		resolve_tfo(d, d->pend[0].tfo_q, 0, 0, 0);
		remove_pending(d, 0);
	}
	if (d->tphase != T_NONE)
		resolve_tfo(d, d->cur_q, 0, 0, 0);
	d->tphase = T_NONE;
	if (d->have_lo)
		skip_lanes(d, 1);
	d->have_lo = 0;
	d->lo_is_header = 0;
	d->synced = 0;
	d->phase_known = 0;
}

static void deliver(struct pft_tfo_decoder *d, const uint8_t *b, unsigned n)
{
	struct pft_tfo_item *it = emit(d, PFT_TFO_ITEM_BYTES, NULL);

	memcpy(it->bytes, b, n);
	it->nbytes = (uint8_t)n;
	it->offset = d->offset;
	d->offset += n;
}

/* The byte at the header position of pending i has arrived. */
static void header_arrived(struct pft_tfo_decoder *d, unsigned i, uint8_t byte)
{
	struct pft_tfo_item *t = &qat(d, d->pend[i].tfo_q)->it;

	if (!d->synced) {
		flush_skip(d);
		t->flags |= PFT_TFO_F_RESYNC;
		d->synced = 1;
	}
	resolve_tfo(d, d->pend[i].tfo_q, 1, byte, d->offset);
	remove_pending(d, i);
}

/* Drop pending i: a damaged capture put its header where it cannot be. */
static void drop_pending(struct pft_tfo_decoder *d, unsigned i)
{
	emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_ORDER);
	resolve_tfo(d, d->pend[i].tfo_q, 0, 0, 0);
	remove_pending(d, i);
}

/* Forget a stored low nibble (reported as skipped); if it was the first
 * half of a TFO header, that TFO loses its header. */
static void discard_lo(struct pft_tfo_decoder *d)
{
	unsigned i;

	if (!d->have_lo)
		return;
	skip_lanes(d, 1);
	if (d->lo_is_header)
		for (i = 0; i < d->npend; i++)
			if (d->pend[i].at_header) {
				drop_pending(d, i);
				break;
			}
	d->have_lo = 0;
	d->lo_is_header = 0;
}

/* A data lane (byte, or nibble on a 4-bit port) goes by: count it for every
 * outstanding header.  Returns the index of the pending TFO whose header
 * starts at this lane, or MAXPEND.  Two headers cannot share a position:
 * the newest TFO wins, the others are dropped. */
static unsigned lane_header(struct pft_tfo_decoder *d)
{
	unsigned i, hdr = MAXPEND;

	for (i = 0; i < d->npend; i++)
		if (d->pend[i].left == 0 && !d->pend[i].at_header)
			hdr = i; /* pend[] is oldest first: keeps the newest */
	for (i = 0; i < d->npend;) {
		if (d->pend[i].left) {
			d->pend[i].left--;
			i++;
		} else if (!d->pend[i].at_header && i != hdr) {
			drop_pending(d, i);
			if (hdr != MAXPEND && hdr > i)
				hdr--;
		} else {
			i++;
		}
	}
	return hdr;
}

/* One byte lane of an 8/16-bit port. */
static void byte_lane(struct pft_tfo_decoder *d, uint8_t b, uint8_t *out, unsigned *nout)
{
	unsigned hdr = lane_header(d);

	if (hdr != MAXPEND) {
		/* deliver what came before the header first: offsets stay in order */
		if (*nout) {
			deliver(d, out, *nout);
			*nout = 0;
		}
		header_arrived(d, hdr, b);
	}
	if (d->synced)
		out[(*nout)++] = b;
	else
		skip_lanes(d, 1);
}

/* One data nibble of a 4-bit port (the gap nibble is counted, not given). */
static void nibble_lane(struct pft_tfo_decoder *d, uint8_t n)
{
	unsigned i, hdr = lane_header(d);
	uint8_t b;

	if (hdr != MAXPEND) {
		int trusted = d->synced || d->phase_known;
		int mid = d->synced ? d->have_lo : d->phase_known && d->odd;
		unsigned j;

		for (j = 0; j < d->npend && !d->pend[j].at_header; j++)
			;
		if (j < d->npend || (trusted && mid && d->pend[hdr].serial < d->anchor)) {
			/* a header inside a byte of a phase that newer
			 * information set, or while another header is being
			 * read: this TFO's count is off */
			drop_pending(d, hdr);
			hdr = MAXPEND;
		}
	}
	if (hdr != MAXPEND) {
		/* the header starts a byte: a stored low nibble means our phase
		 * was wrong; drop it and start again here */
		discard_lo(d);
		if (d->pend[hdr].serial > d->anchor)
			d->anchor = d->pend[hdr].serial;
		d->pend[hdr].at_header = 1;
		d->lo = n;
		d->have_lo = 1;
		d->lo_is_header = 1;
		d->lo_cycle = d->cycle;
		return;
	}
	if (!d->have_lo) {
		if (!d->synced) {
			skip_lanes(d, 1);
			d->odd ^= 1;
			return;
		}
		d->lo = n;
		d->have_lo = 1;
		d->lo_is_header = 0;
		d->lo_cycle = d->cycle;
		return;
	}
	b = (uint8_t)(d->lo | (n << 4));
	d->have_lo = 0;
	if (d->lo_is_header) {
		d->lo_is_header = 0;
		for (i = 0; i < d->npend; i++)
			if (d->pend[i].at_header)
				break;
		if (i < d->npend)
			header_arrived(d, i, b);
	}
	if (d->synced)
		deliver(d, &b, 1);
	else
		skip_lanes(d, 2);
}

/* Start a TFO on this cycle (TD with a value, or TR with TD). */
static void start_tfo(struct pft_tfo_decoder *d, int trigger)
{
	struct pft_tfo_item *t;

	if (d->tphase != T_NONE) {
		emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_TFO_IN_TFO);
		lose_sync(d);
	}
	if (d->npend >= MAXPEND) {
		emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_TOO_LONG);
		lose_sync(d);
	}
	/* a stored low nibble is only kept while the phase is known */
	if (!d->synced && d->have_lo && !d->lo_is_header) {
		skip_lanes(d, 1);
		d->have_lo = 0;
	}
	t = emit(d, PFT_TFO_ITEM_TFO, &d->cur_q);
	if (trigger)
		t->flags |= PFT_TFO_F_TRIGGER;
	emit(d, PFT_TFO_ITEM_STATUS, NULL); /* placeholder for the implied IE */
	d->cur_trigger = (uint8_t)trigger;
	d->val_gap_expected = d->port.width == 4 &&
			      (d->have_lo || (!d->synced && d->phase_known && d->odd));
	if (d->val_gap_expected)
		t->flags |= PFT_TFO_F_GAP;
}

/* The TFO value of the current TFO is known. */
static void tfo_value(struct pft_tfo_decoder *d, unsigned v)
{
	struct pending *p;
	uint32_t here = d->port.width == 4 ? 2 * v - (v ? d->val_gap_expected : 0) : v;
	unsigned i;

	/* An older header still in the FIFO lies before this one (FIFO
	 * order), so it must come sooner; one that does not is from a
	 * damaged capture: drop it. */
	for (i = 0; i < d->npend;) {
		if (d->pend[i].left >= here && !d->pend[i].at_header) {
			drop_pending(d, i);
			if (d->synced) {
				d->synced = 0;
				discard_lo(d);
				d->phase_known = 0;
			}
		} else {
			i++;
		}
	}
	p = &d->pend[d->npend++];
	qat(d, d->cur_q)->it.value = (uint8_t)v;
	p->serial = d->serial++;
	p->tfo_q = d->cur_q;
	p->left = d->port.width == 4 ? 2 * v : v;
	p->at_header = 0;
	d->tphase = d->val_gap_expected ? T_WAIT_GAP : T_NONE;
	if (!d->synced && !d->have_lo) {
		/* slots start here; after a gap one nibble ends the byte */
		d->phase_known = 1;
		d->odd = d->val_gap_expected;
		d->anchor = p->serial;
	}
}

/* A value cycle whose TRACEPKT[3:0] is not a TFO value: bad capture. */
static void bad_value(struct pft_tfo_decoder *d, enum pft_tfo_kind k)
{
	emit_error(d, -PFT_E_BAD_FRAME, k == PFT_TFO_KIND_RESERVED ? PFT_TFO_ERR_RESERVED
								    : PFT_TFO_ERR_TD_IN_TFO);
	lose_sync(d);
}

static void status_item(struct pft_tfo_decoder *d, unsigned ps, unsigned flags)
{
	struct pft_tfo_item *it = emit(d, PFT_TFO_ITEM_STATUS, NULL);

	it->status = (uint8_t)ps;
	it->flags = (uint16_t)flags;
}

/* TRACEPKT of a cycle with a normal status (or the TFO value part of it). */
static void port_data(struct pft_tfo_decoder *d, unsigned pkt)
{
	uint8_t out[2];
	unsigned v, nout = 0;
	enum pft_tfo_kind k;

	switch (d->tphase) {
	case T_WAIT_VALUE:
		k = pft_tfo_classify(pkt & 0xFFu, &v);
		if (k != PFT_TFO_KIND_VALUE) {
			bad_value(d, k);
			return;
		}
		if (d->port.width == 4) {
			d->val_lo = (uint8_t)(pkt & 0xFu);
			d->tphase = T_WAIT_HI;
		} else {
			tfo_value(d, v);
		}
		return;
	case T_WAIT_HI:
		pft_tfo_classify(d->val_lo | ((pkt & 0xFu) << 4), &v);
		tfo_value(d, v);
		return;
	case T_WAIT_GAP:
		d->tphase = T_NONE;
		/* the gap fills a byte slot of this TFO only (the last one) */
		if (d->npend && d->pend[d->npend - 1].left)
			d->pend[d->npend - 1].left--;
		if ((pkt & 0xFu) != 0x6) {
			emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_GAP);
			/* keep the outstanding header (its position does not
			 * depend on the phase) but stop trusting the data */
			discard_lo(d);
			d->synced = 0;
			d->phase_known = 1;
			d->odd = 1;
			if (d->npend)
				d->anchor = d->pend[d->npend - 1].serial;
		}
		return;
	case T_NONE:
		break;
	}
	if (d->port.width == 4) {
		nibble_lane(d, (uint8_t)(pkt & 0xFu));
		return;
	}
	byte_lane(d, (uint8_t)(pkt & 0xFFu), out, &nout);
	if (d->port.width == 16)
		byte_lane(d, (uint8_t)(pkt >> 8), out, &nout);
	if (nout)
		deliver(d, out, nout);
}

static void td_cycle(struct pft_tfo_decoder *d, unsigned pkt)
{
	unsigned v;
	enum pft_tfo_kind k = pft_tfo_classify(pkt & 0xFFu, &v);

	if (k == PFT_TFO_KIND_RESERVED) {
		emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_RESERVED);
		lose_sync(d);
		return;
	}
	if (k != PFT_TFO_KIND_VALUE) {
		/* 6.1.6: no FIFO data this cycle; impossible while TFO data
		 * or a TFO header is still to come. */
		if (d->tphase == T_WAIT_VALUE && d->cur_trigger) {
			/* TR/TD then a TD cycle without a value */
			bad_value(d, k);
		} else if (d->tphase != T_NONE) {
			emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_TD_IN_TFO);
			lose_sync(d);
		} else if (d->npend) {
			emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_TD_FIFO);
			lose_sync(d);
		}
		status_item(d, PFT_TFO_PS_TD, k == PFT_TFO_KIND_DISABLED_CA ? PFT_TFO_F_CA : 0);
		return;
	}
	if (d->tphase == T_WAIT_VALUE) {
		/* value after TR/TD on a cycle that shows TD itself: accepted */
		if (d->port.width == 4) {
			d->val_lo = (uint8_t)(pkt & 0xFu);
			d->tphase = T_WAIT_HI;
		} else {
			tfo_value(d, v);
		}
		return;
	}
	start_tfo(d, 0);
	if (d->port.width == 4) {
		d->val_lo = (uint8_t)(pkt & 0xFu);
		d->tphase = T_WAIT_HI;
	} else {
		tfo_value(d, v);
	}
}

static void tr_cycle(struct pft_tfo_decoder *d, unsigned pkt)
{
	unsigned replaced = pkt & 0xFu;

	emit(d, PFT_TFO_ITEM_TRIGGER, NULL);
	if (replaced == PFT_TFO_PS_TD) {
		start_tfo(d, 1);
		d->tphase = T_WAIT_VALUE;
		return;
	}
	/* the port output of this cycle (TFO nibble, gap, data) waits */
	if (replaced == PFT_TFO_PS_TR)
		emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_PIPESTAT);
	else
		status_item(d, replaced, PFT_TFO_F_TRIGGER);
}

int pft_tfo_decoder_feed(struct pft_tfo_decoder *d, const struct pft_tfo_cycle *c)
{
	unsigned ps, pkt;

	if (!d || !c || d->ended)
		return -PFT_E_INVAL;
	if (QCAP - qcount(d) < QRESERVE) {
		if (!head_held(d))
			return -PFT_E_AGAIN;
		/* everything is held by a TFO whose header never comes */
		emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_TOO_LONG);
		lose_sync(d);
		update_holds(d);
		return -PFT_E_AGAIN;
	}
	ps = c->pipestat;
	pkt = c->tracepkt;
	if (ps > 15 || (d->port.width < 16 && pkt >= (1u << d->port.width))) {
		emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_PIPESTAT);
		ps &= 0xFu;
		pkt &= (1u << d->port.width) - 1u;
	}
	if (ps == PFT_TFO_PS_TD) {
		td_cycle(d, pkt);
	} else if (ps == PFT_TFO_PS_TR) {
		tr_cycle(d, pkt);
	} else {
		status_item(d, ps, 0);
		port_data(d, pkt);
	}
	update_holds(d);
	d->cycle++;
	return 0;
}

int pft_tfo_decoder_end(struct pft_tfo_decoder *d)
{
	if (!d || d->ended)
		return -PFT_E_INVAL;
	if (d->tphase != T_NONE || d->npend) {
		emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_TRUNCATED);
		lose_sync(d);
	} else if (d->have_lo) {
		emit_error(d, -PFT_E_BAD_FRAME, PFT_TFO_ERR_TRUNCATED);
		discard_lo(d);
	}
	flush_skip(d);
	update_holds(d);
	d->ended = 1;
	return 0;
}

static int next_item(struct pft_tfo_decoder *d, struct pft_tfo_item *item);

int pft_tfo_decoder_next(struct pft_tfo_decoder *d, struct pft_tfo_item *item, size_t size)
{
	struct pft_tfo_item tmp;
	int r;

	if (!d || !item || !size)
		return -PFT_E_INVAL;
	if (size == sizeof(*item))
		return next_item(d, item);
	memset(&tmp, 0, sizeof(tmp));
	r = next_item(d, &tmp);
	pft_copy_out(item, size, &tmp, sizeof(tmp));
	return r;
}

static int next_item(struct pft_tfo_decoder *d, struct pft_tfo_item *item)
{
	struct qitem *qi;

	for (;;) {
		if (!qcount(d))
			return d->ended ? -PFT_E_EOS : -PFT_E_AGAIN;
		if (head_held(d))
			return -PFT_E_AGAIN;
		qi = qat(d, d->qhead);
		d->qhead++;
		if (!qi->drop) {
			*item = qi->it;
			return 0;
		}
	}
}

