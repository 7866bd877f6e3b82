/* SPDX-License-Identifier: BSD-3-Clause */
/* Example: function pointers (Thumb-2).  Calls through a table (BLX
 * register), a callback-driven insertion sort, and a state machine whose
 * states are functions. */
#include "examples.h"

typedef unsigned (*op_fn)(unsigned, unsigned);
typedef int (*cmp_fn)(const void *, const void *);

static unsigned op_add(unsigned a, unsigned b) { return a + b; }
static unsigned op_sub(unsigned a, unsigned b) { return a - b; }
static unsigned op_mul(unsigned a, unsigned b) { return a * b; }
static unsigned op_xor(unsigned a, unsigned b) { return a ^ b; }

static op_fn const ops[] = { op_add, op_sub, op_mul, op_xor };

static int cmp_up(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int cmp_down(const void *a, const void *b)
{
	return *(const int *)b - *(const int *)a;
}

__attribute__((noinline)) static void sort(int *v, unsigned n, cmp_fn cmp)
{
	unsigned i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && cmp(&v[j - 1], &v[j]) > 0; j--) {
			int t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

struct machine;
typedef void (*state_fn)(struct machine *);
struct machine { state_fn state; unsigned count; };

static void st_a(struct machine *m);
static void st_b(struct machine *m);
static void st_c(struct machine *m);
static void st_a(struct machine *m) { m->count++; m->state = (m->count & 1) ? st_b : st_c; }
static void st_b(struct machine *m) { m->count += 2; m->state = st_c; }
static void st_c(struct machine *m) { m->count += 3; m->state = (m->count & 4) ? st_a : st_b; }

static int data[12] = { 5, -3, 9, 12, 0, 7, -8, 2, 4, 11, -1, 6 };

int main(void)
{
	unsigned i, r = example_arg(7);
	struct machine m;
	volatile cmp_fn cmps[2];

	m.state = st_a;
	m.count = 0;
	cmps[0] = cmp_up;
	cmps[1] = cmp_down;

	for (i = 0; i < example_arg(16); i++)
		r = ops[(r + i) & 3](r, i + 1);
	sort(data, 12, cmps[0]);
	sort(data, 12, cmps[1]);
	for (i = 0; i < example_arg(20); i++)
		m.state(&m);
	return (int)(r + m.count + (unsigned)data[0]);
}
