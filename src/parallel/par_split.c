/* SPDX-License-Identifier: BSD-3-Clause */
/* Where segments start (pft/parallel.h): A-syncs, found in the bytes. */
#include "parallel/par_int.h"

size_t pft_par_find_sync(const uint8_t *b, size_t len, size_t lo, size_t pos)
{
	size_t i, z = 0;

	if (!b || pos > len)
		return len;
	while (pos - z > lo && !b[pos - z - 1])
		z++; /* an A-sync whose zeros start before pos */
	for (i = pos; i < len; i++) {
		if (!b[i]) {
			z++;
			continue;
		}
		if (b[i] == 0x80 && z >= 5) {
			size_t k = i - z;

			while (k > lo && !b[k - 1])
				k--;
			return k > lo ? k : len;
		}
		z = 0;
	}
	return len;
}

unsigned pft_par_split(const uint8_t *b, size_t len, unsigned n, size_t *cuts)
{
	unsigned k = 0, i;

	if (!cuts || !n || n > PFT_PAR_MAX_SPLIT || (!b && len))
		return 0;
	cuts[k++] = 0;
	for (i = 1; i < n; i++) {
		size_t a = pft_par_find_sync(b, len, cuts[k - 1],
					     (size_t)((uint64_t)len * i / n));
		if (a < len && a > cuts[k - 1])
			cuts[k++] = a;
	}
	cuts[k] = len;
	return k;
}
