/* SPDX-License-Identifier: BSD-3-Clause */
/* ETMv3 decoder on hand-assembled byte sequences whose meaning is worked
 * out from the layouts in doc/etm3.md (independently of the encoder), plus
 * the stream rules: A-sync search, errors and resync, truncation, byte
 * accounting. */
#include <string.h>

#include "check.h"
#include "pft/etm3.h"

#define MAXI 64

struct res {
	struct pft_etm3_packet v[MAXI];
	int n;
	uint64_t total;
};

static void cfg_make(struct pft_config *c, uint32_t etmcr, uint32_t etmidr)
{
	pft_config_init(c);
	c->etmcr = etmcr;
	c->etmidr = etmidr;
	c->etmccer = 0x344008F2u; /* TC2's: 64-bit timestamps */
}

static int collect(const struct pft_etm3_packet *p, void *arg)
{
	struct res *r = arg;
	if (r->n < MAXI)
		r->v[r->n++] = *p;
	r->total += p->size;
	return 0;
}

static void run(const struct pft_config *c, const uint8_t *b, size_t n, struct res *r)
{
	memset(r, 0, sizeof(*r));
	CHECK_EQ(pft_etm3_decode_buffer(c, b, n, collect, r), 0);
	CHECK_EQ(r->total, n);
}

#define ASYNC 0, 0, 0, 0, 0, 0x80

static void test_tc2_start(void)
{
	/* TC2 trace ID 0x10: junk, A-sync, timestamp, I-sync, compressed branch */
	static const uint8_t b[] = { 0x82, 0xa4, ASYNC,
		0x42, 0xbd, 0x9a, 0xc3, 0xce, 0xaf, 0x90, 0x80, 0x80, 0x00,
		0x08, 0x01, 0x5d, 0x11, 0x02, 0xc0,
		0x84, 0xbc, 0x82,
		0xb7, 0xfd, 0xd6, 0x01 };
	struct pft_config c;
	struct res r;

	cfg_make(&c, 0x10001860u, 0x410CF250u);
	run(&c, b, sizeof(b), &r);
	CHECK_EQ(r.n, 8);
	CHECK_EQ(r.v[0].type, PFT_ETM3_UNSYNCED);
	CHECK_EQ(r.v[0].size, 2);
	CHECK_EQ(r.v[1].type, PFT_ETM3_ASYNC);
	CHECK_EQ(r.v[1].offset, 2);
	CHECK_EQ(r.v[2].type, PFT_ETM3_TIMESTAMP);
	CHECK_EQ(r.v[2].timestamp, 0x82f9d0cd3dull);
	CHECK_EQ(r.v[2].ts_bytes, 9);
	CHECK_EQ(r.v[3].type, PFT_ETM3_ISYNC);
	CHECK_EQ(r.v[3].address, 0xc002115cu);
	CHECK_EQ(r.v[3].isa, PFT_ISA_THUMB);
	CHECK_EQ(r.v[3].reason, 0);
	CHECK_EQ(r.v[3].flags, PFT_E3F_INFO0);
	/* 0x84: format 1, one E with its cycle */
	CHECK_EQ(r.v[4].format, 1);
	CHECK_EQ(r.v[4].atom_count, 1);
	CHECK_EQ(r.v[4].atoms, 1);
	CHECK_EQ(r.v[4].cycles, 1);
	/* 0xbc: format 3, eight W, no atom */
	CHECK_EQ(r.v[5].format, 3);
	CHECK_EQ(r.v[5].cycles, 8);
	CHECK_EQ(r.v[5].atom_count, 0);
	/* 0x82: format 2, W then E E */
	CHECK_EQ(r.v[6].format, 2);
	CHECK_EQ(r.v[6].atoms, 3);
	CHECK_EQ(r.v[6].cycles, 1);
	/* 4-byte branch, Thumb shift: bits [22:1] replaced */
	CHECK_EQ(r.v[7].type, PFT_ETM3_BRANCH);
	CHECK_EQ(r.v[7].address, 0xC035BEB6u);
	CHECK_EQ(r.v[7].addr_bytes, 4);
	CHECK_EQ(r.v[7].isa, PFT_ISA_THUMB);
}

static void test_exceptions(void)
{
	/* original encoding: I-sync ARM 0x8000, 5-byte branch with exception
	 * byte 0 (IRQ, NS), then the deprecated byte-5 form (FIQ = 5, cancel) */
	static const uint8_t b[] = { ASYNC, 0x08, 0x00, 0x00, 0x80, 0x00, 0x00,
		0x81, 0x80, 0x80, 0x80, 0x48, 0x1D,
		0x85, 0x80, 0x80, 0x80, 0xEE };
	/* alternative encoding: 2-byte branch whose last byte flags exception
	 * bytes: SVC, then byte 1 (Hyp, number bits) and byte 2 (resume 3) */
	static const uint8_t a[] = { ASYNC, 0x08, 0x00, 0x00, 0x80, 0x00, 0x00,
		0x83, 0x41, 0x14,
		0x83, 0x41, 0x95, 0xA1, 0x43,
		0x05 };
	struct pft_config c;
	struct res r;

	cfg_make(&c, 0, 0x410CF250u); /* ETMIDR[20] = 0: original encoding */
	run(&c, b, sizeof(b), &r);
	CHECK_EQ(r.n, 4);
	CHECK_EQ(r.v[2].type, PFT_ETM3_BRANCH);
	CHECK_EQ(r.v[2].address, 0);
	CHECK_EQ(r.v[2].isa, PFT_ISA_ARM);
	CHECK_EQ(r.v[2].exception, 14);
	CHECK_EQ(r.v[2].flags, PFT_E3F_EXC | PFT_E3F_NS);
	CHECK_EQ(r.v[2].exc_bytes, 1);
	CHECK_EQ(r.v[3].exception, 5);
	CHECK_EQ(r.v[3].flags, PFT_E3F_EXC | PFT_E3F_EXC_OLD | PFT_E3F_CANCEL);
	CHECK_EQ(r.v[3].address, 0xC0000008u); /* byte 5 bits [2:0] = address [31:29] */

	cfg_make(&c, 0, 0x411CF250u); /* alternative encoding */
	run(&c, a, sizeof(a), &r);
	CHECK_EQ(r.n, 5);
	CHECK_EQ(r.v[2].address, 0x8104u);
	CHECK_EQ(r.v[2].exception, 10);
	CHECK_EQ(r.v[2].addr_bytes, 2);
	CHECK_EQ(r.v[3].size, 5);
	CHECK_EQ(r.v[3].exception, 10 | (1 << 4));
	CHECK_EQ(r.v[3].flags, PFT_E3F_EXC | PFT_E3F_NS | PFT_E3F_E1 | PFT_E3F_HYP);
	CHECK_EQ(r.v[3].resume, 3);
	CHECK_EQ(r.v[3].exc_bytes, 3);
	/* 0x05: one-byte branch, bits [7:2] */
	CHECK_EQ(r.v[4].address, 0x8108u);
}

static void test_data(void)
{
	/* data value + address tracing: normal data with a 1-byte address and
	 * a 4-byte value, out-of-order data (tag 1, 1 byte), placeholder with
	 * address, value not traced (address), then instruction trace goes on */
	static const uint8_t b[] = { ASYNC, 0x2E, 0x10, 0x78, 0x56, 0x34, 0x12,
		0x24, 0xAB, 0x74, 0x11, 0x6A, 0x12, 0x62, 0x50, 0x84 };
	struct pft_config c;
	struct res r;

	cfg_make(&c, 0x0000100Cu, 0x410CF250u);
	run(&c, b, sizeof(b), &r);
	CHECK_EQ(r.n, 8);
	CHECK_EQ(r.v[1].type, PFT_ETM3_DATA);
	CHECK_EQ(r.v[1].address, 0x10);
	CHECK_EQ(r.v[1].data_value, 0x12345678u);
	CHECK_EQ(r.v[1].data_size, 4);
	CHECK_EQ(r.v[2].type, PFT_ETM3_OOO_DATA);
	CHECK_EQ(r.v[2].tag, 1);
	CHECK_EQ(r.v[2].data_value, 0xAB);
	CHECK_EQ(r.v[3].type, PFT_ETM3_OOO_PLACEHOLDER);
	CHECK_EQ(r.v[3].tag, 1);
	CHECK_EQ(r.v[3].address, 0x11);
	CHECK_EQ(r.v[4].type, PFT_ETM3_VALUE_NOT_TRACED);
	CHECK_EQ(r.v[4].address, 0x12);
	CHECK_EQ(r.v[5].type, PFT_ETM3_DATA_SUPPRESSED);
	CHECK_EQ(r.v[6].type, PFT_ETM3_STORE_FAILED);
	CHECK_EQ(r.v[7].type, PFT_ETM3_PHDR);

	/* the same bytes without data tracing: an error, resync */
	cfg_make(&c, 0x00001000u, 0x410CF250u);
	run(&c, b, sizeof(b), &r);
	CHECK_EQ(r.v[1].type, PFT_ETM3_ERROR);
	CHECK_EQ(r.v[1].reason, PFT_E3ERR_NO_DATA_TRACE);
	CHECK_EQ(r.v[1].size, 1);
	CHECK_EQ(r.v[2].type, PFT_ETM3_UNSYNCED);
}

static void test_phdr_nonca(void)
{
	static const uint8_t b[] = { ASYNC, 0xC4, 0x8A, 0xBC, 0x92 };
	struct pft_config c;
	struct res r;

	cfg_make(&c, 0, 0x410CF250u);
	run(&c, b, sizeof(b), &r);
	CHECK_EQ(r.v[1].atom_count, 2); /* E N */
	CHECK_EQ(r.v[1].atoms, 1);
	CHECK_EQ(r.v[2].format, 2);     /* N E */
	CHECK_EQ(r.v[2].atoms, 2);
	CHECK_EQ(r.v[3].atom_count, 15); /* 15 E */
	CHECK_EQ(r.v[4].type, PFT_ETM3_ERROR); /* 0x92 is reserved without CA */
	CHECK_EQ(r.v[4].reason, PFT_E3ERR_RESERVED_HEADER);
}

static void test_stream_errors(void)
{
	/* four zeros then 0x80 while synced: bad A-sync; 0x80 is reserved in
	 * CA mode; stream ends inside an I-sync */
	static const uint8_t b[] = { ASYNC, 0, 0, 0, 0, 0x80, ASYNC, 0x80, ASYNC, 0x08, 0x01 };
	static const uint8_t t[] = { ASYNC, 0x42, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	struct pft_config c;
	struct res r;

	cfg_make(&c, 0x10001000u, 0x410CF250u);
	run(&c, b, sizeof(b), &r);
	CHECK_EQ(r.n, 7);
	CHECK_EQ(r.v[1].type, PFT_ETM3_ERROR);
	CHECK_EQ(r.v[1].reason, PFT_E3ERR_BAD_ASYNC);
	CHECK_EQ(r.v[1].size, 4);
	CHECK_EQ(r.v[2].type, PFT_ETM3_UNSYNCED); /* the 0x80 */
	CHECK_EQ(r.v[3].type, PFT_ETM3_ASYNC);
	CHECK_EQ(r.v[4].reason, PFT_E3ERR_RESERVED_HEADER);
	CHECK_EQ(r.v[5].type, PFT_ETM3_ASYNC);
	CHECK_EQ(r.v[6].reason, PFT_E3ERR_TRUNCATED);
	CHECK_EQ(r.v[6].size, 2);

	/* 48-bit timestamps: the 7th value byte has only 6 bits */
	c.etmccer = 0;
	run(&c, t, sizeof(t), &r);
	CHECK_EQ(r.v[1].type, PFT_ETM3_ERROR);
	CHECK_EQ(r.v[1].reason, PFT_E3ERR_BAD_FIELD);
	CHECK_EQ(r.v[1].size, 8);
}

static void test_config(void)
{
	struct pft_config c;
	struct pft_etm3_features f;
	char msg[160];

	cfg_make(&c, 0x10001860u, 0x410CF250u);
	CHECK_EQ(pft_etm3_config_features(&c, &f, msg, sizeof(msg)), 0);
	CHECK_EQ(f.minor, 5);
	CHECK_EQ(f.cycle_accurate, 1);
	CHECK_EQ(f.timestamps, 1);
	CHECK_EQ(f.ts_bits, 64);
	CHECK_EQ(f.alt_branch, 0);
	c.etmidr = 0x411CF312u; /* a PTM */
	CHECK_EQ(pft_etm3_config_features(&c, &f, msg, sizeof(msg)), -PFT_E_BAD_CONFIG);
	CHECK(strstr(msg, "PTM") != NULL);
	CHECK(pft_etm3_decoder_alloc(&c) == NULL);
	CHECK(strcmp(pft_etm3_pkt_type_name(PFT_ETM3_OOO_PLACEHOLDER), "ooo_placeholder") == 0);
	CHECK(strcmp(pft_etm3_error_name(PFT_E3ERR_NO_DATA_TRACE), "no_data_trace") == 0);
}

/* P-headers read in place: pft_etm3_phdr_byte() gives every byte as the
 * decoder reads it alone after an A-sync (both modes); peek gives the
 * bytes only while synchronised with nothing held; skip_phdrs passes
 * P-headers exactly as pulling them, refuses anything else. */
static void test_phdr_in_place(void)
{
	struct pft_config c;
	struct pft_etm3_features f;
	struct pft_etm3_packet p, q;
	struct pft_etm3_decoder *d;
	const uint8_t *bp;
	uint64_t off;
	int ca, b, k;

	for (ca = 0; ca < 2; ca++) {
		cfg_make(&c, ca ? 0x10001860u : 0x10000860u, 0x410CF250u);
		CHECK_EQ(pft_etm3_config_features(&c, &f, NULL, 0), 0);
		for (b = 0; b < 256; b++) {
			uint8_t s[7] = { ASYNC, (uint8_t)b };
			struct res r;

			k = pft_etm3_phdr_byte(&f, (uint8_t)b, &p, sizeof p);
			memset(&r, 0, sizeof(r));
			pft_etm3_decode_buffer(&c, s, sizeof s, collect, &r);
			CHECK(r.n >= 2);
			if (k == 1) {
				CHECK_EQ(r.v[1].type, PFT_ETM3_PHDR);
				r.v[1].offset = 0;
				CHECK(!memcmp(&r.v[1], &p, sizeof p));
			} else {
				CHECK_EQ(k, 0);
				CHECK(r.v[1].type != PFT_ETM3_PHDR);
				memset(&q, 0, sizeof q);
				CHECK(!memcmp(&q, &p, sizeof p));
			}
		}
	}
	CHECK_EQ(pft_etm3_phdr_byte(NULL, 0x80, &p, sizeof p), -PFT_E_INVAL);
	CHECK_EQ(pft_etm3_phdr_byte(&f, 0x80, NULL, sizeof p), -PFT_E_INVAL);

	{
		/* CA: junk, A-sync, P-headers, a branch, P-headers */
		static const uint8_t s[] = { 0x84, ASYNC, 0x84, 0xa0, 0x88, 0x05, 0x84, 0x86 };
		d = pft_etm3_decoder_alloc(&c);
		CHECK(d != NULL);
		if (!d)
			return;
		CHECK_EQ(pft_etm3_decoder_feed(d, s, sizeof s), 0);
		CHECK_EQ(pft_etm3_decoder_peek(d, &bp, &off), 0); /* unsynchronised */
		CHECK_EQ(pft_etm3_decoder_next(d, &p, sizeof p), 0);
		CHECK_EQ(p.type, PFT_ETM3_UNSYNCED);
		CHECK_EQ(pft_etm3_decoder_next(d, &p, sizeof p), 0);
		CHECK_EQ(p.type, PFT_ETM3_ASYNC);
		CHECK_EQ(pft_etm3_decoder_peek(d, &bp, &off), 3); /* 0x05 is a branch */
		CHECK(bp == s + 7);
		CHECK_EQ(off, 7);
		CHECK_EQ(pft_etm3_decoder_skip_phdrs(d, 4), -PFT_E_INVAL);
		CHECK_EQ(pft_etm3_decoder_skip_phdrs(d, 2), 0);
		CHECK_EQ(pft_etm3_decoder_get_offset(d), 9);
		CHECK_EQ(pft_etm3_decoder_next(d, &p, sizeof p), 0);
		CHECK_EQ(p.type, PFT_ETM3_PHDR);
		CHECK_EQ(p.offset, 9);
		CHECK_EQ(pft_etm3_decoder_peek(d, &bp, &off), 0); /* the branch */
		CHECK_EQ(pft_etm3_decoder_skip_phdrs(d, 1), -PFT_E_INVAL);
		CHECK_EQ(pft_etm3_decoder_next(d, &p, sizeof p), 0);
		CHECK_EQ(p.type, PFT_ETM3_BRANCH);
		CHECK_EQ(pft_etm3_decoder_peek(d, &bp, &off), 2);
		CHECK_EQ(off, 11);
		CHECK_EQ(pft_etm3_decoder_skip_phdrs(d, 2), 0);
		CHECK_EQ(pft_etm3_decoder_peek(d, &bp, &off), 0); /* chunk used up */
		CHECK_EQ(pft_etm3_decoder_skip_phdrs(d, 0), 0);
		CHECK_EQ(pft_etm3_decoder_next(d, &p, sizeof p), -PFT_E_AGAIN);
		/* a packet cut by the chunk's end: nothing to peek until it is whole */
		static const uint8_t t1[] = { 0x08, 0x01 }, t2[] = { 0x00, 0x10, 0x00, 0xc0, 0x84 };
		CHECK_EQ(pft_etm3_decoder_feed(d, t1, sizeof t1), 0);
		CHECK_EQ(pft_etm3_decoder_next(d, &p, sizeof p), -PFT_E_AGAIN);
		CHECK_EQ(pft_etm3_decoder_feed(d, t2, sizeof t2), 0);
		CHECK_EQ(pft_etm3_decoder_peek(d, &bp, &off), 0);
		CHECK_EQ(pft_etm3_decoder_skip_phdrs(d, 1), -PFT_E_INVAL);
		CHECK_EQ(pft_etm3_decoder_next(d, &p, sizeof p), 0);
		CHECK_EQ(p.type, PFT_ETM3_ISYNC);
		CHECK_EQ(pft_etm3_decoder_peek(d, &bp, &off), 1);
		CHECK_EQ(off, 19);
		pft_etm3_decoder_free(d);
	}
	CHECK_EQ(pft_etm3_decoder_peek(NULL, &bp, &off), 0);
	CHECK_EQ(pft_etm3_decoder_skip_phdrs(NULL, 0), -PFT_E_INVAL);
}

int main(void)
{
	test_tc2_start();
	test_exceptions();
	test_data();
	test_phdr_nonca();
	test_stream_errors();
	test_config();
	test_phdr_in_place();
	return check_report();
}
