/* SPDX-License-Identifier: BSD-3-Clause */
/* Packet encoder: re-encoding what the decoder read gives back the original
 * bytes, for every packet vector of pkt_vectors.h and for real trace
 * (trace_cov_a15, and TC2 trace ID 0x13 de-formatted by the frame layer);
 * the compression rules on hand-made packets; misuse. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/frame.h"
#include "pkt_util.h"
#include "pkt_vec.h"

/* Decode buf, re-encode every packet after the first A-sync with a fresh
 * encoder; the output must equal buf from that A-sync on.  Returns the
 * number of packets re-encoded. */
static int reencode(const struct pft_config *c, const uint8_t *buf, size_t len,
		    const char *what)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(c);
	struct pft_pkt_encoder *e = pft_pkt_encoder_alloc(c);
	uint8_t *out = malloc(len + 16);
	size_t o = 0;
	uint64_t start = 0;
	int synced = 0, count = 0, r, shown = 0;
	struct pft_packet p;

	CHECK(d && e && out);
	if (!d || !e || !out)
		goto done;
	pft_pkt_decoder_feed(d, buf, len);
	pft_pkt_decoder_end(d);
	while ((r = pft_pkt_decoder_next(d, &p, sizeof(p))) == 0) {
		int n;
		if (p.type == PFT_PKT_UNSYNCED || p.type == PFT_PKT_ERROR) {
			CHECK(!synced); /* no errors after the first A-sync */
			continue;
		}
		if (!synced) {
			synced = 1;
			start = p.offset;
		}
		n = pft_pkt_encoder_encode(e, &p, out + o, len + 16 - o);
		CHECK(n > 0);
		if (n <= 0)
			break;
		if (n != (int)p.size || memcmp(out + o, buf + p.offset, p.size)) {
			if (!shown++) {
				int i;
				fprintf(stderr, "%s: re-encoded differently:\n  ", what);
				pkt_print(stderr, &p);
				fprintf(stderr, "  got");
				for (i = 0; i < n; i++)
					fprintf(stderr, " %02x", out[o + i]);
				fprintf(stderr, "\n");
			}
			CHECK_EQ(n, p.size);
		}
		o += (size_t)n;
		count++;
	}
	CHECK_EQ(r, -PFT_E_EOS);
	CHECK_EQ(start + o, len);
	CHECK(!memcmp(out, buf + start, o));
done:
	free(out);
	pft_pkt_encoder_free(e);
	pft_pkt_decoder_free(d);
	return count;
}

/* Every packet vector, as the encoder writes it (its `encoded` bytes where
 * they differ: an undefined bit the decoder ignores is written as 0). */
static void check_vectors(void)
{
	size_t i, n;
	struct pkt_vec *v = pkt_vec_load(NULL, 0, &n);

	for (i = 0; i < n; i++) {
		uint8_t buf[256];
		size_t len = pkt_vec_stream(&v[i], 1, buf, sizeof(buf));

		check_case("%s (%s)", v[i].name, v[i].where);
		CHECK(len > 0);
		reencode(&v[i].cfg, buf, len, v[i].name);
	}
	check_case(NULL);
	free(v);
}

static void check_real(void)
{
	char path[512];
	size_t len;
	uint8_t *buf;
	struct pft_config c;
	int n;

	buf = check_read_file(check_data_path(path, sizeof(path),
						"trace_cov_a15/PTM_0_2.bin"), &len);
	CHECK(buf != NULL);
	if (buf) {
		c = pkt_cfg(C_RSTK);
		CHECK_EQ(reencode(&c, buf, len, "cov"), 11);
		free(buf);
	}

	buf = check_read_file(check_data_path(path, sizeof(path), "TC2/cstrace.bin"),
			      &len);
	CHECK(buf != NULL);
	if (buf) {
		uint8_t *s = malloc(len);
		int64_t sl = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, buf, len, s, len, NULL);
		CHECK_EQ(sl, 4533);
		c = pkt_cfg(C_TC2);
		if (sl == 4533) {
			/* 1789 packets after the first A-sync (s121) */
			n = reencode(&c, s, (size_t)sl, "TC2 0x13");
			CHECK_EQ(n, 1789);
		}
		free(s);
		free(buf);
	}
}

static int enc(struct pft_pkt_encoder *e, const struct pft_packet *p, const char *want)
{
	uint8_t out[64], w[64];
	size_t nw = pkt_hex(want, w, sizeof(w));
	int n = pft_pkt_encoder_encode(e, p, out, sizeof(out));
	CHECK_EQ(n, nw);
	if (n == (int)nw)
		CHECK(!memcmp(out, w, nw));
	if (n != (int)nw || memcmp(out, w, nw)) {
		int i;
		fprintf(stderr, "  want %s got", want);
		for (i = 0; i < n; i++)
			fprintf(stderr, " %02x", out[i]);
		fprintf(stderr, "\n");
	}
	return n;
}

/* Compression rules on packets built by hand. */
static void check_rules(void)
{
	struct pft_config c = pkt_cfg(C_S4);
	struct pft_pkt_encoder *e = pft_pkt_encoder_alloc(&c);
	struct pft_packet p;
	uint8_t out[64];

	/* after a reset every branch is full (no base ISA) */
	memset(&p, 0, sizeof(p));
	p.type = PFT_PKT_BRANCH;
	p.address = 0x8000055C;
	p.isa = PFT_ISA_ARM;
	enc(e, &p, "af 85 80 80 0c");
	/* Table 4-5: highest changed bit A7..A2 -> 1 byte */
	p.address = 0x80000540;
	enc(e, &p, "21");
	/* bit 13 -> 2 bytes; bit 14 -> 3 bytes; 21 -> 4; 28 -> 5 */
	p.address = 0x80002540;
	enc(e, &p, "a1 25");
	p.address = 0x80006540;
	enc(e, &p, "a1 e5 00");
	p.address = 0x80206540;
	enc(e, &p, "a1 e5 c0 00");
	p.address = 0x90206540;
	enc(e, &p, "a1 e5 c0 c0 0c");
	/* ISA change ARM -> Thumb: 5 bytes even though only bit 1 changed */
	p.address = 0x90206542;
	p.isa = PFT_ISA_THUMB;
	enc(e, &p, "c3 ca 81 81 19");
	/* exception: at least 2 address bytes, E0 */
	p.exception = PFT_EXC_SVC;
	enc(e, &p, "c3 4a 14");
	/* NS change alone: E0 with exception 0 (A5) */
	p.exception = 0;
	p.flags = PFT_PKT_F_NS;
	enc(e, &p, "c3 4a 01");
	/* no change: 1 byte */
	enc(e, &p, "43");
	/* Hyp change: E0 + E1 (A6), exception > 15: E1 */
	p.flags = PFT_PKT_F_NS | PFT_PKT_F_HYP;
	enc(e, &p, "c3 4a 81 20");
	p.exception = 0x49;
	enc(e, &p, "c3 4a 93 24");
	/* ThumbEE: same alignment, so compressed, with AltIS in E0 */
	p.exception = 0;
	p.isa = PFT_ISA_THUMBEE;
	enc(e, &p, "c3 4a 41");
	/* WPU with the info byte when AltIS changes back */
	memset(&p, 0, sizeof(p));
	p.type = PFT_PKT_WAYPOINT_UPDATE;
	p.address = 0x90206542;
	p.isa = PFT_ISA_THUMB;
	enc(e, &p, "72 c3 4a 00");
	/* WPU into Jazelle is refused */
	p.isa = PFT_ISA_JAZELLE;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	/* misaligned */
	memset(&p, 0, sizeof(p));
	p.type = PFT_PKT_BRANCH;
	p.address = 0x1002;
	p.isa = PFT_ISA_ARM;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	/* no context ID configured; VMID fine on v1.1 */
	memset(&p, 0, sizeof(p));
	p.type = PFT_PKT_CONTEXT_ID;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	p.type = PFT_PKT_VMID;
	p.vmid = 0x2A;
	enc(e, &p, "3c 2a");
	/* 6 atoms, 0 atoms, stray atom bits */
	memset(&p, 0, sizeof(p));
	p.type = PFT_PKT_ATOM;
	p.atom_count = 6;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	p.atom_count = 0;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	p.atom_count = 2;
	p.atoms = 4;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	p.atom_count = 5;
	p.atoms = 0x1C; /* NNEEE */
	enc(e, &p, "f0");
	/* NOSPC leaves the state alone: the same branch still needs 5 bytes */
	memset(&p, 0, sizeof(p));
	p.type = PFT_PKT_BRANCH;
	p.address = 0x10000000;
	p.isa = PFT_ISA_ARM;
	p.flags = PFT_PKT_F_NS | PFT_PKT_F_HYP; /* as last sent: no E0 */
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, 4), -PFT_E_NOSPC);
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, 5), 5);
	/* unsynced / error items are not packets */
	p.type = PFT_PKT_ERROR;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	/* A-sync sizes */
	p.type = PFT_PKT_ASYNC;
	p.size = 0;
	enc(e, &p, "00 00 00 00 00 80");
	p.size = 8;
	enc(e, &p, "00 00 00 00 00 00 00 80");
	p.size = 5;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	pft_pkt_encoder_free(e);

	/* CA: one atom per packet; cycle counts (Table 4-8); I-sync M bit */
	c = pkt_cfg(C_TC2);
	e = pft_pkt_encoder_alloc(&c);
	memset(&p, 0, sizeof(p));
	p.type = PFT_PKT_ATOM;
	p.atom_count = 2;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	p.atom_count = 1;
	p.atoms = 1;
	p.cycles = 522;
	enc(e, &p, "e8 20");
	p.atoms = 0;
	p.cycles = 23;
	enc(e, &p, "de 01");
	p.cycles = 0xFFFFFFFF;
	enc(e, &p, "fe ff ff ff 7f");
	p.cycles = 15;
	p.cc_bytes = 3; /* more bytes than needed are honoured */
	enc(e, &p, "fe 80 00");
	memset(&p, 0, sizeof(p));
	p.type = PFT_PKT_ISYNC;
	p.address = 0xC003923C;
	p.isa = PFT_ISA_THUMB;
	p.reason = PFT_ISYNC_TRACE_ON;
	p.cycles = 3701;
	enc(e, &p, "08 3d 92 03 c0 21 d4 e7 01");
	p.reason = PFT_ISYNC_PERIODIC; /* no cycle count */
	enc(e, &p, "08 3d 92 03 c0 01");
	/* timestamps: full after reset, then the changed groups only */
	memset(&p, 0, sizeof(p));
	p.type = PFT_PKT_TIMESTAMP;
	p.timestamp = 0x82F9D18BCCull;
	enc(e, &p, "42 cc 97 c6 ce af 90 80 80 00 00");
	p.timestamp = 0x82F9D18E80ull;
	enc(e, &p, "42 80 1d 00");
	p.timestamp = 0x82F9D18E80ull;
	enc(e, &p, "42 00 00");
	pft_pkt_encoder_free(e);

	/* v1.0: 48-bit Gray; VMID refused */
	c = pkt_cfg(C_SNOW);
	e = pft_pkt_encoder_alloc(&c);
	memset(&p, 0, sizeof(p));
	p.type = PFT_PKT_TIMESTAMP;
	p.timestamp = 0x6F4E0D2FBAull;
	p.cycles = 3;
	enc(e, &p, "42 e7 f0 ae c8 8e 8b 00 0c");
	p.timestamp = 1ull << 48;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	p.type = PFT_PKT_VMID;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	pft_pkt_encoder_free(e);

	/* context ID sizes */
	c = pkt_cfg(0x00008000u, CCER_A15, IDR_V11); /* 2 bytes */
	e = pft_pkt_encoder_alloc(&c);
	memset(&p, 0, sizeof(p));
	p.type = PFT_PKT_CONTEXT_ID;
	p.context_id = 0xBEEF;
	enc(e, &p, "6e ef be");
	p.context_id = 0x1BEEF;
	CHECK_EQ(pft_pkt_encoder_encode(e, &p, out, sizeof(out)), -PFT_E_INVAL);
	pft_pkt_encoder_free(e);

	CHECK(pft_pkt_encoder_alloc(NULL) == NULL);
	CHECK_EQ(pft_pkt_encoder_encode(NULL, &p, out, sizeof(out)), -PFT_E_INVAL);
}

int main(void)
{
	check_vectors();
	check_real();
	check_rules();
	return check_report();
}
