/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: ETMv2 trace port capture reader (binary and text) and
 * the TFO synchroniser.  Input: a binary capture ("ETM2" header), or a text
 * capture, or raw cycles (first byte picks the port width, then 3 bytes per
 * cycle), or 'G' + bytes that drive the port generator.  Checks: delivered
 * bytes are contiguous in the stream, items are well formed, nothing is left
 * once the decoder has ended; for 'G', the synchroniser gives back exactly
 * the generator's bytes and TFO header positions. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/tfo.h"

#define REQUIRE(x) do { if (!(x)) __builtin_trap(); } while (0)

struct state {
	struct pft_tfo_decoder *d;
	uint64_t next_offset;
};

static void drain(struct state *s)
{
	struct pft_tfo_item it;
	int rc;

	while ((rc = pft_tfo_decoder_next(s->d, &it, sizeof(it))) == 0) {
		REQUIRE(it.kind >= PFT_TFO_ITEM_STATUS && it.kind <= PFT_TFO_ITEM_ERROR);
		if (it.kind == PFT_TFO_ITEM_BYTES) {
			REQUIRE(it.nbytes == 1 || it.nbytes == 2);
			REQUIRE(it.offset == s->next_offset);
			s->next_offset += it.nbytes;
		} else if (it.kind == PFT_TFO_ITEM_STATUS) {
			REQUIRE(it.status < 16 && it.status != PFT_TFO_PS_TR);
		} else if (it.kind == PFT_TFO_ITEM_ERROR) {
			REQUIRE(it.error < 0);
			REQUIRE(pft_tfo_err_name(it.detail) != NULL);
		} else if (it.kind == PFT_TFO_ITEM_TFO) {
			REQUIRE(it.value <= PFT_TFO_MAX_VALUE);
		}
	}
	REQUIRE(rc == -PFT_E_AGAIN || rc == -PFT_E_EOS);
}

static void push(struct state *s, const struct pft_tfo_cycle *c)
{
	int rc;

	while ((rc = pft_tfo_decoder_feed(s->d, c)) == -PFT_E_AGAIN)
		drain(s);
	REQUIRE(rc == 0);
	drain(s);
}

static void finish(struct state *s)
{
	struct pft_tfo_item it;

	REQUIRE(pft_tfo_decoder_end(s->d) == 0);
	drain(s);
	REQUIRE(pft_tfo_decoder_next(s->d, &it, sizeof(it)) == -PFT_E_EOS);
	pft_tfo_decoder_free(s->d);
}

static void run_binary(const uint8_t *data, size_t size)
{
	struct pft_tfo_port port;
	struct state s = { NULL, 0 };
	size_t pos;
	int rc = pft_tfo_bin_read_header(data, size, &port);

	if (rc < 0)
		return;
	s.d = pft_tfo_decoder_alloc(&port);
	REQUIRE(s.d != NULL);
	for (pos = (size_t)rc; pos < size;) {
		struct pft_tfo_cycle c;

		rc = pft_tfo_bin_read_record(data + pos, size - pos, port.width, &c);
		if (rc == -PFT_E_AGAIN)
			break;
		REQUIRE(rc > 0 || rc == -PFT_E_BAD_FRAME);
		push(&s, &c);
		pos += pft_tfo_bin_record_size(port.width);
	}
	finish(&s);
}

static void run_text(const uint8_t *data, size_t size)
{
	struct pft_tfo_port port = { 0, 0 };
	struct state s = { NULL, 0 };
	size_t pos = 0;

	while (pos < size) {
		const uint8_t *nl = memchr(data + pos, '\n', size - pos);
		size_t len = nl ? (size_t)(nl - (data + pos)) : size - pos;
		struct pft_tfo_cycle c;
		struct pft_tfo_port p;
		int rc = pft_tfo_text_parse_line((const char *)data + pos, len, port.width, &c, &p);

		REQUIRE(rc >= -PFT_E_NR_ERRORS && rc <= 2);
		if (rc == 2 && !s.d) {
			port = p;
			s.d = pft_tfo_decoder_alloc(&port);
			REQUIRE(s.d != NULL);
		} else if (rc == 1 && s.d) {
			char buf[64];

			REQUIRE(pft_tfo_text_format_cycle(buf, sizeof(buf), port.width, &c) > 0);
			push(&s, &c);
		}
		pos += len + 1;
	}
	if (s.d)
		finish(&s);
}

static void run_raw(const uint8_t *data, size_t size)
{
	static const uint8_t widths[3] = { 4, 8, 16 };
	struct pft_tfo_port port = { widths[data[0] % 3], (uint8_t)((data[0] >> 2) & 1) };
	struct state s = { NULL, 0 };
	size_t pos;

	s.d = pft_tfo_decoder_alloc(&port);
	REQUIRE(s.d != NULL);
	for (pos = 1; pos + 3 <= size; pos += 3) {
		struct pft_tfo_cycle c;

		/* mostly valid cycles, sometimes out of range */
		c.pipestat = (uint8_t)(data[pos] & ((data[pos] & 0x80) ? 0xFF : 0x0F));
		c.pad = 0;
		c.tracepkt = (uint16_t)(data[pos + 1] | (data[pos + 2] << 8));
		if (!(data[pos] & 0x40) && port.width < 16)
			c.tracepkt &= (uint16_t)((1u << port.width) - 1u);
		push(&s, &c);
	}
	finish(&s);
}

/* Round trip: the input drives the generator (2 bytes per cycle), the
 * synchroniser must give back exactly the bytes and TFO positions. */
static void run_roundtrip(const uint8_t *data, size_t size)
{
	static const uint8_t widths[3] = { 4, 8, 16 };
	struct pft_tfo_port port = { widths[data[1] % 3], (uint8_t)(data[1] >> 7) };
	struct pft_tfo_gen *g = pft_tfo_gen_alloc(&port, 200);
	struct pft_tfo_decoder *d = pft_tfo_decoder_alloc(&port);
	static uint8_t stream[1 << 16];
	static uint64_t hdr[4096];
	size_t nstream = 0, nhdr = 0, ntfo_seen = 0, pos, ncyc = 0;
	uint64_t next_off = 0;
	struct pft_tfo_item it;
	int tail = 0, triggered = 0;

	REQUIRE(g && d);
	for (pos = 2; ncyc < 20000; pos += 2, ncyc++) {
		struct pft_tfo_gen_cycle in;
		struct pft_tfo_cycle out;
		struct pft_tfo_gen_note note;
		size_t level = pft_tfo_gen_fifo_level(g);
		int busy = pft_tfo_gen_busy(g);
		uint8_t a, b, bytes[8];
		unsigned k;

		if (pos + 2 > size)
			tail = 1;
		if (tail && level == 0 && !busy)
			break;
		a = tail ? 0x04 : data[pos];
		b = tail ? 0 : data[pos + 1];
		memset(&in, 0, sizeof(in));
		in.status = a & 0xF;
		if (in.status == PFT_TFO_PS_TR || in.status == PFT_TFO_PS_TD)
			in.status = PFT_TFO_PS_WT;
		if ((in.status & 1) && level < 60)
			in.npush = (uint16_t)(1 + (b & 3));
		else
			in.status &= (uint8_t)~1u;
		if ((a & 0x90) == 0x90 && !tail && !triggered) {
			/* one trigger per trace run; the generator refuses more */
			in.flags |= PFT_TFO_GEN_TRIGGER;
			triggered = 1;
		}
		if (!busy && (ncyc == 0 || ((a & 0x60) == 0x60 && level < 80 && !tail))) {
			in.flags |= PFT_TFO_GEN_TFO;
			in.reason = ncyc == 0 ? 1 : (uint8_t)((b >> 2) & 3);
			if (in.reason == 0)
				in.status = PFT_TFO_PS_IE;
			in.npush = 4;
		}
		if (!busy && !(in.flags & (PFT_TFO_GEN_TFO | PFT_TFO_GEN_TRIGGER))) {
			if (level + in.npush == 0)
				in.status = PFT_TFO_PS_WT;
			if (port.width == 16 && level + in.npush == 1) {
				in.status |= 1;
				in.npush++;
			}
		}
		for (k = 0; k < in.npush; k++)
			bytes[k] = (uint8_t)(b * 31u + k * 7u + ncyc);
		REQUIRE(pft_tfo_gen_step(g, &in, bytes, &out, &note) == 0);
		REQUIRE(note.idle_lanes == 0);
		if (in.flags & PFT_TFO_GEN_TFO) {
			REQUIRE(nstream < sizeof(stream) && nhdr < 4096);
			hdr[nhdr++] = note.header_offset;
			stream[nstream++] = (uint8_t)pft_tfo_header_encode(in.reason, 0);
		}
		REQUIRE(nstream + in.npush <= sizeof(stream));
		memcpy(stream + nstream, bytes, in.npush);
		nstream += in.npush;
		while (pft_tfo_decoder_feed(d, &out) == -PFT_E_AGAIN)
			REQUIRE(0); /* a clean capture never fills the queue */
		while (pft_tfo_decoder_next(d, &it, sizeof(it)) == 0) {
			REQUIRE(it.kind != PFT_TFO_ITEM_ERROR && it.kind != PFT_TFO_ITEM_SKIPPED);
			if (it.kind == PFT_TFO_ITEM_BYTES) {
				REQUIRE(it.offset == next_off && it.offset + it.nbytes <= nstream);
				REQUIRE(!memcmp(stream + it.offset, it.bytes, it.nbytes));
				next_off += it.nbytes;
			} else if (it.kind == PFT_TFO_ITEM_TFO) {
				REQUIRE(ntfo_seen < nhdr && it.offset == hdr[ntfo_seen]);
				ntfo_seen++;
			}
		}
	}
	REQUIRE(pft_tfo_decoder_end(d) == 0);
	while (pft_tfo_decoder_next(d, &it, sizeof(it)) == 0) {
		REQUIRE(it.kind != PFT_TFO_ITEM_ERROR);
		if (it.kind == PFT_TFO_ITEM_BYTES) {
			REQUIRE(it.offset == next_off && !memcmp(stream + it.offset, it.bytes, it.nbytes));
			next_off += it.nbytes;
		} else if (it.kind == PFT_TFO_ITEM_TFO) {
			REQUIRE(ntfo_seen < nhdr && it.offset == hdr[ntfo_seen]);
			ntfo_seen++;
		}
	}
	REQUIRE(ntfo_seen == nhdr);
	REQUIRE(next_off == nstream);
	pft_tfo_gen_free(g);
	pft_tfo_decoder_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (size >= 2 && data[0] == 'G')
		run_roundtrip(data, size);
	else if (size >= 4 && !memcmp(data, "ETM2", 4))
		run_binary(data, size);
	else if (data[0] == 'e' || data[0] == '#')
		run_text(data, size);
	else
		run_raw(data, size);
	return 0;
}
