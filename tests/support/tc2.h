/* SPDX-License-Identifier: BSD-3-Clause */
/* The TC2 snapshot (data/TC2) as the tests that decode its PTM source read
 * it: one trace ID's bytes out of cstrace.bin, PTM_0's registers, the
 * kernel image. */
#ifndef PFT_TEST_TC2_H
#define PFT_TEST_TC2_H

#include <stddef.h>
#include <stdint.h>

#include "pft/common.h"
#include "pft/image.h"

/* The bytes of trace ID id in TC2/cstrace.bin (CoreSight frames), in a
 * malloc'd buffer, their count in *len; NULL after a failed check. */
uint8_t *tc2_stream(unsigned id, size_t *len);

/* PTM_0's registers (device_8.ini): trace ID 0x13, PFT v1.1, cycle
 * accurate, timestamps. */
struct pft_config tc2_ptm_config(void);

/* kernel_dump.bin (its first 0x50000 bytes) added to img at 0xC0008000: 0,
 * or -1 after a failed check. */
int tc2_add_kernel(struct pft_image *img);

#endif
