/* SPDX-License-Identifier: BSD-3-Clause */
/* CoreSight frame deformatter and TPIU sync removal (include/pft/frame.h).
 *
 * Input is consumed byte by byte (halfword by halfword once a TPIU capture is
 * aligned) into one frame buffer, so chunk boundaries fall anywhere.  A
 * complete frame is unpacked into at most eight runs (one per ID change)
 * plus an error; they wait in a small queue that next() drains before it
 * looks at more input. */
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "pft/frame.h"
#include "realign.h"

#define QMAX 16
#define UNKNOWN_SLOT 128 /* stream counter index for PFT_FRAME_ID_UNKNOWN */
#define MAX_ITEM_LEN (1u << 30)

enum tpiu_state { T_SEARCH, T_FRAMES };

/* Frame alignment (CoreSight frames only): NORMAL unpacks frames as they
 * come; a frame that looks misaligned starts SEARCH, which gathers a
 * lookahead window; the best shift of the window is chosen, the bytes before
 * it reported as an error, and REPLAY unpacks the window's frames. */
enum align_state { A_NORMAL, A_SEARCH, A_REPLAY };
#define LA_FRAMES 64
#define LA_CAP (LA_FRAMES * PFT_FRAME_SIZE + PFT_FRAME_SIZE - 1)

struct qitem {
	uint16_t type;
	uint8_t id, reason;
	uint32_t len;
	uint32_t start;          /* DATA: index into run_data/run_offs */
	uint64_t stream_offset;
	uint64_t capture_offset;
};

struct pft_frame_decoder {
	enum pft_frame_format fmt;
	uint8_t raw_id;
	/* current chunk */
	const uint8_t *buf;
	size_t len, pos;
	uint64_t base;           /* capture offset of buf[0] */
	int ended;
	/* frame being collected */
	uint8_t frame[PFT_FRAME_SIZE];
	uint64_t frame_off[PFT_FRAME_SIZE];
	unsigned nframe;
	uint8_t cur_id;
	/* TPIU */
	enum tpiu_state tstate;
	unsigned match;          /* T_SEARCH: bytes of FF FF FF 7F matched */
	uint64_t skip_start;     /* T_SEARCH: first skipped byte */
	uint64_t skip_len;
	uint8_t half[2];         /* T_FRAMES: partial halfword */
	uint64_t half_off;
	unsigned nhalf;
	int ffff;                /* T_FRAMES: previous halfword was FF FF */
	uint64_t ffff_off;
	/* per-ID stream offsets */
	uint64_t stream_off[129];
	/* unpacked runs of the last frame */
	uint8_t run_data[PFT_FRAME_SIZE];
	uint64_t run_offs[PFT_FRAME_SIZE];
	unsigned nrun;
	struct qitem q[QMAX];
	unsigned qhead, qtail;
	struct pft_frame_stats st;
	/* alignment */
	int realign;             /* on unless switched off */
	int want_search;         /* the caller doubts the alignment */
	enum align_state astate;
	int force_next;          /* REPLAY: unpack the next frame whatever it looks like */
	unsigned force_frames;   /* REPLAY: frames of the window still taken without
	                            doubt (the search kept the alignment) */
	unsigned holdoff;        /* frames taken without doubt after a fruitless search */
	unsigned backoff;        /* the next holdoff: doubles while searches find nothing */
	struct realign_lsb *lsb_t; /* the low-bit table of trace ID lsb_id */
	uint8_t lsb_id;
	unsigned lsb_half;       /* frames of data only: every other one is weighed */
	uint32_t lsb_tick;       /* generator that samples the frames learnt */
	int lsb_drop;            /* low-bit evidence against the alignment, summed
	                            while it stays negative (quarter bits) */
	struct realign_ids ids;
	uint8_t la[LA_CAP];
	uint64_t la_off[LA_CAP];
	size_t la_len, la_pos;
};

const char *pft_frame_format_name(enum pft_frame_format fmt)
{
	switch (fmt) {
	case PFT_FRAME_RAW: return "raw";
	case PFT_FRAME_CORESIGHT: return "frames";
	case PFT_FRAME_TPIU: return "tpiu";
	}
	return NULL;
}

const char *pft_frame_item_type_name(enum pft_frame_item_type t)
{
	switch (t) {
	case PFT_FRAME_ITEM_DATA: return "data";
	case PFT_FRAME_ITEM_UNSYNCED: return "unsynced";
	case PFT_FRAME_ITEM_ERROR: return "error";
	default: return "none";
	}
}

const char *pft_frame_error_name(enum pft_frame_error e)
{
	switch (e) {
	case PFT_FERR_TRUNCATED: return "truncated frame";
	case PFT_FERR_ID_7F: return "ID 0x7F";
	case PFT_FERR_BAD_SYNC: return "bad sync";
	case PFT_FERR_REALIGN: return "realigned";
	default: return "none";
	}
}

void pft_frame_decoder_resync(struct pft_frame_decoder *dec)
{
	enum pft_frame_format fmt;
	uint8_t raw_id;
	int realign;

	if (!dec)
		return;
	fmt = dec->fmt;
	raw_id = dec->raw_id;
	realign = dec->realign;
	memset(dec, 0, sizeof(*dec));
	dec->fmt = fmt;
	dec->raw_id = raw_id;
	dec->realign = realign;
	realign_ids_init(&dec->ids);
	dec->cur_id = PFT_FRAME_ID_UNKNOWN;
	dec->tstate = T_SEARCH;
}

struct pft_frame_decoder *pft_frame_decoder_alloc(enum pft_frame_format fmt, uint8_t raw_id)
{
	struct pft_frame_decoder *dec;

	if (fmt != PFT_FRAME_RAW && fmt != PFT_FRAME_CORESIGHT && fmt != PFT_FRAME_TPIU)
		return NULL;
	dec = calloc(1, sizeof(*dec));
	if (!dec)
		return NULL;
	dec->fmt = fmt;
	dec->raw_id = raw_id;
	dec->realign = 1;
	pft_frame_decoder_resync(dec);
	return dec;
}

int pft_frame_decoder_set_realign(struct pft_frame_decoder *dec, int on)
{
	if (!dec)
		return -PFT_E_INVAL;
	dec->realign = !!on;
	return 0;
}

int pft_frame_decoder_realign(struct pft_frame_decoder *dec)
{
	if (!dec)
		return -PFT_E_INVAL;
	if (dec->fmt == PFT_FRAME_CORESIGHT && dec->realign && dec->astate == A_NORMAL)
		dec->want_search = 1;
	return 0;
}

void pft_frame_decoder_free(struct pft_frame_decoder *dec)
{
	free(dec);
}

static unsigned qcount(const struct pft_frame_decoder *dec)
{
	return dec->qtail - dec->qhead;
}

static void qpush(struct pft_frame_decoder *dec, const struct qitem *it)
{
	dec->q[dec->qtail % QMAX] = *it;
	dec->qtail++;
}

int pft_frame_decoder_feed(struct pft_frame_decoder *dec, const uint8_t *buf, size_t len)
{
	if (!dec || (!buf && len) || dec->ended)
		return -PFT_E_INVAL;
	if (dec->pos < dec->len || qcount(dec))
		return -PFT_E_INVAL;
	dec->base += dec->len;
	dec->buf = buf;
	dec->len = len;
	dec->pos = 0;
	dec->st.bytes_in += len;
	return 0;
}

uint64_t pft_frame_decoder_get_offset(const struct pft_frame_decoder *dec)
{
	return dec ? dec->base + dec->pos : 0;
}

int pft_frame_decoder_get_stats(const struct pft_frame_decoder *dec, struct pft_frame_stats *out,
				size_t size)
{
	if (!dec || !out || !size)
		return -PFT_E_INVAL;
	pft_copy_out(out, size, &dec->st, sizeof(dec->st));
	return 0;
}

/* ---- unpacking one frame ------------------------------------------------ */

static void push_error(struct pft_frame_decoder *dec, uint8_t reason, uint64_t off, uint64_t len)
{
	struct qitem it = { .type = PFT_FRAME_ITEM_ERROR, .reason = reason, .len = (uint32_t)len,
			    .capture_offset = off };
	qpush(dec, &it);
	dec->st.error += len;
}

/* Close the run run_data[start..nrun) of trace ID id as a DATA item. */
static void push_run(struct pft_frame_decoder *dec, uint8_t id, unsigned start)
{
	unsigned len = dec->nrun - start;
	unsigned slot = id == PFT_FRAME_ID_UNKNOWN ? UNKNOWN_SLOT : id;
	struct qitem it;

	if (!len)
		return;
	it.type = PFT_FRAME_ITEM_DATA;
	it.id = id;
	it.reason = 0;
	it.len = len;
	it.start = start;
	it.stream_offset = dec->stream_off[slot];
	it.capture_offset = dec->run_offs[start];
	qpush(dec, &it);
	dec->stream_off[slot] += len;
	dec->st.data += len;
	if (id == PFT_FRAME_ID_UNKNOWN)
		dec->st.unknown_id += len;
	else
		dec->st.id_bytes[id] += len;
}

static int is_fsync_frame(const uint8_t *f)
{
	static const uint8_t fs[4] = { 0xFF, 0xFF, 0xFF, 0x7F };
	int i;

	for (i = 0; i < PFT_FRAME_SIZE; i += 4)
		if (memcmp(f + i, fs, 4))
			return 0;
	return 1;
}

/* Unpack one 16-byte frame into runs on the queue.  The capture offset of
 * byte s is o[s], or base + s when o is NULL (a frame read in place). */
static void unpack_frame(struct pft_frame_decoder *dec, const uint8_t *f, const uint64_t *o,
			 uint64_t base)
{
	uint8_t aux = f[15];
	uint8_t id = dec->cur_id;
	unsigned i, start = 0;

#define OFF(s) (o ? o[s] : base + (s))
#define PUT(byte, s)                                      \
	do {                                              \
		dec->run_data[dec->nrun] = (byte);        \
		dec->run_offs[dec->nrun] = OFF(s);        \
		dec->nrun++;                              \
	} while (0)

	dec->nrun = 0;
	dec->nframe = 0;
	if (dec->fmt == PFT_FRAME_CORESIGHT && f[0] == 0xFF && is_fsync_frame(f)) {
		/* A frame of four FSYNCs: formatter sync in memory, no data. */
		dec->st.sync += PFT_FRAME_SIZE;
		return;
	}
	dec->st.frames++;
	if (realign_data_only(f)) {
		/* no ID slot (most frames of a capture with few sources): fifteen
		 * bytes of the ID in force */
		for (i = 0; i < 7; i++) {
			dec->run_data[2 * i] = (uint8_t)(f[2 * i] | ((aux >> i) & 1));
			dec->run_data[2 * i + 1] = f[2 * i + 1];
		}
		dec->run_data[14] = (uint8_t)(f[14] | (aux >> 7));
		for (i = 0; i < PFT_FRAME_MAX_RUN; i++)
			dec->run_offs[i] = OFF(i);
		dec->nrun = PFT_FRAME_MAX_RUN;
		push_run(dec, id, 0);
		dec->st.overhead++; /* the auxiliary byte */
		return;
	}
	for (i = 0; i < 8; i++) {
		unsigned s = 2 * i;
		uint8_t bit = (aux >> i) & 1;

		if (!(f[s] & 1)) {
			PUT((uint8_t)((f[s] & 0xFE) | bit), s);
			if (s != 14)
				PUT(f[s + 1], s + 1);
			continue;
		}
		{
			uint8_t nid = f[s] >> 1;

			if (nid == 0x7F) {
				/* Not an ID: the rest of the frame cannot be trusted. */
				push_run(dec, id, start);
				dec->cur_id = id;
				push_error(dec, PFT_FERR_ID_7F, OFF(s), PFT_FRAME_SIZE - s);
				return;
			}
			dec->st.overhead++;
			if (s == 14) {
				push_run(dec, id, start);
				start = dec->nrun;
				id = nid; /* applies from the next frame */
				break;
			}
			if (nid == id) {
				PUT(f[s + 1], s + 1);
				continue;
			}
			if (bit)
				PUT(f[s + 1], s + 1); /* still the old ID */
			push_run(dec, id, start);
			start = dec->nrun;
			id = nid;
			if (!bit)
				PUT(f[s + 1], s + 1);
		}
	}
	push_run(dec, id, start);
	dec->cur_id = id;
	dec->st.overhead++; /* the auxiliary byte */
#undef PUT
#undef OFF
}

/* ---- alignment ---------------------------------------------------------- */

/* Start a search with frame f (offsets o, or base + s) as the first bytes of
 * the lookahead window. */
static void search_start(struct pft_frame_decoder *dec, const uint8_t *f, const uint64_t *o,
			 uint64_t base)
{
	unsigned s;

	for (s = 0; s < PFT_FRAME_SIZE; s++) {
		dec->la[s] = f[s];
		dec->la_off[s] = o ? o[s] : base + s;
	}
	dec->la_len = PFT_FRAME_SIZE;
	dec->la_pos = 0;
	dec->want_search = 0;
	dec->lsb_drop = 0;
	dec->astate = A_SEARCH;
}

/* The low bits of the frame's even-slot data bytes (score sc), added to the
 * evidence of the frames before: an even shift shows as a steady loss that
 * no ID slot reveals.  Nonzero when the loss passes REALIGN_LSB_DOUBT. */
static int lsb_doubt(struct pft_frame_decoder *dec, int sc)
{
	dec->lsb_drop -= sc;
	if (dec->lsb_drop < 0)
		dec->lsb_drop = 0;
	return dec->lsb_drop > REALIGN_LSB_DOUBT;
}

/* Unpack a complete frame, unless it looks misaligned: then search. */
static void take_frame(struct pft_frame_decoder *dec, const uint8_t *f, const uint64_t *o,
		       uint64_t base)
{
	struct realign_lsb *t;
	int sc;

	if (dec->fmt == PFT_FRAME_CORESIGHT && dec->realign) {
		if (dec->holdoff && !dec->want_search) {
			/* searches found nothing better lately (noise, or no frames at
			 * all): do not weigh every frame again */
			dec->holdoff--;
			unpack_frame(dec, f, o, base);
			return;
		}
		if (is_fsync_frame(f)) {
			unpack_frame(dec, f, o, base);
			return;
		}
		/* the low bits of a frame of data only (all of the ID in force),
		 * by the table of its ID */
		t = NULL;
		sc = 0;
		if (realign_data_only(f)) {
			if (dec->lsb_id != dec->cur_id) {
				dec->lsb_id = dec->cur_id;
				dec->lsb_t = realign_lsb_of(&dec->ids, dec->cur_id);
			}
			t = dec->lsb_t;
			if (t && (++dec->lsb_half & 1))
				sc = realign_lsb_score_data(t->score, f);
		}
		if (dec->want_search || realign_frame_doubt(&dec->ids, f) || lsb_doubt(dec, sc)) {
			search_start(dec, f, o, base);
			return;
		}
		if (dec->ids.learnt < REALIGN_LEARN_FRAMES)
			realign_learn(&dec->ids, f);
		if (t) {
			/* every frame while the table is young, then one in
			 * REALIGN_LSB_SAMPLE, picked by a generator: a fixed stride
			 * would count the same frames of a periodic trace */
			dec->lsb_tick = dec->lsb_tick * 1664525u + 1013904223u;
			if (t->total < REALIGN_LSB_YOUNG || dec->lsb_tick < UINT32_MAX / REALIGN_LSB_SAMPLE)
				realign_lsb_learn(t, f);
		}
	}
	unpack_frame(dec, f, o, base);
}

/* The window is full, or the input ended: choose the shift, report the
 * bytes before it, and replay the window from there. */
static void search_decide(struct pft_frame_decoder *dec)
{
	unsigned k = realign_best_shift(&dec->ids, dec->la, dec->la_len);
	size_t p;

	if ((size_t)k > dec->la_len)
		k = (unsigned)dec->la_len;
	if (k) {
		push_error(dec, PFT_FERR_REALIGN, dec->la_off[0], k);
		dec->cur_id = PFT_FRAME_ID_UNKNOWN; /* the ID in force is lost with the bytes */
		dec->backoff = 0;
		dec->force_frames = 0;
	} else {
		/* the alignment holds: replay the window as it is, and take the next
		 * frames without doubt for a while, longer each time in a row.  The
		 * first time, only the window's first half is beyond doubt: the
		 * bytes may be lost in its second half, where the frames before
		 * the loss outweighed those after it */
		dec->backoff = dec->backoff ? (dec->backoff < 4096 ? 2 * dec->backoff : 4096) : 16;
		dec->holdoff = dec->backoff;
		dec->force_frames = dec->backoff == 16 ? LA_FRAMES / 2 : LA_FRAMES + 1;
	}
	/* the chosen frames name the IDs in use */
	for (p = k; p + PFT_FRAME_SIZE <= dec->la_len; p += PFT_FRAME_SIZE)
		if (!is_fsync_frame(dec->la + p))
			realign_learn(&dec->ids, dec->la + p);
	dec->lsb_drop = 0;
	dec->la_pos = k;
	dec->force_next = 1;
	dec->astate = A_REPLAY;
}

static void search_fill(struct pft_frame_decoder *dec)
{
	while (dec->pos < dec->len && dec->la_len < LA_CAP) {
		dec->la[dec->la_len] = dec->buf[dec->pos];
		dec->la_off[dec->la_len] = dec->base + dec->pos;
		dec->la_len++;
		dec->pos++;
	}
	if (dec->la_len == LA_CAP)
		search_decide(dec);
}

static void replay_step(struct pft_frame_decoder *dec)
{
	size_t left = dec->la_len - dec->la_pos;
	const uint8_t *f = dec->la + dec->la_pos;
	const uint64_t *o = dec->la_off + dec->la_pos;

	if (left < PFT_FRAME_SIZE) {
		/* the rest starts the next frame */
		for (; dec->la_pos < dec->la_len; dec->la_pos++) {
			dec->frame[dec->nframe] = dec->la[dec->la_pos];
			dec->frame_off[dec->nframe] = dec->la_off[dec->la_pos];
			dec->nframe++;
		}
		dec->astate = A_NORMAL;
		return;
	}
	if (dec->force_next || dec->force_frames || is_fsync_frame(f) ||
	    (!dec->want_search && !realign_frame_doubt(&dec->ids, f))) {
		dec->force_next = 0;
		if (dec->force_frames)
			dec->force_frames--;
		dec->la_pos += PFT_FRAME_SIZE;
		unpack_frame(dec, f, o, 0);
		return;
	}
	/* doubt again: the rest of the window starts a new search */
	memmove(dec->la, f, left);
	memmove(dec->la_off, o, left * sizeof(*o));
	dec->la_len = left;
	dec->la_pos = 0;
	dec->want_search = 0;
	dec->astate = A_SEARCH;
}

static void frame_byte(struct pft_frame_decoder *dec, uint8_t b, uint64_t off)
{
	dec->frame[dec->nframe] = b;
	dec->frame_off[dec->nframe] = off;
	if (++dec->nframe == PFT_FRAME_SIZE) {
		dec->nframe = 0;
		take_frame(dec, dec->frame, dec->frame_off, 0);
	}
}

/* ---- TPIU --------------------------------------------------------------- */

static void flush_skip(struct pft_frame_decoder *dec)
{
	while (dec->skip_len) {
		uint64_t n = dec->skip_len > MAX_ITEM_LEN ? MAX_ITEM_LEN : dec->skip_len;
		struct qitem it = { .type = PFT_FRAME_ITEM_UNSYNCED, .len = (uint32_t)n,
				    .capture_offset = dec->skip_start };
		qpush(dec, &it);
		dec->st.unsynced += n;
		dec->skip_start += n;
		dec->skip_len -= n;
		if (qcount(dec) >= QMAX - 1)
			break;
	}
}

/* Searching for FSYNC byte by byte. */
static void search_byte(struct pft_frame_decoder *dec, uint8_t b, uint64_t off)
{
	if (!dec->skip_len && !dec->match)
		dec->skip_start = off;
	if (b == 0xFF) {
		if (dec->match == 3)
			dec->skip_len++; /* FF FF FF FF: the oldest FF is not part of the FSYNC */
		else
			dec->match++;
		return;
	}
	if (b == 0x7F && dec->match == 3) {
		dec->match = 0;
		dec->st.sync += 4;
		flush_skip(dec);
		dec->tstate = T_FRAMES;
		dec->nframe = 0;
		dec->nhalf = 0;
		dec->ffff = 0;
		return;
	}
	dec->skip_len += dec->match + 1;
	dec->match = 0;
}

/* Drop what is collected of the current frame as an error and go back to
 * searching for FSYNC. */
static void tpiu_error(struct pft_frame_decoder *dec)
{
	uint64_t start = dec->nframe ? dec->frame_off[0] : dec->ffff_off;

	push_error(dec, PFT_FERR_BAD_SYNC, start, dec->nframe + 2u);
	dec->nframe = 0;
	dec->ffff = 0;
	dec->tstate = T_SEARCH;
	dec->match = 0;
	dec->skip_len = 0;
}

static void tpiu_half(struct pft_frame_decoder *dec, uint8_t b0, uint8_t b1, uint64_t off)
{
	if (dec->ffff) {
		if (b0 == 0xFF && b1 == 0x7F) {
			/* FSYNC */
			dec->ffff = 0;
			if (dec->nframe) {
				push_error(dec, PFT_FERR_BAD_SYNC, dec->frame_off[0], dec->nframe);
				dec->nframe = 0;
			}
			dec->st.sync += 4;
			return;
		}
		/* FF FF and something else: an ID 0x7F, never valid. */
		tpiu_error(dec);
		search_byte(dec, b0, off);
		search_byte(dec, b1, off + 1);
		return;
	}
	if (b0 == 0xFF && b1 == 0xFF) {
		dec->ffff = 1;
		dec->ffff_off = off;
		return;
	}
	if (b0 == 0xFF && b1 == 0x7F) {
		dec->st.sync += 2; /* HSYNC */
		return;
	}
	frame_byte(dec, b0, off);
	frame_byte(dec, b1, off + 1);
}

static void tpiu_byte(struct pft_frame_decoder *dec, uint8_t b, uint64_t off)
{
	if (dec->tstate == T_SEARCH) {
		search_byte(dec, b, off);
		return;
	}
	if (!dec->nhalf) {
		dec->half[0] = b;
		dec->half_off = off;
		dec->nhalf = 1;
		return;
	}
	dec->nhalf = 0;
	tpiu_half(dec, dec->half[0], b, dec->half_off);
}

/* ---- pulling items ------------------------------------------------------ */

static void finish(struct pft_frame_decoder *dec)
{
	if (dec->fmt == PFT_FRAME_TPIU && dec->tstate == T_SEARCH) {
		dec->skip_len += dec->match;
		dec->match = 0;
		flush_skip(dec);
		return;
	}
	if (dec->nframe || dec->ffff || dec->nhalf) {
		uint64_t start = dec->nframe ? dec->frame_off[0] :
				 dec->ffff ? dec->ffff_off : dec->half_off;
		push_error(dec, PFT_FERR_TRUNCATED, start,
			   dec->nframe + (dec->ffff ? 2u : 0u) + dec->nhalf);
		dec->nframe = 0;
		dec->ffff = 0;
		dec->nhalf = 0;
	}
}

int pft_frame_decoder_end(struct pft_frame_decoder *dec)
{
	if (!dec)
		return -PFT_E_INVAL;
	dec->ended = 1;
	return 0;
}

static int next_item(struct pft_frame_decoder *dec, struct pft_frame_item *item);

int pft_frame_decoder_next(struct pft_frame_decoder *dec, struct pft_frame_item *item, size_t size)
{
	struct pft_frame_item tmp;
	int r;

	if (!dec || !item || !size)
		return -PFT_E_INVAL;
	if (size == sizeof(*item))
		return next_item(dec, item);
	memset(&tmp, 0, sizeof(tmp));
	r = next_item(dec, &tmp);
	pft_copy_out(item, size, &tmp, sizeof(tmp));
	return r;
}

static int next_item(struct pft_frame_decoder *dec, struct pft_frame_item *item)
{
	struct qitem *q;

	if (dec->fmt == PFT_FRAME_RAW) {
		size_t n = dec->len - dec->pos;

		if (!n)
			return dec->ended ? -PFT_E_EOS : -PFT_E_AGAIN;
		if (n > MAX_ITEM_LEN)
			n = MAX_ITEM_LEN;
		memset(item, 0, sizeof(*item));
		item->type = PFT_FRAME_ITEM_DATA;
		item->id = dec->raw_id;
		item->len = (uint32_t)n;
		item->capture_offset = dec->base + dec->pos;
		item->stream_offset = dec->base + dec->pos;
		item->data = dec->buf + dec->pos;
		dec->pos += n;
		dec->st.data += n;
		if (dec->raw_id < 128)
			dec->st.id_bytes[dec->raw_id] += n;
		else
			dec->st.unknown_id += n;
		return 0;
	}
	while (!qcount(dec)) {
		if (dec->astate == A_REPLAY) {
			replay_step(dec);
			continue;
		}
		if (dec->astate == A_SEARCH) {
			if (dec->pos < dec->len) {
				search_fill(dec);
				continue;
			}
			if (!dec->ended)
				return -PFT_E_AGAIN;
			search_decide(dec);
			continue;
		}
		if (dec->fmt == PFT_FRAME_CORESIGHT && !dec->nframe &&
		    dec->len - dec->pos >= PFT_FRAME_SIZE) {
			/* a whole frame in the chunk: unpack it in place */
			const uint8_t *f = dec->buf + dec->pos;
			uint64_t off = dec->base + dec->pos;

			dec->pos += PFT_FRAME_SIZE;
			take_frame(dec, f, NULL, off);
			continue;
		}
		if (dec->pos < dec->len) {
			uint8_t b = dec->buf[dec->pos];
			uint64_t off = dec->base + dec->pos;

			dec->pos++;
			if (dec->fmt == PFT_FRAME_TPIU)
				tpiu_byte(dec, b, off);
			else
				frame_byte(dec, b, off);
			continue;
		}
		if (!dec->ended)
			return -PFT_E_AGAIN;
		if (dec->ended == 1) {
			dec->ended = 2;
			finish(dec);
			continue;
		}
		if (dec->skip_len) {
			flush_skip(dec);
			continue;
		}
		return -PFT_E_EOS;
	}
	q = &dec->q[dec->qhead % QMAX];
	dec->qhead++;
	memset(item, 0, sizeof(*item));
	item->type = q->type;
	item->id = q->id;
	item->reason = q->reason;
	item->len = q->len;
	item->stream_offset = q->stream_offset;
	item->capture_offset = q->capture_offset;
	if (q->type == PFT_FRAME_ITEM_DATA) {
		item->data = dec->run_data + q->start;
		item->byte_offsets = dec->run_offs + q->start;
	}
	return 0;
}

int64_t pft_frame_extract(enum pft_frame_format fmt, uint8_t id, const uint8_t *capture,
			  size_t len, uint8_t *out, size_t cap, struct pft_frame_stats *stats)
{
	struct pft_frame_decoder *dec;
	struct pft_frame_item it;
	uint64_t total = 0;
	int r;

	if ((!capture && len) || (!out && cap))
		return -PFT_E_INVAL;
	dec = pft_frame_decoder_alloc(fmt, id);
	if (!dec)
		return fmt > PFT_FRAME_TPIU ? -PFT_E_INVAL : -PFT_E_NOMEM;
	pft_frame_decoder_feed(dec, capture, len);
	pft_frame_decoder_end(dec);
	while ((r = pft_frame_decoder_next(dec, &it, sizeof(it))) == 0) {
		uint32_t i;

		if (it.type != PFT_FRAME_ITEM_DATA || it.id != id)
			continue;
		if (total + it.len <= cap) {
			memcpy(out + total, it.data, it.len);
			total += it.len;
			continue;
		}
		for (i = 0; i < it.len; i++, total++)
			if (total < cap)
				out[total] = it.data[i];
	}
	if (stats)
		pft_frame_decoder_get_stats(dec, stats, sizeof(*stats));
	pft_frame_decoder_free(dec);
	if (r != -PFT_E_EOS)
		return r;
	return (int64_t)total;
}
