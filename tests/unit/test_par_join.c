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
#include "par_check.h"
#include "ptm_prog.h"
#include "pft/pft.h"

static struct pft_flow_stats serial_flow(const struct pft_config *cfg, struct pft_image *img,
					 const uint8_t *b, size_t len, struct par_rec *out)
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
		par_rec_item(out, &it);
	pft_flow_decoder_end(d);
	while (pft_flow_decoder_next(d, &it, sizeof it) == 0)
		par_rec_item(out, &it);
	pft_flow_decoder_get_stats(d, &st, sizeof st);
	pft_flow_decoder_free(d);
	return st;
}

static int cb_pkt(const struct pft_packet *p, void *arg)
{
	par_rec_packet(arg, p);
	return 0;
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

/* The packet totals as pft_par_get_counts gives them. */
static void counts_of(const struct par_rec *r, struct pft_par_counts *c)
{
	size_t k;

	memset(c, 0, sizeof *c);
	for (k = 0; k < r->npk; k++) {
		const struct pft_packet *p = &r->pk[k];
		c->count[p->type]++;
		c->bytes[p->type] += p->size;
		if (p->type == PFT_PKT_ERROR && !c->errors++)
			c->first_error = p->offset;
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
		struct par_rec ser, ser_pk;
		struct pft_flow_stats sst;
		struct pft_par_counts want;
		unsigned v;

		if (pass)
			par_corrupt(buf, &len, rng, 0);
		memset(&ser, 0, sizeof ser);
		memset(&ser_pk, 0, sizeof ser_pk);
		sst = serial_flow(&cfg, img, buf, len, &ser);
		sst.cache_hits = sst.cache_misses = 0;
		pft_pkt_decode_buffer(&cfg, buf, len, cb_pkt, &ser_pk);
		counts_of(&ser_pk, &want);
		for (v = 0; v < 4; v++) {
			struct par_opts o;
			struct par_rec got;
			struct par_totals t;

			o.jobs = 1 + (unsigned)(check_rand(rng) % 8);
			o.window = 64 + (size_t)(check_rand(rng) % (v & 1 ? 4096 : 512)) * o.jobs;
			o.items_cap = v == 3 ? 0 : v == 2 ? 4 + (size_t)(check_rand(rng) % 64) : 1 << 16;
			o.insns_cap = v == 2 ? 16 + (size_t)(check_rand(rng) % 256) : 1 << 18;
			o.gap = 0;
			check_case("seed %llu pass %d: jobs %u window %zu items %zu", (unsigned long long)seed,
				   pass, o.jobs, o.window, o.items_cap);
			memset(&got, 0, sizeof got);
			par_check_run(PFT_PAR_FLOW, &cfg, img, buf, len, &o, &got, &t);
			if (o.items_cap)
				par_same_items(&ser, &got, 1);
			t.st.cache_hits = t.st.cache_misses = 0;
			CHECK(!memcmp(&sst, &t.st, sizeof sst));
			if (!pass) {
				*joined += t.js.joined;
				*stretches += t.js.joined + t.js.serial;
			}
			par_rec_free(&got);

			/* packets */
			memset(&got, 0, sizeof got);
			par_check_run(PFT_PAR_PACKETS, &cfg, NULL, buf, len, &o, &got, &t);
			CHECK(!memcmp(&want, &t.pc, sizeof want));
			if (o.items_cap)
				par_same_pkts(&ser_pk, &got);
			par_rec_free(&got);
		}
		par_rec_free(&ser);
		par_rec_free(&ser_pk);
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
