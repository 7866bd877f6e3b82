/* SPDX-License-Identifier: BSD-3-Clause */
/* tools/pft/task_pool.c: every task runs exactly once, for 0-40 tasks on
 * 1-8 threads; with several threads and slow tasks, more than one thread
 * does work; one thread runs the tasks in order on the caller's thread. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "tools/pft/task_pool.c"

#define MAXT 40

struct ctx {
	unsigned runs[MAXT];
	pthread_t who[MAXT];
	unsigned order[MAXT], norder;
	pthread_mutex_t mu;
	long delay_ns;
};

static void task(void *arg, unsigned i)
{
	struct ctx *c = arg;
	struct timespec ts = { 0, 0 };

	if (c->delay_ns) {
		ts.tv_nsec = c->delay_ns;
		nanosleep(&ts, NULL);
	}
	pthread_mutex_lock(&c->mu);
	c->runs[i]++;
	c->who[i] = pthread_self();
	c->order[c->norder++] = i;
	pthread_mutex_unlock(&c->mu);
}

static unsigned threads_used(const struct ctx *c, unsigned n)
{
	unsigned i, j, k = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && !pthread_equal(c->who[j], c->who[i]); j++)
			;
		k += j == i;
	}
	return k;
}

int main(void)
{
	struct ctx c;
	unsigned n, jobs, i, ok;

	for (n = 0; n <= MAXT; n += n < 5 ? 1 : 7) {
		for (jobs = 0; jobs <= 8; jobs++) {
			memset(&c, 0, sizeof c);
			pthread_mutex_init(&c.mu, NULL);
			task_pool_run(n, jobs, task, &c);
			ok = c.norder == n;
			for (i = 0; i < n; i++)
				ok &= c.runs[i] == 1;
			CHECK(ok);
			if (jobs <= 1) {
				for (i = 0; i < n; i++)
					ok &= c.order[i] == i && pthread_equal(c.who[i], pthread_self());
				CHECK(ok);
			}
			pthread_mutex_destroy(&c.mu);
		}
	}
	/* slow tasks: the threads share them */
	memset(&c, 0, sizeof c);
	pthread_mutex_init(&c.mu, NULL);
	c.delay_ns = 5000000;
	task_pool_run(8, 4, task, &c);
	CHECK(c.norder == 8 && threads_used(&c, 8) >= 2);
	pthread_mutex_destroy(&c.mu);
	return check_report();
}
