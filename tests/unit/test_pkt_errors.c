/* SPDX-License-Identifier: BSD-3-Clause */
/* Decoder errors and synchronisation: reserved headers, configuration
 * mismatches, bad addresses, bad A-sync, truncation at every byte of every
 * example packet, state discarded after an error, pft_pkt_decoder_resync, API
 * misuse, and the byte-accounting invariant on random input. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pkt_util.h"
#include "pkt_vec.h"

#define ASYNC "00 00 00 00 00 80 "

static int decode_hex(const struct pft_config *c, const char *hex, struct pft_packet *out,
		      int max)
{
	uint8_t buf[256];
	size_t n = pkt_hex(hex, buf, sizeof(buf));
	int k = pkt_decode_all(c, buf, n, out, max);
	CHECK(k >= 0); /* also: offsets contiguous, sizes add up to n */
	return k;
}

static void expect(const struct pft_packet *p, int type, uint64_t off, uint32_t size, int reason)
{
	CHECK_EQ(p->type, type);
	CHECK_EQ(p->offset, off);
	CHECK_EQ(p->size, size);
	if (reason >= 0)
		CHECK_EQ(p->reason, reason);
}

static void check_reserved(void)
{
	struct pft_config c = pkt_cfg(C_RSTK); /* not cycle-accurate */
	struct pft_packet out[16];
	unsigned h;
	int nres = 0;

	for (h = 0; h < 256; h++) {
		char hex[64];
		int k;
		/* the 54 reserved headers below 0x80, plus 0x80/0x82 without CA */
		int reserved = (h < 0x80 && !(h & 1) && h != 0x00 && h != 0x08 && h != 0x0C &&
				h != 0x3C && h != 0x42 && h != 0x46 && h != 0x66 && h != 0x6E &&
				h != 0x72 && h != 0x76) || h == 0x80 || h == 0x82;
		if (!reserved)
			continue;
		nres++;
		snprintf(hex, sizeof(hex), ASYNC "%02x " ASYNC "84", h);
		k = decode_hex(&c, hex, out, 16);
		CHECK_EQ(k, 4);
		if (k != 4)
			continue;
		expect(&out[0], PFT_PKT_ASYNC, 0, 6, -1);
		expect(&out[1], PFT_PKT_ERROR, 6, 1, PFT_PERR_RESERVED_HEADER);
		CHECK_EQ(out[1].bytes[0], h);
		expect(&out[2], PFT_PKT_ASYNC, 7, 6, -1);
		expect(&out[3], PFT_PKT_ATOM, 13, 1, -1);
	}
	CHECK_EQ(nres, 56);

	/* with CA, 0x80 and 0x82 are atoms */
	c = pkt_cfg(C_TC2);
	CHECK_EQ(decode_hex(&c, ASYNC "80 82", out, 16), 3);
	CHECK_EQ(out[1].type, PFT_PKT_ATOM);
	CHECK_EQ(out[2].type, PFT_PKT_ATOM);
}

static void check_config_errors(void)
{
	struct pft_config c = pkt_cfg(C_S4); /* no context ID */
	struct pft_packet out[16];
	int k;

	/* 0x6E with no context ID: error, then the bytes after it are searched */
	k = decode_hex(&c, ASYNC "6e 11 22 " ASYNC, out, 16);
	CHECK_EQ(k, 4);
	expect(&out[1], PFT_PKT_ERROR, 6, 1, PFT_PERR_NO_CONTEXT_ID);
	expect(&out[2], PFT_PKT_UNSYNCED, 7, 2, -1);
	expect(&out[3], PFT_PKT_ASYNC, 9, 6, -1);

	/* VMID on PFTv1.0 */
	c = pkt_cfg(C_SNOW);
	k = decode_hex(&c, ASYNC "3c 2a", out, 16);
	CHECK_EQ(k, 3);
	expect(&out[1], PFT_PKT_ERROR, 6, 1, PFT_PERR_NO_VMID);
	expect(&out[2], PFT_PKT_UNSYNCED, 7, 1, -1);

	/* timestamps are decoded even if the registers say they are off
	 * (Snowball's ETMCCER[22] = 0, A15) */
	c = pkt_cfg(0x00000000u, CCER_V10, IDR_V10);
	k = decode_hex(&c, ASYNC "42 05", out, 16);
	CHECK_EQ(k, 2);
	CHECK_EQ(out[1].type, PFT_PKT_TIMESTAMP);
}

static void check_bad_address(void)
{
	struct pft_config c = pkt_cfg(C_S4);
	struct pft_packet out[16];
	int k;

	/* byte 4 with b5:b3 = 000 (A19) */
	k = decode_hex(&c, ASYNC "81 80 80 80 00 " ASYNC, out, 16);
	CHECK_EQ(k, 3);
	expect(&out[1], PFT_PKT_ERROR, 6, 5, PFT_PERR_BAD_ADDRESS);
	expect(&out[2], PFT_PKT_ASYNC, 11, 6, -1);
	/* a WPU into Jazelle (A19) */
	k = decode_hex(&c, ASYNC "72 81 80 80 80 20 " ASYNC, out, 16);
	CHECK_EQ(k, 3);
	expect(&out[1], PFT_PKT_ERROR, 6, 6, PFT_PERR_BAD_ADDRESS);
	/* a compressed WPU while the base is Jazelle */
	k = decode_hex(&c, ASYNC "81 80 80 80 20 72 05 " ASYNC, out, 16);
	CHECK_EQ(k, 4);
	CHECK_EQ(out[1].isa, PFT_ISA_JAZELLE);
	expect(&out[2], PFT_PKT_ERROR, 11, 2, PFT_PERR_BAD_ADDRESS);
	/* a WPU with bad byte 4 */
	k = decode_hex(&c, ASYNC "72 81 80 80 80 07 " ASYNC, out, 16);
	CHECK_EQ(k, 3);
	expect(&out[1], PFT_PKT_ERROR, 6, 6, PFT_PERR_BAD_ADDRESS);
}

static void check_bad_async(void)
{
	struct pft_config c = pkt_cfg(C_RSTK);
	struct pft_packet out[16];
	int k;

	/* in sync, a 0x00 header must start >= 5 zeros and 0x80 */
	k = decode_hex(&c, ASYNC "00 00 84 " ASYNC, out, 16);
	CHECK_EQ(k, 4);
	expect(&out[1], PFT_PKT_ERROR, 6, 2, PFT_PERR_BAD_ASYNC);
	expect(&out[2], PFT_PKT_UNSYNCED, 8, 1, -1);
	expect(&out[3], PFT_PKT_ASYNC, 9, 6, -1);
	/* zeros then 0x80 too early */
	k = decode_hex(&c, ASYNC "00 00 00 00 80 " ASYNC, out, 16);
	CHECK_EQ(k, 4);
	expect(&out[1], PFT_PKT_ERROR, 6, 4, PFT_PERR_BAD_ASYNC);
	/* seven zeros, then not 0x80 */
	k = decode_hex(&c, ASYNC "00 00 00 00 00 00 00 08 " ASYNC, out, 16);
	CHECK_EQ(k, 4);
	expect(&out[1], PFT_PKT_ERROR, 6, 7, PFT_PERR_BAD_ASYNC);
	expect(&out[2], PFT_PKT_UNSYNCED, 13, 1, -1);
	/* a stream ending inside an A-sync */
	k = decode_hex(&c, ASYNC "84 00 00 00", out, 16);
	CHECK_EQ(k, 3);
	expect(&out[2], PFT_PKT_ERROR, 7, 3, PFT_PERR_TRUNCATED);
	/* unsynchronised: zeros not followed by 0x80 are skipped */
	k = decode_hex(&c, "00 00 00 00 00 00 08 " ASYNC, out, 16);
	CHECK_EQ(k, 2);
	expect(&out[0], PFT_PKT_UNSYNCED, 0, 7, -1);
	/* a stream without any A-sync is one unsynced range */
	k = decode_hex(&c, "08 54 05 00 80 61 84", out, 16);
	CHECK_EQ(k, 1);
	expect(&out[0], PFT_PKT_UNSYNCED, 0, 7, -1);
	/* empty stream: nothing */
	CHECK_EQ(decode_hex(&c, "", out, 16), 0);
}

/* Cutting the stream anywhere inside a packet gives a TRUNCATED error that
 * covers exactly the cut packet. */
static void check_truncation(void)
{
	size_t i, nv;
	int cuts = 0;
	struct pkt_vec *vs = pkt_vec_load(NULL, 0, &nv);

	for (i = 0; i < nv; i++) {
		const struct pkt_vec *v = &vs[i];
		uint8_t buf[256];
		struct pft_packet out[32];
		size_t n = pkt_vec_stream(v, 0, buf, sizeof(buf)) - v->nbytes, nb = v->nbytes, cut;

		if (v->type == PFT_PKT_ASYNC)
			continue; /* a cut A-sync is checked in check_bad_async */
		check_case("%s (%s)", v->name, v->where);
		for (cut = 1; cut < nb; cut++) {
			int k = pkt_decode_all(&v->cfg, buf, n + cut, out, 32);
			CHECK(k > 0);
			if (k <= 0)
				continue;
			expect(&out[k - 1], PFT_PKT_ERROR, n, (uint32_t)cut, PFT_PERR_TRUNCATED);
			CHECK(!memcmp(out[k - 1].bytes, buf + n, cut));
			cuts++;
		}
	}
	check_case(NULL);
	free(vs);
	CHECK(cuts > 100);
}

/* After an error the decoder forgets the address base and the timestamp. */
static void check_state_discarded(void)
{
	struct pft_config c = pkt_cfg(C_S4);
	struct pft_packet out[16];
	int k;

	k = decode_hex(&c, ASYNC "08 00 10 00 80 01 02 " ASYNC "2f", out, 16);
	CHECK_EQ(k, 5);
	CHECK_EQ(out[2].type, PFT_PKT_ERROR);
	CHECK_EQ(out[4].type, PFT_PKT_BRANCH);
	CHECK_EQ(out[4].isa, PFT_ISA_UNKNOWN);
	CHECK_EQ(out[4].address, 0x5C);
	/* an A-sync alone keeps the state */
	k = decode_hex(&c, ASYNC "08 00 10 00 80 01 " ASYNC "2f", out, 16);
	CHECK_EQ(k, 4);
	CHECK_EQ(out[3].isa, PFT_ISA_ARM);
	CHECK_EQ(out[3].address, 0x8000105C);
}

static void check_resync_and_misuse(void)
{
	struct pft_config c = pkt_cfg(C_TC2);
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(&c);
	struct pft_packet p;
	uint8_t buf[64];
	size_t n = pkt_hex(ASYNC "08 83 8d 01 c0 01 e8 20 de 01 " ASYNC "bc", buf, sizeof(buf));
	int r;

	CHECK(d != NULL);
	if (!d)
		return;
	/* misuse */
	CHECK_EQ(pft_pkt_decoder_next(d, &p, 0), -PFT_E_INVAL);
	CHECK_EQ(pft_pkt_decoder_next(NULL, &p, sizeof(p)), -PFT_E_INVAL);
	CHECK_EQ(pft_pkt_decoder_next(d, NULL, sizeof(p)), -PFT_E_INVAL);
	CHECK_EQ(pft_pkt_decoder_feed(d, NULL, 3), -PFT_E_INVAL);
	CHECK_EQ(pft_pkt_decoder_next(d, &p, sizeof(p)), -PFT_E_AGAIN); /* nothing fed yet */

	/* feed 15 bytes: A-sync, I-sync, `e8 20` and the first byte of `de 01` */
	CHECK_EQ(pft_pkt_decoder_feed(d, buf, 15), 0);
	CHECK_EQ(pft_pkt_decoder_feed(d, buf, 15), -PFT_E_INVAL); /* not drained */
	CHECK_EQ(pft_pkt_decoder_next(d, &p, sizeof(p)), 0);
	CHECK_EQ(p.type, PFT_PKT_ASYNC);
	CHECK_EQ(pft_pkt_decoder_next(d, &p, sizeof(p)), 0);
	CHECK_EQ(p.type, PFT_PKT_ISYNC);
	CHECK_EQ(pft_pkt_decoder_get_offset(d), 12);
	CHECK_EQ(pft_pkt_decoder_next(d, &p, sizeof(p)), 0);
	CHECK_EQ(p.cycles, 522);
	/* `de` is cut by the end of the chunk */
	CHECK_EQ(pft_pkt_decoder_next(d, &p, sizeof(p)), -PFT_E_AGAIN);
	CHECK_EQ(pft_pkt_decoder_get_offset(d), 14);
	/* resync: the held byte is reported as unsynced */
	pft_pkt_decoder_resync(d);
	CHECK_EQ(pft_pkt_decoder_next(d, &p, sizeof(p)), 0);
	expect(&p, PFT_PKT_UNSYNCED, 14, 1, -1);
	CHECK_EQ(pft_pkt_decoder_feed(d, buf + 15, n - 15), 0);
	r = pft_pkt_decoder_next(d, &p, sizeof(p));
	CHECK_EQ(r, 0);
	expect(&p, PFT_PKT_UNSYNCED, 15, 1, -1); /* the 01 of `de 01` */
	CHECK_EQ(pft_pkt_decoder_next(d, &p, sizeof(p)), 0);
	expect(&p, PFT_PKT_ASYNC, 16, 6, -1);
	CHECK_EQ(pft_pkt_decoder_next(d, &p, sizeof(p)), 0);
	expect(&p, PFT_PKT_ATOM, 22, 1, -1);
	CHECK_EQ(pft_pkt_decoder_next(d, &p, sizeof(p)), -PFT_E_AGAIN);
	CHECK_EQ(pft_pkt_decoder_end(d), 0);
	CHECK_EQ(pft_pkt_decoder_feed(d, buf, 1), -PFT_E_INVAL); /* after end */
	CHECK_EQ(pft_pkt_decoder_next(d, &p, sizeof(p)), -PFT_E_EOS);
	CHECK_EQ(pft_pkt_decoder_get_offset(d), n);
	pft_pkt_decoder_free(d);
	pft_pkt_decoder_free(NULL);

	/* bad configuration */
	c.etmidr = 0x410CF250u; /* an ETMv3.5 */
	CHECK(pft_pkt_decoder_alloc(&c) == NULL);
	CHECK_EQ(pft_pkt_decode_buffer(&c, buf, n, NULL, NULL), -PFT_E_INVAL);
}

static int count_cb(const struct pft_packet *p, void *arg)
{
	int *count = arg;
	(void)p;
	return ++*count == 3 ? 42 : 0;
}

static void check_decode_buffer(void)
{
	struct pft_config c = pkt_cfg(C_TC2);
	uint8_t buf[64];
	size_t n = pkt_hex(ASYNC "08 83 8d 01 c0 01 e8 20 de 01 bc", buf, sizeof(buf));
	int count = 0;

	CHECK_EQ(pft_pkt_decode_buffer(&c, buf, n, count_cb, &count), 42);
	CHECK_EQ(count, 3);
	c.etmidr = 0x410CF250u;
	CHECK_EQ(pft_pkt_decode_buffer(&c, buf, n, count_cb, &count), -PFT_E_BAD_CONFIG);
}

/* Random bytes under many configurations: every byte accounted for, items
 * contiguous (pkt_decode_all checks both), nothing longer than allowed. */
static void check_random(void)
{
	static uint8_t buf[1 << 16];
	static struct pft_packet out[1 << 16];
	uint64_t rng = check_seed(0xe7707);
	int round;

	for (round = 0; round < 64; round++) {
		uint32_t cr = (uint32_t)check_rand(&rng) & 0x5000D000u;
		struct pft_config c = pkt_cfg(cr, round & 1 ? CCER_V10 : CCER_A15,
					      round & 2 ? IDR_V10 : IDR_V11);
		size_t n = sizeof(buf), i;
		int k, j;
		for (i = 0; i < n; i++) {
			uint64_t x = check_rand(&rng);
			buf[i] = (uint8_t)((x & 7) == 0 ? 0 : x >> 8);
		}
		k = pkt_decode_all(&c, buf, n, out, 1 << 16);
		CHECK(k > 0);
		for (j = 0; j < k; j++) {
			if (out[j].type != PFT_PKT_ASYNC && out[j].type != PFT_PKT_UNSYNCED &&
			    !(out[j].type == PFT_PKT_ERROR &&
			      out[j].reason == PFT_PERR_BAD_ASYNC))
				CHECK(out[j].size <= 15);
			CHECK(!memcmp(out[j].bytes, buf + out[j].offset, out[j].nbytes));
		}
	}
}

int main(void)
{
	check_reserved();
	check_config_errors();
	check_bad_address();
	check_bad_async();
	check_truncation();
	check_state_discarded();
	check_resync_and_misuse();
	check_decode_buffer();
	check_random();
	return check_report();
}
