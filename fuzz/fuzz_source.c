/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: trace sources (pft/source.h) over arbitrary captures in
 * memory.  Byte 0 picks the layout and whether a trace ID is given, byte 1
 * the ID; the rest is the capture.  Traps if the chunks are not contiguous,
 * the stream is longer than the capture, the stream length known at open
 * differs from what was handed out, or a capture offset lies outside the
 * capture. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/source.h"

#define ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pft_source_params p;
	struct pft_source_info info;
	struct pft_source_chunk c;
	struct pft_source *src;
	uint64_t pos = 0, len0;
	char msg[256];
	int r;

	if (size < 2)
		return 0;
	pft_source_params_init(&p);
	p.format = (data[0] & 3) == 3 ? PFT_SOURCE_FORMAT_AUTO : (int)(data[0] & 3);
	p.trace_id = (data[0] & 4) ? 1 + data[1] % 0x6F : -1;
	p.capture_offsets = 1;
	r = pft_source_open_memory(&src, data + 2, size - 2, &p, msg, sizeof msg);
	if (r < 0) {
		ASSERT(src == NULL && msg[0]);
		return 0;
	}
	pft_source_get_info(src, &info, sizeof info);
	len0 = info.stream_len;
	while ((r = pft_source_next(src, &c, sizeof c)) == 0) {
		ASSERT(c.len > 0 && c.stream_offset == pos);
		ASSERT(pft_source_capture_offset(src, pos) < size - 2);
		ASSERT(pft_source_capture_offset(src, pos + c.len - 1) < size - 2);
		pos += c.len;
		pft_source_release(src, pos - 1);
	}
	ASSERT(r == -PFT_E_EOS);
	ASSERT(pos <= size - 2);
	ASSERT(len0 == PFT_SOURCE_LEN_UNKNOWN || len0 == pos);
	(void)pft_source_finish(src, msg, sizeof msg);
	pft_source_close(src);
	return 0;
}
