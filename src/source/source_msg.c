/* SPDX-License-Identifier: BSD-3-Clause */
/* The messages of the trace sources: one line into the caller's buffer. */
#include <stdarg.h>
#include <stdio.h>

#include "source_int.h"

int source_msg(int err, char *msg, size_t cap, const char *fmt, ...)
{
	va_list ap;

	if (msg && cap) {
		va_start(ap, fmt);
		vsnprintf(msg, cap, fmt, ap);
		va_end(ap);
	}
	return err;
}

void pft_source_describe_ids(const struct pft_frame_stats *st, char *buf, size_t cap)
{
	size_t n = 0;
	int id, any = 0;

	if (!buf || !cap)
		return;
	buf[0] = '\0';
	for (id = 1; id < 128 && n + 40 < cap; id++) {
		if (!st->id_bytes[id])
			continue;
		n += (size_t)snprintf(buf + n, cap - n, "%s0x%02X (%llu bytes)", any ? ", " : "", id,
				      (unsigned long long)st->id_bytes[id]);
		any = 1;
	}
	if (!any)
		snprintf(buf, cap, "no trace data at all");
}
