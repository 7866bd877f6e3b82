/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump --id all: every PFT and ETMv3 source of a capture or snapshot at
 * once, one input and one packet decoder (PFT or ETMv3) per trace ID, their
 * packets merged in capture order (the order in which the formatter wrote
 * them).  Sources that are neither are named once, with their byte counts,
 * and skipped.
 *
 *     struct dump_all *a;
 *     r = dump_all_open(&a, path, &opts, "dump");     // exit code, message printed
 *     while ((r = dump_all_next(a, &i, &pkt, &cap)) == 1)
 *         packet pkt of source i (dump_all_input(a, i)) at capture offset cap:
 *         pkt.e if dump_all_is_etm3(a, i), else pkt.p;
 *     r < 0: read error (exit code -r, message printed); 0: all read
 *     dump_all_close(a);
 *
 * A snapshot folder gives its PTM and ETMv3 sources (registers from its ini
 * files); a capture file is probed (pft/probe.h) for its PFT trace IDs and
 * their options, unless --format or registers are given (sources_all.h).  Memory: one 1 MiB chunk
 * per source, and the capture offset map of the packet each holds. */
#ifndef PFT_TOOLS_DUMP_ALL_H
#define PFT_TOOLS_DUMP_ALL_H

#include "input.h"
#include "sources_all.h"
#include "pft/etm3.h"
#include "pft/packet.h"

#define DUMP_ALL_MAX SOURCES_ALL_MAX /* sources read at once */

/* A packet of a PFT source (p) or of an ETMv3 source (e). */
union dump_all_pkt {
	struct pft_packet p;
	struct pft_etm3_packet e;
};

struct dump_all;

/* need_len: the stream length of every source known at open (the text
 * header): the capture is scanned once more (PFT_SOURCE_GROUP_SCAN). */
int dump_all_open(struct dump_all **out, const char *path, const struct input_opts *o,
		  int need_len, const char *cmd);
/* 1: *src, *p and *cap (capture offset of the packet's first byte) set;
 * 0: every source at its end; -exit code after a read error. */
int dump_all_next(struct dump_all *a, unsigned *src, union dump_all_pkt *p, uint64_t *cap);
unsigned dump_all_count(const struct dump_all *a);
/* 1: source i is an ETMv3 source (its packets in pkt.e). */
int dump_all_is_etm3(const struct dump_all *a, unsigned i);
struct input *dump_all_input(struct dump_all *a, unsigned i);
/* The decoder's last status of source i (-PFT_E_EOS when all went through). */
int dump_all_status(const struct dump_all *a, unsigned i);
/* "0x10 (etmv3, 1234 bytes), ..." the sources skipped, "" if none. */
const char *dump_all_skipped(const struct dump_all *a);
void dump_all_close(struct dump_all *a);

#endif
