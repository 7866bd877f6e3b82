/* SPDX-License-Identifier: BSD-3-Clause */
/* --jobs N and --segment-size BYTES (jobs_opt.c): the option, its check,
 * its default (the machine's cores) and its --help text, for every command
 * that decodes a stream on several threads through par_run.h (pft decode,
 * profile, coverage, timeline, tail). */
#ifndef PFT_TOOLS_JOBS_OPT_H
#define PFT_TOOLS_JOBS_OPT_H

#include <stddef.h>

/* getopt_long codes (long options only) */
enum { JOBS_OPT_JOBS = 0x2400, JOBS_OPT_SEGMENT };

#define JOBS_LONG_OPTIONS                                                 \
	{ "jobs", required_argument, NULL, JOBS_OPT_JOBS },               \
	{ "segment-size", required_argument, NULL, JOBS_OPT_SEGMENT }

/* SEG: the default segment size, in words, e.g. "128 KiB". */
#define JOBS_OPTIONS_HELP(SEG)                                                            \
	"  --jobs N             decode on N threads (default: the machine's cores); the\n"   \
	"                       output is byte for byte that of one thread\n"               \
	"  --segment-size BYTES with --jobs: stream bytes per thread and step\n"          \
	"                       (" SEG ")\n"

struct jobs_opts {
	unsigned jobs;   /* --jobs (0: not given) */
	size_t segment;  /* --segment-size (0: par_run.h's default) */
};

/* 1: c was --jobs or --segment-size, taken; 0: another option; -1: a bad
 * value (message printed: "pft CMD: ..."). */
int jobs_parse_option(struct jobs_opts *j, int c, const char *arg, const char *cmd);

/* The threads to use: --jobs, or the machine's online cores (1..64). */
unsigned jobs_count(const struct jobs_opts *j);

#endif
