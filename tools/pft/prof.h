/* SPDX-License-Identifier: BSD-3-Clause */
/* pft profile / timeline / tail: the shared session (input, program image,
 * symbols, flow decoder, call-stack tracker), function names, the profile
 * model and its writers.  Formats: doc/profile.md. */
#ifndef PFT_TOOL_PROF_H
#define PFT_TOOL_PROF_H

#include <getopt.h>
#include <stdio.h>

#include "decode.h"
#include "flow_any.h"
#include "input.h"
#include "jobs_opt.h"
#include "pft/callstack.h"
#include "pft/debuginfo.h"
#include "pft/pft.h"

/* ---- options shared by the three commands ---- */
#define PROF_MAX_FILES 64
enum { PROF_OPT_IMAGE = 0x2100, PROF_OPT_ELF, PROF_OPT_NO_DUMPS, PROF_OPT_CPU_FREQ,
       PROF_OPT_TS_FREQ, PROF_OPT_SYMBOLS, PROF_OPT_OWN };

struct prof_opts {
	struct input_opts io;
	int all;                 /* --id all: every source (sources_all.h) */
	int capture_offsets;     /* prof_open keeps the capture offset map (prof_run_merged) */
	const char *img_path[PROF_MAX_FILES];
	char paths[PROF_MAX_FILES][1024];
	uint64_t img_addr[PROF_MAX_FILES];
	int img_elf[PROF_MAX_FILES];  /* 1 ELF, 2 symbol map only, 0 raw binary */
	int nimg, dumps;
	uint64_t cpu_hz, ts_hz;
	unsigned cs_flags;       /* PFT_CS_CFG_* */
	struct jobs_opts jobs;   /* --jobs, --segment-size */
};

#define PROF_LONG_OPTIONS                                                \
	{ "image", required_argument, NULL, PROF_OPT_IMAGE },            \
	{ "elf", required_argument, NULL, PROF_OPT_ELF },                \
	{ "no-dumps", no_argument, NULL, PROF_OPT_NO_DUMPS },            \
	{ "symbols", required_argument, NULL, PROF_OPT_SYMBOLS },        \
	{ "cpu-freq", required_argument, NULL, PROF_OPT_CPU_FREQ },      \
	{ "ts-freq", required_argument, NULL, PROF_OPT_TS_FREQ },        \
	JOBS_LONG_OPTIONS

#define PROF_OPTIONS_HELP                                                                   \
	"Program image and clocks (as pft decode):\n"                                       \
	"  --image FILE[@ADDR]  a raw binary loaded at ADDR (default 0)\n"                  \
	"  --elf FILE[@OFFSET]  an ELF file's loadable segments, its symbols and lines\n"   \
	"  --symbols MAP[@OFFSET]  symbols from an nm / System.map text file (for a\n"      \
	"                       binary image such as a kernel)\n"                           \
	"  --no-dumps           do not load the snapshot's [dump] sections\n"               \
	"  --cpu-freq HZ        CPU clock: cycle counts to time\n"                          \
	"  --ts-freq HZ         timestamp clock: timestamps to time\n"                      \
	"\n"                                                                                \
	"Threads (as pft decode; the analysis itself runs on one):\n"                       \
	JOBS_OPTIONS_HELP_ONE("128 KiB")

void prof_opts_init(struct prof_opts *o);
/* 1: the option was one of the shared ones; 0: not; -1: bad (message printed). */
int prof_parse_option(struct prof_opts *o, int c, const char *arg, const char *cmd);

/* ---- session ---- */
struct prof_session {
	const char *cmd;
	struct input in;
	struct pft_image *img;
	struct pft_dbg *dbg;       /* symbols and lines of --elf / --symbols; NULL if none */
	struct flow_any *dec;       /* PFT or ETMv3 (flow_any.h) */
	struct pft_cs_tracker *cs;
	struct pft_flow_stats fst;
	struct pft_cs_stats cst;
	unsigned jobs;             /* decoding threads (flow_run.h) */
	size_t segment;            /* --segment-size (0: the default) */
	int rc;
	struct prof_fcache *fc;    /* prof_func_at's cache (prof_session.c) */
};

/* Called for every flow item (before the tracker sees it) and every
 * call-stack event; a non-zero return stops the run with that status. */
struct prof_hooks {
	int (*item)(void *ctx, const struct pft_flow_item *it);
	int (*event)(void *ctx, const struct pft_cs_event *ev);
	/* before pft_cs_tracker_end: the stacks as the trace leaves them */
	void (*before_end)(void *ctx, const struct pft_cs_tracker *cs);
	void *ctx;
};
#define PROF_STOP 1000  /* hook return: stop reading, finish normally */

/* Open input, image, symbols, decoders.  Returns an exit code (message printed). */
int prof_open(struct prof_session *s, const char *cmd, const char *inpath, const struct prof_opts *o);
/* Decode everything through the hooks; end checks as pft decode.  Exit code. */
int prof_run(struct prof_session *s, const struct prof_hooks *h);
/* --id all in one order: the sessions s[0..n) of the sources of path
 * (opened with capture_offsets; opts[k] their input options), their items
 * merged as pft decode --id all merges them (flow_merge.h: by time, or by
 * capture position), each through its own tracker to its hooks h[k]; then
 * each session's end checks as prof_run's.  The worst exit code. */
int prof_run_merged(struct prof_session *const *s, const struct prof_hooks *h, unsigned n,
		    const char *path, const struct input_opts *opts);
void prof_close(struct prof_session *s);

/* ---- function names (symbols now; the debug-information layer later) ---- */
/* Pseudo function keys (never addresses: bit 63) */
#define PROF_KEY_PSEUDO  (1ull << 63)
#define PROF_KEY_EXC(n)  (PROF_KEY_PSEUDO | (uint64_t)(n))
#define PROF_KEY_NONE    (PROF_KEY_PSEUDO | 0xFFFFu)
/* The function holding addr: 1 and its start in *key, or 0. */
int prof_func_at(const struct prof_session *s, uint64_t addr, uint64_t *key);
/* Name of a key: symbol, "[exception irq]", "[no frame]" or "0x%08x". */
const char *prof_func_name(const struct prof_session *s, uint64_t key, char *buf, size_t cap);
/* The symbol holding addr (as pft_dbg_symbol): 1, its start and name; or 0. */
int prof_sym_at(const struct prof_session *s, uint64_t addr, uint64_t *start, const char **name);
/* symbol+offset of an address, or "0x%08x" */
const char *prof_addr_name(const struct prof_session *s, uint64_t addr, char *buf, size_t cap);

/* ---- profile model ---- */
enum prof_weight { PROF_W_INSNS = 0, PROF_W_CYCLES, PROF_W_TIME, PROF_W_NR };
struct prof_model;
/* runs: the tracker emits RUN events (needed to split cost by symbol);
   without them the cost between events goes to the running frame */
struct prof_model *prof_model_new(const struct prof_session *s, int runs);
void prof_model_free(struct prof_model *m);
int prof_model_event(struct prof_model *m, const struct pft_cs_event *ev);
/* has the trace cycle counts / time? */
int prof_model_has(const struct prof_model *m, enum prof_weight w);
/* --id all: the events of another source follow, from session s (its
 * names), as if into a model of their own (the call stacks, the running
 * context and the clocks start afresh): the model sums the sources.  Its
 * part of the totals is kept (the per-source breakdown), trace_id and name
 * ("" for none) naming it.  Before the first source's events too. */
void prof_model_source(struct prof_model *m, const struct prof_session *s, unsigned trace_id,
		       const char *name);
/* After the last source: its part closed; names from session s. */
void prof_model_sources_done(struct prof_model *m, const struct prof_session *s);

enum prof_format { PROF_TABLE = 0, PROF_CALLGRIND, PROF_FOLDED, PROF_SPEEDSCOPE };
int prof_write(struct prof_model *m, FILE *f, enum prof_format fmt, enum prof_weight w,
               const char *title);

/* "file.c:LINE" of an address (DWARF), or "" */
const char *prof_line_name(const struct prof_session *s, uint64_t addr, char *buf, size_t cap);

/* JSON string body (no quotes) */
void prof_json_str(FILE *f, const char *s);

#endif
