/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode --id all: every PFT and ETMv3 source of a capture or snapshot
 * at once, one input and one flow decoder per trace ID, their items merged
 * into one listing (decode_all.c), each line carrying its source.
 *
 * Order (doc/decode.md, "Every source at once"): when every source is
 * configured with timestamps, by time: an item takes the value of the
 * first timestamp of its own source at or after its packet (PFTv1.1 and
 * ETMv3.5: a timestamp is the time of the last traced waypoint before it,
 * so it bounds what came before it from above), the last one after the last
 * timestamp, never less than the source's item before it; ties, and every
 * source without timestamps, by capture position (the offset in the
 * capture of the item's packet).  A second reader per source ("scout",
 * packets only) runs ahead to the next timestamp; no item is buffered, so
 * memory is bounded: two 1 MiB chunks, a packet decoder and a flow decoder
 * per source. */
#ifndef PFT_TOOLS_DECODE_ALL_H
#define PFT_TOOLS_DECODE_ALL_H

#include <stddef.h>

#include "decode.h"
#include "flow_any.h"
#include "input.h"

struct pft_image;
struct pft_dbg;

/* What pft decode gives the merge: the output, and its per-source steps. */
struct decode_all_params {
	const char *path;             /* snapshot folder or capture file */
	const struct input_opts *io;
	enum decode_format fmt;
	int disasm;
	const char *outpath;          /* NULL or "-": standard output */
	const char *const *images;    /* --image/--elf paths (not written over) */
	size_t nimages;
	void *ctx;
	/* the program image of a source: PFT_EXIT_OK or the exit code */
	int (*open_image)(void *ctx, const struct input *in, struct pft_image **img,
			  struct pft_dbg **dbg);
	/* the end checks of a source, messages printed: the exit code */
	int (*report)(void *ctx, const struct input *in, const struct flow_any *dec, int err);
};

/* Decode and write everything: the exit code (the worst over the sources). */
int decode_all_run(const struct decode_all_params *p);

#endif
