/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft: software PTM: registers, TraceEnable, trace generation (pft_ptm_). */
#ifndef PFT_PTM_H
#define PFT_PTM_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
