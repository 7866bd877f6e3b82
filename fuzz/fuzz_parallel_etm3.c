/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target, differential: random bytes decoded as ETMv3 by the
 * serial decoders (the ETMv3 packet decoder, its packets one at a time into
 * the ETMv3 flow) and through pft_par_* (split into windows and segments,
 * decoded apart, joined), flow items and packets; every item (every field,
 * every instruction and cycle count), the flow totals and the packet counts
 * must be equal.  The image is fuzz_etm3_flow's (1 KiB of pseudo-random
 * code at 0x1000).  Byte 0 picks the configuration as in fuzz_etm3_flow
 * (bit 0 cycle-accurate, bits 2:1 context ID size, bit 3 data values, bit 4
 * data addresses, bit 6 alternative branch encoding, bit 7 64-bit
 * timestamps), byte 1 the segments per window (1-8), the window size (16
 * bytes and up) and, with bit 7, item buffers so small that segments stop
 * early. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/pft.h"

#include "fuzz_util.h"

#define MAXI 4096

static uint8_t code[1024];
static struct pft_image *img;

static void init_image(void)
{
	img = fuzz_code_image(0x9E3779B9u, code, sizeof(code), NULL, 0);
}

struct out {
	struct pft_flow_item it[MAXI];
	struct pft_etm3_packet pk[MAXI];
	struct pft_insn in[MAXI * 4];
	uint32_t cyc[MAXI * 4];
	size_t n, nin, npk;
	struct pft_flow_stats st;
};

static struct out ser, par;
static struct pft_flow_item segit[8][64];
static struct pft_insn segin[8][256];
static uint32_t segcyc[8][256];
static struct pft_etm3_packet segpk[8][64];

static void put(struct out *o, const struct pft_flow_item *it)
{
	uint32_t j;

	if (o->n == MAXI)
		return;
	o->it[o->n] = *it;
	o->it[o->n].insns = NULL;
	o->it[o->n].insn_cycles = NULL;
	if (it->insns && o->nin + it->ninsns <= MAXI * 4) {
		memcpy(o->in + o->nin, it->insns, it->ninsns * sizeof *it->insns);
		for (j = 0; j < it->ninsns; j++)
			o->cyc[o->nin + j] = it->insn_cycles ? it->insn_cycles[j] : 0xFFFFFFFFu;
		o->nin += it->ninsns;
	}
	o->n++;
}

static void put_pk(struct out *o, const struct pft_etm3_packet *p)
{
	if (o->npk < MAXI)
		o->pk[o->npk++] = *p;
}

/* The serial flow and its totals (the CLI's serial path counts them so). */
static void serial(const struct pft_config *cfg, const uint8_t *s, size_t len)
{
	struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(cfg);
	struct pft_etm3_flow_decoder *fl = pft_etm3_flow_decoder_alloc(cfg, img);
	struct pft_etm3_packet p;
	struct pft_flow_item it;
	int r;

	ASSERT(d && fl);
	pft_etm3_decoder_feed(d, s, len);
	pft_etm3_decoder_end(d);
	for (;;) {
		while ((r = pft_etm3_flow_decoder_next(fl, &it, sizeof it)) == 0) {
			put(&ser, &it);
			if (it.kind == PFT_FLOW_EVENT) {
				ser.st.events[it.type]++;
			} else {
				ser.st.ranges++;
				ser.st.insns += it.ninsns;
			}
		}
		if (r == -PFT_E_EOS)
			break;
		r = pft_etm3_decoder_next(d, &p, sizeof p);
		if (r == -PFT_E_EOS) {
			pft_etm3_flow_decoder_end(fl);
			continue;
		}
		ASSERT(r == 0);
		if (p.type != PFT_ETM3_UNSYNCED && p.type != PFT_ETM3_ERROR)
			ser.st.packets++;
		put_pk(&ser, &p);
		ASSERT(pft_etm3_flow_decoder_put_packet(fl, &p) == 0);
	}
	ser.st.bytes = pft_etm3_decoder_get_offset(d);
	pft_etm3_flow_decoder_free(fl);
	pft_etm3_decoder_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t cid[4] = { 0, 0x4000, 0x8000, 0xC000 };
	struct pft_config cfg;
	struct pft_flow_item it;
	struct pft_etm3_packet pk;
	struct pft_etm3_counts c1, c2;
	struct pft_par *p, *pp;
	struct pft_par_seg *seg[8], *sp[8];
	struct pft_par_buf b[8], bp[8];
	size_t cuts[9], off, window, i;
	unsigned jobs, k, n;
	uint8_t sel;
	const uint8_t *s;
	size_t len;
	int r;

	if (!img)
		init_image();
	if (size < 2)
		return 0;
	sel = data[0];
	pft_config_init(&cfg);
	cfg.etmcr = ((sel & 1) ? 0x1000u : 0) | cid[(sel >> 1) & 3] | ((sel & 8) ? 0x4u : 0) |
		    ((sel & 16) ? 0x8u : 0) | 0x10000000u;
	cfg.etmidr = 0x410CF250u | ((sel & 64) ? 1u << 20 : 0);
	cfg.etmccer = (sel & 128) ? 1u << 29 : 0;
	jobs = 1 + (data[1] & 7);
	window = 16 + (size_t)((data[1] >> 3) & 15) * 37;
	s = data + 2;
	len = size - 2;

	memset(&ser, 0, sizeof ser);
	memset(&par, 0, sizeof par);
	serial(&cfg, s, len);

	p = pft_par_alloc(PFT_PAR_FLOW, &cfg, img, PFT_ISYNC_RESYNC_LOST);
	pp = pft_par_alloc(PFT_PAR_PACKETS, &cfg, NULL, PFT_ISYNC_RESYNC_LOST);
	ASSERT(p && pp);
	for (k = 0; k < jobs; k++) {
		seg[k] = pft_par_seg_alloc(PFT_PAR_FLOW, &cfg, img, PFT_ISYNC_RESYNC_LOST);
		sp[k] = pft_par_seg_alloc(PFT_PAR_PACKETS, &cfg, NULL, PFT_ISYNC_RESYNC_LOST);
		ASSERT(seg[k] && sp[k]);
		memset(&b[k], 0, sizeof b[k]);
		memset(&bp[k], 0, sizeof bp[k]);
		b[k].items = segit[k];
		b[k].items_cap = data[1] & 0x80 ? 4 : 64;
		b[k].insns = segin[k];
		b[k].insns_cap = 256;
		b[k].cycles = segcyc[k];
		b[k].cycles_cap = data[1] & 0x80 ? 8 : 256;
		bp[k].etm3_pkts = segpk[k];
		bp[k].etm3_pkts_cap = data[1] & 0x80 ? 3 : 64;
	}
	for (off = 0; off < len; off += window) {
		size_t w = len - off < window ? len - off : window;

		n = pft_par_split(s + off, w, jobs, cuts);
		ASSERT(n >= 1 && n <= jobs);
		for (k = 0; k < n; k++) {
			ASSERT(pft_par_seg_decode(seg[k], s + off + cuts[k], cuts[k + 1] - cuts[k],
						  off + cuts[k], &b[k]) == 0);
			ASSERT(pft_par_seg_decode(sp[k], s + off + cuts[k], cuts[k + 1] - cuts[k],
						  off + cuts[k], &bp[k]) == 0);
		}
		for (k = 0; k < n; k++) {
			ASSERT(pft_par_join(p, seg[k], s + off + cuts[k], cuts[k + 1] - cuts[k],
					    off + cuts[k]) == 0);
			while ((r = pft_par_next_item(p, &it, sizeof it)) == 0)
				put(&par, &it);
			ASSERT(r == -PFT_E_AGAIN);
			ASSERT(pft_par_join(pp, sp[k], s + off + cuts[k], cuts[k + 1] - cuts[k],
					    off + cuts[k]) == 0);
			while ((r = pft_par_next_etm3_packet(pp, &pk, sizeof pk)) == 0)
				put_pk(&par, &pk);
			ASSERT(r == -PFT_E_AGAIN);
		}
	}
	ASSERT(pft_par_end(p) == 0 && pft_par_end(pp) == 0);
	while ((r = pft_par_next_item(p, &it, sizeof it)) == 0)
		put(&par, &it);
	ASSERT(r == -PFT_E_EOS);
	while ((r = pft_par_next_etm3_packet(pp, &pk, sizeof pk)) == 0)
		put_pk(&par, &pk);
	ASSERT(r == -PFT_E_EOS);
	ASSERT(pft_par_get_stats(p, &par.st, sizeof par.st) == 0);
	ASSERT(!memcmp(&ser.st, &par.st, sizeof ser.st));
	ASSERT(ser.n == par.n && ser.nin == par.nin && ser.npk == par.npk);
	ASSERT(!memcmp(ser.it, par.it, ser.n * sizeof ser.it[0]));
	ASSERT(!memcmp(ser.in, par.in, ser.nin * sizeof ser.in[0]));
	ASSERT(!memcmp(ser.cyc, par.cyc, ser.nin * sizeof ser.cyc[0]));
	for (i = 0; i < ser.npk; i++) /* up to the end of bytes[]: the tail padding is not set */
		ASSERT(!memcmp(&ser.pk[i], &par.pk[i],
			       offsetof(struct pft_etm3_packet, bytes) + PFT_ETM3_MAX_BYTES));
	memset(&c1, 0, sizeof c1);
	for (i = 0; i < ser.npk; i++) {
		if (ser.pk[i].type == PFT_ETM3_ERROR && !c1.items[PFT_ETM3_ERROR])
			c1.first_error = ser.pk[i].offset;
		c1.items[ser.pk[i].type]++;
		c1.bytes[ser.pk[i].type] += ser.pk[i].size;
	}
	ASSERT(pft_par_get_etm3_counts(pp, &c2, sizeof c2) == 0);
	ASSERT(ser.npk == MAXI || !memcmp(&c1, &c2, sizeof c1));
	for (k = 0; k < jobs; k++) {
		pft_par_seg_free(seg[k]);
		pft_par_seg_free(sp[k]);
	}
	pft_par_free(p);
	pft_par_free(pp);
	return 0;
}
