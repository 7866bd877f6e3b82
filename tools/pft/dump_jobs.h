/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump --stats --jobs N: the packet statistics of one stream counted on
 * N threads, equal to one thread's for every input.
 *
 * The stream is read in windows of N segments; each segment is cut at an
 * A-sync (5 or more zeros then 0x80, from the first zero) and decoded from
 * there by a fresh packet decoder on its own thread, keeping its first
 * DUMP_JOBS_HEAD items.  Then, in stream order, the decoder that holds the
 * serial state (segment 0's, or the one carried over) goes on into the next
 * segment, item by item, until its items and the segment's agree at the
 * same offsets through an I-sync (address, instruction set, security
 * state) and, when the trace has timestamps, a timestamp (the only other
 * state a packet decoder carries from packet to packet): from there on the
 * two decoders are in the same state, the segment's counts are taken and
 * its decoder carries on.  If they never agree within the head (a corrupt
 * stretch, a sync pattern inside a packet), the serial decoder decodes the
 * whole segment itself: slower, never different. */
#ifndef PFT_TOOLS_DUMP_JOBS_H
#define PFT_TOOLS_DUMP_JOBS_H

#include <stdint.h>

#include "input.h"
#include "pft/packet.h"

#define DUMP_JOBS_HEAD 4096          /* items kept per segment for the join */
#define DUMP_JOBS_SEGMENT (4u << 20) /* default stream bytes per segment */

struct dump_jobs_counts {
	uint64_t count[PFT_PKT_NR_TYPES];
	uint64_t bytes[PFT_PKT_NR_TYPES];
	uint64_t errors, first_error;
};

/* Every chunk of in through jobs threads into *c.  Returns the last
 * decoder status (-PFT_E_EOS when all went through), 1 after a read error
 * (message printed), or -PFT_E_NOMEM.  joins/serial: segments joined, and
 * segments the serial decoder had to decode itself. */
int dump_jobs_count(struct input *in, unsigned jobs, size_t segment, struct dump_jobs_counts *c,
		    uint64_t *joins, uint64_t *serial);

#endif
