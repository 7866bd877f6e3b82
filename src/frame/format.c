/* SPDX-License-Identifier: BSD-3-Clause */
/* CoreSight frame formatter, the inverse of deformat.c (include/pft/frame.h).
 *
 * Bytes are placed slot by slot.  An ID change needs an even slot: when the
 * next free slot is odd, the data byte in the even slot before it (which
 * belongs to the old ID) moves to the odd slot and the ID takes its place
 * with auxiliary bit = 1 ("the next byte is still the old ID"), exactly the
 * case the auxiliary bit exists for. */
#include <stdlib.h>
#include <string.h>

#include "pft/frame.h"

#define NO_ID 0xFF

struct pft_frame_encoder {
	enum pft_frame_format fmt;
	unsigned fsync_every;
	unsigned flags;
	uint8_t f[PFT_FRAME_SIZE];
	unsigned slot;        /* next free slot, 0..15 (15 = frame full) */
	uint8_t cur_id;       /* ID in force at the next slot; NO_ID before the first */
	uint64_t frames;      /* frames written */
};

struct pft_frame_encoder *pft_frame_encoder_alloc(enum pft_frame_format fmt,
						  unsigned fsync_every, unsigned flags)
{
	struct pft_frame_encoder *enc;

	if (fmt != PFT_FRAME_CORESIGHT && fmt != PFT_FRAME_TPIU)
		return NULL;
	enc = calloc(1, sizeof(*enc));
	if (!enc)
		return NULL;
	enc->fmt = fmt;
	enc->fsync_every = fsync_every;
	enc->flags = flags;
	enc->cur_id = NO_ID;
	return enc;
}

void pft_frame_encoder_free(struct pft_frame_encoder *enc)
{
	free(enc);
}

static unsigned frame_bytes(const struct pft_frame_encoder *enc)
{
	if (enc->fmt == PFT_FRAME_TPIU &&
	    (enc->frames == 0 || (enc->fsync_every && enc->frames % enc->fsync_every == 0)))
		return PFT_FRAME_SIZE + 4;
	return PFT_FRAME_SIZE;
}

/* Write the full frame; the caller checked the space. */
static size_t emit(struct pft_frame_encoder *enc, uint8_t *out)
{
	size_t n = 0;

	if (frame_bytes(enc) > PFT_FRAME_SIZE) {
		out[0] = 0xFF, out[1] = 0xFF, out[2] = 0xFF, out[3] = 0x7F;
		n = 4;
	}
	memcpy(out + n, enc->f, PFT_FRAME_SIZE);
	memset(enc->f, 0, sizeof(enc->f));
	enc->slot = 0;
	enc->frames++;
	return n + PFT_FRAME_SIZE;
}

static void set_aux(struct pft_frame_encoder *enc, unsigned slot, unsigned bit)
{
	uint8_t m = (uint8_t)(1u << (slot / 2));

	if (bit)
		enc->f[15] |= m;
	else
		enc->f[15] &= (uint8_t)~m;
}

static void put_data(struct pft_frame_encoder *enc, uint8_t d)
{
	if (enc->slot % 2 == 0) {
		enc->f[enc->slot] = d & 0xFE;
		set_aux(enc, enc->slot, d & 1);
	} else {
		enc->f[enc->slot] = d;
	}
	enc->slot++;
}

/* Make id the current ID at the next slot.  Returns 1 if the frame became
 * full doing so (an ID in slot 14), else 0. */
static int change_id(struct pft_frame_encoder *enc, uint8_t id)
{
	uint8_t idb = (uint8_t)(id << 1 | 1);

	if (enc->slot % 2) {
		/* Odd slot: the even slot before it holds old-ID data. */
		unsigned e = enc->slot - 1;
		uint8_t d = (uint8_t)(enc->f[e] | ((enc->f[15] >> (e / 2)) & 1));

		enc->f[e] = idb;
		enc->f[e + 1] = d;
		set_aux(enc, e, 1);
		enc->slot++;
		enc->cur_id = id;
		return enc->slot == 15;
	}
	enc->f[enc->slot] = idb;
	set_aux(enc, enc->slot, 0);
	enc->slot++;
	enc->cur_id = id;
	if (enc->slot == 15)
		return 1;
	/* The odd slot after the ID must hold data: the caller puts it next. */
	return 0;
}

int pft_frame_encoder_encode(struct pft_frame_encoder *enc, uint8_t id, const uint8_t *data,
		     size_t len, uint8_t *out, size_t cap, size_t *consumed)
{
	size_t i = 0, w = 0;

	if (consumed)
		*consumed = 0;
	if (!enc || (!data && len) || (!out && cap) || id > 0x7E)
		return -PFT_E_INVAL;
	while (i < len && w < (size_t)INT32_MAX - 2 * PFT_FRAME_SIZE) {
		if (enc->slot == 15) {
			if (cap - w < frame_bytes(enc))
				break;
			w += emit(enc, out + w);
		}
		if (id != enc->cur_id ||
		    (enc->slot == 0 && (enc->flags & PFT_FRAME_ENC_ID_EVERY_FRAME))) {
			if (change_id(enc, id))
				continue; /* ID went into slot 14: data goes in the next frame */
		}
		put_data(enc, data[i++]);
	}
	if (consumed)
		*consumed = i;
	if (len && !i)
		return -PFT_E_NOSPC;
	return (int)w;
}

int pft_frame_encoder_flush(struct pft_frame_encoder *enc, uint8_t *out, size_t cap)
{
	if (!enc || (!out && cap))
		return -PFT_E_INVAL;
	if (enc->slot == 0)
		return 0;
	if (cap < frame_bytes(enc))
		return -PFT_E_NOSPC;
	if (enc->slot < 15 && enc->cur_id != PFT_FRAME_ID_NULL) {
		if (!change_id(enc, PFT_FRAME_ID_NULL) && enc->slot % 2)
			put_data(enc, 0);
	}
	while (enc->slot < 15)
		put_data(enc, 0);
	return (int)emit(enc, out);
}

int64_t pft_frame_encode_buffer(enum pft_frame_format fmt, uint8_t id, const uint8_t *data,
				size_t len, uint8_t *out, size_t cap)
{
	struct pft_frame_encoder *enc;
	size_t used = 0, w = 0;
	int r;

	if ((!data && len) || (!out && cap) || id > 0x7E)
		return -PFT_E_INVAL;
	enc = pft_frame_encoder_alloc(fmt, 0, 0);
	if (!enc)
		return fmt == PFT_FRAME_CORESIGHT || fmt == PFT_FRAME_TPIU ? -PFT_E_NOMEM : -PFT_E_INVAL;
	while (used < len) {
		size_t c;

		r = pft_frame_encoder_encode(enc, id, data + used, len - used, out + w, cap - w, &c);
		if (r < 0 || (r == 0 && c == 0)) {
			pft_frame_encoder_free(enc);
			return r < 0 ? r : -PFT_E_NOSPC;
		}
		used += c;
		w += (size_t)r;
	}
	r = pft_frame_encoder_flush(enc, out + w, cap - w);
	pft_frame_encoder_free(enc);
	if (r < 0)
		return r;
	return (int64_t)(w + (size_t)r);
}
