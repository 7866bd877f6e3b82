/* SPDX-License-Identifier: BSD-3-Clause */
/* The decoder's const tables against the readable rules of the spec:
 * header classification (spec §4.5 Table 4-1) and the non-cycle-accurate
 * atom formats (§4.5.3), as doc/packets.md writes them out (Byte layouts:
 * Header byte, Atom). */
#include <string.h>

#include "check.h"
#include "packet/pkt_fields.h"
#include "pft/packet.h"

struct rule {
	uint8_t mask, value;
	enum pft_pkt_type type;
};

/* Section 2, as mask/value pairs: first match wins, no match = reserved. */
static const struct rule header_rules[] = {
	{ 0xFF, 0x00, PFT_PKT_ASYNC },            /* 0000 0000 */
	{ 0xFF, 0x08, PFT_PKT_ISYNC },            /* 0000 1000 */
	{ 0xFF, 0x0C, PFT_PKT_TRIGGER },          /* 0000 1100 */
	{ 0xFF, 0x3C, PFT_PKT_VMID },             /* 0011 1100 */
	{ 0xFB, 0x42, PFT_PKT_TIMESTAMP },        /* 0100 0R10 */
	{ 0xFF, 0x66, PFT_PKT_IGNORE },           /* 0110 0110 */
	{ 0xFF, 0x6E, PFT_PKT_CONTEXT_ID },       /* 0110 1110 */
	{ 0xFF, 0x72, PFT_PKT_WAYPOINT_UPDATE },  /* 0111 0010 */
	{ 0xFF, 0x76, PFT_PKT_EXCEPTION_RETURN }, /* 0111 0110 */
	{ 0x01, 0x01, PFT_PKT_BRANCH },           /* xxxx xxx1 */
	{ 0x81, 0x80, PFT_PKT_ATOM },             /* 1xxx xxx0 */
};

/* The reserved list of doc/packets.md (Byte layouts, Header byte). */
static const uint8_t reserved[] = {
	0x02, 0x04, 0x06, 0x0A, 0x0E, 0x10, 0x12, 0x14, 0x16, 0x18, 0x1A, 0x1C, 0x1E, 0x20,
	0x22, 0x24, 0x26, 0x28, 0x2A, 0x2C, 0x2E, 0x30, 0x32, 0x34, 0x36, 0x38, 0x3A, 0x3E,
	0x40, 0x44, 0x48, 0x4A, 0x4C, 0x4E, 0x50, 0x52, 0x54, 0x56, 0x58, 0x5A, 0x5C, 0x5E,
	0x60, 0x62, 0x64, 0x68, 0x6A, 0x6C, 0x70, 0x74, 0x78, 0x7A, 0x7C, 0x7E,
};

/* Section 6.1 atom formats: fixed bits, then count F bits ending at b1. */
static const struct {
	uint8_t mask, value, count;
} atom_formats[] = {
	{ 0xFD, 0x84, 1 }, /* 1000 01F0 */
	{ 0xF9, 0x88, 2 }, /* 1000 1FF0 */
	{ 0xF1, 0x90, 3 }, /* 1001 FFF0 */
	{ 0xE1, 0xA0, 4 }, /* 101F FFF0 */
	{ 0xC1, 0xC0, 5 }, /* 11FF FFF0 */
};

int main(void)
{
	unsigned b, i, nres = 0;

	for (b = 0; b < 256; b++) {
		enum pft_pkt_type want = PFT_PKT_NONE;
		for (i = 0; i < sizeof(header_rules) / sizeof(header_rules[0]); i++) {
			if ((b & header_rules[i].mask) == header_rules[i].value) {
				want = header_rules[i].type;
				break;
			}
		}
		CHECK_EQ(pft_pkt_header_type[b], want);
		if (pft_pkt_header_type[b] == PFT_PKT_NONE)
			nres++;
	}
	CHECK_EQ(nres, 54);
	CHECK_EQ(sizeof(reserved), 54);
	for (i = 0; i < sizeof(reserved); i++)
		CHECK_EQ(pft_pkt_header_type[reserved[i]], PFT_PKT_NONE);

	for (b = 0; b < 256; b++) {
		unsigned want = 0;
		for (i = 0; i < 5; i++) {
			if ((b & atom_formats[i].mask) == atom_formats[i].value) {
				unsigned c = atom_formats[i].count, k, e = 0;
				/* oldest atom = highest F bit (b_c), newest = b1;
				 * F = 0 means E */
				for (k = 0; k < c; k++)
					if (!((b >> (c - k)) & 1))
						e |= 1u << k;
				want = c << 5 | e;
			}
		}
		CHECK_EQ(pft_pkt_atom_table[b], want);
	}
	/* reserved Format 0 */
	CHECK_EQ(pft_pkt_atom_table[0x80], 0);
	CHECK_EQ(pft_pkt_atom_table[0x82], 0);
	/* real atoms of the rstk capture (order checked against DS-5), oldest first */
	CHECK_EQ(pft_pkt_atom_table[0x84], 1 << 5 | 0x1);  /* E */
	CHECK_EQ(pft_pkt_atom_table[0x88], 2 << 5 | 0x3);  /* EE */
	CHECK_EQ(pft_pkt_atom_table[0x94], 3 << 5 | 0x5);  /* ENE */
	CHECK_EQ(pft_pkt_atom_table[0xBC], 4 << 5 | 0x8);  /* NNNE */
	CHECK_EQ(pft_pkt_atom_table[0xF0], 5 << 5 | 0x1C); /* NNEEE */

	/* names */
	CHECK(!strcmp(pft_pkt_type_name(PFT_PKT_WAYPOINT_UPDATE), "waypoint_update"));
	CHECK(!strcmp(pft_pkt_type_name(PFT_PKT_EXCEPTION_RETURN), "exception_return"));
	CHECK(!strcmp(pft_pkt_type_name(PFT_PKT_NR_TYPES), "?"));
	CHECK(!strcmp(pft_pkt_error_name(PFT_PERR_BAD_ASYNC), "bad_async"));
	CHECK(!strcmp(pft_isync_reason_name(PFT_ISYNC_DEBUG_EXIT), "debug_exit"));
	CHECK(!strcmp(pft_exception_name(PFT_EXC_IRQ), "irq"));
	CHECK(!strcmp(pft_exception_name(6), "exception_6"));
	CHECK(!strcmp(pft_exception_name(0x49), "other"));
	return check_report();
}
