/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump / pft decode on a bare capture file (the source layer probes it,
 * pft/source.h): the line saying what was assumed, and a hint after a
 * decode whose errors suggest a wrong assumption (pft/probe.h). */
#ifndef PFT_TOOLS_INPUT_PROBE_H
#define PFT_TOOLS_INPUT_PROBE_H

#include "input.h"
#include "pft/probe.h"

/* The one line on stderr when the source probed a bare capture
 * (pft_source_get_probe): "pft <cmd>: no --format or --id given; probed
 * FILE: CoreSight frames, PFT 1.1 in trace ID 0x13: reading it as OPTIONS;
 * skipped: 0x10 etmv3 ...". */
void input_probe_say(const struct pft_probe_report *rep, const char *path, const char *cmd);

/* After a read with `errors` malformed packets: probe the capture the
 * input read and, when it suggests other options than the ones used
 * (another layout, trace ID, cycle-accurate, context ID size, version, or
 * says the stream is not PFT), print "pft <cmd>: the capture looks like
 * ...: try OPTIONS" on stderr.  Prints nothing for a snapshot or stdin,
 * when the probe agrees, or when the errors are fewer than one per
 * INPUT_PROBE_HINT_BYTES stream bytes: wrong options break a packet at
 * nearly every I-sync (every few hundred bytes), while a few damaged
 * bytes in a long capture say nothing about the options, and the probe
 * costs about 0.1 s. */
#define INPUT_PROBE_HINT_BYTES (1u << 20)
void input_probe_hint(const struct input *in, uint64_t errors, const char *cmd);

#endif
