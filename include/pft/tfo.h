/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft: ETMv2 trace port: capture format, TFO codec, port generator and synchroniser (pft_tfo_). */
#ifndef PFT_TFO_H
#define PFT_TFO_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
