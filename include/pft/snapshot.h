/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft: DS-5/OpenCSD snapshot folders in and out (pft_snapshot_). */
#ifndef PFT_SNAPSHOT_H
#define PFT_SNAPSHOT_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
