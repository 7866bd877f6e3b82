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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "par_check.h"
#include "pft/pft.h"

/* The serial decoders, as tools/pft/flow_any.c and dump_etm3.c read the
 * stream: flow items (FLOW) or packets, and the totals.  gap: the stream
 * comes in windows of `window` bytes, every other one after a gap (the
 * packet decoder resyncs there). */
static void serial(enum pft_par_kind kind, const struct pft_config *cfg,
		   const struct pft_image *img, const uint8_t *b, size_t len, size_t window, int gap,
		   struct par_rec *out, struct pft_flow_stats *st)
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
					par_rec_item(out, &it);
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
				par_rec_etm3_packet(out, &p);
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

static void counts_of(const struct par_rec *r, struct pft_etm3_counts *c)
{
	size_t k;

	memset(c, 0, sizeof *c);
	for (k = 0; k < r->npk; k++) {
		const struct pft_etm3_packet *p = &r->e3[k];
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
	struct par_rec ser, ser_pk, gser, gser_pk, got;
	struct pft_flow_stats sst, pst, gst;
	struct pft_etm3_counts want, gwant;
	struct par_totals t;
	unsigned v;

	memset(&ser, 0, sizeof ser);
	memset(&ser_pk, 0, sizeof ser_pk);
	serial(PFT_PAR_FLOW, cfg, img, buf, len, 0, 0, &ser, &sst);
	serial(PFT_PAR_PACKETS, cfg, NULL, buf, len, 0, 0, &ser_pk, &pst);
	counts_of(&ser_pk, &want);
	if (clean) {
		/* the whole stream in one window of 8 segments cut at its
		   A-syncs (TC2 has one every kilobyte or so): the joins counted */
		struct par_opts o = { len, 8, 1 << 16, 1 << 18, 0 };

		check_case("%s: one window, 8 segments", name);
		memset(&got, 0, sizeof got);
		par_check_run(PFT_PAR_FLOW, cfg, img, buf, len, &o, &got, &t);
		par_same_items(&ser, &got, 1);
		*joined += t.js.joined;
		*stretches += t.js.joined + t.js.serial;
		par_rec_free(&got);
	}
	for (v = 0; v < 5; v++) {
		struct par_opts o;
		const struct par_rec *sf = &ser, *sp = &ser_pk;
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
		par_check_run(PFT_PAR_FLOW, cfg, img, buf, len, &o, &got, &t);
		if (o.items_cap)
			par_same_items(sf, &got, 1);
		CHECK(!memcmp(ss, &t.st, sizeof t.st));
		par_rec_free(&got);

		/* packets */
		memset(&got, 0, sizeof got);
		par_check_run(PFT_PAR_PACKETS, cfg, NULL, buf, len, &o, &got, &t);
		CHECK(!memcmp(sc, &t.e3c, sizeof t.e3c));
		if (o.items_cap)
			par_same_pkts(sp, &got);
		par_rec_free(&got);
		if (o.gap) {
			par_rec_free(&gser);
			par_rec_free(&gser_pk);
		}
	}
	par_rec_free(&ser);
	par_rec_free(&ser_pk);
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
			par_corrupt(b, &l, rng, 1);
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
			par_corrupt(b, &l, rng, 1);
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
