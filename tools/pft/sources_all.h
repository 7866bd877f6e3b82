/* SPDX-License-Identifier: BSD-3-Clause */
/* --id all: which trace sources of one capture or snapshot a command reads
 * (sources_all.c), and which it skips.
 *
 *     struct sources_all *sa = calloc(1, sizeof *sa);
 *     r = sources_all_find(sa, path, &opts, etm3, "decode");  // exit code, message printed
 *     for (i = 0; i < sa->n; i++)
 *         input_open(&in[i], path, &sa->opts[i], ...);          // one input per source
 *     ... after reading: cli_error(cmd, "skipped ...: %s", sources_all_skipped(sa, &in[0]));
 *
 * A snapshot folder gives its PTM sources (and, with etm3, its ETMv3
 * sources), each by name with the registers of its ini file; sources of
 * another kind, and PTM/ETMv3 sources whose trace ID has no bytes in the
 * buffer, are skipped.  A capture file is probed (pft/probe.h): its PFT
 * trace IDs are read with the options the probe infers, unless registers
 * or flags are given; every other trace ID is skipped (ETMv3 too: a capture
 * file holds no ETMv3 registers, which the probe cannot infer).  The
 * structure is big (the skipped list): allocate it. */
#ifndef PFT_TOOLS_SOURCES_ALL_H
#define PFT_TOOLS_SOURCES_ALL_H

#include <stdint.h>

#include <stdio.h>

#include "input.h"

#define SOURCES_ALL_MAX 16 /* sources read at once */

struct sources_all {
	unsigned n;
	struct input_opts opts[SOURCES_ALL_MAX]; /* input_open's options per source */
	char names[SOURCES_ALL_MAX][64];         /* snapshot source names ("" for a capture file) */
	uint8_t ids[SOURCES_ALL_MAX];            /* trace IDs */
	unsigned nskip;
	uint8_t skip_id[128];
	char skip_what[128][40];
	char skipped[4096];
	int seen;                                /* sources_all_saw: the capture's */
	enum pft_frame_format seen_format;       /* layout and frame statistics */
	struct pft_frame_stats seen_stats;
};

/* Fills *sa (zeroed by the caller).  etm3: ETMv3 sources of a snapshot are
 * read too.  PFT_EXIT_OK, or the exit code after a message (no source to
 * read: PFT_EXIT_DATA; standard input, more than SOURCES_ALL_MAX:
 * PFT_EXIT_USAGE). */
int sources_all_find(struct sources_all *sa, const char *path, const struct input_opts *o,
		     int etm3, const char *cmd);
/* Number of sources a default run would read, without messages: for the
 * default --id all when no ID is given (-1 when the input cannot be
 * looked at: standard input, a missing file; 1 for a raw stream or when
 * --etmtraceidr names the source). */
int sources_all_count(const char *path, const struct input_opts *o, int etm3);
/* One reader and deformatter of the capture for every source
 * (pft_source_group, pft/source.h): *g allocated and set in every sa->opts
 * (scan: PFT_SOURCE_GROUP_SCAN, the stream lengths known at open).  Free it
 * after the inputs are closed.  PFT_EXIT_OK, or PFT_EXIT_USAGE after a
 * message. */
int sources_all_group(struct sources_all *sa, struct pft_source_group **g, int scan,
		      const char *cmd);
/* The default of a command given neither --id nor --source: 1 when the
 * input has several sources (sources_all_count > 1: read them all, as
 * --id all), else 0.  The one rule of pft decode and pft dump. */
int sources_all_default(const char *path, const struct input_opts *o, int etm3);
/* "0x10 (ETM3.5, 10873 bytes), ..." the sources skipped, "" if none; the
 * byte counts from in's frame statistics (an input of the same capture,
 * read to its end; in NULL: those sources_all_saw was given), or left out
 * when there are none or the capture is raw. */
const char *sources_all_skipped(struct sources_all *sa, const struct input *in);

/* The analysis commands (pft profile, coverage, tail, timeline): 1 when
 * they read every source of path: given --id all (all), or by
 * sources_all_default's rule, PFT and ETMv3 sources alike. */
int sources_all_wanted(const char *path, const struct input_opts *o, int all);
/* One source's run for sources_all_each: k of sa->n, its input options
 * sa->opts[k] (name sa->names[k], trace ID sa->ids[k]); an exit code.
 * Before it closes its input, read to the end, it hands it to
 * sources_all_saw (the byte counts of the sources skipped). */
typedef int (*sources_all_fn)(void *ctx, struct sources_all *sa, unsigned k);
/* Find the sources of path (sources_all_find, ETMv3 too) and run one for
 * each, in order, on this thread; then name the sources skipped once on
 * stderr.  Stops at the first PFT_EXIT_USAGE.  The worst exit code.  *sa
 * (zeroed by the caller, big: allocate it) is kept for the caller. */
int sources_all_each(struct sources_all *sa, const char *path, const struct input_opts *o,
		     const char *cmd, sources_all_fn one, void *ctx);
/* An input of the capture, read to its end: its frame statistics. */
void sources_all_saw(struct sources_all *sa, const struct input *in);

/* The start of a run over every source with one output (pft decode and
 * pft dump --id all --stats): *sa and a zeroed table of SOURCES_ALL_MAX
 * entries of `size` bytes allocated (free both, whatever the result), the
 * sources found (ETMv3 too), the output outpath (NULL or "-": stdout)
 * checked against the inputs ins[0..nins) and opened into *out.
 * PFT_EXIT_OK, or the exit code after a message. */
int sources_all_begin(struct sources_all **sa, void **tab, size_t size, const char *path,
		      const struct input_opts *o, const char *const *ins, size_t nins,
		      const char *outpath, const char *cmd, FILE **out);

#endif
