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

/* After a read with errors: probe the capture the input read and, when
 * it suggests other options than the ones used (another layout, trace ID,
 * cycle-accurate, context ID size, version, or says the stream is not PFT),
 * print "pft <cmd>: the capture looks like ...: try OPTIONS" on stderr.
 * Prints nothing for a snapshot or stdin, or when the probe agrees. */
void input_probe_hint(const struct input *in, const char *cmd);

#endif
