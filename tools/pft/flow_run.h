/* SPDX-License-Identifier: BSD-3-Clause */
/* The instruction flow of one input, every item handed to a callback in
 * stream order (flow_run.c), for the analysis commands (pft profile,
 * coverage, timeline, tail): on one thread through flow_any.h, or, with
 * jobs > 1, decoded on that many threads by par_run_stream (PFT or ETMv3)
 * and joined in order.  The callback runs on the calling
 * thread and sees the same items either way (pft/parallel.h): the analysis
 * stays serial, only the decoding is spread. */
#ifndef PFT_TOOLS_FLOW_RUN_H
#define PFT_TOOLS_FLOW_RUN_H

#include "flow_any.h"
#include "input.h"
#include "pft/parallel.h"

struct flow_run {
	unsigned jobs;            /* threads (1: serial) */
	size_t segment;           /* --segment-size (0: par_run.h's default) */
	/* every item, its instructions with it (valid during the call);
	   non-zero stops the run and is kept in stop */
	int (*item)(void *arg, const struct pft_flow_item *it);
	void *arg;
	int stop;                 /* out: the item callback's non-zero return, or 0 */
	int parallel;             /* out: decoded on threads */
	struct pft_flow_stats st; /* out: the decoder's totals */
	struct pft_par_join_stats js; /* out: with parallel, how segments joined */
};

/* Every chunk of in through dec (a decoder for in's source over img), or
 * through r->jobs threads.  After a stop or a decoder error the rest of in
 * is read, for input_finish's end-of-stream checks.  Returns the decoder's
 * last status (-PFT_E_EOS when all went through), 0 when the callback
 * stopped it (r->stop), 1 after a read error (message printed, the exit
 * code in in->exit_code), or -PFT_E_NOMEM. */
int flow_run(struct input *in, struct flow_any *dec, struct pft_image *img, struct flow_run *r);

#endif
