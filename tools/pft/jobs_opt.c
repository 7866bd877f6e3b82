/* SPDX-License-Identifier: BSD-3-Clause */
/* --jobs N and --segment-size BYTES (jobs_opt.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "jobs_opt.h"
#include "pft/parallel.h"

int jobs_parse_option(struct jobs_opts *j, int c, const char *arg, const char *cmd)
{
	char *end;
	unsigned long v;

	if (c != JOBS_OPT_JOBS && c != JOBS_OPT_SEGMENT)
		return 0;
	v = strtoul(arg, &end, 0);
	if (!*arg || *end || !v || (c == JOBS_OPT_JOBS && v > PFT_PAR_MAX_SPLIT) ||
	    (c == JOBS_OPT_SEGMENT && (v < 64 || v > (1ul << 30)))) {
		cli_error(cmd, "%s: bad value '%s'",
			  c == JOBS_OPT_JOBS ? "--jobs (1-64)" : "--segment-size (64 bytes to 1 GiB)", arg);
		return -1;
	}
	if (c == JOBS_OPT_JOBS)
		j->jobs = (unsigned)v;
	else
		j->segment = v;
	return 1;
}

unsigned jobs_count(const struct jobs_opts *j)
{
	long nc;

	if (j->jobs)
		return j->jobs;
	nc = sysconf(_SC_NPROCESSORS_ONLN);
	return nc < 1 ? 1 : nc > PFT_PAR_MAX_SPLIT ? PFT_PAR_MAX_SPLIT : (unsigned)nc;
}

unsigned jobs_count_one(const struct jobs_opts *j)
{
	return j->jobs ? j->jobs : 1;
}
