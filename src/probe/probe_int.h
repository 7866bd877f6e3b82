/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the probe's files: the stream probe (probe_stream.c) is used by
 * the capture probe (probe.c); nothing calls back. */
#ifndef PFT_PROBE_INT_H
#define PFT_PROBE_INT_H

#include "pft/probe.h"

/* Sync patterns of a stream: fills first_async, asyncs, etm4_asyncs,
 * stm_asyncs, etm3_isyncs (probe_sync.c). */
void probe_scan_syncs(const uint8_t *buf, size_t len, struct pft_probe_stream *st);

/* The best decode of the stream as ETMv3 under candidate configurations
 * (probe_etm3.c): bytes after the first A-sync lost, errors, I-syncs, odd
 * I-syncs, P-headers; the configuration inferred with the confidence and
 * alt_lost of each ETMv3 option (as pft_probe_stream's); timestamp, VMID
 * and data packets.  0, or -PFT_E_INTERNAL when no candidate could be
 * decoded. */
struct probe_e3 {
	uint64_t lost, errors, isyncs, odd, phdrs, far, atoms;
	uint64_t timestamps, vmids, data;
	struct pft_config config;
	uint8_t conf[PFT_PROBE_NR_OPTS];
	uint64_t alt_lost[PFT_PROBE_NR_OPTS];
};
int probe_etm3(const uint8_t *buf, size_t len, struct probe_e3 *r);

/* Walk buf[start..len) as ITM packets: packets, reserved headers (and zero
 * runs not ended by 0x80), instrumentation packets (probe_itm.c). */
void probe_itm(const uint8_t *buf, size_t len, size_t start, uint64_t *packets, uint64_t *reserved,
               uint64_t *swit);

#endif
