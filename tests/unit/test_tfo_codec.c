/* SPDX-License-Identifier: BSD-3-Clause */
/* TFO codec against the spec text (IHI 0014 ETMv2 "Trace FIFO offsets"):
 * Example 6.1 and every row of Table 6.4, written out as the table gives
 * them; PIPESTAT names; TFO headers; the periodic sync counter. */
#include <string.h>

#include "check.h"
#include "pft/tfo.h"

/* Table 6.4 as printed: TRACEPKT[3:0] -> description. */
struct row {
	const char *bits; /* TRACEPKT[3:0], "xxx0" for the first row */
	int kind;
	int base;
};

static const struct row table_6_4[] = {
	{ "xxx0", PFT_TFO_KIND_DISABLED, -1 },
	{ "0111", PFT_TFO_KIND_DISABLED_CA, -1 },
	{ "1001", PFT_TFO_KIND_VALUE, 0 },
	{ "1011", PFT_TFO_KIND_VALUE, 16 },
	{ "1101", PFT_TFO_KIND_VALUE, 32 },
	{ "1111", PFT_TFO_KIND_VALUE, 48 },
	{ "0001", PFT_TFO_KIND_VALUE, 64 },
	{ "0011", PFT_TFO_KIND_VALUE, 80 },
	{ "0101", PFT_TFO_KIND_RESERVED, -1 },
};

static int row_matches(const struct row *r, unsigned lo)
{
	int i;

	for (i = 0; i < 4; i++) {
		char ch = r->bits[i];
		unsigned bit = (lo >> (3 - i)) & 1u;

		if (ch != 'x' && (unsigned)(ch - '0') != bit)
			return 0;
	}
	return 1;
}

static void test_example_6_1(void)
{
	unsigned v = 99;

	/* "a TFO value of b0000001 is output ... the full TRACEPKT[7:0]
	 * output is 00011001" */
	CHECK_EQ(pft_tfo_encode(1), 0x19);
	CHECK_EQ(pft_tfo_classify(0x19, &v), PFT_TFO_KIND_VALUE);
	CHECK_EQ(v, 1);
	CHECK(pft_tfo_encode(96) < 0);
	CHECK(pft_tfo_encode(1000) < 0);
	CHECK_EQ(pft_tfo_encode(0), 0x09);
	CHECK_EQ(pft_tfo_encode(95), 0xF3);
}

static void test_table_6_4(void)
{
	unsigned pkt, v, i;

	for (pkt = 0; pkt < 256; pkt++) {
		const struct row *r = NULL;

		for (i = 0; i < sizeof(table_6_4) / sizeof(table_6_4[0]); i++)
			if (row_matches(&table_6_4[i], pkt & 0xFu)) {
				r = &table_6_4[i];
				break;
			}
		CHECK(r != NULL);
		if (!r)
			continue;
		v = 1000;
		CHECK_EQ(pft_tfo_classify(pkt, &v), r->kind);
		if (r->kind == PFT_TFO_KIND_VALUE) {
			CHECK_EQ(v, (unsigned)r->base + (pkt >> 4));
			CHECK_EQ(pft_tfo_encode(v), pkt);
		}
	}
	/* every value 0-95 lands in its row and reads back */
	for (v = 0; v <= 95; v++) {
		int e = pft_tfo_encode(v);
		unsigned back = 1000;

		CHECK(e >= 0);
		CHECK_EQ(((unsigned)e >> 4), v & 15);
		CHECK_EQ(pft_tfo_classify((unsigned)e, &back), PFT_TFO_KIND_VALUE);
		CHECK_EQ(back, v);
		for (i = 2; i < 8; i++)
			if (table_6_4[i].base == (int)(v & ~15u))
				CHECK(row_matches(&table_6_4[i], (unsigned)e & 0xFu));
	}
}

static void test_names(void)
{
	unsigned i;

	for (i = 0; i < 16; i++) {
		const char *n = pft_tfo_ps_name(i);

		CHECK_EQ(pft_tfo_ps_parse(n, strlen(n)), i);
	}
	CHECK_EQ(pft_tfo_ps_parse("id", 2), PFT_TFO_PS_DE);
	CHECK_EQ(pft_tfo_ps_parse("td", 2), PFT_TFO_PS_TD);
	CHECK(pft_tfo_ps_parse("BE", 2) < 0);
	CHECK(pft_tfo_ps_parse("IEX", 3) < 0);
	CHECK(pft_tfo_ps_parse("I", 1) < 0);
	CHECK(!strcmp(pft_tfo_ps_name(16), "??"));
	/* 6.1.7: "TRACEPKT[3:0] = 0111 (TD)" fixes TD; TR precedes it */
	CHECK_EQ(PFT_TFO_PS_TD, 7);
	CHECK(!strcmp(pft_tfo_reason_name(2), "overflow"));
	CHECK(pft_tfo_err_name(999) != NULL);
}

static void test_headers(void)
{
	unsigned r, reason;
	int lsm, b;

	for (r = 0; r < 4; r++) {
		for (lsm = 0; lsm < 2; lsm++) {
			int got;

			b = pft_tfo_header_encode(r, lsm);
			CHECK(b >= 0 && b < 256);
			CHECK_EQ(pft_tfo_header_decode((unsigned)b, &reason, &got), 0);
			CHECK_EQ(reason, r);
			CHECK_EQ(got, lsm);
		}
	}
	CHECK(pft_tfo_header_encode(4, 0) < 0);
	CHECK_EQ(pft_tfo_header_decode(0x01, &reason, &lsm), -PFT_E_BAD_PACKET);
}

static void test_sync_counter(void)
{
	struct pft_tfo_sync_counter s;
	int i, r;

	pft_tfo_sync_counter_init(&s, 4);
	/* cycles 1-3 nothing, cycle 4 expires on a WT: pending */
	for (i = 0; i < 3; i++)
		CHECK_EQ(pft_tfo_sync_counter_tick(&s, PFT_TFO_PS_IE), -1);
	CHECK_EQ(pft_tfo_sync_counter_tick(&s, PFT_TFO_PS_WT), -1);
	CHECK_EQ(s.pending, 1);
	CHECK_EQ(pft_tfo_sync_counter_tick(&s, PFT_TFO_PS_IN), -1);
	CHECK_EQ(pft_tfo_sync_counter_tick(&s, PFT_TFO_PS_IE), PFT_TFO_REASON_SYNC);
	CHECK_EQ(s.pending, 0);
	/* expiry with no IE until the next expiry: overflow */
	pft_tfo_sync_counter_init(&s, 3);
	r = -1;
	for (i = 0; i < 6 && r < 0; i++)
		r = pft_tfo_sync_counter_tick(&s, PFT_TFO_PS_WT);
	CHECK_EQ(r, PFT_TFO_REASON_OVERFLOW);
	CHECK_EQ(i, 6);
	pft_tfo_sync_counter_init(&s, 0);
	CHECK_EQ(pft_tfo_sync_counter_tick(&s, PFT_TFO_PS_IE), -1);
}

int main(void)
{
	test_example_6_1();
	test_table_6_4();
	test_names();
	test_headers();
	test_sync_counter();
	return check_report();
}
