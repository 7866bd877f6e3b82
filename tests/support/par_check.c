/* SPDX-License-Identifier: BSD-3-Clause */
#include "par_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* A packet's bytes that are set: up to the end of bytes[]. */
#define PK_SET (offsetof(struct pft_packet, bytes) + PFT_PKT_MAX_BYTES)
#define E3_SET (offsetof(struct pft_etm3_packet, bytes) + PFT_ETM3_MAX_BYTES)

void par_rec_item(struct par_rec *r, const struct pft_flow_item *it)
{
	size_t i;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1024;
		r->it = realloc(r->it, r->cap * sizeof *r->it);
	}
	if (r->nin + it->ninsns > r->capin) {
		r->capin = 2 * (r->nin + it->ninsns) + 1024;
		r->in = realloc(r->in, r->capin * sizeof *r->in);
		r->cyc = realloc(r->cyc, r->capin * sizeof *r->cyc);
	}
	r->it[r->n] = *it;
	r->it[r->n].insns = NULL;
	r->it[r->n].insn_cycles = NULL;
	for (i = 0; i < it->ninsns; i++) {
		if (it->insns)
			r->in[r->nin + i] = it->insns[i];
		else
			memset(&r->in[r->nin + i], 0, sizeof r->in[0]);
		r->cyc[r->nin + i] = it->insn_cycles ? it->insn_cycles[i] : 0xFFFFFFFFu;
	}
	r->nin += it->ninsns;
	r->n++;
}

/* Room for one more packet, in the array of the protocol's packets. */
static void grow_pkts(struct par_rec *r, int e3)
{
	r->etm3 = e3;
	if (r->npk < r->cappk)
		return;
	r->cappk = r->cappk ? 2 * r->cappk : 1024;
	if (e3)
		r->e3 = realloc(r->e3, r->cappk * sizeof *r->e3);
	else
		r->pk = realloc(r->pk, r->cappk * sizeof *r->pk);
}

void par_rec_packet(struct par_rec *r, const struct pft_packet *p)
{
	grow_pkts(r, 0);
	memcpy(&r->pk[r->npk++], p, sizeof *p);
}

void par_rec_etm3_packet(struct par_rec *r, const struct pft_etm3_packet *p)
{
	grow_pkts(r, 1);
	memcpy(&r->e3[r->npk++], p, sizeof *p);
}

void par_rec_free(struct par_rec *r)
{
	free(r->it);
	free(r->in);
	free(r->cyc);
	free(r->pk);
	free(r->e3);
	memset(r, 0, sizeof *r);
}

int par_same_items(const struct par_rec *a, const struct par_rec *b, int insns)
{
	size_t i;

	if (a->n != b->n) {
		check_fail(__FILE__, __LINE__, "%zu items serially, %zu joined", a->n, b->n);
		return 0;
	}
	for (i = 0; i < a->n; i++)
		if (memcmp(&a->it[i], &b->it[i], sizeof a->it[i])) {
			check_fail(__FILE__, __LINE__, "item %zu differs (offset %llu / %llu, "
				   "index %llu / %llu, kind %u / %u, type %u / %u)", i,
				   (unsigned long long)a->it[i].offset, (unsigned long long)b->it[i].offset,
				   (unsigned long long)a->it[i].index, (unsigned long long)b->it[i].index,
				   a->it[i].kind, b->it[i].kind, a->it[i].type, b->it[i].type);
			return 0;
		}
	if (insns && (a->nin != b->nin ||
		      (a->nin && (memcmp(a->in, b->in, a->nin * sizeof *a->in) ||
				  memcmp(a->cyc, b->cyc, a->nin * sizeof *a->cyc))))) {
		check_fail(__FILE__, __LINE__, "instructions or their cycle counts differ");
		return 0;
	}
	return 1;
}

/* Packet i of r. */
static const void *pkt_at(const struct par_rec *r, size_t i)
{
	return r->etm3 ? (const void *)&r->e3[i] : (const void *)&r->pk[i];
}

/* "offset O type T size S" of packet i of r, or "none" past its end. */
static const char *pkt_str(const struct par_rec *r, size_t i, char *buf, size_t cap)
{
	if (i >= r->npk)
		snprintf(buf, cap, "none");
	else if (r->etm3)
		snprintf(buf, cap, "offset %llu type %u size %u", (unsigned long long)r->e3[i].offset,
			 (unsigned)r->e3[i].type, (unsigned)r->e3[i].size);
	else
		snprintf(buf, cap, "offset %llu type %u size %u", (unsigned long long)r->pk[i].offset,
			 (unsigned)r->pk[i].type, (unsigned)r->pk[i].size);
	return buf;
}

int par_same_pkts(const struct par_rec *a, const struct par_rec *b)
{
	size_t set = a->etm3 || b->etm3 ? E3_SET : PK_SET, i, j;
	char x[96], y[96];

	if (a->npk && b->npk && a->etm3 != b->etm3) {
		check_fail(__FILE__, __LINE__, "packets of two protocols compared");
		return 0;
	}
	for (i = 0; i < a->npk && i < b->npk; i++)
		if (memcmp(pkt_at(a, i), pkt_at(b, i), set))
			break;
	if (i == a->npk && i == b->npk)
		return 1;
	if (getenv("PFT_PAR_DEBUG") && i < a->npk && i < b->npk) {
		const unsigned char *p = pkt_at(a, i), *q = pkt_at(b, i);
		for (j = 0; j < set; j++)
			if (p[j] != q[j])
				fprintf(stderr, "byte %zu: %02x / %02x\n", j, p[j], q[j]);
	}
	check_fail(__FILE__, __LINE__, "%zu packets serially, %zu joined; packet %zu differs: %s / %s",
		   a->npk, b->npk, i, pkt_str(a, i, x, sizeof x), pkt_str(b, i, y, sizeof y));
	return 0;
}

/* What the join has ready, pulled into out (drained when !keep); the
 * status that ended it. */
static int take(struct pft_par *par, enum pft_par_kind kind, int e3, int keep, struct par_rec *out)
{
	struct pft_flow_item it;
	struct pft_packet p;
	struct pft_etm3_packet q;
	int r;

	if (!keep)
		return pft_par_drain(par);
	if (kind == PFT_PAR_FLOW)
		while ((r = pft_par_next_item(par, &it, sizeof it)) == 0)
			par_rec_item(out, &it);
	else if (e3)
		while ((r = pft_par_next_etm3_packet(par, &q, sizeof q)) == 0)
			par_rec_etm3_packet(out, &q);
	else
		while ((r = pft_par_next_packet(par, &p, sizeof p)) == 0)
			par_rec_packet(out, &p);
	return r;
}

void par_check_run(enum pft_par_kind kind, const struct pft_config *cfg, struct pft_image *img,
		   const uint8_t *b, size_t len, const struct par_opts *o, struct par_rec *out,
		   struct par_totals *t)
{
	struct pft_etm3_features f3;
	int e3 = pft_etm3_config_features(cfg, &f3, NULL, 0) == 0, keep = o->items_cap != 0;
	struct pft_par *par = pft_par_alloc(kind, cfg, img, PFT_ISYNC_RESYNC_LOST);
	struct pft_par_seg *seg[8];
	struct pft_par_buf pb[8];
	size_t cuts[9], off = 0;
	unsigned i, n, nw = 0;

	memset(t, 0, sizeof *t);
	CHECK(par != NULL);
	CHECK(o->jobs >= 1 && o->jobs <= 8);
	if (!par || o->jobs < 1 || o->jobs > 8)
		return;
	for (i = 0; i < o->jobs; i++) {
		seg[i] = pft_par_seg_alloc(kind, cfg, img, PFT_ISYNC_RESYNC_LOST);
		CHECK(seg[i] != NULL);
		memset(&pb[i], 0, sizeof pb[i]);
		if (keep && kind == PFT_PAR_FLOW) {
			pb[i].items = malloc(o->items_cap * sizeof *pb[i].items);
			pb[i].items_cap = o->items_cap;
			pb[i].insns = malloc(o->insns_cap * sizeof *pb[i].insns);
			pb[i].insns_cap = o->insns_cap;
			pb[i].cycles = malloc(o->insns_cap * sizeof *pb[i].cycles);
			pb[i].cycles_cap = o->insns_cap;
		} else if (keep && e3) {
			pb[i].etm3_pkts = malloc(o->items_cap * sizeof *pb[i].etm3_pkts);
			pb[i].etm3_pkts_cap = o->items_cap;
		} else if (keep) {
			pb[i].pkts = malloc(o->items_cap * sizeof *pb[i].pkts);
			pb[i].pkts_cap = o->items_cap;
		}
	}
	while (off < len) {
		size_t w = len - off < o->window ? len - off : o->window;

		if (o->gap && (nw++ & 1)) {
			CHECK_EQ(pft_par_resync(par), 0);
			CHECK_EQ(take(par, kind, e3, keep, out), -PFT_E_AGAIN);
		}
		n = pft_par_split(b + off, w, o->jobs, cuts);
		CHECK(n >= 1 && n <= o->jobs);
		for (i = 0; i < n; i++)
			CHECK_EQ(pft_par_seg_decode(seg[i], b + off + cuts[i], cuts[i + 1] - cuts[i],
						    off + cuts[i], &pb[i]), 0);
		for (i = 0; i < n; i++) {
			CHECK_EQ(pft_par_join(par, seg[i], b + off + cuts[i], cuts[i + 1] - cuts[i],
					      off + cuts[i]), 0);
			CHECK_EQ(take(par, kind, e3, keep, out), -PFT_E_AGAIN);
		}
		off += w;
	}
	CHECK_EQ(pft_par_end(par), 0);
	CHECK_EQ(take(par, kind, e3, keep, out), -PFT_E_EOS);
	if (kind == PFT_PAR_FLOW)
		CHECK_EQ(pft_par_get_stats(par, &t->st, sizeof t->st), 0);
	else if (e3)
		CHECK_EQ(pft_par_get_etm3_counts(par, &t->e3c, sizeof t->e3c), 0);
	else
		CHECK_EQ(pft_par_get_counts(par, &t->pc, sizeof t->pc), 0);
	CHECK_EQ(pft_par_get_join_stats(par, &t->js, sizeof t->js), 0);
	for (i = 0; i < o->jobs; i++) {
		pft_par_seg_free(seg[i]);
		free(pb[i].items);
		free(pb[i].insns);
		free(pb[i].cycles);
		free(pb[i].pkts);
		free(pb[i].etm3_pkts);
	}
	pft_par_free(par);
}

void par_corrupt(uint8_t *b, size_t *len, uint64_t *r, int asyncs)
{
	unsigned k, n = 1 + (unsigned)(check_rand(r) % 6);

	for (k = 0; k < n && *len > 16; k++) {
		size_t at = (size_t)(check_rand(r) % *len), m;
		switch (check_rand(r) % (asyncs ? 4 : 3)) {
		case 0:
			b[at] ^= (uint8_t)(1u << (check_rand(r) % 8));
			break;
		case 1:
			m = 1 + (size_t)(check_rand(r) % 8);
			if (at + m > *len)
				m = *len - at;
			memmove(b + at, b + at + m, *len - at - m);
			*len -= m;
			break;
		case 2:
			m = 1 + (size_t)(check_rand(r) % 12);
			if (at + m > *len)
				m = *len - at;
			memset(b + at, 0, m);
			break;
		default:
			/* an A-sync pattern where there was none (a false cut) */
			m = 5 + (size_t)(check_rand(r) % 4);
			if (at + m + 1 > *len)
				break;
			memset(b + at, 0, m);
			b[at + m] = 0x80;
			break;
		}
	}
}
