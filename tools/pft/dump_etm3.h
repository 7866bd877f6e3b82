/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump for ETMv3 trace sources (dump_etm3.c). */
#ifndef PFT_TOOL_DUMP_ETM3_H
#define PFT_TOOL_DUMP_ETM3_H

#include <stdio.h>

#include "input.h"

/* List the ETMv3 packets of the open input to out (text, JSON Lines with
 * json, or only the per-type summary with want_stats), on jobs threads
 * (par_run.h; segment bytes each, 0: its default) when jobs > 1: the same
 * output.  Returns the exit status (messages printed). */
int dump_etm3(struct input *in, FILE *out, int json, int want_stats, unsigned jobs,
	      size_t segment);

#endif
