/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft: CoreSight frame (de)formatter and TPIU sync (pft_frame_). */
#ifndef PFT_FRAME_H
#define PFT_FRAME_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
