/* SPDX-License-Identifier: BSD-3-Clause */
/* --jobs N for pft dump and pft decode (par_run.c): one PFT or ETMv3 stream decoded
 * on N threads through the library's split and join (pft/parallel.h), its
 * items handed out in stream order, exactly the serial decoder's.
 *
 * The stream is read in windows of N segments (segment bytes each; a
 * chunk read that is larger spreads over several windows); the
 * window is cut at A-syncs (pft_par_split) and each segment decoded by
 * pft_par_seg_decode on its own thread.  Pipelined: while a window's
 * segments decode, this thread reads the next window and starts its
 * segments at once (so that a thread done early finds work), then joins
 * the decoded window in order, handing the items to the caller.  A mapped
 * input (input_mapped: a raw capture file) is not copied: its windows are
 * views of the mapping, given back (input_drop) once the window after them
 * is joined; other inputs are copied into three window buffers.  A chunk
 * that follows a gap in the capture starts a new window, and the serial
 * decoder resynchronises there, as the serial path does.
 * Memory: three windows (3 * N * segment bytes, buffers or mapped
 * pages) and two sets of N segments with, when items are kept
 * (listings), their item buffers (PAR_RUN_* below); a segment whose
 * buffers fill stops there and the join decodes the rest of it
 * serially. */
#ifndef PFT_TOOLS_PAR_RUN_H
#define PFT_TOOLS_PAR_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "input.h"
#include "pft/parallel.h"

#define PAR_RUN_SEGMENT_STATS (4u << 20)  /* default segment bytes, packet totals only */
#define PAR_RUN_SEGMENT_FLOW (1u << 20)   /* default segment bytes, flow totals only */
#define PAR_RUN_SEGMENT_ITEMS (128u << 10) /* default segment bytes, items kept */
/* Item buffers per segment, when items are kept: per segment byte, packets
 * or flow items, and instructions (real traces give 0.4-1.2 flow items a
 * byte: TC2 0.41, recordings with branch broadcast 1.2). */
#define PAR_RUN_ITEMS_PER_BYTE(seg) ((seg) * 3 / 2 + 64)
#define PAR_RUN_INSNS_PER_BYTE(seg) ((seg) * 4 + 4096)

struct par_run {
	unsigned jobs;            /* threads, 1..PFT_PAR_MAX_SPLIT */
	size_t segment;           /* stream bytes per segment (0: the default) */
	enum pft_par_kind kind;
	int keep;                 /* hand every item to item(); else totals only */
	int keep_insns;           /* FLOW, keep: ranges come with their instructions */
	/* PACKETS: const struct pft_packet * (an ETMv3 source: const struct
	 * pft_etm3_packet *); FLOW: const struct pft_flow_item *.  Nonzero
	 * stops the run (-PFT_E_IO). */
	int (*item)(void *arg, const void *it);
	void *arg;
	struct pft_par *par;      /* after par_run_stream: the totals; free it */
	int etm3;                 /* set by par_run_stream: an ETMv3 source (input_is_etm3) */
	struct pft_par_join_stats js;
};

/* Every chunk of in through r->jobs threads.  Returns the decoder's last
 * status (-PFT_E_EOS when all went through), 1 after a read error (message
 * printed, in->exit_code), -PFT_E_IO if item() stopped it, or
 * -PFT_E_NOMEM. */
int par_run_stream(struct input *in, const struct pft_config *cfg, struct pft_image *img,
		   int isync_resync, struct par_run *r);

#endif
