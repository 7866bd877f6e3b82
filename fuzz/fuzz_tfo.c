/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: ETMv2 trace port capture reader (binary and text) and
 * the TFO synchroniser.  Input: a binary capture ("ETM2" header), or a text
 * capture, or raw cycles (first byte picks the port width, then 3 bytes per
 * cycle).  Checks: delivered bytes are contiguous in the stream, items are
 * well formed, nothing is left once the decoder has ended. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/tfo.h"

#define REQUIRE(x) do { if (!(x)) __builtin_trap(); } while (0)

struct state {
	struct pft_tfo_dec *d;
	uint64_t next_offset;
};

static void drain(struct state *s)
{
	struct pft_tfo_item it;
	int rc;

	while ((rc = pft_tfo_dec_next(s->d, &it, sizeof(it))) == 0) {
		REQUIRE(it.kind >= PFT_TFO_ITEM_STATUS && it.kind <= PFT_TFO_ITEM_ERROR);
		if (it.kind == PFT_TFO_ITEM_BYTES) {
			REQUIRE(it.nbytes == 1 || it.nbytes == 2);
			REQUIRE(it.offset == s->next_offset);
			s->next_offset += it.nbytes;
		} else if (it.kind == PFT_TFO_ITEM_STATUS) {
			REQUIRE(it.status < 16 && it.status != PFT_TFO_PS_TR);
		} else if (it.kind == PFT_TFO_ITEM_ERROR) {
			REQUIRE(it.error < 0);
			REQUIRE(pft_tfo_err_str(it.detail) != NULL);
		} else if (it.kind == PFT_TFO_ITEM_TFO) {
			REQUIRE(it.value <= PFT_TFO_MAX_VALUE);
		}
	}
	REQUIRE(rc == -PFT_E_AGAIN || rc == -PFT_E_EOS);
}

static void push(struct state *s, const struct pft_tfo_cycle *c)
{
	int rc;

	while ((rc = pft_tfo_dec_push(s->d, c)) == -PFT_E_AGAIN)
		drain(s);
	REQUIRE(rc == 0);
	drain(s);
}

static void finish(struct state *s)
{
	struct pft_tfo_item it;

	REQUIRE(pft_tfo_dec_end(s->d) == 0);
	drain(s);
	REQUIRE(pft_tfo_dec_next(s->d, &it, sizeof(it)) == -PFT_E_EOS);
	pft_tfo_dec_free(s->d);
}

static void run_binary(const uint8_t *data, size_t size)
{
	struct pft_tfo_port port;
	struct state s = { NULL, 0 };
	size_t pos;
	int rc = pft_tfo_bin_read_header(data, size, &port);

	if (rc < 0)
		return;
	s.d = pft_tfo_dec_alloc(&port);
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
			s.d = pft_tfo_dec_alloc(&port);
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

	s.d = pft_tfo_dec_alloc(&port);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (size >= 4 && !memcmp(data, "ETM2", 4))
		run_binary(data, size);
	else if (data[0] == 'e' || data[0] == '#')
		run_text(data, size);
	else
		run_raw(data, size);
	return 0;
}
