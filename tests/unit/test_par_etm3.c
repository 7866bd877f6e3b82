/* SPDX-License-Identifier: BSD-3-Clause */
/* Parallel decode (pft/parallel.h) of ETMv3 streams against the serial
 * ETMv3 decoders: TC2's three Cortex-A7 sources (data/TC2, IDs 0x10-0x12,
 * cycle-accurate, with the kernel image), repeated, and corrupted copies of
 * them (bits flipped, bytes cut out, runs zeroed, A-syncs planted), and the
 * same bytes read under other configurations (not cycle-accurate, 4-byte
 * context IDs, the alternative branch encoding, data tracing), whole and
 * corrupted.  (Recordings of pft record --protocol etm3 under random
 * configurations are checked through the CLI: tests/scripts/decode_jobs.py.)
 * Serially: the ETMv3 packet decoder, its packets
 * one at a time into the ETMv3 flow, the totals counted as the CLI counts
 * them; in parallel: windows of 64 bytes up, split into 1-8 segments,
 * joined in order.  Every flow item (every field, every instruction, every
 * cycle count), the flow totals, every packet and the packet counts must
 * be equal, and on clean streams most stretches must join a segment (else
 * the test would pass with no parallelism at all). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/pft.h"

/* A packet's bytes that are set: up to the end of bytes[] (not the tail
 * padding). */
#define PKCMP (offsetof(struct pft_etm3_packet, bytes) + PFT_ETM3_MAX_BYTES)

struct rec {
	struct pft_flow_item *it;
	size_t n, cap;
	struct pft_insn *in;
	uint32_t *cyc;
	size_t nin, capin;
	struct pft_etm3_packet *pk;
	size_t npk, cappk;
};

static void rec_add(struct rec *r, const struct pft_flow_item *it)
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

static void rec_pkt(struct rec *r, const struct pft_etm3_packet *p)
{
	if (r->npk == r->cappk) {
		r->cappk = r->cappk ? 2 * r->cappk : 1024;
		r->pk = realloc(r->pk, r->cappk * sizeof *r->pk);
	}
	r->pk[r->npk++] = *p;
}

static void rec_free(struct rec *r)
{
	free(r->it);
	free(r->in);
	free(r->cyc);
	free(r->pk);
	memset(r, 0, sizeof *r);
}

/* The serial decoders, as tools/pft/flow_any.c and dump_etm3.c read the
 * stream: flow items (FLOW) or packets, and the totals.  gap: the stream
 * comes in windows of `window` bytes, every other one after a gap (the
 * packet decoder resyncs there). */
static void serial(enum pft_par_kind kind, const struct pft_config *cfg,
		   const struct pft_image *img, const uint8_t *b, size_t len, size_t window, int gap,
		   struct rec *out, struct pft_flow_stats *st)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(cfg);
	struct pft_etm3_flow_decoder *fl = pft_etm3_flow_decoder_alloc(cfg, img);
	struct pft_etm3_packet p;
	struct pft_flow_item it;
	size_t off = 0;
	unsigned nw = 0;
	int r, ended = 0, resynced = 0;

	memset(st, 0, sizeof *st);
	CHECK(d && fl);
	if (!d || !fl)
		return;
	if (!gap)
		window = len ? len : 1;
	for (;;) {
		if (off < len) {
			size_t w = len - off < window ? len - off : window;

			if (gap && (nw & 1) && !resynced) {
				pft_etm3_decoder_resync(d);
				resynced = 1; /* pull what it gives, then feed */
			} else {
				resynced = 0;
				CHECK_EQ(pft_etm3_decoder_feed(d, b + off, w), 0);
				off += w;
				nw++;
			}
		} else if (!ended) {
			pft_etm3_decoder_end(d);
			ended = 1;
		}
		for (;;) {
			if (kind == PFT_PAR_FLOW) {
				while ((r = pft_etm3_flow_decoder_next(fl, &it, sizeof it)) == 0) {
					rec_add(out, &it);
					if (it.kind == PFT_FLOW_EVENT) {
						st->events[it.type]++;
					} else {
						st->ranges++;
						st->insns += it.ninsns;
					}
				}
				if (r == -PFT_E_EOS)
					break;
			}
			r = pft_etm3_decoder_next(d, &p, sizeof p);
			if (r == -PFT_E_EOS && kind == PFT_PAR_FLOW) {
				pft_etm3_flow_decoder_end(fl);
				continue;
			}
			if (r)
				break;
			if (kind != PFT_PAR_FLOW) {
				rec_pkt(out, &p);
				continue;
			}
			if (p.type != PFT_ETM3_UNSYNCED && p.type != PFT_ETM3_ERROR)
				st->packets++;
			pft_etm3_flow_decoder_put_packet(fl, &p);
		}
		if (r == -PFT_E_EOS)
			break;
		CHECK_EQ(r, -PFT_E_AGAIN);
		if (r != -PFT_E_AGAIN)
			break;
	}
	st->bytes = pft_etm3_decoder_get_offset(d);
	pft_etm3_flow_decoder_free(fl);
	pft_etm3_decoder_free(d);
}

struct run_opts {
	size_t window;   /* bytes per window */
	unsigned jobs;
	size_t items_cap, insns_cap; /* 0: no item buffer (statistics only) */
	int gap;         /* a resync before every other window */
};

/* The parallel path over b; items into out (FLOW) or packets (PACKETS). */
static void par_run(enum pft_par_kind kind, const struct pft_config *cfg, struct pft_image *img,
		    const uint8_t *b, size_t len, const struct run_opts *o, struct rec *out,
		    struct pft_flow_stats *st, struct pft_etm3_counts *pc,
		    struct pft_par_join_stats *js)
{
	struct pft_par *par = pft_par_alloc(kind, cfg, img, PFT_ISYNC_RESYNC_LOST);
	struct pft_par_seg *seg[8];
	struct pft_par_buf pb[8];
	size_t cuts[9], off = 0;
	unsigned i, n, nw = 0;
	int r = 0;

	CHECK(par != NULL);
	if (!par)
		return;
	for (i = 0; i < o->jobs; i++) {
		seg[i] = pft_par_seg_alloc(kind, cfg, img, PFT_ISYNC_RESYNC_LOST);
		CHECK(seg[i] != NULL);
		memset(&pb[i], 0, sizeof pb[i]);
		if (o->items_cap && kind == PFT_PAR_FLOW) {
			pb[i].items = malloc(o->items_cap * sizeof *pb[i].items);
			pb[i].items_cap = o->items_cap;
			pb[i].insns = malloc(o->insns_cap * sizeof *pb[i].insns);
			pb[i].insns_cap = o->insns_cap;
			pb[i].cycles = malloc(o->insns_cap * sizeof *pb[i].cycles);
			pb[i].cycles_cap = o->insns_cap;
		} else if (o->items_cap) {
			pb[i].etm3_pkts = malloc(o->items_cap * sizeof *pb[i].etm3_pkts);
			pb[i].etm3_pkts_cap = o->items_cap;
		}
	}
	while (off < len) {
		size_t w = len - off < o->window ? len - off : o->window;

		if (o->gap && (nw++ & 1)) {
			CHECK_EQ(pft_par_resync(par), 0);
			if (!o->items_cap) {
				r = pft_par_drain(par);
			} else if (kind == PFT_PAR_FLOW) {
				struct pft_flow_item it;
				while ((r = pft_par_next_item(par, &it, sizeof it)) == 0)
					rec_add(out, &it);
			} else {
				struct pft_etm3_packet p;
				while ((r = pft_par_next_etm3_packet(par, &p, sizeof p)) == 0)
					rec_pkt(out, &p);
			}
			CHECK_EQ(r, -PFT_E_AGAIN);
		}
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
				struct pft_etm3_packet p;
				while ((r = pft_par_next_etm3_packet(par, &p, sizeof p)) == 0)
					rec_pkt(out, &p);
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
		struct pft_etm3_packet p;
		while ((r = pft_par_next_etm3_packet(par, &p, sizeof p)) == 0)
			rec_pkt(out, &p);
		CHECK_EQ(pft_par_get_etm3_counts(par, pc, sizeof *pc), 0);
	}
	CHECK_EQ(r, -PFT_E_EOS);
	pft_par_get_join_stats(par, js, sizeof *js);
	for (i = 0; i < o->jobs; i++) {
		pft_par_seg_free(seg[i]);
		free(pb[i].items);
		free(pb[i].insns);
		free(pb[i].cycles);
		free(pb[i].etm3_pkts);
	}
	pft_par_free(par);
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

static int same_pkts(const struct rec *a, const struct rec *b)
{
	size_t i;

	for (i = 0; i < a->npk && i < b->npk; i++)
		if (memcmp(&a->pk[i], &b->pk[i], PKCMP))
			break;
	if (getenv("PFT_PAR_DEBUG") && i < a->npk && i < b->npk) {
		const unsigned char *x = (const void *)&a->pk[i], *y = (const void *)&b->pk[i];
		size_t j;
		for (j = 0; j < sizeof a->pk[i]; j++)
			if (x[j] != y[j])
				fprintf(stderr, "byte %zu: %02x / %02x\n", j, x[j], y[j]);
	}
	if (a->npk != b->npk) {
		check_fail(__FILE__, __LINE__, "%zu packets serially, %zu joined; first difference at "
			   "%zu: offset %llu type %u size %u / offset %llu type %u size %u", a->npk,
			   b->npk, i, i < a->npk ? (unsigned long long)a->pk[i].offset : 0,
			   i < a->npk ? a->pk[i].type : 0, i < a->npk ? a->pk[i].size : 0,
			   i < b->npk ? (unsigned long long)b->pk[i].offset : 0,
			   i < b->npk ? b->pk[i].type : 0, i < b->npk ? b->pk[i].size : 0);
		return 0;
	}
	for (i = 0; i < a->npk; i++)
		if (memcmp(&a->pk[i], &b->pk[i], PKCMP)) {
			check_fail(__FILE__, __LINE__, "packet %zu differs (offset %llu / %llu)", i,
				   (unsigned long long)a->pk[i].offset,
				   (unsigned long long)b->pk[i].offset);
			return 0;
		}
	return 1;
}

static void corrupt(uint8_t *b, size_t *len, uint64_t *r)
{
	unsigned k, n = 1 + (unsigned)(check_rand(r) % 6);

	for (k = 0; k < n && *len > 16; k++) {
		size_t at = (size_t)(check_rand(r) % *len), m;
		switch (check_rand(r) % 4) {
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

static void counts_of(const struct rec *r, struct pft_etm3_counts *c)
{
	size_t k;

	memset(c, 0, sizeof *c);
	for (k = 0; k < r->npk; k++) {
		const struct pft_etm3_packet *p = &r->pk[k];
		if (p->type == PFT_ETM3_ERROR && !c->items[PFT_ETM3_ERROR])
			c->first_error = p->offset;
		c->items[p->type]++;
		c->bytes[p->type] += p->size;
	}
}

/* One stream: serially, then in parallel under five sets of options (the
 * last with gaps); on clean streams the joins are counted. */
static void one_stream(const char *name, const struct pft_config *cfg, struct pft_image *img,
		       const uint8_t *buf, size_t len, int clean, uint64_t *rng, uint64_t *joined,
		       uint64_t *stretches)
{
	struct rec ser, ser_pk, gser, gser_pk, got;
	struct pft_flow_stats sst, pst, gst;
	struct pft_etm3_counts pc, want, gwant;
	struct pft_par_join_stats js;
	unsigned v;

	memset(&ser, 0, sizeof ser);
	memset(&ser_pk, 0, sizeof ser_pk);
	serial(PFT_PAR_FLOW, cfg, img, buf, len, 0, 0, &ser, &sst);
	serial(PFT_PAR_PACKETS, cfg, NULL, buf, len, 0, 0, &ser_pk, &pst);
	counts_of(&ser_pk, &want);
	if (clean) {
		/* the whole stream in one window of 8 segments cut at its
		   A-syncs (TC2 has one every kilobyte or so): the joins counted */
		struct run_opts o = { len, 8, 1 << 16, 1 << 18, 0 };

		check_case("%s: one window, 8 segments", name);
		memset(&got, 0, sizeof got);
		par_run(PFT_PAR_FLOW, cfg, img, buf, len, &o, &got, &pst, &pc, &js);
		same_items(&ser, &got, 1);
		*joined += js.joined;
		*stretches += js.joined + js.serial;
		rec_free(&got);
	}
	for (v = 0; v < 5; v++) {
		struct run_opts o;
		const struct rec *sf = &ser, *sp = &ser_pk;
		const struct pft_flow_stats *ss = &sst;
		const struct pft_etm3_counts *sc = &want;

		o.jobs = 1 + (unsigned)(check_rand(rng) % 8);
		o.window = 64 + (size_t)(check_rand(rng) % (v & 1 ? 8192 : 512)) * o.jobs;
		o.items_cap = v == 3 ? 0 : v == 2 ? 4 + (size_t)(check_rand(rng) % 64) : 1 << 16;
		o.insns_cap = v == 2 ? 16 + (size_t)(check_rand(rng) % 256) : 1 << 18;
		o.gap = v == 4;
		check_case("%s: jobs %u window %zu items %zu%s", name, o.jobs, o.window, o.items_cap,
			   o.gap ? " gaps" : "");
		if (o.gap) {
			/* every other window after a gap: the serial reference
			   resyncs at the same places */
			memset(&gser, 0, sizeof gser);
			memset(&gser_pk, 0, sizeof gser_pk);
			serial(PFT_PAR_FLOW, cfg, img, buf, len, o.window, 1, &gser, &gst);
			serial(PFT_PAR_PACKETS, cfg, NULL, buf, len, o.window, 1, &gser_pk, &pst);
			counts_of(&gser_pk, &gwant);
			sf = &gser;
			sp = &gser_pk;
			ss = &gst;
			sc = &gwant;
		}
		memset(&got, 0, sizeof got);
		memset(&pst, 0, sizeof pst);
		par_run(PFT_PAR_FLOW, cfg, img, buf, len, &o, &got, &pst, &pc, &js);
		if (o.items_cap)
			same_items(sf, &got, 1);
		CHECK(!memcmp(ss, &pst, sizeof pst));
		rec_free(&got);

		/* packets */
		memset(&got, 0, sizeof got);
		par_run(PFT_PAR_PACKETS, cfg, NULL, buf, len, &o, &got, &pst, &pc, &js);
		CHECK(!memcmp(sc, &pc, sizeof pc));
		if (o.items_cap)
			same_pkts(sp, &got);
		rec_free(&got);
		if (o.gap) {
			rec_free(&gser);
			rec_free(&gser_pk);
		}
	}
	rec_free(&ser);
	rec_free(&ser_pk);
}

/* ---- TC2 ---- */

static void tc2(uint64_t *rng, unsigned ncopies, uint64_t *joined, uint64_t *stretches)
{
	char path[1024], name[96];
	size_t caplen = 0;
	uint8_t *cap = check_read_file(check_data_path(path, sizeof path, "TC2/cstrace.bin"), &caplen);
	struct pft_image *img = pft_image_alloc();
	unsigned id, c;

	CHECK(cap && img);
	if (!cap || !img)
		return;
	CHECK(pft_image_add_file(img, check_data_path(path, sizeof path, "TC2/kernel_dump.bin"),
				 0xC0008000u, 0, 0) > 0);
	for (id = 0x10; id <= 0x12; id++) {
		uint8_t *s = malloc(caplen), *b;
		int64_t n = pft_frame_extract(PFT_FRAME_CORESIGHT, (uint8_t)id, cap, caplen, s, caplen,
					      NULL);
		struct pft_config cfg;
		size_t len, rep;

		CHECK(n > 0);
		pft_config_init(&cfg);
		cfg.etmcr = 0x10001860u;
		cfg.etmidr = 0x410CF250u;
		cfg.etmccer = 0x344008F2u;
		cfg.etmtraceidr = id;
		snprintf(name, sizeof name, "TC2 0x%02X", id);
		one_stream(name, &cfg, img, s, (size_t)n, 1, rng, joined, stretches);
		/* repeated: a longer stream whose copies start mid-packet */
		rep = 3;
		b = malloc((size_t)n * rep);
		for (len = 0; len < (size_t)n * rep; len += (size_t)n)
			memcpy(b + len, s, (size_t)n);
		snprintf(name, sizeof name, "TC2 0x%02X x3", id);
		one_stream(name, &cfg, img, b, len, 0, rng, joined, stretches);
		for (c = 0; c < ncopies; c++) {
			size_t l = (size_t)n * (1 + check_rand(rng) % 3);

			memcpy(b, s, (size_t)n);
			memcpy(b + n, s, (size_t)n);
			memcpy(b + 2 * n, s, (size_t)n);
			corrupt(b, &l, rng);
			snprintf(name, sizeof name, "TC2 0x%02X corrupted copy %u", id, c);
			one_stream(name, &cfg, img, b, l, 0, rng, joined, stretches);
		}
		/* the same bytes read under other configurations (not
		   cycle-accurate, 4-byte context IDs, the alternative branch
		   encoding, data tracing): other packets, errors, other
		   states to compare */
		for (c = 0; c < 4; c++) {
			static const uint32_t cr[4] = { 0x10000860u, 0x1000D000u, 0x10001860u,
							0x1000186Cu };
			struct pft_config o = cfg;
			size_t l = (size_t)n;

			o.etmcr = cr[c];
			if (c == 2)
				o.etmidr |= 1u << 20;
			snprintf(name, sizeof name, "TC2 0x%02X read with ETMCR 0x%08X%s", id,
				 (unsigned)cr[c], c == 2 ? ", alternative branches" : "");
			one_stream(name, &o, img, s, l, 0, rng, joined, stretches);
			memcpy(b, s, (size_t)n);
			corrupt(b, &l, rng);
			snprintf(name, sizeof name, "TC2 0x%02X corrupted, read with ETMCR 0x%08X", id,
				 (unsigned)cr[c]);
			one_stream(name, &o, img, b, l, 0, rng, joined, stretches);
		}
		free(b);
		free(s);
	}
	check_case(NULL);
	pft_image_free(img);
	free(cap);
}

int main(void)
{
	uint64_t rng = check_seed(15), joined = 0, stretches = 0;
	unsigned ncopies = getenv("PFT_PAR_CASES") ? (unsigned)atoi(getenv("PFT_PAR_CASES")) : 16;

	tc2(&rng, ncopies, &joined, &stretches);
	printf("clean streams: %llu of %llu stretches joined a segment\n",
	       (unsigned long long)joined, (unsigned long long)stretches);
	/* on clean streams a segment normally joins: a join rule that never
	 * matched would make every output serial (and this test vacuous) */
	CHECK(joined * 2 > stretches);
	return check_report();
}
