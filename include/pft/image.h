/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft: program image: memory regions, ELF, snapshot dumps, read callback (pft_image_). */
#ifndef PFT_IMAGE_H
#define PFT_IMAGE_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
