/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record --protocol etm3: the software ETMv3 side (registers from the
 * options, the record part's ETMv3 sink, the snapshot folder). */
#ifndef PFT_RECORD_ETM3_H
#define PFT_RECORD_ETM3_H

#include <stdio.h>

#include "pft/record.h"
#include "record_ptm.h"

struct record_etm3;

/* The registers: an ETMv3.5 as on Cortex-A7 (ETMIDR 0x410CF250, ETMCCER
 * 0x344008F2, trace ID 0x10, ETMSYNCFR 0x400), then the options (--etmXX,
 * --cycle-accurate, --timestamps, --contextid-bytes, --branch-broadcast,
 * --sync-freq, --id, --format).  PTM-only options are refused. */
/* data_bits: ETMCR[3:2] to set (--data-trace); data_log: --data-log FILE
 * (NULL: none; "-": stdout), the emulator's data transfers, one a line.
 * PFT_EXIT_OK or PFT_EXIT_USAGE (message printed). */
int record_etm3_open(struct record_etm3 **out, const struct record_ptm_opts *o,
                     uint64_t cpu_freq, uint64_t ts_freq, unsigned data_bits,
                     const char *data_log, const char *cmd);
void record_etm3_consumer(struct record_etm3 *re, struct pft_rec_consumer *c);
/* Does the recording need each instruction's data transfers (data trace
 * or a data log)? */
int record_etm3_wants_accesses(const struct record_etm3 *re);
/* Close the data log: PFT_EXIT_OK, or PFT_EXIT_USAGE after a message
 * when a write failed. */
int record_etm3_close_log(struct record_etm3 *re, const char *cmd);
/* Write the snapshot folder (device type ETM3.<minor>).  0 or -PFT_E_*. */
int record_etm3_write(struct record_etm3 *re, const char *dir,
                      const struct pft_rec_elf *const *elfs, unsigned nelf, char *msg, size_t cap);
void record_etm3_summary(const struct record_etm3 *re, FILE *f);
void record_etm3_free(struct record_etm3 *re);

#endif
