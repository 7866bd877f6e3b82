/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the frame deformatter on arbitrary captures, and the
 * formatter -> deformatter round trip on arbitrary multi-source data.
 * Byte 0 picks the format and chunk size; the rest is the capture.  Traps
 * if a byte is not accounted for, an item is inconsistent, or a round trip
 * does not give back the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/frame.h"

#define ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)

static void deformat(enum pft_frame_format fmt, const uint8_t *d, size_t n, size_t chunk)
{
	struct pft_frame_decoder *dec = pft_frame_decoder_alloc(fmt, 0x13);
	struct pft_frame_item it;
	struct pft_frame_stats st;
	uint64_t next_off[129] = { 0 }, items = 0;
	size_t pos = 0;
	int r;

	ASSERT(dec);
	for (;;) {
		if (pos < n) {
			size_t c = n - pos < chunk ? n - pos : chunk;
			ASSERT(pft_frame_decoder_feed(dec, d + pos, c) == 0);
			pos += c;
		} else {
			ASSERT(pft_frame_decoder_end(dec) == 0);
		}
		while ((r = pft_frame_decoder_next(dec, &it, sizeof it)) == 0) {
			items++;
			ASSERT(it.len > 0);
			ASSERT(it.capture_offset < n);
			if (it.type == PFT_FRAME_ITEM_DATA) {
				unsigned slot = it.id == PFT_FRAME_ID_UNKNOWN ? 128 : it.id;
				uint32_t i;
				ASSERT(slot < 129);
				ASSERT(it.stream_offset == next_off[slot]);
				next_off[slot] += it.len;
				for (i = 0; i < it.len; i++)
					ASSERT(pft_frame_item_byte_offset(&it, i) < n);
				if (fmt != PFT_FRAME_RAW) {
					ASSERT(it.len <= PFT_FRAME_MAX_RUN);
					ASSERT(it.data[0] == d[it.byte_offsets[0]] ||
					       (it.data[0] & 0xFE) == d[it.byte_offsets[0]]);
				}
			} else {
				ASSERT(it.type == PFT_FRAME_ITEM_UNSYNCED || it.type == PFT_FRAME_ITEM_ERROR);
				ASSERT(it.capture_offset + it.len <= n);
			}
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	ASSERT(r == -PFT_E_EOS);
	ASSERT(pft_frame_decoder_get_stats(dec, &st, sizeof(st)) == 0);
	ASSERT(st.bytes_in == n);
	ASSERT(st.data + st.overhead + st.sync + st.unsynced + st.error == n);
	pft_frame_decoder_free(dec);
}

/* Cut the data into segments for up to 4 IDs, frame them, de-format, compare. */
static void roundtrip(enum pft_frame_format fmt, const uint8_t *d, size_t n)
{
	static uint8_t frames[1 << 20], back[4][1 << 16];
	size_t nback[4] = { 0 }, got[4] = { 0 }, w = 0, pos = 0;
	uint8_t ids[4] = { 0x10, 0x11, 0x6F, 0x01 };
	struct pft_frame_encoder *enc = pft_frame_encoder_alloc(fmt, n % 5, n % 3 ? 0 : PFT_FRAME_ENC_ID_EVERY_FRAME);
	struct pft_frame_decoder *dec;
	struct pft_frame_item it;
	size_t nseg = 0, i;
	int r;

	ASSERT(enc);
	if (n > (1 << 15))
		n = 1 << 15;
	/* segment header byte: id index in bits 0-1, length in bits 2-7 */
	while (pos < n && nseg < 64) {
		uint8_t h = d[pos++];
		size_t len = h >> 2, c;

		if (len > n - pos)
			len = n - pos;
		r = pft_frame_encoder_encode(enc, ids[h & 3], d + pos, len, frames + w, sizeof frames - w, &c);
		ASSERT(r >= 0 && c == len);
		w += (size_t)r;
		nseg++;
		memcpy(back[h & 3] + nback[h & 3], d + pos, len);
		nback[h & 3] += len;
		pos += len;
	}
	r = pft_frame_encoder_flush(enc, frames + w, sizeof frames - w);
	ASSERT(r >= 0);
	w += (size_t)r;
	pft_frame_encoder_free(enc);

	/* the exact inverse of the formatter, with alignment recovery off: on
	   adversarial clean frames the recovery's evidence can still point to a
	   shift (doc/fuzzing.md); realistic clean captures are checked with it
	   on in test_frame_realign, and deformat() runs it on every input */
	dec = pft_frame_decoder_alloc(fmt, 0);
	ASSERT(dec);
	ASSERT(pft_frame_decoder_set_realign(dec, 0) == 0);
	pft_frame_decoder_feed(dec, frames, w);
	pft_frame_decoder_end(dec);
	while ((r = pft_frame_decoder_next(dec, &it, sizeof it)) == 0) {
		ASSERT(it.type == PFT_FRAME_ITEM_DATA);
		if (it.id == 0)
			continue;
		for (i = 0; i < 4 && ids[i] != it.id; i++)
			;
		ASSERT(i < 4);
		ASSERT(it.stream_offset == got[i]);
		ASSERT(got[i] + it.len <= nback[i]);
		ASSERT(memcmp(back[i] + got[i], it.data, it.len) == 0);
		got[i] += it.len;
	}
	ASSERT(r == -PFT_E_EOS);
	for (i = 0; i < 4; i++)
		ASSERT(got[i] == nback[i]);
	pft_frame_decoder_free(dec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum pft_frame_format fmt;
	size_t chunk;

	if (size < 1)
		return 0;
	fmt = (enum pft_frame_format)(data[0] % 3);
	chunk = 1 + (data[0] >> 2) * 7;
	deformat(fmt, data + 1, size - 1, chunk);
	if (fmt != PFT_FRAME_RAW)
		roundtrip(fmt, data + 1, size - 1);
	return 0;
}
