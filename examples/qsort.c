/* SPDX-License-Identifier: BSD-3-Clause */
/* Example: qsort with callbacks (Thumb-2).  A recursive quicksort calls its
 * comparison function through a pointer (BLX register), three comparators
 * in turn; the recursion depth follows the data. */
#include "examples.h"

typedef int (*cmp_fn)(const int *, const int *);

static int by_value(const int *a, const int *b) { return *a - *b; }
static int by_abs(const int *a, const int *b)
{
	int x = *a < 0 ? -*a : *a, y = *b < 0 ? -*b : *b;

	return x - y;
}
static int by_parity(const int *a, const int *b) { return (*a & 1) - (*b & 1); }

__attribute__((noinline)) static void swap(int *a, int *b)
{
	int t = *a;

	*a = *b;
	*b = t;
}

__attribute__((noinline)) static void quicksort(int *v, int lo, int hi, cmp_fn cmp)
{
	int i, last;

	if (lo >= hi)
		return;
	swap(&v[lo], &v[(lo + hi) / 2]);
	last = lo;
	for (i = lo + 1; i <= hi; i++)
		if (cmp(&v[i], &v[lo]) < 0)
			swap(&v[++last], &v[i]);
	swap(&v[lo], &v[last]);
	quicksort(v, lo, last - 1, cmp);
	quicksort(v, last + 1, hi, cmp);
}

static int data[24] = { 17, -4, 9, 23, -15, 0, 8, 3, -1, 12, 5, -22,
			6, 19, -7, 2, 14, -11, 21, 1, -9, 10, 4, -3 };

int main(void)
{
	static const cmp_fn cmps[3] = { by_value, by_abs, by_parity };
	unsigned k;
	int s = 0;

	for (k = 0; k < example_arg(3); k++) {
		quicksort(data, 0, 23, cmps[k]);
		s = s * 3 + data[0] + data[23];
	}
	return s;
}
