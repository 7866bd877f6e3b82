/* SPDX-License-Identifier: BSD-3-Clause */
/* ETMv2 port capture files (doc/tfo.md): binary header and records for the
 * three port widths, text lines, and the errors both readers must report. */
#include <string.h>

#include "check.h"
#include "pft/tfo.h"

static void test_binary(void)
{
	static const unsigned widths[] = { 4, 8, 16 };
	uint64_t rng = check_seed(0x5eed);
	unsigned w, i;

	for (w = 0; w < 3; w++) {
		struct pft_tfo_port port = { (uint8_t)widths[w], (uint8_t)(w & 1) }, back;
		uint8_t buf[8 + 3 * 64];
		struct pft_tfo_cycle c[64], r;
		size_t rec = pft_tfo_bin_record_size(port.width), pos;
		int n;

		CHECK_EQ(rec, port.width == 16 ? 3 : 2);
		n = pft_tfo_bin_write_header(buf, sizeof(buf), &port);
		CHECK_EQ(n, PFT_TFO_BIN_HEADER_SIZE);
		CHECK(!memcmp(buf, "ETM2\x01", 5));
		CHECK_EQ(buf[5], port.width);
		pos = (size_t)n;
		for (i = 0; i < 64; i++) {
			c[i].pipestat = (uint8_t)(check_rand(&rng) & 15);
			c[i].pad = 0;
			c[i].tracepkt = (uint16_t)(check_rand(&rng) & ((1u << port.width) - 1u));
			n = pft_tfo_bin_write_record(buf + pos, sizeof(buf) - pos, port.width, &c[i]);
			CHECK_EQ(n, rec);
			pos += rec;
		}
		CHECK_EQ(pft_tfo_bin_read_header(buf, pos, &back), PFT_TFO_BIN_HEADER_SIZE);
		CHECK_EQ(back.width, port.width);
		CHECK_EQ(back.cycle_accurate, port.cycle_accurate);
		for (i = 0, pos = 8; i < 64; i++, pos += rec) {
			CHECK_EQ(pft_tfo_bin_read_record(buf + pos, rec, port.width, &r), rec);
			CHECK_EQ(r.pipestat, c[i].pipestat);
			CHECK_EQ(r.tracepkt, c[i].tracepkt);
			/* a short buffer asks for more */
			CHECK_EQ(pft_tfo_bin_read_record(buf + pos, rec - 1, port.width, &r), -PFT_E_AGAIN);
		}
	}
}

static void test_binary_errors(void)
{
	struct pft_tfo_port port = { 4, 0 };
	struct pft_tfo_cycle c = { 0, 0, 0 };
	uint8_t h[8] = { 'E', 'T', 'M', '2', 1, 8, 0, 0 }, rec[3];

	CHECK_EQ(pft_tfo_bin_read_header(h, 3, &port), -PFT_E_AGAIN);
	CHECK_EQ(pft_tfo_bin_read_header((const uint8_t *)"PK\x03\x04", 4, &port), -PFT_E_FORMAT);
	h[4] = 2;
	CHECK_EQ(pft_tfo_bin_read_header(h, 8, &port), -PFT_E_FORMAT);
	h[4] = 1;
	h[5] = 12;
	CHECK_EQ(pft_tfo_bin_read_header(h, 8, &port), -PFT_E_FORMAT);
	h[5] = 16;
	h[6] = 0x80;
	CHECK_EQ(pft_tfo_bin_read_header(h, 8, &port), -PFT_E_BAD_FRAME);
	rec[0] = 0x17;
	rec[1] = 0x09;
	CHECK_EQ(pft_tfo_bin_read_record(rec, 2, 8, &c), -PFT_E_BAD_FRAME);
	CHECK_EQ(c.pipestat, 7);
	rec[0] = 0x07;
	rec[1] = 0x19;
	CHECK_EQ(pft_tfo_bin_read_record(rec, 2, 4, &c), -PFT_E_BAD_FRAME);
	CHECK_EQ(c.tracepkt, 9);
	CHECK_EQ(pft_tfo_bin_read_record(rec, 2, 8, &c), 2);
	CHECK_EQ(pft_tfo_bin_read_record(rec, 2, 5, &c), -PFT_E_INVAL);
	c.tracepkt = 0x10;
	CHECK_EQ(pft_tfo_bin_write_record(rec, 3, 4, &c), -PFT_E_INVAL);
	c.tracepkt = 0x1;
	CHECK_EQ(pft_tfo_bin_write_record(rec, 1, 4, &c), -PFT_E_NOSPC);
	port.width = 3;
	CHECK_EQ(pft_tfo_bin_write_header(h, 8, &port), -PFT_E_INVAL);
}

static int line(const char *s, unsigned width, struct pft_tfo_cycle *c, struct pft_tfo_port *p)
{
	return pft_tfo_text_parse_line(s, strlen(s), width, c, p);
}

static void test_text(void)
{
	struct pft_tfo_port port = { 0, 0 };
	struct pft_tfo_cycle c;
	char buf[64];
	unsigned ps, w;

	CHECK_EQ(line("etmv2-port 16 ca\n", 0, &c, &port), 2);
	CHECK_EQ(port.width, 16);
	CHECK_EQ(port.cycle_accurate, 1);
	CHECK_EQ(line("etmv2-port 4", 0, &c, &port), 2);
	CHECK_EQ(port.cycle_accurate, 0);
	CHECK_EQ(line("  # comment", 4, &c, &port), 0);
	CHECK_EQ(line("", 4, &c, &port), 0);
	CHECK_EQ(line("TD b1001  # TFO", 4, &c, &port), 1);
	CHECK_EQ(c.pipestat, 7);
	CHECK_EQ(c.tracepkt, 9);
	CHECK_EQ(line("id 0xd", 4, &c, &port), 1);
	CHECK_EQ(c.pipestat, PFT_TFO_PS_DE);
	CHECK_EQ(line("0xC 7", 8, &c, &port), 1);
	CHECK_EQ(c.pipestat, 12);
	CHECK_EQ(line("IE 1f", 8, &c, &port), 1);
	CHECK_EQ(c.tracepkt, 0x1F);
	/* errors */
	CHECK_EQ(line("IE 1f", 4, &c, &port), -PFT_E_BAD_FRAME);   /* too wide */
	CHECK_EQ(line("IE 1", 0, &c, &port), -PFT_E_BAD_FRAME);    /* no header yet */
	CHECK_EQ(line("BE 1", 8, &c, &port), -PFT_E_BAD_FRAME);    /* no such status */
	CHECK_EQ(line("IE", 8, &c, &port), -PFT_E_BAD_FRAME);
	CHECK_EQ(line("IE 1 2", 8, &c, &port), -PFT_E_BAD_FRAME);
	CHECK_EQ(line("IE 0x", 8, &c, &port), -PFT_E_BAD_FRAME);
	CHECK_EQ(line("IE 12345", 16, &c, &port), -PFT_E_BAD_FRAME);
	CHECK_EQ(line("etmv2-port 5", 0, &c, &port), -PFT_E_BAD_FRAME);
	CHECK_EQ(line("etmv2-port 8 xx", 0, &c, &port), -PFT_E_BAD_FRAME);
	/* format -> parse, every status and width */
	for (w = 4; w <= 16; w *= 2) {
		for (ps = 0; ps < 16; ps++) {
			struct pft_tfo_cycle in = { (uint8_t)ps, 0, (uint16_t)((ps * 0x1357u) & ((1u << w) - 1u)) };
			int n = pft_tfo_text_format_cycle(buf, sizeof(buf), w, &in);

			CHECK(n > 0 && buf[n - 1] == '\n');
			CHECK_EQ(line(buf, w, &c, &port), 1);
			CHECK_EQ(c.pipestat, in.pipestat);
			CHECK_EQ(c.tracepkt, in.tracepkt);
		}
	}
	port.width = 8;
	port.cycle_accurate = 1;
	CHECK(pft_tfo_text_format_header(buf, sizeof(buf), &port) > 0);
	CHECK(!strcmp(buf, "etmv2-port 8 ca\n"));
	CHECK_EQ(pft_tfo_text_format_header(buf, 5, &port), -PFT_E_NOSPC);
}

int main(void)
{
	test_binary();
	test_binary_errors();
	test_text();
	return check_report();
}
