/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump --stats --jobs N (dump_jobs.h). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dump_jobs.h"

struct seg {
	const struct pft_config *cfg;
	const uint8_t *p;
	size_t len;
	uint64_t off; /* stream offset of p[0] */
	struct pft_pkt_decoder *dec;
	struct pft_packet *head;
	size_t nhead;
	struct dump_jobs_counts rest; /* items after the head */
	int r;
};

static void count(struct dump_jobs_counts *c, const struct pft_packet *p)
{
	unsigned t = p->type < PFT_PKT_NR_TYPES ? p->type : PFT_PKT_ERROR;

	c->count[t]++;
	c->bytes[t] += p->size;
	if (t == PFT_PKT_ERROR && !c->errors++)
		c->first_error = p->offset;
}

static void add(struct dump_jobs_counts *c, const struct dump_jobs_counts *d)
{
	unsigned t;

	for (t = 0; t < PFT_PKT_NR_TYPES; t++) {
		c->count[t] += d->count[t];
		c->bytes[t] += d->bytes[t];
	}
	if (d->errors && !c->errors)
		c->first_error = d->first_error;
	c->errors += d->errors;
}

static void *work(void *arg)
{
	struct seg *s = arg;
	struct pft_packet p;
	int r;

	s->dec = pft_pkt_decoder_alloc(s->cfg);
	if (!s->dec) {
		s->r = -PFT_E_NOMEM;
		return NULL;
	}
	pft_pkt_decoder_feed(s->dec, s->p, s->len);
	while ((r = pft_pkt_decoder_next(s->dec, &p, sizeof p)) == 0) {
		p.offset += s->off;
		if (s->nhead < DUMP_JOBS_HEAD)
			s->head[s->nhead++] = p;
		else
			count(&s->rest, &p);
	}
	s->r = r;
	return NULL;
}

/* The same item (every field the packet layer fills). */
static int same(const struct pft_packet *a, const struct pft_packet *b)
{
	return a->offset == b->offset && a->size == b->size && a->type == b->type &&
	       a->flags == b->flags && a->address == b->address && a->timestamp == b->timestamp &&
	       a->cycles == b->cycles && a->context_id == b->context_id && a->atoms == b->atoms &&
	       a->exception == b->exception && a->isa == b->isa && a->atom_count == b->atom_count &&
	       a->addr_bytes == b->addr_bytes && a->cc_bytes == b->cc_bytes &&
	       a->ts_bytes == b->ts_bytes && a->reason == b->reason && a->vmid == b->vmid &&
	       a->nbytes == b->nbytes && !memcmp(a->bytes, b->bytes, a->nbytes);
}

struct run {
	struct pft_pkt_decoder *dec; /* the decoder in the serial state */
	uint64_t base;               /* stream offset of its offset 0 */
	int need_ts;
	struct dump_jobs_counts *c;
	uint64_t joins, serial;
};

/* The serial decoder through segment s: join s's decoder when their items
 * agree long enough (dump_jobs.h), else decode s itself.  0 or -error. */
static int join(struct run *u, struct seg *s)
{
	struct pft_packet p;
	size_t j = 0, m = 0;
	int in_run = 0, isync = 0, ts = 0, r;

	pft_pkt_decoder_feed(u->dec, s->p, s->len);
	while ((r = pft_pkt_decoder_next(u->dec, &p, sizeof p)) == 0) {
		p.offset += u->base;
		count(u->c, &p);
		if (in_run && m < s->nhead && same(&p, &s->head[m])) {
			m++;
		} else {
			while (j < s->nhead && s->head[j].offset < p.offset)
				j++;
			in_run = j < s->nhead && same(&p, &s->head[j]);
			isync = ts = 0;
			if (!in_run)
				continue;
			m = j + 1;
		}
		isync |= p.type == PFT_PKT_ISYNC;
		ts |= p.type == PFT_PKT_TIMESTAMP;
		if (isync && (ts || !u->need_ts)) {
			/* the same state from here on: s's decoder takes over */
			struct dump_jobs_counts h;
			memset(&h, 0, sizeof h);
			for (; m < s->nhead; m++)
				count(&h, &s->head[m]);
			add(u->c, &h);
			add(u->c, &s->rest);
			pft_pkt_decoder_free(u->dec);
			u->dec = s->dec;
			u->base = s->off;
			s->dec = NULL;
			u->joins++;
			return 0;
		}
	}
	u->serial++;
	pft_pkt_decoder_free(s->dec);
	s->dec = NULL;
	return r == -PFT_E_AGAIN ? 0 : r;
}

/* Where to cut near pos: the first zero of the first A-sync (5 or more
 * zeros then 0x80) that ends at or after pos, not before lo; len if none. */
static size_t cut_at(const uint8_t *b, size_t len, size_t lo, size_t pos)
{
	size_t i, z = 0;

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

int dump_jobs_count(struct input *in, unsigned jobs, size_t segment, struct dump_jobs_counts *c,
		    uint64_t *joins, uint64_t *serial)
{
	size_t cap = (size_t)jobs * segment + PFT_SOURCE_CHUNK, wlen;
	uint8_t *win[2] = { malloc(cap), malloc(cap) };
	struct seg *sg = calloc(jobs, sizeof *sg);
	pthread_t *th = calloc(jobs, sizeof *th);
	char *started = calloc(jobs, 1);
	struct pft_packet p;
	struct run u;
	uint64_t off = 0;
	unsigned w = 0, n, i;
	int k = 1, r = 0, first = 1;

	memset(c, 0, sizeof *c);
	memset(&u, 0, sizeof u);
	u.c = c;
	u.need_ts = (in->config.etmcr & PFT_ETMCR_TIMESTAMP) != 0;
	for (i = 0; sg && i < jobs; i++)
		if (!(sg[i].head = malloc(DUMP_JOBS_HEAD * sizeof(struct pft_packet))))
			r = -PFT_E_NOMEM;
	if (!win[0] || !win[1] || !sg || !th || !started)
		r = -PFT_E_NOMEM;
	while (!r && k > 0) {
		const uint8_t *buf;
		size_t len, cuts[65], a;
		uint8_t *b = win[w];
		w ^= 1;
		for (wlen = 0; wlen < (size_t)jobs * segment;) {
			k = input_read(in, &buf, &len);
			if (k <= 0)
				break;
			memcpy(b + wlen, buf, len);
			wlen += len;
		}
		if (k < 0) {
			r = 1;
			break;
		}
		if (!wlen)
			break;
		/* segments: cut at A-syncs near i * wlen / jobs */
		n = 0;
		cuts[n++] = 0;
		for (i = 1; i < jobs && n < 64; i++) {
			a = cut_at(b, wlen, cuts[n - 1], (size_t)((uint64_t)wlen * i / jobs));
			if (a < wlen && a > cuts[n - 1])
				cuts[n++] = a;
		}
		cuts[n] = wlen;
		for (i = 0; i < n; i++) {
			sg[i].cfg = &in->config;
			sg[i].p = b + cuts[i];
			sg[i].len = cuts[i + 1] - cuts[i];
			sg[i].off = off + cuts[i];
			sg[i].nhead = 0;
			sg[i].dec = NULL;
			memset(&sg[i].rest, 0, sizeof sg[i].rest);
			started[i] = !pthread_create(&th[i], NULL, work, &sg[i]);
			if (!started[i])
				work(&sg[i]);
		}
		for (i = 0; i < n; i++)
			if (started[i])
				pthread_join(th[i], NULL);
		for (i = 0; i < n && !r; i++) {
			if (sg[i].r != -PFT_E_AGAIN) {
				r = sg[i].r;
			} else if (first) { /* the stream's start: serial by definition */
				size_t m;
				for (m = 0; m < sg[i].nhead; m++)
					count(c, &sg[i].head[m]);
				add(c, &sg[i].rest);
				u.dec = sg[i].dec;
				u.base = sg[i].off;
				sg[i].dec = NULL;
				first = 0;
			} else {
				r = join(&u, &sg[i]);
			}
		}
		for (i = 0; i < n; i++)
			pft_pkt_decoder_free(sg[i].dec);
		off += wlen;
	}
	if (!r && u.dec) {
		pft_pkt_decoder_end(u.dec);
		while ((r = pft_pkt_decoder_next(u.dec, &p, sizeof p)) == 0) {
			p.offset += u.base;
			count(c, &p);
		}
	} else if (!r) {
		r = -PFT_E_EOS;
	}
	pft_pkt_decoder_free(u.dec);
	*joins = u.joins;
	*serial = u.serial;
	for (i = 0; sg && i < jobs; i++)
		free(sg[i].head);
	free(sg);
	free(th);
	free(started);
	free(win[0]);
	free(win[1]);
	return r;
}
