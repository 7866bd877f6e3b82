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
	} else if (r->etm3) {
		struct pft_etm3_packet p;
		while ((k = pft_par_next_etm3_packet(r->par, &p, sizeof p)) == 0)
			if (r->item(r->arg, &p))
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
	struct task *t[2];        /* two sets of segments: one decoding, one joined */
	pthread_t *th[2];
	uint8_t *buf[3];          /* windows: joined, decoding, being read */
	size_t cap;
	unsigned next;            /* the buffer the next window is read into */
	const uint8_t *rest;      /* the last chunk read: what is not in a window yet */
	size_t rest_len;          /* (valid until the next input_read; mapped: until
	                             input_drop) */
	int rest_gap;             /* that chunk follows a gap */
	int views;                /* the input is mapped: windows are views of it */
	int k;                    /* input_read's last return */
	uint64_t off;             /* stream offset of the next window */
};

struct window {
	const uint8_t *b;
	size_t len;
	uint64_t off;
	int gap;                  /* starts after a gap */
	unsigned set, n;
	size_t cuts[PFT_PAR_MAX_SPLIT + 1];
	char started[PFT_PAR_MAX_SPLIT];
};

static void run_free(struct run *u, unsigned jobs)
{
	unsigned i, s;

	for (s = 0; s < 2; s++) {
		for (i = 0; u->t[s] && i < jobs; i++) {
			pft_par_seg_free(u->t[s][i].seg);
			free(u->t[s][i].buf.pkts);
			free(u->t[s][i].buf.items);
			free(u->t[s][i].buf.insns);
			free(u->t[s][i].buf.cycles);
			free(u->t[s][i].buf.etm3_pkts);
		}
		free(u->t[s]);
		free(u->th[s]);
	}
	for (i = 0; i < 3; i++)
		free(u->buf[i]);
}

static int run_alloc(struct run *u, const struct pft_config *cfg, struct pft_image *img,
		     int isync_resync, const struct par_run *r, int views)
{
	unsigned i, s;

	memset(u, 0, sizeof *u);
	u->k = 1;
	u->views = views;
	u->cap = (size_t)r->jobs * r->segment;
	for (i = 0; i < 3 && !u->views; i++)
		if (!(u->buf[i] = malloc(u->cap)))
			return -PFT_E_NOMEM;
	for (s = 0; s < 2; s++) {
		u->t[s] = calloc(r->jobs, sizeof *u->t[s]);
		u->th[s] = calloc(r->jobs, sizeof *u->th[s]);
		if (!u->t[s] || !u->th[s])
			return -PFT_E_NOMEM;
		for (i = 0; i < r->jobs; i++) {
			struct pft_par_buf *b = &u->t[s][i].buf;
			size_t n = PAR_RUN_ITEMS_PER_BYTE(r->segment);

			u->t[s][i].seg = pft_par_seg_alloc(r->kind, cfg, img,
							   (enum pft_isync_resync)isync_resync);
			if (!u->t[s][i].seg)
				return -PFT_E_NOMEM;
			if (!r->keep)
				continue;
			if (r->kind == PFT_PAR_PACKETS && r->etm3) {
				b->etm3_pkts = malloc(n * sizeof *b->etm3_pkts);
				b->etm3_pkts_cap = n;
				if (!b->etm3_pkts)
					return -PFT_E_NOMEM;
			} else if (r->kind == PFT_PAR_PACKETS) {
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
				if (r->etm3) {
					/* cycle-accurate ranges' per-instruction counts */
					b->cycles_cap = PAR_RUN_INSNS_PER_BYTE(r->segment);
					b->cycles = malloc(b->cycles_cap * sizeof *b->cycles);
				}
				if (!b->items || (r->keep_insns && !b->insns) || (r->etm3 && !b->cycles))
					return -PFT_E_NOMEM;
			}
		}
	}
	return 0;
}

/* The next window: up to jobs * segment bytes, the rest of the last chunk
 * read first (a chunk larger than a window spreads over several), up to
 * the next gap (a chunk after a gap starts a window).  A mapped input's
 * window is a view of the mapping (its chunks are contiguous and stay
 * valid until input_drop); otherwise the bytes are copied into a window
 * buffer.  0, or 1 after a read error.  w->len 0: the input is done. */
static int read_window(struct input *in, const struct par_run *r, struct run *u,
		       struct window *w)
{
	uint8_t *b = u->buf[u->next];
	size_t want = (size_t)r->jobs * r->segment, n;

	u->next = (u->next + 1) % 3;
	w->b = b;
	w->len = 0;
	w->gap = 0;
	w->off = u->off;
	while (w->len < want) {
		if (!u->rest_len) {
			if (u->k <= 0)
				break;
			u->k = input_read(in, &u->rest, &u->rest_len);
			if (u->k <= 0) {
				u->rest_len = 0;
				break;
			}
			u->rest_gap |= in->gap;
		}
		/* the start of the next window */
		if (w->len && (u->rest_gap || (u->views && u->rest != w->b + w->len)))
			break;
		w->gap |= u->rest_gap;
		u->rest_gap = 0;
		n = u->rest_len < want - w->len ? u->rest_len : want - w->len;
		if (u->views) {
			if (!w->len)
				w->b = u->rest;
		} else {
			memcpy(b + w->len, u->rest, n);
		}
		w->len += n;
		u->rest += n;
		u->rest_len -= n;
	}
	u->off += w->len;
	return u->k < 0;
}

/* Split a window and start its segments, each on a thread. */
static void start(const struct par_run *r, struct run *u, struct window *w, unsigned set)
{
	unsigned i;

	w->set = set;
	w->n = pft_par_split(w->b, w->len, r->jobs, w->cuts);
	for (i = 0; i < w->n; i++) {
		struct task *t = &u->t[set][i];

		t->p = w->b + w->cuts[i];
		t->len = w->cuts[i + 1] - w->cuts[i];
		t->off = w->off + w->cuts[i];
		w->started[i] = !pthread_create(&u->th[set][i], NULL, work, t);
		if (!w->started[i])
			work(t);
	}
}

static void wait_window(struct run *u, struct window *w)
{
	unsigned i;

	for (i = 0; i < w->n; i++)
		if (w->started[i]) {
			pthread_join(u->th[w->set][i], NULL);
			w->started[i] = 0;
		}
}

/* A decoded window joined in order, its items handed out: 0 or an error. */
static int join_window(struct par_run *r, struct run *u, const struct window *w)
{
	unsigned i;
	int k;

	if (w->gap) {
		k = pft_par_resync(r->par);
		if (!k && (k = drain(r)) != -PFT_E_AGAIN)
			return k;
	}
	for (i = 0; i < w->n; i++) {
		struct task *t = &u->t[w->set][i];

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
	struct window w[2];
	unsigned a = 0;
	int res;

	r->etm3 = input_is_etm3(cfg);
	if (!r->segment)
		r->segment = r->keep ? PAR_RUN_SEGMENT_ITEMS :
			     r->kind == PFT_PAR_FLOW ? PAR_RUN_SEGMENT_FLOW : PAR_RUN_SEGMENT_STATS;
	r->par = pft_par_alloc(r->kind, cfg, img, (enum pft_isync_resync)isync_resync);
	if (!r->par)
		return -PFT_E_NOMEM;
	memset(w, 0, sizeof w);
	res = run_alloc(&u, cfg, img, isync_resync, r, input_mapped(in));
	input_keep_views(in, u.views);
	if (!res)
		res = read_window(in, r, &u, &w[a]);
	if (!res && w[a].len)
		start(r, &u, &w[a], a);
	/* window a decodes while the next is read; the next starts at once
	   (its segment set's last window is joined already), so that a thread
	   done with a's segment finds work while a's slowest segment ends;
	   then a is joined */
	while (!res && w[a].len) {
		struct window *cur = &w[a], *nx = &w[a ^ 1];

		res = read_window(in, r, &u, nx);
		if (!res && nx->len)
			start(r, &u, nx, a ^ 1);
		wait_window(&u, cur);
		if (!res)
			res = join_window(r, &u, cur);
		/* the window joined before cur is done with (as its buffer,
		   which the next read reuses) */
		if (u.views)
			input_drop(in, cur->off);
		if (res || !nx->len)
			wait_window(&u, nx);
		a ^= 1;
	}
	wait_window(&u, &w[0]);
	wait_window(&u, &w[1]);
	if (!res) {
		res = pft_par_end(r->par);
		if (!res)
			res = drain(r);
	}
	pft_par_get_join_stats(r->par, &r->js, sizeof r->js);
	run_free(&u, r->jobs);
	input_keep_views(in, 0);
	return res;
}
