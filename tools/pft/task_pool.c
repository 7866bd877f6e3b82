/* SPDX-License-Identifier: BSD-3-Clause */
/* Tasks on a few threads (task_pool.h). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>

#include "task_pool.h"

struct pool {
	unsigned n, next;
	void (*task)(void *ctx, unsigned i);
	void *ctx;
	pthread_mutex_t mu;
};

static void *worker(void *arg)
{
	struct pool *p = arg;
	unsigned i;

	for (;;) {
		pthread_mutex_lock(&p->mu);
		i = p->next < p->n ? p->next++ : p->n;
		pthread_mutex_unlock(&p->mu);
		if (i >= p->n)
			return NULL;
		p->task(p->ctx, i);
	}
}

void task_pool_run(unsigned n, unsigned jobs, void (*task)(void *ctx, unsigned i), void *ctx)
{
	struct pool p;
	pthread_t *th = NULL;
	unsigned i, nth = jobs < n ? jobs : n, started = 0;

	p.n = n;
	p.next = 0;
	p.task = task;
	p.ctx = ctx;
	pthread_mutex_init(&p.mu, NULL);
	if (nth > 1)
		th = calloc(nth - 1, sizeof *th);
	for (i = 0; th && i + 1 < nth; i++)
		if (!pthread_create(&th[started], NULL, worker, &p))
			started++;
	worker(&p);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
	pthread_mutex_destroy(&p.mu);
}
