/* SPDX-License-Identifier: BSD-3-Clause */
/* pft profile: the model's data, shared by prof_model.c (building it) and
 * the writers prof_table.c and prof_flame.c. */
#ifndef PFT_TOOL_PROF_MODEL_H
#define PFT_TOOL_PROF_MODEL_H

#include "prof.h"

struct prof_slot {
	uint64_t a, b;
	uint32_t v;
	uint32_t used;
};
struct prof_map {
	struct prof_slot *s;
	size_t n, cap;
};

struct prof_func {
	uint64_t key;                 /* symbol start, frame entry, or PROF_KEY_* */
	uint64_t calls;               /* calls and tail calls into it */
	uint64_t self[PROF_W_NR];     /* exclusive cost */
	uint64_t incl[PROF_W_NR];     /* inclusive (outermost activations only) */
	uint64_t exc[PROF_W_NR];      /* the part of self run in exception handlers */
	uint64_t irq[PROF_W_NR];      /* the part of incl spent in exceptions taken while
	                                 it was on the stack */
	uint64_t min_incl, max_incl;  /* per call, instructions */
	uint64_t ncalls_done;         /* calls whose frame was popped */
	uint32_t active;              /* activations on the stacks now */
};

struct prof_edge {
	uint32_t caller, callee;
	uint64_t calls;
	uint64_t incl[PROF_W_NR];
};

struct prof_node {                    /* calling-context tree */
	uint32_t parent, fid;
	uint32_t edge;                /* parent's function -> fid; UINT32_MAX not yet known */
	uint64_t self[PROF_W_NR];
};

struct prof_frame {
	uint32_t fid, node, edge;
	uint8_t counted, outer, exc;
	uint64_t start[PROF_W_NR];
};

struct prof_ctx {
	uint32_t cid;
	uint32_t nexc;                /* exception frames on its stack */
	struct prof_frame *st;
	size_t n, cap;
};

/* the last (parent node, function key) pushed in each of PROF_MEMO slots */
#define PROF_MEMO 4096
struct prof_memo {
	uint64_t key;
	uint32_t parent, fid, node, edge;
	int valid;
};

/* --id all: one source's part of the totals (the per-source breakdown) */
#define PROF_MAX_SOURCES 16
struct prof_source {
	unsigned trace_id;
	char name[64];
	uint64_t total[PROF_W_NR];
	uint64_t calls, gaps;
};

struct prof_model {
	struct prof_memo memo[PROF_MEMO];
	const struct prof_session *s;
	struct prof_func *f;
	size_t nf, capf;
	struct prof_node *node;
	size_t nn, capn;
	struct prof_edge *edge;
	size_t ne, cape;
	struct prof_map fmap, nmap, emap;
	struct prof_ctx *ctx;
	uint32_t nctx, capctx, cur;
	uint64_t total[PROF_W_NR];
	uint64_t calls, gaps;
	int has_cc, has_time;
	uint64_t last_time;
	uint32_t pend_node, pend_fid;
	int pend_exc;
	/* without RUN events: the cost between two events goes to the top
	   frame of the context that was running */
	int no_runs;
	uint32_t running;
	uint64_t last_index, last_cycles;
	/* --id all (prof_model_source): the sources so far; time_base: the
	   time of the running source's last event is known */
	struct prof_source src[PROF_MAX_SOURCES];
	unsigned nsrc;
	int time_base;
};

#endif
