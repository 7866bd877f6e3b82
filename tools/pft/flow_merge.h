/* SPDX-License-Identifier: BSD-3-Clause */
/* The instruction flows of several trace sources of one capture merged into
 * one order (flow_merge.c): the order of pft decode --id all (decode_all.c)
 * and pft timeline --id all.
 *
 * When every source is configured with timestamps, by time: an item takes
 * the value of the first timestamp of its own source at or after its packet
 * (PFTv1.1 and ETMv3.5: a timestamp is the time of the last traced waypoint
 * before it, so it bounds what came before it from above), the last one
 * after the last timestamp, never less than the source's item before it;
 * ties, and every source without timestamps, by capture position (the
 * offset in the capture of the item's packet).  A second reader per source
 * ("scout", packets only) runs ahead to the next timestamp; no item is
 * buffered, so memory is bounded: two 1 MiB chunks, a packet decoder and
 * the caller's flow decoder per source.  doc/decode.md.
 *
 *     struct flow_merge_src src[n] = { { &in, dec, &opts }, ... };
 *     r = flow_merge_open(&m, path, src, n, "decode");  // exit code, message printed
 *     while (flow_merge_next(m, -1, &k, &it) == 1) {
 *         use item *it of source k;
 *         flow_merge_release(m, k);
 *     }
 *     per source: flow_merge_finish(m, k, &err) ... flow_merge_warn(m, k);
 *     flow_merge_close(m);
 */
#ifndef PFT_TOOLS_FLOW_MERGE_H
#define PFT_TOOLS_FLOW_MERGE_H

#include "flow_any.h"
#include "input.h"

/* One source: its input (opened with capture offsets, read by the merge
 * only), its flow decoder, and its options (for the scout, which opens the
 * same source again). */
struct flow_merge_src {
	struct input *in;
	struct flow_any *dec;
	const struct input_opts *opts;
};

struct flow_merge;

/* n sources (at most SOURCES_ALL_MAX) of the capture or snapshot path.
 * PFT_EXIT_OK, or the exit code after a message (cmd names the command);
 * *m is set even then, unless out of memory (flow_merge_close it). */
int flow_merge_open(struct flow_merge **m, const char *path, const struct flow_merge_src *src,
		    unsigned n, const char *cmd);
/* 1 when the order is by time (every source has timestamps). */
int flow_merge_by_time(const struct flow_merge *m);
/* The next item in the merged order: 1 with *k (its source) and *it (valid
 * until flow_merge_release), 0 when every source is done.  stick >= 0: if
 * that source's next item is an address range, it comes next (the rest of
 * a run the decoder split). */
int flow_merge_next(struct flow_merge *m, int stick, unsigned *k, const struct pft_flow_item **it);
/* The item of source k is used: the next one may be read, the capture
 * offset map of what is behind it forgotten. */
void flow_merge_release(struct flow_merge *m, unsigned k);
/* After the merge: the rest of source k's input read (for input_finish's
 * end checks); *err its decoder's last status (-PFT_E_EOS when all went
 * through, -PFT_E_IO after a read error).  The exit code of a read error, or
 * PFT_EXIT_OK. */
int flow_merge_finish(struct flow_merge *m, unsigned k, int *err);
/* The time rule's notes about source k (timestamps that went back, none at
 * all), on stderr. */
void flow_merge_warn(const struct flow_merge *m, unsigned k);
void flow_merge_close(struct flow_merge *m);

#endif
