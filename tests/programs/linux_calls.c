/* SPDX-License-Identifier: BSD-3-Clause */
/* A Linux user-mode program for the call-stack checks under qemu-arm
 * (tests/scripts/profile_qemu.sh): recursion, calls through function
 * pointers, qsort with a callback, setjmp/longjmp out of a recursion, a
 * signal raised synchronously (raise: the handler runs on the return of the
 * kill system call), and SIGVTALRMs (a CPU-time timer, stopped by the
 * third) delivered asynchronously while a
 * function is busy.  Static, so that the log holds no dynamic loader.
 * Output is a checksum: the run can be compared with a native one. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#define NOINLINE __attribute__((noinline))

static volatile sig_atomic_t alarms, usr1;
static jmp_buf env;

NOINLINE static unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

NOINLINE static int add(int a, int b) { return a + b; }
NOINLINE static int sub(int a, int b) { return a - b; }
NOINLINE static int mul(int a, int b) { return a * b; }

static int (*const ops[])(int, int) = { add, sub, mul };

NOINLINE static int apply(int i, int a, int b)
{
	return ops[i % 3](a, b);
}

NOINLINE static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

NOINLINE static void dive(int depth)
{
	if (depth == 0)
		longjmp(env, 7);
	dive(depth - 1);
}

NOINLINE static void on_usr1(int sig)
{
	usr1 += sig;
}

NOINLINE static void on_alarm(int sig)
{
	static const struct itimerval off;

	(void)sig;
	if (++alarms >= 3) /* no later signal, wherever the run is then */
		setitimer(ITIMER_VIRTUAL, &off, NULL);
}

/* a handler that calls: its frames nest above the signal */
NOINLINE static unsigned spin_step(unsigned x)
{
	return x * 1103515245u + 12345u;
}

NOINLINE static unsigned busy(unsigned want)
{
	unsigned x = 1, i;

	for (i = 0; i < 200000 && alarms < want; i++)
		x = spin_step(x);
	return x;
}

int main(void)
{
	struct sigaction sa;
	struct itimerval it;
	int v[64], i, acc = 0, r;
	unsigned sum;

	sum = fib(12);
	for (i = 0; i < 30; i++)
		acc = apply(i, acc, i + 1);
	for (i = 0; i < 64; i++)
		v[i] = (i * 7919) % 101;
	qsort(v, 64, sizeof v[0], cmp_int);
	r = setjmp(env);
	if (r == 0)
		dive(5);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	sa.sa_handler = on_alarm;
	sigaction(SIGVTALRM, &sa, NULL);
	memset(&it, 0, sizeof it);
	it.it_interval.tv_usec = 2000;
	it.it_value.tv_usec = 2000;
	/* a timer on the process's own CPU time: it expires while busy runs
	   (a real-time one could expire in a system call, however loaded the
	   machine, and qemu then logs no 'Stopped' line for it) */
	setitimer(ITIMER_VIRTUAL, &it, NULL);
	sum += busy(3);
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_VIRTUAL, &it, NULL);
	printf("%u %d %d %d %d %d\n", sum & 0xff, acc, v[0], v[63], r, (int)usr1);
	return 0;
}
