/* SPDX-License-Identifier: BSD-3-Clause */
/* Frame deformatter: hand-made frames for every rule of include/pft/frame.h
 * (ID change with auxiliary bit 0 and 1, ID in slot 14, data before the
 * first ID, repeated ID, ID 0x7F, truncated frame, a frame of FSYNCs, TPIU
 * FSYNC/HSYNC, captures starting mid-frame, bad syncs), and chunking. */
#include <string.h>

#include "check.h"
#include "pft/frame.h"

#define MAXI 64

struct got {
	int n;
	struct pft_frame_item it[MAXI];
	uint8_t data[MAXI][16];
	uint64_t offs[MAXI][16];
	struct pft_frame_stats st;
};

/* Decode a capture fed in chunks of `chunk` bytes (0 = all at once). */
static void run(enum pft_frame_format fmt, const uint8_t *cap, size_t len, size_t chunk,
		struct got *g)
{
	struct pft_frame_decoder *d = pft_frame_decoder_alloc(fmt, 0x42);
	size_t pos = 0;
	int r;

	memset(g, 0, sizeof(*g));
	CHECK(d != NULL);
	if (!d)
		return;
	if (!chunk)
		chunk = len ? len : 1;
	for (;;) {
		size_t n = len - pos < chunk ? len - pos : chunk;

		if (n) {
			CHECK_EQ(pft_frame_decoder_feed(d, cap + pos, n), 0);
			pos += n;
		} else {
			pft_frame_decoder_end(d);
		}
		while ((r = pft_frame_decoder_next(d, &g->it[g->n < MAXI ? g->n : MAXI - 1],
					   sizeof(struct pft_frame_item))) == 0) {
			struct pft_frame_item *it = &g->it[g->n < MAXI ? g->n : MAXI - 1];
			uint32_t i;

			if (it->type == PFT_FRAME_ITEM_DATA && g->n < MAXI)
				for (i = 0; i < it->len && i < 16; i++) {
					g->data[g->n][i] = it->data[i];
					g->offs[g->n][i] = pft_frame_item_byte_offset(it, i);
				}
			if (g->n < MAXI)
				g->n++;
		}
		if (r == -PFT_E_EOS)
			break;
		CHECK_EQ(r, -PFT_E_AGAIN);
		if (r != -PFT_E_AGAIN)
			break;
	}
	pft_frame_decoder_get_stats(d, &g->st, sizeof(g->st));
	CHECK_EQ(g->st.bytes_in, len);
	CHECK_EQ(g->st.data + g->st.overhead + g->st.sync + g->st.unsynced + g->st.error, len);
	pft_frame_decoder_free(d);
}

static void check_data(const struct got *g, int i, uint8_t id, uint64_t soff, uint64_t coff,
		       const uint8_t *bytes, uint32_t n, int line)
{
	int ok = i < g->n && g->it[i].type == PFT_FRAME_ITEM_DATA && g->it[i].id == id &&
		 g->it[i].len == n && g->it[i].stream_offset == soff &&
		 g->it[i].capture_offset == coff && memcmp(g->data[i], bytes, n) == 0;
	if (!ok)
		fprintf(stderr, "line %d: item %d differs (type %u id 0x%x len %u soff %llu coff %llu)\n",
			line, i, i < g->n ? g->it[i].type : 0, i < g->n ? g->it[i].id : 0,
			i < g->n ? g->it[i].len : 0,
			i < g->n ? (unsigned long long)g->it[i].stream_offset : 0ull,
			i < g->n ? (unsigned long long)g->it[i].capture_offset : 0ull);
	CHECK(ok);
}
#define DATA(g, i, id, soff, coff, ...)                                             \
	do {                                                                        \
		static const uint8_t b_[] = { __VA_ARGS__ };                         \
		check_data(g, i, id, soff, coff, b_, sizeof b_, __LINE__);          \
	} while (0)

static void test_single_id(void)
{
	/* ID 0x10, then 14 data bytes; even-slot data get bit 0 from the aux byte. */
	static const uint8_t f[16] = { 0x21, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
				       0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E,
				       /* aux: bit1 -> slot 2 LSB=1, bit 7 -> slot 14 LSB=1 */
				       0x82 };
	struct got g;

	run(PFT_FRAME_CORESIGHT, f, 16, 0, &g);
	CHECK_EQ(g.n, 1);
	DATA(&g, 0, 0x10, 0, 1, 0x11, 0x13, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A,
	     0x1B, 0x1C, 0x1D, 0x1F);
	CHECK_EQ(g.offs[0][0], 1);
	CHECK_EQ(g.offs[0][1], 2);
	CHECK_EQ(g.offs[0][13], 14);
	CHECK_EQ(g.st.overhead, 2);
	CHECK_EQ(g.st.frames, 1);
	CHECK_EQ(g.st.id_bytes[0x10], 14);
}

static void test_id_changes(void)
{
	/* slot0: ID 0x10 (aux0=0: slot1 is new ID's data)
	 * slot2: ID 0x11 with aux1=1: slot3 still belongs to 0x10
	 * slot4: data for 0x11, slot5 data
	 * slot6: ID 0x11 again (no change), aux3=1 ignored: slot7 for 0x11
	 * slot8: ID 0x12 aux4=0: slot9 for 0x12
	 * slot10,11: data 0x12; slot12: ID 0x00 aux=0, slot13 pad
	 * slot14: ID 0x13 -> next frame */
	static const uint8_t f[32] = {
		0x21, 0xA0, 0x23, 0xA1, 0xB0, 0xB1, 0x23, 0xB2,
		0x25, 0xC0, 0xC2, 0xC3, 0x01, 0x00, 0x27, 0x1A,
		/* frame 2: all data of 0x13 */
		0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
		0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x01 };
	struct got g;
	size_t chunk;

	/* aux 0x1A = bits 1, 3, 4: slot2 (ID, aux=1 -> old), slot6 (ID same),
	 * slot8 (ID: aux=1 -> slot9 stays with old ID 0x11). */
	for (chunk = 0; chunk <= 17; chunk++) {
		run(PFT_FRAME_CORESIGHT, f, 32, chunk, &g);
		CHECK_EQ(g.n, 5);
		DATA(&g, 0, 0x10, 0, 1, 0xA0, 0xA1);
		DATA(&g, 1, 0x11, 0, 4, 0xB0, 0xB1, 0xB2, 0xC0);
		DATA(&g, 2, 0x12, 0, 10, 0xC2, 0xC3);
		DATA(&g, 3, 0x00, 0, 13, 0x00);
		DATA(&g, 4, 0x13, 0, 16, 0x03, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
		     0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10);
		CHECK_EQ(g.st.overhead, 7 + 1);
		CHECK_EQ(g.st.data, 9 + 15);
	}
}

static void test_unknown_and_7f(void)
{
	/* Data before any ID (a wrapped buffer), then an ID 0x7F byte. */
	static const uint8_t f[16] = { 0x40, 0x41, 0x21, 0x50, 0xFF, 0x51, 0x52, 0x53,
				       0, 0, 0, 0, 0, 0, 0, 0x00 };
	static const uint8_t t[16 + 5] = { 0x21, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0,
					   0x21, 1, 2, 3, 4 };
	struct got g;

	run(PFT_FRAME_CORESIGHT, f, 16, 0, &g);
	CHECK_EQ(g.n, 3);
	DATA(&g, 0, PFT_FRAME_ID_UNKNOWN, 0, 0, 0x40, 0x41);
	DATA(&g, 1, 0x10, 0, 3, 0x50);
	CHECK_EQ(g.it[2].type, PFT_FRAME_ITEM_ERROR);
	CHECK_EQ(g.it[2].reason, PFT_FERR_ID_7F);
	CHECK_EQ(g.it[2].capture_offset, 4);
	CHECK_EQ(g.it[2].len, 12);
	CHECK_EQ(g.st.unknown_id, 2);

	/* Truncated: 5 bytes after a whole frame. */
	run(PFT_FRAME_CORESIGHT, t, sizeof t, 3, &g);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(g.it[0].len, 14);
	CHECK_EQ(g.it[1].type, PFT_FRAME_ITEM_ERROR);
	CHECK_EQ(g.it[1].reason, PFT_FERR_TRUNCATED);
	CHECK_EQ(g.it[1].capture_offset, 16);
	CHECK_EQ(g.it[1].len, 5);
}

static void test_fsync_frame(void)
{
	uint8_t f[48];
	struct got g;
	int i;

	for (i = 0; i < 16; i += 4)
		f[i] = 0xFF, f[i + 1] = 0xFF, f[i + 2] = 0xFF, f[i + 3] = 0x7F;
	for (i = 16; i < 48; i++)
		f[i] = (uint8_t)(2 * i);
	f[16] = 0x31; /* ID 0x18 */
	f[32] = 0x33; /* ID 0x19 */
	f[31] = 0;
	f[47] = 0;
	run(PFT_FRAME_CORESIGHT, f, 48, 0, &g);
	CHECK_EQ(g.st.sync, 16);
	CHECK_EQ(g.n, 2);
	CHECK_EQ(g.it[0].id, 0x18);
	CHECK_EQ(g.it[0].capture_offset, 17);
	CHECK_EQ(g.it[1].id, 0x19);
	CHECK_EQ(g.it[1].capture_offset, 33);
}

static void test_tpiu(void)
{
	/* 3 bytes of junk, FSYNC, a frame with an HSYNC after its first 4 bytes,
	 * FSYNC FSYNC, a frame interrupted by an FSYNC, a whole frame, a bad
	 * FF FF halfword, junk, FSYNC, half a frame. */
	static const uint8_t frame[16] = { 0x21, 0xA0, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
					   0xA8, 0xA9, 0xAA, 0xAB, 0xAC, 0xAD, 0xAE, 0x00 };
	uint8_t c[256];
	size_t n = 0, chunk;
	struct got g;

	c[n++] = 0x12, c[n++] = 0xFF, c[n++] = 0xFF;                  /* 0..2 junk */
	c[n++] = 0xFF, c[n++] = 0xFF, c[n++] = 0xFF, c[n++] = 0x7F;   /* 3..6 FSYNC */
	memcpy(c + n, frame, 4), n += 4;                              /* 7.. */
	c[n++] = 0xFF, c[n++] = 0x7F;                                 /* HSYNC at 11 */
	memcpy(c + n, frame + 4, 12), n += 12;                        /* ..24 */
	for (int k = 0; k < 2; k++)
		c[n++] = 0xFF, c[n++] = 0xFF, c[n++] = 0xFF, c[n++] = 0x7F; /* 25..32 */
	memcpy(c + n, frame, 6), n += 6;                              /* 33..38 partial */
	c[n++] = 0xFF, c[n++] = 0xFF, c[n++] = 0xFF, c[n++] = 0x7F;   /* 39..42 FSYNC mid-frame */
	memcpy(c + n, frame, 16), n += 16;                            /* 43..58 */
	c[n++] = 0xFF, c[n++] = 0xFF, c[n++] = 0x21, c[n++] = 0x00;   /* 59..62 bad */
	c[n++] = 0x55;                                                /* 63 junk */
	c[n++] = 0xFF, c[n++] = 0xFF, c[n++] = 0xFF, c[n++] = 0x7F;   /* 64..67 FSYNC */
	memcpy(c + n, frame, 8), n += 8;                              /* 68..75 truncated */

	for (chunk = 0; chunk < 20; chunk++) {
		run(PFT_FRAME_TPIU, c, n, chunk, &g);
		CHECK_EQ(g.n, 7);
		CHECK_EQ(g.it[0].type, PFT_FRAME_ITEM_UNSYNCED);
		CHECK_EQ(g.it[0].capture_offset, 0);
		CHECK_EQ(g.it[0].len, 3);
		DATA(&g, 1, 0x10, 0, 8, 0xA0, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9,
		     0xAA, 0xAB, 0xAC, 0xAD, 0xAE);
		CHECK_EQ(g.offs[1][2], 10);
		CHECK_EQ(g.offs[1][3], 13); /* after the HSYNC */
		CHECK_EQ(g.it[2].type, PFT_FRAME_ITEM_ERROR);
		CHECK_EQ(g.it[2].reason, PFT_FERR_BAD_SYNC);
		CHECK_EQ(g.it[2].capture_offset, 33);
		CHECK_EQ(g.it[2].len, 6);
		DATA(&g, 3, 0x10, 14, 44, 0xA0, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9,
		     0xAA, 0xAB, 0xAC, 0xAD, 0xAE);
		CHECK_EQ(g.it[4].type, PFT_FRAME_ITEM_ERROR);
		CHECK_EQ(g.it[4].capture_offset, 59);
		CHECK_EQ(g.it[4].len, 2);
		CHECK_EQ(g.it[5].type, PFT_FRAME_ITEM_UNSYNCED);
		CHECK_EQ(g.it[5].capture_offset, 61);
		CHECK_EQ(g.it[5].len, 3);
		CHECK_EQ(g.it[6].type, PFT_FRAME_ITEM_ERROR);
		CHECK_EQ(g.it[6].reason, PFT_FERR_TRUNCATED);
		CHECK_EQ(g.it[6].capture_offset, 68);
		CHECK_EQ(g.it[6].len, 8);
		CHECK_EQ(g.st.sync, 4 + 2 + 8 + 4 + 4);
	}

	/* No FSYNC at all: everything is one UNSYNCED item. */
	run(PFT_FRAME_TPIU, frame, 16, 5, &g);
	CHECK_EQ(g.n, 1);
	CHECK_EQ(g.it[0].type, PFT_FRAME_ITEM_UNSYNCED);
	CHECK_EQ(g.it[0].len, 16);
}

static void test_raw_and_misuse(void)
{
	static const uint8_t b[5] = { 1, 2, 3, 4, 5 };
	struct pft_frame_decoder *d = pft_frame_decoder_alloc(PFT_FRAME_RAW, 0x13);
	struct pft_frame_item it;
	struct got g;

	CHECK(d != NULL);
	CHECK_EQ(pft_frame_decoder_next(d, &it, sizeof it), -PFT_E_AGAIN);
	CHECK_EQ(pft_frame_decoder_feed(d, b, 5), 0);
	CHECK_EQ(pft_frame_decoder_feed(d, b, 5), -PFT_E_INVAL); /* chunk not drained */
	CHECK_EQ(pft_frame_decoder_next(d, &it, 0), -PFT_E_INVAL);
	CHECK_EQ(pft_frame_decoder_next(d, &it, sizeof it), 0);
	CHECK_EQ(it.id, 0x13);
	CHECK_EQ(it.len, 5);
	CHECK(it.data == b);
	CHECK(it.byte_offsets == NULL);
	CHECK_EQ(pft_frame_item_byte_offset(&it, 4), 4);
	CHECK_EQ(pft_frame_decoder_feed(d, b + 1, 2), 0);
	CHECK_EQ(pft_frame_decoder_next(d, &it, sizeof it), 0);
	CHECK_EQ(it.stream_offset, 5);
	CHECK_EQ(pft_frame_decoder_get_offset(d), 7);
	CHECK_EQ(pft_frame_decoder_next(d, &it, sizeof it), -PFT_E_AGAIN);
	CHECK_EQ(pft_frame_decoder_end(d), 0);
	CHECK_EQ(pft_frame_decoder_next(d, &it, sizeof it), -PFT_E_EOS);
	CHECK_EQ(pft_frame_decoder_feed(d, b, 1), -PFT_E_INVAL);
	pft_frame_decoder_free(d);
	CHECK(pft_frame_decoder_alloc((enum pft_frame_format)7, 0) == NULL);
	CHECK_EQ(pft_frame_decoder_feed(NULL, b, 1), -PFT_E_INVAL);

	run(PFT_FRAME_CORESIGHT, b, 0, 0, &g); /* empty capture: no items */
	CHECK_EQ(g.n, 0);
	CHECK(strcmp(pft_frame_format_name(PFT_FRAME_TPIU), "tpiu") == 0);
	CHECK(strcmp(pft_frame_error_name(PFT_FERR_ID_7F), "ID 0x7F") == 0);
}

int main(void)
{
	test_single_id();
	test_id_changes();
	test_unknown_and_7f();
	test_fsync_frame();
	test_tpiu();
	test_raw_and_misuse();
	return check_report();
}
