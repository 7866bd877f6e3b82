/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM trace FIFO (spec 4.8): bytes enter as packets are generated
 * and drain at a configured rate into the output the caller reads.  One ring
 * holds both: [rd, drained) is output, [drained, wr) is still in the FIFO.
 * A packet that does not fit in the FIFO (or in the ring, when the caller
 * does not read) is an overflow, handled by the generator. */
#include <stdlib.h>
#include <string.h>

#include "ptm/ptm_internal.h"

int ptm_fifo_init(struct ptm_fifo *q, const struct pft_ptm_params *par)
{
	memset(q, 0, sizeof(*q));
	q->cap = (size_t)par->out_bytes + par->fifo_bytes;
	if (q->cap < 64)
		q->cap = 64;
	q->buf = malloc(q->cap);
	if (!q->buf)
		return -PFT_E_NOMEM;
	q->fifo_bytes = par->fifo_bytes;
	q->drain_bytes = par->drain_bytes;
	q->drain_cycles = par->drain_cycles;
	return 0;
}

void ptm_fifo_free(struct ptm_fifo *q)
{
	free(q->buf);
	q->buf = NULL;
}

size_t ptm_fifo_level(const struct ptm_fifo *q)
{
	return (size_t)(q->wr - q->drained);
}

size_t ptm_fifo_pending(const struct ptm_fifo *q)
{
	return (size_t)(q->drained - q->rd);
}

void ptm_fifo_drain_all(struct ptm_fifo *q)
{
	q->drained = q->wr;
	q->credit = 0;
}

void ptm_fifo_drain(struct ptm_fifo *q, uint64_t cycle)
{
	if (cycle < q->last_cycle)
		cycle = q->last_cycle;
	uint64_t dt = cycle - q->last_cycle;
	q->last_cycle = cycle;
	if (q->drain_cycles == 0 || q->fifo_bytes == 0) {
		q->drained = q->wr;
		return;
	}
	if (q->drained == q->wr) {
		q->credit = 0;
		return;
	}
	/* credit in units of 1/drain_cycles byte; saturate to avoid overflow */
	if (dt > (1ull << 32))
		dt = 1ull << 32;
	q->credit += dt * q->drain_bytes;
	uint64_t n = q->credit / q->drain_cycles;
	uint64_t lvl = q->wr - q->drained;
	if (n >= lvl) {
		n = lvl;
		q->credit = 0;
	} else {
		q->credit -= n * q->drain_cycles;
	}
	q->drained += n;
}

int ptm_fifo_put(struct ptm_fifo *q, const uint8_t *b, size_t n)
{
	if (q->fifo_bytes && (q->wr - q->drained) + n > q->fifo_bytes)
		return -PFT_E_NOSPC;
	if ((q->wr - q->rd) + n > q->cap)
		return -PFT_E_NOSPC;
	for (size_t i = 0; i < n; i++)
		q->buf[(q->wr + i) % q->cap] = b[i];
	q->wr += n;
	if (q->fifo_bytes == 0 || q->drain_cycles == 0)
		q->drained = q->wr;
	return 0;
}

size_t ptm_fifo_read(struct ptm_fifo *q, uint8_t *buf, size_t cap)
{
	size_t n = (size_t)(q->drained - q->rd);
	if (n > cap)
		n = cap;
	for (size_t i = 0; i < n; i++)
		buf[i] = q->buf[(q->rd + i) % q->cap];
	q->rd += n;
	return n;
}
