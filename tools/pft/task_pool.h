/* SPDX-License-Identifier: BSD-3-Clause */
/* Tasks 0..n-1 run on up to `jobs` threads, this one included (task_pool.c):
 * each thread takes the next task in order until none is left.  For work
 * that splits into independent pieces (the sources of pft decode / pft dump
 * --id all --stats); whatever the tasks write in order is the caller's to
 * do after task_pool_run returns. */
#ifndef PFT_TOOLS_TASK_POOL_H
#define PFT_TOOLS_TASK_POOL_H

/* Runs task(ctx, i) once for every i < n; returns when all are done.  With
 * jobs <= 1, or when a thread cannot be started, the work stays on fewer
 * threads (at least this one). */
void task_pool_run(unsigned n, unsigned jobs, void (*task)(void *ctx, unsigned i), void *ctx);

#endif
