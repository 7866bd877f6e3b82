/* SPDX-License-Identifier: BSD-3-Clause */
/* Sync patterns that name a protocol before any decoding:
 *   PFT and ETMv3 A-sync   5 x 0x00 then 0x80 (PFT spec 4.5.1; ETMv3 alike)
 *   ETMv4 / ETE A-sync     11 x 0x00 then 0x80
 *   STPv2 (STM) ASYNC      21 nibbles 0xF then a nibble 0: ten or more 0xFF
 *                          bytes then 0x0F or 0xF0 depending on nibble order
 * and one mark of ETMv3 over PFT: 0x70 right after an A-sync is ETMv3's
 * cycle-accurate I-sync header, a reserved header in PFT. */
#include "probe_int.h"

void probe_scan_syncs(const uint8_t *buf, size_t len, struct pft_probe_stream *st)
{
	size_t i, zeros = 0, ffs = 0;

	st->first_async = PFT_PROBE_NO_ASYNC;
	st->asyncs = st->etm4_asyncs = st->stm_asyncs = st->etm3_isyncs = 0;
	for (i = 0; i < len; i++) {
		uint8_t b = buf[i];

		if (b == 0x80 && zeros >= 5) {
			if (zeros >= 11) {
				st->etm4_asyncs++;
			} else {
				st->asyncs++;
				if (st->first_async == PFT_PROBE_NO_ASYNC)
					st->first_async = i - zeros;
				if (i + 1 < len && buf[i + 1] == 0x70)
					st->etm3_isyncs++;
			}
		}
		if ((b == 0x0F || b == 0xF0) && ffs >= 10)
			st->stm_asyncs++;
		zeros = b == 0 ? zeros + 1 : 0;
		ffs = b == 0xFF ? ffs + 1 : 0;
	}
}
