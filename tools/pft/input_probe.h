/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump / pft decode on a bare capture file: the probe's inference in
 * place of the options the user did not give, and a hint after a decode
 * whose errors suggest a wrong assumption (include/pft/probe.h). */
#ifndef PFT_TOOLS_INPUT_PROBE_H
#define PFT_TOOLS_INPUT_PROBE_H

#include "input.h"

/* When path is a regular file (not a snapshot folder, not "-") and none of
 * --format, --id, --source, --etmtraceidr was given: probe the capture and
 * fill in *o the layout, the trace ID of the first PFT stream and the PTM
 * options the user did not set, and say so on stderr in one line
 * ("pft <cmd>: probed FILE: ...").  When the probe finds no PFT stream, *o
 * is left alone and nothing is printed (the defaults apply, and their
 * errors say what is wrong).  Returns 0. */
int input_probe(struct input_opts *o, const char *path, const char *cmd);

/* After a read with errors: probe the capture the input read and, when
 * it suggests other options than the ones used (another layout, trace ID,
 * cycle-accurate, context ID size, version, or says the stream is not PFT),
 * print "pft <cmd>: the capture looks like ...: try OPTIONS" on stderr.
 * Prints nothing for a snapshot or stdin, or when the probe agrees. */
void input_probe_hint(const struct input *in, const char *cmd);

#endif
