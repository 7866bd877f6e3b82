/* SPDX-License-Identifier: BSD-3-Clause */
/* Parallel decode (pft/parallel.h) against the serial decoders: streams of
 * the software PTM running random programs under random configurations,
 * and corrupted copies of them (bytes flipped, cut out, zeroed), are
 * decoded serially (pft_flow_decoder fed the whole buffer, and
 * pft_pkt_decoder) and through windows split into 1-8 segments of down to
 * a few dozen bytes, joined in order.  Every item (every field, and every
 * instruction of every range), the flow totals and the packet counts must
 * be equal, and on clean streams most segments must join (else the test
 * would pass with no parallelism at all).  Also the sync search, the
 * split, small item buffers (segments that stop early), totals without
 * items (pft_par_drain, segments counting without building packets) and
 * misuse. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptm_prog.h"
#include "pft/pft.h"

struct rec {
	struct pft_flow_item *it;
	size_t n, cap;
	struct pft_insn *in;
	size_t nin, capin;
};

static void rec_add(struct rec *r, const struct pft_flow_item *it)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1024;
		r->it = realloc(r->it, r->cap * sizeof *r->it);
	}
	if (r->nin + it->ninsns > r->capin) {
		r->capin = 2 * (r->nin + it->ninsns) + 1024;
		r->in = realloc(r->in, r->capin * sizeof *r->in);
	}
	r->it[r->n] = *it;
	r->it[r->n].insns = NULL;
	if (it->ninsns && it->insns)
		memcpy(r->in + r->nin, it->insns, it->ninsns * sizeof *it->insns);
	r->nin += it->ninsns;
	r->n++;
}

static void rec_free(struct rec *r)
{
	free(r->it);
	free(r->in);
	memset(r, 0, sizeof *r);
}

static struct pft_flow_stats serial_flow(const struct pft_config *cfg, struct pft_image *img,
					 const uint8_t *b, size_t len, struct rec *out)
{
	struct pft_flow_decoder *d = pft_flow_decoder_alloc(cfg, img);
	struct pft_flow_item it;
	struct pft_flow_stats st;

	memset(&st, 0, sizeof st);
	CHECK(d != NULL);
	if (!d)
		return st;
	pft_flow_decoder_feed(d, b, len);
	while (pft_flow_decoder_next(d, &it, sizeof it) == 0)
		rec_add(out, &it);
	pft_flow_decoder_end(d);
	while (pft_flow_decoder_next(d, &it, sizeof it) == 0)
		rec_add(out, &it);
	pft_flow_decoder_get_stats(d, &st, sizeof st);
	pft_flow_decoder_free(d);
	return st;
}

static int cb_pkt(const struct pft_packet *p, void *arg)
{
	struct rec *r = arg;
	struct pft_flow_item it;

	/* packets kept in the item array's place, as raw structs */
	memset(&it, 0, sizeof it);
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1024;
		r->it = realloc(r->it, r->cap * sizeof *r->it);
	}
	r->it[r->n] = it;
	memcpy(&r->it[r->n++], p, sizeof *p < sizeof it ? sizeof *p : sizeof it);
	return 0;
}

struct run_opts {
	size_t window;   /* bytes per window */
	unsigned jobs;
	size_t items_cap, insns_cap; /* 0: no item buffer (statistics only) */
};

/* The parallel path over b; items into out (FLOW) or packets (PACKETS). */
static int par_run(enum pft_par_kind kind, const struct pft_config *cfg, struct pft_image *img,
		   const uint8_t *b, size_t len, const struct run_opts *o, struct rec *out,
		   struct pft_flow_stats *st, struct pft_par_counts *pc,
		   struct pft_par_join_stats *js)
{
	struct pft_par *par = pft_par_alloc(kind, cfg, img, PFT_ISYNC_RESYNC_LOST);
	struct pft_par_seg *seg[8];
	struct pft_par_buf pb[8];
	size_t cuts[9], off = 0;
	unsigned i, n;
	int r;

	CHECK(par != NULL);
	if (!par)
		return -1;
	for (i = 0; i < o->jobs; i++) {
		seg[i] = pft_par_seg_alloc(kind, cfg, img, PFT_ISYNC_RESYNC_LOST);
		CHECK(seg[i] != NULL);
		memset(&pb[i], 0, sizeof pb[i]);
		if (o->items_cap && kind == PFT_PAR_FLOW) {
			pb[i].items = malloc(o->items_cap * sizeof *pb[i].items);
			pb[i].items_cap = o->items_cap;
			pb[i].insns = malloc(o->insns_cap * sizeof *pb[i].insns);
			pb[i].insns_cap = o->insns_cap;
		} else if (o->items_cap) {
			pb[i].pkts = malloc(o->items_cap * sizeof *pb[i].pkts);
			pb[i].pkts_cap = o->items_cap;
		}
	}
	while (off < len) {
		size_t w = len - off < o->window ? len - off : o->window;

		n = pft_par_split(b + off, w, o->jobs, cuts);
		CHECK(n >= 1 && n <= o->jobs);
		for (i = 0; i < n; i++)
			CHECK_EQ(pft_par_seg_decode(seg[i], b + off + cuts[i], cuts[i + 1] - cuts[i],
						    off + cuts[i], &pb[i]), 0);
		for (i = 0; i < n; i++) {
			CHECK_EQ(pft_par_join(par, seg[i], b + off + cuts[i], cuts[i + 1] - cuts[i],
					      off + cuts[i]), 0);
			if (!o->items_cap) {
				r = pft_par_drain(par); /* totals only */
			} else if (kind == PFT_PAR_FLOW) {
				struct pft_flow_item it;
				while ((r = pft_par_next_item(par, &it, sizeof it)) == 0)
					rec_add(out, &it);
			} else {
				struct pft_packet p;
				while ((r = pft_par_next_packet(par, &p, sizeof p)) == 0)
					cb_pkt(&p, out);
			}
			CHECK_EQ(r, -PFT_E_AGAIN);
		}
		off += w;
	}
	CHECK_EQ(pft_par_end(par), 0);
	if (kind == PFT_PAR_FLOW) {
		struct pft_flow_item it;
		while ((r = pft_par_next_item(par, &it, sizeof it)) == 0)
			rec_add(out, &it);
		CHECK_EQ(pft_par_get_stats(par, st, sizeof *st), 0);
	} else {
		struct pft_packet p;
		while ((r = pft_par_next_packet(par, &p, sizeof p)) == 0)
			cb_pkt(&p, out);
		CHECK_EQ(pft_par_get_counts(par, pc, sizeof *pc), 0);
	}
	CHECK_EQ(r, -PFT_E_EOS);
	pft_par_get_join_stats(par, js, sizeof *js);
	for (i = 0; i < o->jobs; i++) {
		pft_par_seg_free(seg[i]);
		free(pb[i].items);
		free(pb[i].insns);
		free(pb[i].pkts);
	}
	pft_par_free(par);
	return 0;
}

static int same_items(const struct rec *a, const struct rec *b, int insns)
{
	size_t i;

	if (a->n != b->n) {
		check_fail(__FILE__, __LINE__, "%zu items serially, %zu joined", a->n, b->n);
		return 0;
	}
	for (i = 0; i < a->n; i++)
		if (memcmp(&a->it[i], &b->it[i], sizeof a->it[i])) {
			check_fail(__FILE__, __LINE__, "item %zu differs (offset %llu / %llu, "
				   "index %llu / %llu, type %u / %u)", i,
				   (unsigned long long)a->it[i].offset, (unsigned long long)b->it[i].offset,
				   (unsigned long long)a->it[i].index, (unsigned long long)b->it[i].index,
				   a->it[i].type, b->it[i].type);
			return 0;
		}
	if (insns && (a->nin != b->nin || memcmp(a->in, b->in, a->nin * sizeof *a->in))) {
		check_fail(__FILE__, __LINE__, "instructions differ");
		return 0;
	}
	return 1;
}

/* A random configuration and program: its trace into *buf, the image. */
static size_t make_stream(uint64_t seed, struct prog *g, struct pft_config *cfg, uint8_t **buf)
{
	uint64_t r = seed * 0x9E3779B97F4A7C15ull + 1;
	struct prog_opts o;
	struct pft_features f;
	struct pft_ptm_params par;
	struct pft_ptm *ptm;
	int v11 = prog_random_config(cfg, &r);
	size_t cap, len;

	cfg->etmsyncfr = 0x40 + (uint32_t)(check_rand(&r) % 0x200);
	prog_random_opts(&o, &r, v11);
	prog_init(g, seed, &o);
	pft_ptm_params_init(&par);
	ptm = pft_ptm_alloc(cfg, &par);
	CHECK(ptm != NULL);
	if (!ptm)
		return 0;
	pft_ptm_get_reg(ptm, PFT_PTM_ETMCR, &cfg->etmcr);
	pft_config_features(cfg, &f);
	g->dmb_wp = f.dmb_waypoint;
	prog_run(g, ptm, 4000 + (unsigned)(check_rand(&r) % 12000), v11, 0);
	pft_ptm_flush(ptm);
	cap = pft_ptm_pending(ptm) + 16;
	*buf = malloc(cap);
	len = pft_ptm_read(ptm, *buf, cap);
	pft_ptm_free(ptm);
	return len;
}

static void corrupt(uint8_t *b, size_t *len, uint64_t *r)
{
	unsigned k, n = 1 + (unsigned)(check_rand(r) % 6);

	for (k = 0; k < n && *len > 16; k++) {
		size_t at = (size_t)(check_rand(r) % *len), m;
		switch (check_rand(r) % 3) {
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
		default:
			m = 1 + (size_t)(check_rand(r) % 12);
			if (at + m > *len)
				m = *len - at;
			memset(b + at, 0, m);
			break;
		}
	}
}

static struct prog prog;

static void one_case(uint64_t seed, uint64_t *rng, uint64_t *joined, uint64_t *stretches)
{
	struct pft_config cfg;
	uint8_t *buf = NULL;
	size_t len = make_stream(seed, &prog, &cfg, &buf), k;
	struct pft_image *img = pft_image_alloc();
	int pass;

	for (k = 0; k < 2; k++)
		pft_image_add_buffer(img, prog.r[k].base, prog.r[k].mem, PROG_REGION);
	for (pass = 0; pass < 3 && len; pass++) {
		struct rec ser, ser_pk;
		struct pft_flow_stats sst, pst;
		struct pft_par_counts pc;
		struct pft_par_join_stats js;
		unsigned v;

		if (pass)
			corrupt(buf, &len, rng);
		memset(&ser, 0, sizeof ser);
		memset(&ser_pk, 0, sizeof ser_pk);
		sst = serial_flow(&cfg, img, buf, len, &ser);
		pft_pkt_decode_buffer(&cfg, buf, len, cb_pkt, &ser_pk);
		for (v = 0; v < 4; v++) {
			struct run_opts o;
			struct rec got;

			o.jobs = 1 + (unsigned)(check_rand(rng) % 8);
			o.window = 64 + (size_t)(check_rand(rng) % (v & 1 ? 4096 : 512)) * o.jobs;
			o.items_cap = v == 3 ? 0 : v == 2 ? 4 + (size_t)(check_rand(rng) % 64) : 1 << 16;
			o.insns_cap = v == 2 ? 16 + (size_t)(check_rand(rng) % 256) : 1 << 18;
			check_case("seed %llu pass %d: jobs %u window %zu items %zu", (unsigned long long)seed,
				   pass, o.jobs, o.window, o.items_cap);
			memset(&got, 0, sizeof got);
			memset(&pst, 0, sizeof pst);
			par_run(PFT_PAR_FLOW, &cfg, img, buf, len, &o, &got, &pst, &pc, &js);
			if (o.items_cap)
				same_items(&ser, &got, 1);
			sst.cache_hits = sst.cache_misses = pst.cache_hits = pst.cache_misses = 0;
			CHECK(!memcmp(&sst, &pst, sizeof sst));
			if (!pass) {
				*joined += js.joined;
				*stretches += js.joined + js.serial;
			}
			rec_free(&got);

			/* packets */
			memset(&got, 0, sizeof got);
			par_run(PFT_PAR_PACKETS, &cfg, NULL, buf, len, &o, &got, &pst, &pc, &js);
			{
				struct pft_par_counts want;
				memset(&want, 0, sizeof want);
				for (k = 0; k < ser_pk.n; k++) {
					const struct pft_packet *p = (const struct pft_packet *)&ser_pk.it[k];
					unsigned t = p->type;
					want.count[t]++;
					want.bytes[t] += p->size;
					if (t == PFT_PKT_ERROR && !want.errors++)
						want.first_error = p->offset;
				}
				CHECK(!memcmp(&want, &pc, sizeof want));
			}
			if (o.items_cap)
				same_items(&ser_pk, &got, 0);
			rec_free(&got);
		}
		rec_free(&ser);
		rec_free(&ser_pk);
	}
	check_case(NULL);
	pft_image_free(img);
	prog_fini(&prog);
	free(buf);
}

static void test_split(void)
{
	uint8_t b[64];
	size_t cuts[PFT_PAR_MAX_SPLIT + 1];
	unsigned n;

	memset(b, 0x21, sizeof b);
	/* A-syncs at 10 (6 zeros, 0x80) and 40 (8 zeros, 0x80) */
	memset(b + 10, 0, 5);
	b[15] = 0x80;
	memset(b + 40, 0, 8);
	b[48] = 0x80;
	CHECK_EQ(pft_par_find_sync(b, sizeof b, 0, 0), 10);
	CHECK_EQ(pft_par_find_sync(b, sizeof b, 0, 12), 10); /* inside it: its first zero */
	CHECK_EQ(pft_par_find_sync(b, sizeof b, 0, 16), 40);
	CHECK_EQ(pft_par_find_sync(b, sizeof b, 43, 44), sizeof b); /* its zeros before lo */
	CHECK_EQ(pft_par_find_sync(b, sizeof b, 0, 49), sizeof b);
	n = pft_par_split(b, sizeof b, 2, cuts);
	CHECK_EQ(n, 2);
	CHECK_EQ(cuts[0], 0);
	CHECK_EQ(cuts[1], 40);
	CHECK_EQ(cuts[2], sizeof b);
	n = pft_par_split(b, sizeof b, 8, cuts);
	CHECK_EQ(n, 3);
	CHECK_EQ(cuts[1], 10);
	CHECK_EQ(cuts[2], 40);
	CHECK_EQ(cuts[3], sizeof b);
	CHECK_EQ(pft_par_split(b, sizeof b, 0, cuts), 0);
	CHECK_EQ(pft_par_split(b, sizeof b, PFT_PAR_MAX_SPLIT + 1, cuts), 0);
}

static void test_misuse(void)
{
	struct pft_config cfg;
	struct pft_par *p;
	struct pft_par_seg *s;
	struct pft_packet pk;
	struct pft_flow_item it;
	static const uint8_t b[8] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0 };

	pft_config_init(&cfg);
	CHECK(pft_par_alloc((enum pft_par_kind)3, &cfg, NULL, PFT_ISYNC_RESYNC_LOST) == NULL);
	CHECK(pft_par_alloc(PFT_PAR_PACKETS, NULL, NULL, PFT_ISYNC_RESYNC_LOST) == NULL);
	p = pft_par_alloc(PFT_PAR_PACKETS, &cfg, NULL, PFT_ISYNC_RESYNC_LOST);
	s = pft_par_seg_alloc(PFT_PAR_PACKETS, &cfg, NULL, PFT_ISYNC_RESYNC_LOST);
	CHECK(p && s);
	if (!p || !s)
		return;
	CHECK_EQ(pft_par_join(p, s, b, sizeof b, 0), -PFT_E_INVAL); /* not decoded */
	CHECK_EQ(pft_par_join(p, NULL, b, 4, 4), -PFT_E_INVAL);     /* does not follow */
	CHECK_EQ(pft_par_seg_decode(s, b + 4, 4, 4, NULL), 0);
	CHECK_EQ(pft_par_join(p, s, b, 4, 0), -PFT_E_INVAL);        /* other bytes */
	CHECK_EQ(pft_par_join(p, NULL, b, 4, 0), 0);
	CHECK_EQ(pft_par_join(p, NULL, b + 4, 4, 4), -PFT_E_INVAL); /* items pending */
	CHECK_EQ(pft_par_next_item(p, &it, sizeof it), -PFT_E_INVAL); /* wrong kind */
	CHECK_EQ(pft_par_next_packet(p, &pk, sizeof pk - 1), -PFT_E_INVAL);
	while (pft_par_next_packet(p, &pk, sizeof pk) == 0)
		;
	CHECK_EQ(pft_par_next_packet(p, &pk, sizeof pk), -PFT_E_AGAIN);
	CHECK_EQ(pft_par_join(p, s, b + 4, 4, 4), 0);
	while (pft_par_next_packet(p, &pk, sizeof pk) == 0)
		;
	CHECK_EQ(pft_par_end(p), 0);
	while (pft_par_next_packet(p, &pk, sizeof pk) == 0)
		;
	CHECK_EQ(pft_par_next_packet(p, &pk, sizeof pk), -PFT_E_EOS);
	CHECK_EQ(pft_par_end(p), -PFT_E_INVAL);
	CHECK_EQ(pft_par_resync(p), -PFT_E_INVAL);
	pft_par_seg_free(s);
	pft_par_free(p);
}

int main(void)
{
	uint64_t rng = check_seed(13), seed, joined = 0, stretches = 0;
	unsigned ncases = getenv("PFT_PAR_CASES") ? (unsigned)atoi(getenv("PFT_PAR_CASES")) : 60;

	test_split();
	test_misuse();
	if (getenv("PFT_PAR_ONE"))
		one_case(strtoull(getenv("PFT_PAR_ONE"), NULL, 0), &rng, &joined, &stretches);
	else for (seed = 1; seed <= ncases; seed++)
		one_case(seed + (rng & 0xFFFF) * 1000, &rng, &joined, &stretches);
	printf("clean streams: %llu of %llu stretches joined a segment\n",
	       (unsigned long long)joined, (unsigned long long)stretches);
	/* on clean streams a segment normally joins: a join rule that never
	 * matched would make every output serial (and this test vacuous) */
	CHECK(joined * 2 > stretches);
	return check_report();
}
