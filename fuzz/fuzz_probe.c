/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the probe on arbitrary captures.  Byte 0 picks the
 * layout to assume (or inference); the rest is the capture.  Traps if the
 * report is inconsistent: streams sorted and within bounds, byte counts no
 * larger than the capture, a PFT stream's configuration that fails
 * pft_config_features, or a second probe of the same bytes that differs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/probe.h"

#define ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)

static struct pft_probe_report a, b;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum pft_probe_layout l;
	unsigned i;

	if (size < 1)
		return 0;
	l = (enum pft_probe_layout)(data[0] % 4);
	a.size = b.size = sizeof a;
	ASSERT(pft_probe_buffer(data + 1, size - 1, l, &a) == 0);
	ASSERT(a.capture_len == size - 1);
	ASSERT(a.nstreams <= PFT_PROBE_MAX_STREAMS);
	ASSERT(a.layout <= PFT_PROBE_LAYOUT_TPIU);
	for (i = 0; i < a.nstreams; i++) {
		const struct pft_probe_stream *s = &a.streams[i];
		struct pft_features f;
		ASSERT(s->bytes <= size - 1);
		ASSERT(s->probed <= s->bytes);
		ASSERT(s->protocol < PFT_PROBE_PROTO_NR);
		ASSERT(i == 0 || s->id > a.streams[i - 1].id);
		ASSERT(s->first_async == PFT_PROBE_NO_ASYNC || s->first_async < s->probed);
		if (s->protocol == PFT_PROBE_PROTO_PFT)
			ASSERT(pft_config_features(&s->config, &f) == 0);
	}
	ASSERT(pft_probe_buffer(data + 1, size - 1, l, &b) == 0);
	ASSERT(memcmp(&a, &b, sizeof a) == 0);
	return 0;
}
