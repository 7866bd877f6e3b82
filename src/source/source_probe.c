/* SPDX-License-Identifier: BSD-3-Clause */
/* A capture given without a layout or a trace ID (params.format AUTO,
 * trace_id -1, no source name): what pft_probe_buffer (pft/probe.h) infers
 * from its first SOURCE_PROBE_BYTES bytes chooses the layout, the trace ID
 * (the first PFT stream) and the registers (the PTM options the bytes
 * imply).  Only a capture that can be read twice is probed (a regular file
 * or a buffer); a pipe keeps the defaults.  When no PFT stream is found the
 * defaults apply too, and their messages say what is wrong. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "source_int.h"

#define SOURCE_PROBE_BYTES (16u << 20)

int source_probe(struct pft_source *s, const struct pft_source_params *p)
{
	const uint8_t *buf = s->map;
	uint8_t *own = NULL;
	size_t n, i;
	int r;

	if (p->format != PFT_SOURCE_FORMAT_AUTO || p->trace_id >= 0 || p->source_name || s->size <= 0)
		return 0;
	n = (uint64_t)s->size < SOURCE_PROBE_BYTES ? (size_t)s->size : SOURCE_PROBE_BYTES;
	if (!buf) {
		size_t got = 0;
		if (!(own = malloc(n)))
			return -PFT_E_NOMEM;
		while (got < n) {
			ssize_t k = pread(s->fd, own + got, n - got, (off_t)got);
			if (k <= 0)
				break;
			got += (size_t)k;
		}
		n = got;
		buf = own;
	}
	s->probe = calloc(1, sizeof *s->probe);
	if (!s->probe) {
		free(own);
		return -PFT_E_NOMEM;
	}
	s->probe->size = sizeof *s->probe;
	r = pft_probe_buffer(buf, n, PFT_PROBE_LAYOUT_UNKNOWN, s->probe);
	free(own);
	if (r < 0 || !pft_probe_pft_count(s->probe)) {
		free(s->probe);
		s->probe = NULL;
		return r < 0 ? r : 0;
	}
	for (i = 0; s->probe->streams[i].protocol != PFT_PROBE_PROTO_PFT; i++)
		;
	s->format = pft_probe_frame_format((enum pft_probe_layout)s->probe->layout);
	s->config = s->probe->streams[i].config;
	s->trace_id_chosen = 1;
	s->probe_id = s->format == PFT_FRAME_RAW ? -1 : s->probe->streams[i].id;
	return 1;
}
