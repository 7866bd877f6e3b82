/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode for ETMv3 trace sources (decode_etm3.c). */
#ifndef PFT_TOOL_DECODE_ETM3_H
#define PFT_TOOL_DECODE_ETM3_H

#include "decode.h"
#include "input.h"

/* Decode the open ETMv3 input against img into out (opened by the caller;
 * finished here).  Returns the exit status (messages printed). */
int decode_etm3(struct input *in, const struct pft_image *img, struct decode_out *out,
		const char *outpath);

#endif
