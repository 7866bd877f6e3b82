/* SPDX-License-Identifier: BSD-3-Clause */
/* --jobs N and --segment-size BYTES (jobs_opt.c): the option, its check,
 * its default and its --help text, for every command that decodes a
 * stream on several threads through par_run.h.  pft dump and pft decode
 * default to the machine's cores; the analysis commands (profile,
 * coverage, timeline, tail) to one thread: their items cross from the
 * decoding threads to the analysis through memory, and on 2 cores that
 * costs more than the second thread gains (doc/performance.md). */
#ifndef PFT_TOOLS_JOBS_OPT_H
#define PFT_TOOLS_JOBS_OPT_H

#include <stddef.h>

/* getopt_long codes (long options only) */
enum { JOBS_OPT_JOBS = 0x2400, JOBS_OPT_SEGMENT };

#define JOBS_LONG_OPTIONS                                                 \
	{ "jobs", required_argument, NULL, JOBS_OPT_JOBS },               \
	{ "segment-size", required_argument, NULL, JOBS_OPT_SEGMENT }

/* SEG: the default segment size, in words, e.g. "128 KiB"; DFLT: the
 * default of --jobs, in words ("the machine's cores", "1"); MORE: lines
 * after the first two ("" for none). */
#define JOBS_OPTIONS_HELP_DEFAULT(SEG, DFLT, MORE)                                        \
	"  --jobs N             decode on N threads (default: " DFLT "); the\n"               \
	"                       output is byte for byte that of one thread\n"               \
	MORE                                                                              \
	"  --segment-size BYTES with --jobs: stream bytes per thread and step\n"          \
	"                       (" SEG ")\n"
#define JOBS_OPTIONS_HELP(SEG)                                                            \
	JOBS_OPTIONS_HELP_DEFAULT(SEG, "the machine's cores",                               \
				  "                       (a listing is formatted on N threads too)\n")
#define JOBS_OPTIONS_HELP_ONE(SEG) JOBS_OPTIONS_HELP_DEFAULT(SEG, "1", "")

struct jobs_opts {
	unsigned jobs;   /* --jobs (0: not given) */
	size_t segment;  /* --segment-size (0: par_run.h's default) */
};

/* 1: c was --jobs or --segment-size, taken; 0: another option; -1: a bad
 * value (message printed: "pft CMD: ..."). */
int jobs_parse_option(struct jobs_opts *j, int c, const char *arg, const char *cmd);

/* The threads to use: --jobs, or the machine's online cores (1..64). */
unsigned jobs_count(const struct jobs_opts *j);

/* The threads to use: --jobs, or one. */
unsigned jobs_count_one(const struct jobs_opts *j);

#endif
