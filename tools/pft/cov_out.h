/* SPDX-License-Identifier: BSD-3-Clause */
/* pft coverage: reading traces into counts (cov_trace.c), turning counts into
 * source lines and branches (cov_lines.c), and the writers: lcov .info
 * (cov_lcov.c), annotated listing (cov_listing.c), address ranges and
 * per-instruction counts (cov_ranges.c), AutoFDO text profile
 * (cov_autofdo.c).  The counting itself is libpft's (pft/coverage.h). */
#ifndef PFT_TOOL_COV_OUT_H
#define PFT_TOOL_COV_OUT_H

#include <stdio.h>

#include "flow_run.h"
#include "input.h"
#include "jobs_opt.h"
#include "pft/pft.h"

struct cov_image_arg {
	const char *path;
	uint64_t addr;
	int kind; /* COV_ARG_ELF, COV_ARG_IMAGE, COV_ARG_SYMBOLS */
};
enum { COV_ARG_ELF, COV_ARG_IMAGE, COV_ARG_SYMBOLS };

/* Decode one input (snapshot folder, capture file or -) against img plus
 * the input's snapshot dumps (dumps != 0) and count it into cov, on
 * jobs_count(jobs) threads (flow_run.h: the counts are the same).  Messages
 * go to stderr prefixed "pft coverage: ".  Returns an exit code. */
int cov_trace(const char *path, const struct input_opts *io, const struct jobs_opts *jobs,
              const struct cov_image_arg *a, int na, int dumps, struct pft_cov *cov);
/* The same for the source io names among others (--id all): its input,
 * read to the end, handed to sources_all_saw(sa). */
struct sources_all;
int cov_trace_source(const char *path, const struct input_opts *io, const struct jobs_opts *jobs,
		     const struct cov_image_arg *a, int na, int dumps, struct pft_cov *cov,
		     struct sources_all *sa);
/* cov_trace_source in steps, for sources counted on several threads at
 * once (--id all): open (messages; an exit code, also kept in rc), run
 * (any thread, one per source: the decode into cov on one thread, no
 * message but a read error's), end (the checks' messages, sources_all_saw:
 * an exit code), close. */
struct cov_src {
	const char *path;
	struct input in;
	struct pft_image *img;
	struct flow_any *dec;
	struct flow_run fr;
	int rc, err;
};
int cov_src_open(struct cov_src *s, const char *path, const struct input_opts *io,
		 const struct cov_image_arg *a, int na, int dumps, struct pft_cov *cov);
void cov_src_run(struct cov_src *s);
int cov_src_end(struct cov_src *s, struct sources_all *sa);
void cov_src_close(struct cov_src *s);

/* Everything the writers read. */
struct cov_ctx {
	struct pft_cov *cov;          /* per-address table built */
	const struct pft_dbg *dbg;
	const struct pft_image *img;  /* --elf/--image code, for code that never ran */
	const char *test_name;
	uint64_t autofdo_base;        /* AutoFDO addresses are relative to it */
};

/* ---- source lines (cov_lines.c) ---- */
struct cov_branch {
	uint64_t addr;
	uint64_t taken, not_taken;
	int evaluated;                /* the waypoint executed at least once */
};
struct cov_line {
	uint64_t count;               /* executions: the times the line was entered (the
	                                 count of the first instruction of each run of
	                                 rows of this line, summed; as gcov counts blocks;
	                                 additive when traces merge); if that is
	                                 0 but an instruction ran, the most executions
	                                 of one of its instructions */
	uint64_t most;                /* most executions of one of its instructions */
	uint32_t nbr, br;             /* its branches: br .. br + nbr - 1 */
	uint8_t code;                 /* the line has instructions */
	uint8_t ran;
};
struct cov_func {
	const char *name;
	uint32_t line;
	uint64_t count;               /* executions of its entry instruction */
	uint64_t addr;
};
struct cov_file {
	const char *path;
	uint32_t nlines;              /* lines[0 .. nlines) (index = line number) */
	struct cov_line *lines;
	struct cov_branch *br;
	uint32_t nbr, cap_br;
	struct cov_func *funcs;
	uint32_t nfuncs, cap_funcs;
};
struct cov_files {
	struct cov_file *f;
	size_t n;
};
/* Every source file of the DWARF line tables with per-line counts and
 * branches, code that never ran included.  0 or -1 (out of memory). */
int cov_lines_build(const struct cov_ctx *c, struct cov_files *out);
void cov_lines_free(struct cov_files *fs);

/* ---- writers: 0, or -1 on a write error ---- */
int cov_write_lcov(FILE *f, const struct cov_ctx *c);
int cov_write_listing(FILE *f, const struct cov_ctx *c, int disasm);
int cov_write_ranges(FILE *f, const struct cov_ctx *c);
int cov_write_insns(FILE *f, const struct cov_ctx *c);
int cov_write_autofdo(FILE *f, const struct cov_ctx *c);
/* The gaps, one '#' comment line each, and a total. */
void cov_write_gaps(FILE *f, const struct cov_ctx *c, const char *prefix);

#endif
