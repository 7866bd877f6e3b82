/* SPDX-License-Identifier: BSD-3-Clause */
/* --jobs N: windows of segments on threads, joined in order (par_run.h). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "par_run.h"

struct task {
	struct pft_par_seg *seg;
	struct pft_par_buf buf;
	const uint8_t *p;
	size_t len;
	uint64_t off;
	int r;
};

static void *work(void *arg)
{
	struct task *t = arg;

	t->r = pft_par_seg_decode(t->seg, t->p, t->len, t->off, &t->buf);
	return NULL;
}

/* Pull every item of the current stretch: -PFT_E_AGAIN / -PFT_E_EOS when
 * done, or an error. */
static int drain(struct par_run *r)
{
	int k;

	if (!r->keep)
		return pft_par_drain(r->par);
	if (r->kind == PFT_PAR_FLOW) {
		struct pft_flow_item it;
		while ((k = pft_par_next_item(r->par, &it, sizeof it)) == 0)
			if (r->item(r->arg, &it))
				return -PFT_E_IO;
	} else {
		struct pft_packet p;
		while ((k = pft_par_next_packet(r->par, &p, sizeof p)) == 0)
			if (r->item(r->arg, &p))
				return -PFT_E_IO;
	}
	return k;
}

struct run {
	struct task *t;
	pthread_t *th;
	uint8_t *win[2];
	size_t cap;
};

static void run_free(struct run *u, unsigned jobs)
{
	unsigned i;

	for (i = 0; u->t && i < jobs; i++) {
		pft_par_seg_free(u->t[i].seg);
		free(u->t[i].buf.pkts);
		free(u->t[i].buf.items);
		free(u->t[i].buf.insns);
	}
	free(u->t);
	free(u->th);
	free(u->win[0]);
	free(u->win[1]);
}

static int run_alloc(struct run *u, const struct pft_config *cfg, struct pft_image *img,
		     int isync_resync, const struct par_run *r)
{
	unsigned i;

	memset(u, 0, sizeof *u);
	u->cap = (size_t)r->jobs * r->segment + PFT_SOURCE_CHUNK;
	u->win[0] = malloc(u->cap);
	u->win[1] = malloc(u->cap);
	u->t = calloc(r->jobs, sizeof *u->t);
	u->th = calloc(r->jobs, sizeof *u->th);
	if (!u->win[0] || !u->win[1] || !u->t || !u->th)
		return -PFT_E_NOMEM;
	for (i = 0; i < r->jobs; i++) {
		struct pft_par_buf *b = &u->t[i].buf;
		size_t n = PAR_RUN_ITEMS_PER_BYTE(r->segment);

		u->t[i].seg = pft_par_seg_alloc(r->kind, cfg, img, (enum pft_isync_resync)isync_resync);
		if (!u->t[i].seg)
			return -PFT_E_NOMEM;
		if (!r->keep)
			continue;
		if (r->kind == PFT_PAR_PACKETS) {
			b->pkts = malloc(n * sizeof *b->pkts);
			b->pkts_cap = n;
			if (!b->pkts)
				return -PFT_E_NOMEM;
		} else {
			b->items = malloc(n * sizeof *b->items);
			b->items_cap = n;
			if (r->keep_insns) {
				b->insns_cap = PAR_RUN_INSNS_PER_BYTE(r->segment);
				b->insns = malloc(b->insns_cap * sizeof *b->insns);
			}
			if (!b->items || (r->keep_insns && !b->insns))
				return -PFT_E_NOMEM;
		}
	}
	return 0;
}

/* One window: split, decode on threads, join in order.  0 or an error. */
static int window(struct par_run *r, struct run *u, const uint8_t *b, size_t wlen, uint64_t off)
{
	size_t cuts[PFT_PAR_MAX_SPLIT + 1];
	char started[PFT_PAR_MAX_SPLIT];
	unsigned n = pft_par_split(b, wlen, r->jobs, cuts), i;
	int k;

	for (i = 0; i < n; i++) {
		struct task *t = &u->t[i];
		t->p = b + cuts[i];
		t->len = cuts[i + 1] - cuts[i];
		t->off = off + cuts[i];
		/* the last segment on this thread, the others on their own */
		started[i] = i + 1 < n && !pthread_create(&u->th[i], NULL, work, t);
		if (!started[i] && i + 1 < n)
			work(t);
	}
	if (n)
		work(&u->t[n - 1]);
	for (i = 0; i < n; i++)
		if (started[i])
			pthread_join(u->th[i], NULL);
	for (i = 0; i < n; i++) {
		struct task *t = &u->t[i];
		if (t->r == -PFT_E_NOMEM)
			return t->r;
		k = pft_par_join(r->par, t->r ? NULL : t->seg, t->p, t->len, t->off);
		if (k)
			return k;
		k = drain(r);
		if (k != -PFT_E_AGAIN)
			return k;
	}
	return 0;
}

int par_run_stream(struct input *in, const struct pft_config *cfg, struct pft_image *img,
		   int isync_resync, struct par_run *r)
{
	struct run u;
	const uint8_t *buf;
	size_t len, wlen, carry = 0;
	uint64_t off = 0;
	unsigned w = 0;
	int k = 1, res = 0, gap = 0, carry_gap = 0;

	if (!r->segment)
		r->segment = r->keep ? PAR_RUN_SEGMENT_ITEMS :
			     r->kind == PFT_PAR_FLOW ? PAR_RUN_SEGMENT_FLOW : PAR_RUN_SEGMENT_STATS;
	r->par = pft_par_alloc(r->kind, cfg, img, (enum pft_isync_resync)isync_resync);
	if (!r->par)
		return -PFT_E_NOMEM;
	res = run_alloc(&u, cfg, img, isync_resync, r);
	while (!res && (k > 0 || carry)) {
		uint8_t *b = u.win[w];

		/* the window: a chunk carried over (it followed a gap), then
		   chunks up to jobs * segment bytes, up to the next gap */
		wlen = carry;
		gap = carry_gap;
		carry = 0;
		carry_gap = 0;
		while (k > 0 && wlen < (size_t)r->jobs * r->segment) {
			k = input_read(in, &buf, &len);
			if (k <= 0)
				break;
			if (in->gap && wlen) {
				memcpy(u.win[w ^ 1], buf, len);
				carry = len;
				carry_gap = 1;
				break;
			}
			gap |= in->gap;
			memcpy(b + wlen, buf, len);
			wlen += len;
		}
		if (k < 0) {
			res = 1;
			break;
		}
		if (gap) {
			res = pft_par_resync(r->par);
			if (!res && (res = drain(r)) == -PFT_E_AGAIN)
				res = 0;
		}
		if (!res && wlen)
			res = window(r, &u, b, wlen, off);
		off += wlen;
		w ^= 1;
	}
	if (!res) {
		res = pft_par_end(r->par);
		if (!res)
			res = drain(r);
	}
	pft_par_get_join_stats(r->par, &r->js, sizeof r->js);
	run_free(&u, r->jobs);
	return res;
}
