/* SPDX-License-Identifier: BSD-3-Clause */
/* Port synchroniser: Table 6.5 read back from its text form; the trigger
 * cases written out from the spec's prose; a synchronised decoder dropping
 * the gap nibble; seeded generate -> synchronise round trips on 4-, 8- and
 * 16-bit ports (random FIFO bytes, statuses, TFO points, one trigger);
 * starting at a random cycle; bit flips and truncation. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/tfo.h"

enum { IE = PFT_TFO_PS_IE, DE = PFT_TFO_PS_DE, IN = PFT_TFO_PS_IN, DN = PFT_TFO_PS_DN,
       WT = PFT_TFO_PS_WT, DW = PFT_TFO_PS_DW, TR = PFT_TFO_PS_TR, TD = PFT_TFO_PS_TD };

struct st { uint64_t cycle; uint8_t ps; uint16_t flags; };

struct result {
	uint8_t *bytes;
	size_t nbytes;
	struct st *st;
	size_t nst;
	struct pft_tfo_item *tfo;
	size_t ntfo;
	size_t nerr, ntrig;
	uint64_t skipped;
	int offsets_ok; /* BYTES offsets contiguous */
};

static void result_free(struct result *r)
{
	free(r->bytes);
	free(r->st);
	free(r->tfo);
	memset(r, 0, sizeof(*r));
}

static void take(struct result *r, const struct pft_tfo_item *it)
{
	switch (it->kind) {
	case PFT_TFO_ITEM_STATUS:
		r->st[r->nst].cycle = it->cycle;
		r->st[r->nst].ps = it->status;
		r->st[r->nst].flags = it->flags & (PFT_TFO_F_IMPLIED | PFT_TFO_F_TRIGGER);
		r->nst++;
		break;
	case PFT_TFO_ITEM_BYTES:
		if (it->offset != r->nbytes || it->nbytes < 1 || it->nbytes > 2)
			r->offsets_ok = 0;
		memcpy(r->bytes + r->nbytes, it->bytes, it->nbytes);
		r->nbytes += it->nbytes;
		break;
	case PFT_TFO_ITEM_TFO:
		r->tfo[r->ntfo++] = *it;
		break;
	case PFT_TFO_ITEM_TRIGGER:
		r->ntrig++;
		break;
	case PFT_TFO_ITEM_SKIPPED:
		r->skipped += it->count;
		break;
	case PFT_TFO_ITEM_ERROR:
		r->nerr++;
		CHECK(it->error < 0);
		break;
	default:
		CHECK(0);
	}
}

static void decode(const struct pft_tfo_port *port, const struct pft_tfo_cycle *c, size_t n,
		   int end, struct result *r)
{
	struct pft_tfo_decoder *d = pft_tfo_decoder_alloc(port);
	struct pft_tfo_item it;
	size_t i;
	int rc;

	memset(r, 0, sizeof(*r));
	r->offsets_ok = 1;
	r->bytes = malloc(2 * n + 2);
	r->st = malloc((2 * n + 2) * sizeof(*r->st));
	r->tfo = malloc((n + 1) * sizeof(*r->tfo));
	CHECK(d && r->bytes && r->st && r->tfo);
	if (!d || !r->bytes || !r->st || !r->tfo)
		return;
	for (i = 0; i < n; i++) {
		while ((rc = pft_tfo_decoder_feed(d, &c[i])) == -PFT_E_AGAIN)
			while (pft_tfo_decoder_next(d, &it, sizeof(it)) == 0)
				take(r, &it);
		CHECK_EQ(rc, 0);
		while (pft_tfo_decoder_next(d, &it, sizeof(it)) == 0)
			take(r, &it);
	}
	if (end)
		CHECK_EQ(pft_tfo_decoder_end(d), 0);
	while ((rc = pft_tfo_decoder_next(d, &it, sizeof(it))) == 0)
		take(r, &it);
	CHECK_EQ(rc, end ? -PFT_E_EOS : -PFT_E_AGAIN);
	CHECK_EQ(pft_tfo_decoder_get_offset(d), n);
	pft_tfo_decoder_free(d);
}

/* Parse a text capture with the library's text reader. */
static size_t parse_text(const char *text, struct pft_tfo_port *port, struct pft_tfo_cycle *c)
{
	size_t n = 0;
	const char *p = text;

	port->width = 0;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int r = pft_tfo_text_parse_line(p, len, port->width, &c[n], port);

		CHECK(r >= 0);
		if (r == 1)
			n++;
		p += len + (e ? 1 : 0);
	}
	return n;
}

/* Table 6.5, the first rows as printed, plus the header's upper nibble.
 * The header is pft's reason-0 header 0x00. */
static const char table_6_5[] =
	"# IHI 0014 Table 6.5: mid-byte TFO on a 4-bit port\n"
	"etmv2-port 4\n"
	"ID b1101   # data nibble 0x---D\n"
	"IE b1100   # data nibble 0x--C-\n"
	"WT b1011   # data nibble 0x-B--\n"
	"TD b1001   # TFO occurs (originally IE), TFO value output begins\n"
	"IE b0001\n"
	"WT b0110   # gap nibble\n"
	"IN b1010   # remaining data nibble 0xA---\n"
	"DN b0000   # TFO packet output begins: header [3:0]\n"
	"IE b0000   # header [7:4]\n";

static void test_table_6_5(void)
{
	struct pft_tfo_port port;
	struct pft_tfo_cycle c[16];
	struct result r;
	size_t n = parse_text(table_6_5, &port, c);
	static const struct st want[] = {
		{ 0, DE, 0 }, { 1, IE, 0 }, { 2, WT, 0 },
		{ 3, IE, PFT_TFO_F_IMPLIED }, /* TD originally IE */
		{ 4, IE, 0 }, { 5, WT, 0 }, { 6, IN, 0 }, { 7, DN, 0 }, { 8, IE, 0 },
	};
	size_t i;

	CHECK_EQ(n, 9);
	CHECK_EQ(port.width, 4);
	decode(&port, c, n, 1, &r);
	CHECK_EQ(r.nst, 9);
	for (i = 0; i < r.nst && i < 9; i++) {
		CHECK_EQ(r.st[i].cycle, want[i].cycle);
		CHECK_EQ(r.st[i].ps, want[i].ps);
		CHECK_EQ(r.st[i].flags, want[i].flags);
	}
	CHECK_EQ(r.ntfo, 1);
	CHECK_EQ(r.tfo[0].cycle, 3);
	CHECK_EQ(r.tfo[0].value, 1);
	CHECK_EQ(r.tfo[0].reason, 0);
	CHECK_EQ(r.tfo[0].offset, 0);
	CHECK(r.tfo[0].flags & PFT_TFO_F_RESYNC);
	/* first sync: D, C, B and the slot before the header (gap, A) are
	 * reported as skipped; bytes start with the header */
	CHECK_EQ(r.skipped, 5);
	CHECK_EQ(r.nbytes, 1);
	CHECK_EQ(r.bytes[0], 0x00);
	CHECK_EQ(r.nerr, 0);
	result_free(&r);
}

/* The same sequence behind a first TFO (trace enable, value 0), so the
 * decoder is synchronised when the mid-byte TFO comes: it must expect and
 * drop the gap nibble and rebuild 0xAB from B and A. */
static const char synced_6_5[] =
	"etmv2-port 4\n"
	"TD b1001   # TFO value 0 (trace enabled)\n"
	"WT b0000\n"
	"WT b0000   # header b0010 0000: reason 1\n"
	"WT b0010\n"
	"ID b1101\n"
	"IE b1100\n"
	"WT b1011\n"
	"TD b1001\n"
	"IE b0001\n"
	"WT b0110\n"
	"IN b1010\n"
	"DN b0000\n"
	"IE b0000\n";

static void test_synced_gap(void)
{
	struct pft_tfo_port port;
	struct pft_tfo_cycle c[16];
	struct result r;
	size_t n = parse_text(synced_6_5, &port, c);
	static const uint8_t want[] = { 0x20, 0xCD, 0xAB, 0x00 };

	decode(&port, c, n, 1, &r);
	CHECK_EQ(r.nbytes, 4);
	CHECK(!memcmp(r.bytes, want, 4));
	CHECK_EQ(r.ntfo, 2);
	CHECK_EQ(r.tfo[0].reason, PFT_TFO_REASON_ENABLE);
	CHECK_EQ(r.tfo[1].value, 1);
	CHECK_EQ(r.tfo[1].offset, 3);
	CHECK(r.tfo[1].flags & PFT_TFO_F_GAP);
	CHECK(!(r.tfo[1].flags & PFT_TFO_F_RESYNC));
	CHECK_EQ(r.skipped, 0);
	CHECK_EQ(r.nerr, 0);
	CHECK(r.offsets_ok);
	/* no implied status for the trace-enable TFO, one for the sync TFO */
	CHECK_EQ(r.nst, 12);
	result_free(&r);

	/* a wrong gap nibble is reported; the header is still found */
	c[9].tracepkt = 0x5;
	decode(&port, c, n, 1, &r);
	CHECK_EQ(r.nerr, 1);
	CHECK_EQ(r.ntfo, 2);
	CHECK_EQ(r.tfo[1].offset, 2); /* 0x20 and 0xCD delivered before */
	CHECK_EQ(r.bytes[r.nbytes - 1], 0x00);
	result_free(&r);
}

/* The trigger cases of the spec text, as port cycles (8-bit and 4-bit). */
static void test_triggers(void)
{
	struct pft_tfo_port port = { 8, 0 };
	/* TR with TD: TFO; the value (1) on the next cycle; 0x22 then header */
	const struct pft_tfo_cycle c8[] = {
		{ DE, 0, 0x11 }, { TR, 0, 0x7 }, { IN, 0, 0x19 }, { WT, 0, 0x22 },
		{ WT, 0, 0x00 }, { WT, 0, 0x33 }, { TD, 0, 0x00 },
	};
	/* 4-bit: TFO, trigger on the upper nibble, header reason 1 */
	const struct pft_tfo_cycle c4[] = {
		{ TD, 0, 0x9 }, { TR, 0, IN }, { IE, 0, 0x0 }, { IE, 0, 0x0 }, { IE, 0, 0x2 },
		{ TD, 0, 0x0 },
	};
	/* 4-bit: trigger on the gap nibble */
	const struct pft_tfo_cycle g4[] = {
		{ TD, 0, 0x9 }, { WT, 0, 0x0 }, { WT, 0, 0x0 }, { WT, 0, 0x2 }, /* sync, enable */
		{ DE, 0, 0xB }, { TD, 0, 0x9 }, { IE, 0, 0x1 }, { TR, 0, DN }, { WT, 0, 0x6 },
		{ WT, 0, 0xA }, { WT, 0, 0x0 }, { WT, 0, 0x0 },
	};
	struct result r;

	decode(&port, c8, 7, 1, &r);
	CHECK_EQ(r.ntrig, 1);
	CHECK_EQ(r.ntfo, 1);
	CHECK_EQ(r.tfo[0].cycle, 1);
	CHECK_EQ(r.tfo[0].value, 1);
	CHECK(r.tfo[0].flags & PFT_TFO_F_TRIGGER);
	CHECK_EQ(r.nbytes, 2);
	CHECK_EQ(r.bytes[0], 0x00);
	CHECK_EQ(r.bytes[1], 0x33);
	CHECK_EQ(r.skipped, 2); /* 0x11, 0x22 */
	CHECK_EQ(r.nst, 7);     /* DE, IE implied, IN, WT, WT, WT, TD */
	CHECK_EQ(r.st[1].ps, IE);
	CHECK_EQ(r.st[1].flags, PFT_TFO_F_IMPLIED | PFT_TFO_F_TRIGGER);
	CHECK_EQ(r.nerr, 0);
	result_free(&r);

	port.width = 4;
	decode(&port, c4, 6, 1, &r);
	CHECK_EQ(r.ntfo, 1);
	CHECK_EQ(r.tfo[0].value, 0);
	CHECK_EQ(r.tfo[0].reason, 1);
	CHECK_EQ(r.nbytes, 1);
	CHECK_EQ(r.bytes[0], 0x20);
	CHECK_EQ(r.nst, 5);
	CHECK_EQ(r.st[0].ps, IN);
	CHECK_EQ(r.st[0].flags, PFT_TFO_F_TRIGGER);
	CHECK_EQ(r.nerr, 0);
	result_free(&r);

	decode(&port, g4, 12, 1, &r);
	CHECK_EQ(r.ntfo, 2);
	CHECK_EQ(r.nbytes, 3);
	CHECK_EQ(r.bytes[1], 0xAB);
	CHECK_EQ(r.bytes[2], 0x00);
	CHECK_EQ(r.tfo[1].offset, 2);
	CHECK_EQ(r.nerr, 0);
	CHECK_EQ(r.ntrig, 1);
	result_free(&r);
}

/* ---- generated captures ---------------------------------------------------- */

struct gen_tfo { uint64_t cycle, offset; unsigned value, reason, trigger; };

struct capture {
	struct pft_tfo_cycle *c;
	size_t n;
	uint8_t *stream;          /* every byte pushed, headers included */
	size_t nstream;
	struct st *st;            /* expected statuses */
	size_t nst;
	struct gen_tfo *tfo;
	size_t ntfo;
};

static void capture_free(struct capture *k)
{
	free(k->c);
	free(k->stream);
	free(k->st);
	free(k->tfo);
}

static const uint8_t plain_ps[] = { IE, IE, IE, IE, IN, WT, WT, DE, DN, DW,
				    PFT_TFO_PS_PTIE, PFT_TFO_PS_PNIN, PFT_TFO_PS_PTDE, PFT_TFO_PS_PNDN };

/* A random run: ncycles of random statuses and FIFO bytes, a TFO (trace
 * enable) on cycle 0, random TFOs of every reason, one trigger, and WT
 * cycles at the end until the FIFO is empty.  Inputs avoid idle lanes (see
 * doc/tfo.md): an empty FIFO only on WT cycles, no lone byte on 16 bits. */
static void generate(uint64_t *rng, unsigned width, size_t ncycles, struct capture *k)
{
	struct pft_tfo_port port = { (uint8_t)width, 0 };
	struct pft_tfo_gen *g;
	size_t cap = ncycles + 400, trig_at = 1 + check_rand(rng) % (ncycles - 1), i;
	uint8_t bytes[16];
	int done = 0, sync;
	struct pft_tfo_sync_counter counter;

	port.cycle_accurate = (uint8_t)(check_rand(rng) & 1);
	pft_tfo_sync_counter_init(&counter, (uint32_t)(20 + check_rand(rng) % 100));
	memset(k, 0, sizeof(*k));
	k->c = malloc(cap * sizeof(*k->c));
	k->stream = malloc(cap * 20);
	k->st = malloc(cap * sizeof(*k->st));
	k->tfo = malloc(cap * sizeof(*k->tfo));
	g = pft_tfo_gen_alloc(&port, 256);
	CHECK(g && k->c && k->stream && k->st && k->tfo);
	if (!g || !k->c || !k->stream || !k->st || !k->tfo)
		return;
	for (i = 0; !done; i++) {
		struct pft_tfo_gen_cycle in;
		struct pft_tfo_gen_note note;
		size_t level = pft_tfo_gen_fifo_level(g), j;
		int busy = pft_tfo_gen_busy(g), tail = i >= ncycles, rc;

		CHECK(i < cap);
		if (i >= cap)
			break;
		memset(&in, 0, sizeof(in));
		in.status = tail ? WT : plain_ps[check_rand(rng) % sizeof(plain_ps)];
		if (!tail && (in.status & 1) && level < 48)
			in.npush = (uint16_t)(1 + check_rand(rng) % 6);
		else
			in.status &= (uint8_t)~1u;
		if (i == trig_at)
			in.flags |= PFT_TFO_GEN_TRIGGER;
		/* periodic TFOs (and overflow ones) from the sync counter;
		 * trace enable / debug exit at random points */
		sync = tail ? -1 : pft_tfo_sync_counter_tick(&counter, in.status);
		if (!busy && (i == 0 || sync >= 0 || (!tail && check_rand(rng) % 60 == 0))) {
			in.flags |= PFT_TFO_GEN_TFO;
			in.reason = (uint8_t)(i == 0 ? 1 : sync >= 0 ? (unsigned)sync
						: 1 + 2 * (check_rand(rng) % 2));
			in.lsm = (uint8_t)(check_rand(rng) % 8 == 0);
			if (in.reason == 0)
				in.status = IE;
			in.npush = 4; /* the instruction address */
		}
		/* no idle lanes */
		if (!busy && !(in.flags & (PFT_TFO_GEN_TFO | PFT_TFO_GEN_TRIGGER))) {
			if (level + in.npush == 0)
				in.status = WT;
			if (width == 16 && level + in.npush == 1) {
				in.status |= 1;
				in.npush++;
			}
		}
		for (j = 0; j < in.npush; j++)
			bytes[j] = (uint8_t)check_rand(rng);
		rc = pft_tfo_gen_step(g, &in, bytes, &k->c[i], &note);
		CHECK_EQ(rc, 0);
		CHECK_EQ(note.idle_lanes, 0);
		if (in.flags & PFT_TFO_GEN_TFO) {
			struct gen_tfo *t = &k->tfo[k->ntfo++];

			t->cycle = i;
			t->offset = note.header_offset;
			t->value = (unsigned)note.tfo_value;
			t->reason = in.reason;
			t->trigger = (in.flags & PFT_TFO_GEN_TRIGGER) != 0;
			k->stream[k->nstream++] = (uint8_t)pft_tfo_header_encode(in.reason, in.lsm);
			if (in.reason == 0) {
				k->st[k->nst].cycle = i;
				k->st[k->nst].ps = IE;
				k->st[k->nst].flags = PFT_TFO_F_IMPLIED | (t->trigger ? PFT_TFO_F_TRIGGER : 0);
				k->nst++;
			}
		} else {
			k->st[k->nst].cycle = i;
			k->st[k->nst].ps = in.status;
			k->st[k->nst].flags = 0;
			if (in.flags & PFT_TFO_GEN_TRIGGER)
				k->st[k->nst].flags = PFT_TFO_F_TRIGGER;
			else if (!busy && level + in.npush == 0 && in.status == WT)
				k->st[k->nst].ps = TD;
			k->nst++;
		}
		memcpy(k->stream + k->nstream, bytes, in.npush);
		k->nstream += in.npush;
		done = tail && pft_tfo_gen_fifo_level(g) == 0 && !pft_tfo_gen_busy(g) && i > trig_at;
	}
	k->n = i;
	pft_tfo_gen_free(g);
}

static void check_roundtrip(unsigned width, uint64_t *rng)
{
	struct pft_tfo_port port = { (uint8_t)width, 0 };
	struct capture k;
	struct result r;
	size_t i;

	generate(rng, width, 300 + check_rand(rng) % 3000, &k);
	decode(&port, k.c, k.n, 1, &r);
	CHECK_EQ(r.nerr, 0);
	CHECK_EQ(r.skipped, 0);
	CHECK(r.offsets_ok);
	CHECK_EQ(r.nbytes, k.nstream);
	CHECK(r.nbytes == k.nstream && !memcmp(r.bytes, k.stream, k.nstream));
	CHECK_EQ(r.nst, k.nst);
	for (i = 0; i < r.nst && i < k.nst; i++) {
		if (r.st[i].cycle != k.st[i].cycle || r.st[i].ps != k.st[i].ps ||
		    r.st[i].flags != k.st[i].flags) {
			fprintf(stderr, "width %u status %zu: got c%llu %s/%x want c%llu %s/%x\n",
				width, i, (unsigned long long)r.st[i].cycle,
				pft_tfo_ps_name(r.st[i].ps), r.st[i].flags,
				(unsigned long long)k.st[i].cycle, pft_tfo_ps_name(k.st[i].ps),
				k.st[i].flags);
			CHECK(0);
			break;
		}
	}
	CHECK_EQ(r.ntfo, k.ntfo);
	for (i = 0; i < r.ntfo && i < k.ntfo; i++) {
		CHECK_EQ(r.tfo[i].cycle, k.tfo[i].cycle);
		CHECK_EQ(r.tfo[i].offset, k.tfo[i].offset);
		CHECK_EQ(r.tfo[i].value, k.tfo[i].value);
		CHECK_EQ(r.tfo[i].reason, k.tfo[i].reason);
		CHECK_EQ(!!(r.tfo[i].flags & PFT_TFO_F_TRIGGER), k.tfo[i].trigger);
		CHECK(!(r.tfo[i].flags & PFT_TFO_F_NO_HEADER));
	}
	CHECK_EQ(r.ntrig, 1);
	result_free(&r);

	/* start at a random cycle: synchronised at the first TFO met */
	{
		size_t s = 1 + check_rand(rng) % (k.n - 1), t0;

		decode(&port, k.c + s, k.n - s, 1, &r);
		for (t0 = 0; t0 < k.ntfo && k.tfo[t0].cycle < s; t0++)
			;
		CHECK_EQ(r.nerr, 0);
		CHECK_EQ(r.ntfo, k.ntfo - t0);
		if (r.ntfo && t0 < k.ntfo) {
			uint64_t base = k.tfo[t0].offset;

			CHECK_EQ(r.tfo[0].cycle + s, k.tfo[t0].cycle);
			CHECK(r.tfo[0].flags & PFT_TFO_F_RESYNC);
			CHECK_EQ(r.tfo[0].offset, 0);
			CHECK_EQ(r.nbytes, k.nstream - base);
			CHECK(r.nbytes == k.nstream - base &&
			      !memcmp(r.bytes, k.stream + base, r.nbytes));
			for (i = 0; i < r.ntfo; i++)
				CHECK_EQ(r.tfo[i].offset + base, k.tfo[t0 + i].offset);
		} else {
			CHECK_EQ(r.nbytes, 0);
		}
		result_free(&r);
	}
	capture_free(&k);
}

static size_t corrupt_errors; /* errors seen over all corrupt runs */

/* Corrupt captures: errors are reported, nothing crashes, and the decoder
 * is back in step after the first TFO that follows the damage. */
static void check_corrupt(unsigned width, uint64_t *rng)
{
	struct pft_tfo_port port = { (uint8_t)width, 0 };
	struct capture k;
	struct result r;
	size_t lo, hi, i, t, nflip;
	struct pft_tfo_cycle *c;

	generate(rng, width, 2000 + check_rand(rng) % 2000, &k);
	c = malloc(k.n * sizeof(*c));
	CHECK(c != NULL);
	if (!c) {
		capture_free(&k);
		return;
	}
	memcpy(c, k.c, k.n * sizeof(*c));
	lo = check_rand(rng) % (k.n / 2);
	hi = lo + 1 + check_rand(rng) % 200;
	nflip = 1 + check_rand(rng) % 8;
	for (i = 0; i < nflip; i++) {
		size_t at = lo + check_rand(rng) % (hi - lo);
		unsigned bit = (unsigned)(check_rand(rng) % (4 + width));

		if (bit < 4)
			c[at].pipestat ^= (uint8_t)(1u << bit);
		else
			c[at].tracepkt ^= (uint16_t)(1u << (bit - 4));
	}
	decode(&port, c, k.n, 1, &r);
	CHECK(r.offsets_ok);
	corrupt_errors += r.nerr;
	/* the first TFO after the damage, with no TFO output still in flight
	 * over it, re-anchors the stream */
	for (t = 0; t < k.ntfo && k.tfo[t].cycle < hi + 400; t++)
		;
	if (t < k.ntfo) {
		size_t j;

		for (j = 0; j < r.ntfo && r.tfo[j].cycle != k.tfo[t].cycle; j++)
			;
		CHECK(j < r.ntfo);
		if (j < r.ntfo) {
			uint64_t doff = r.tfo[j].offset, goff = k.tfo[t].offset;

			CHECK(!(r.tfo[j].flags & PFT_TFO_F_NO_HEADER));
			CHECK(doff <= r.nbytes);
			CHECK(r.nbytes - doff == k.nstream - goff &&
			      !memcmp(r.bytes + doff, k.stream + goff, k.nstream - goff));
		}
	}
	result_free(&r);

	/* truncation inside the capture: reported, never a crash */
	decode(&port, k.c, 1 + check_rand(rng) % (k.n - 1), 1, &r);
	CHECK(r.offsets_ok);
	result_free(&r);
	free(c);
	capture_free(&k);
}

static void test_truncated_tfo(void)
{
	struct pft_tfo_port port = { 8, 0 };
	const struct pft_tfo_cycle c[] = { { TD, 0, 0x29 }, { WT, 0, 0x11 } }; /* value 2 */
	const struct pft_tfo_cycle bad[] = { { TD, 0, 0x05 }, { IE, 0, 0x00 }, { TD, 0, 0x09 },
					     { TD, 0, 0x00 } };
	struct result r;

	decode(&port, c, 2, 1, &r);
	CHECK_EQ(r.nerr, 1);
	CHECK_EQ(r.ntfo, 1);
	CHECK(r.tfo[0].flags & PFT_TFO_F_NO_HEADER);
	CHECK_EQ(r.nst, 1); /* no implied status without the header */
	result_free(&r);
	/* reserved encoding, then a TFO (value 0) cut by a TD: two errors */
	decode(&port, bad, 4, 1, &r);
	CHECK_EQ(r.nerr, 2);
	result_free(&r);
}

/* A TFO while an older TFO header is still in the FIFO: its value counts
 * that header too (8-bit).  And the two kinds of trace-disabled cycle. */
static void test_nested_and_disabled(void)
{
	struct pft_tfo_port port = { 8, 0 };
	const struct pft_tfo_cycle c[] = {
		{ TD, 0, 0x29 },  /* TFO 1, value 2 */
		{ DE, 0, 0xAA },
		{ TD, 0, 0x29 },  /* TFO 2, value 2: 0xBB and header 1 */
		{ WT, 0, 0xBB },
		{ WT, 0, 0x20 },  /* header 1: trace enabled */
		{ WT, 0, 0x60 },  /* header 2: debug exit */
		{ TD, 0, 0x00 },  /* trace disabled */
		{ TD, 0, 0xF7 },  /* trace disabled, cycle-accurate (TRACEPKT[3:0] = 0111) */
	};
	struct pft_tfo_decoder *d;
	struct pft_tfo_item it;
	struct result r;
	unsigned ntd = 0, nca = 0;
	size_t i;

	decode(&port, c, 8, 1, &r);
	CHECK_EQ(r.nerr, 0);
	CHECK_EQ(r.ntfo, 2);
	CHECK_EQ(r.tfo[0].reason, PFT_TFO_REASON_ENABLE);
	CHECK_EQ(r.tfo[0].offset, 0);
	CHECK_EQ(r.tfo[1].reason, PFT_TFO_REASON_DEBUG);
	CHECK_EQ(r.tfo[1].offset, 1);
	CHECK_EQ(r.nbytes, 2);
	CHECK_EQ(r.skipped, 2);
	result_free(&r);

	d = pft_tfo_decoder_alloc(&port);
	CHECK(d != NULL);
	if (!d)
		return;
	for (i = 0; i < 8; i++)
		CHECK_EQ(pft_tfo_decoder_feed(d, &c[i]), 0);
	CHECK_EQ(pft_tfo_decoder_end(d), 0);
	CHECK_EQ(pft_tfo_decoder_end(d), -PFT_E_INVAL);
	CHECK_EQ(pft_tfo_decoder_feed(d, &c[0]), -PFT_E_INVAL);
	while (pft_tfo_decoder_next(d, &it, sizeof(it)) == 0)
		if (it.kind == PFT_TFO_ITEM_STATUS && it.status == TD) {
			ntd++;
			nca += (it.flags & PFT_TFO_F_CA) != 0;
		}
	CHECK_EQ(ntd, 2);
	CHECK_EQ(nca, 1);
	CHECK_EQ(pft_tfo_decoder_next(d, &it, 0), -PFT_E_INVAL);
	pft_tfo_decoder_free(d);
	CHECK(pft_tfo_decoder_alloc(NULL) == NULL);
}

int main(void)
{
	uint64_t rng = check_seed(0x7f0c0ffee);
	unsigned w, i;
	static const unsigned widths[] = { 4, 8, 16 };

	test_table_6_5();
	test_synced_gap();
	test_triggers();
	test_truncated_tfo();
	test_nested_and_disabled();
	for (i = 0; i < 60; i++) {
		w = widths[i % 3];
		check_roundtrip(w, &rng);
		check_corrupt(w, &rng);
	}
	CHECK(corrupt_errors > 0);
	return check_report();
}
