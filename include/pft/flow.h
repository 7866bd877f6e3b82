/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft: instruction-flow decoder, spec appendix B (pft_flow_). */
#ifndef PFT_FLOW_H
#define PFT_FLOW_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
