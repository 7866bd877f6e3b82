/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target, differential: random bytes decoded by the serial flow
 * decoder and through pft_par_* (split into windows and segments, decoded
 * apart, joined), and the packets by pft_pkt_decoder and by pft_par_* in
 * PACKETS mode; every item (every field, every instruction) and the totals
 * must be equal.  The image is fuzz_flow's (1 KiB of pseudo-random ARM and
 * Thumb words and a vector table).  Byte 0 picks the ETMCR features, byte 1
 * the segments per window (1-8) and the window size (16 bytes and up), the
 * item buffers (small ones make segments stop early) and the resync mode. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/pft.h"

#include "fuzz_util.h"

#define MAXI 4096

static uint8_t code[1024], vectors[64];
static struct pft_image *img;

static void init_image(void)
{
	img = fuzz_code_image(0x12345678u, code, sizeof(code), vectors, sizeof(vectors));
}

struct out {
	struct pft_flow_item it[MAXI];
	struct pft_packet pk[MAXI];
	struct pft_insn in[MAXI * 4];
	size_t n, nin, npk;
};

static struct out ser, par;
static struct pft_flow_item segit[8][64];
static struct pft_insn segin[8][256];
static struct pft_packet segpk[8][64];

static void put(struct out *o, const struct pft_flow_item *it)
{
	if (o->n == MAXI)
		return;
	o->it[o->n] = *it;
	o->it[o->n].insns = NULL;
	if (it->insns && o->nin + it->ninsns <= MAXI * 4) {
		memcpy(o->in + o->nin, it->insns, it->ninsns * sizeof *it->insns);
		o->nin += it->ninsns;
	}
	o->n++;
}

static void put_pk(struct out *o, const struct pft_packet *p)
{
	if (o->npk < MAXI)
		o->pk[o->npk++] = *p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t variants[8] = FUZZ_FLOW_ETMCR_VARIANTS;
	struct pft_config cfg;
	struct pft_flow_decoder *d;
	struct pft_flow_item it;
	struct pft_packet pk;
	struct pft_flow_stats s1, s2;
	struct pft_par *p, *pp;
	struct pft_par_seg *seg[8], *sp[8];
	struct pft_par_buf b[8], bp[8];
	size_t cuts[9], off, window;
	unsigned jobs, i, n;
	enum pft_isync_resync mode;
	const uint8_t *s;
	size_t len;
	int r;

	if (!img)
		init_image();
	if (size < 2)
		return 0;
	pft_config_init(&cfg);
	cfg.etmcr = variants[data[0] & 7];
	if (data[0] & 8)
		cfg.etmidr = 0x411CF301u;
	if (data[0] & 0x10)
		cfg.etmccer |= 1u << 24;
	mode = (enum pft_isync_resync)((data[0] >> 5) % 3);
	jobs = 1 + (data[1] & 7);
	window = 16 + (size_t)(data[1] >> 3) * 37;
	s = data + 2;
	len = size - 2;

	memset(&ser, 0, sizeof ser);
	memset(&par, 0, sizeof par);
	d = pft_flow_decoder_alloc(&cfg, img);
	ASSERT(d);
	pft_flow_decoder_set_isync_resync(d, mode);
	pft_flow_decoder_feed(d, s, len);
	while (pft_flow_decoder_next(d, &it, sizeof it) == 0)
		put(&ser, &it);
	pft_flow_decoder_end(d);
	while (pft_flow_decoder_next(d, &it, sizeof it) == 0)
		put(&ser, &it);
	pft_flow_decoder_get_stats(d, &s1, sizeof s1);
	pft_flow_decoder_free(d);
	{
		struct pft_pkt_decoder *k = pft_pkt_decoder_alloc(&cfg);
		ASSERT(k);
		pft_pkt_decoder_set_isync_resync(k, mode);
		pft_pkt_decoder_feed(k, s, len);
		while (pft_pkt_decoder_next(k, &pk, sizeof pk) == 0)
			put_pk(&ser, &pk);
		pft_pkt_decoder_end(k);
		while (pft_pkt_decoder_next(k, &pk, sizeof pk) == 0)
			put_pk(&ser, &pk);
		pft_pkt_decoder_free(k);
	}

	p = pft_par_alloc(PFT_PAR_FLOW, &cfg, img, mode);
	pp = pft_par_alloc(PFT_PAR_PACKETS, &cfg, NULL, mode);
	ASSERT(p && pp);
	for (i = 0; i < jobs; i++) {
		seg[i] = pft_par_seg_alloc(PFT_PAR_FLOW, &cfg, img, mode);
		sp[i] = pft_par_seg_alloc(PFT_PAR_PACKETS, &cfg, NULL, mode);
		ASSERT(seg[i] && sp[i]);
		memset(&b[i], 0, sizeof b[i]);
		memset(&bp[i], 0, sizeof bp[i]);
		b[i].items = segit[i];
		b[i].items_cap = data[1] & 0x80 ? 4 : 64;
		b[i].insns = segin[i];
		b[i].insns_cap = 256;
		bp[i].pkts = segpk[i];
		bp[i].pkts_cap = data[1] & 0x80 ? 3 : 64;
	}
	for (off = 0; off < len; off += window) {
		size_t w = len - off < window ? len - off : window;

		n = pft_par_split(s + off, w, jobs, cuts);
		ASSERT(n >= 1 && n <= jobs);
		for (i = 0; i < n; i++) {
			ASSERT(pft_par_seg_decode(seg[i], s + off + cuts[i], cuts[i + 1] - cuts[i],
						  off + cuts[i], &b[i]) == 0);
			ASSERT(pft_par_seg_decode(sp[i], s + off + cuts[i], cuts[i + 1] - cuts[i],
						  off + cuts[i], &bp[i]) == 0);
		}
		for (i = 0; i < n; i++) {
			ASSERT(pft_par_join(p, seg[i], s + off + cuts[i], cuts[i + 1] - cuts[i],
					    off + cuts[i]) == 0);
			while ((r = pft_par_next_item(p, &it, sizeof it)) == 0)
				put(&par, &it);
			ASSERT(r == -PFT_E_AGAIN);
			ASSERT(pft_par_join(pp, sp[i], s + off + cuts[i], cuts[i + 1] - cuts[i],
					    off + cuts[i]) == 0);
			while ((r = pft_par_next_packet(pp, &pk, sizeof pk)) == 0)
				put_pk(&par, &pk);
			ASSERT(r == -PFT_E_AGAIN);
		}
	}
	ASSERT(pft_par_end(p) == 0 && pft_par_end(pp) == 0);
	while ((r = pft_par_next_item(p, &it, sizeof it)) == 0)
		put(&par, &it);
	ASSERT(r == -PFT_E_EOS);
	while ((r = pft_par_next_packet(pp, &pk, sizeof pk)) == 0)
		put_pk(&par, &pk);
	ASSERT(r == -PFT_E_EOS);
	ASSERT(pft_par_get_stats(p, &s2, sizeof s2) == 0);
	s1.cache_hits = s1.cache_misses = s2.cache_hits = s2.cache_misses = 0;
	ASSERT(!memcmp(&s1, &s2, sizeof s1));
	ASSERT(ser.n == par.n && ser.nin == par.nin && ser.npk == par.npk);
	ASSERT(!memcmp(ser.it, par.it, ser.n * sizeof ser.it[0]));
	ASSERT(!memcmp(ser.in, par.in, ser.nin * sizeof ser.in[0]));
	for (i = 0; i < ser.npk; i++) /* field by field: a packet's padding is not set */
		ASSERT(ser.pk[i].offset == par.pk[i].offset && ser.pk[i].size == par.pk[i].size &&
		       ser.pk[i].type == par.pk[i].type && ser.pk[i].flags == par.pk[i].flags &&
		       ser.pk[i].address == par.pk[i].address &&
		       ser.pk[i].timestamp == par.pk[i].timestamp &&
		       ser.pk[i].atoms == par.pk[i].atoms && ser.pk[i].reason == par.pk[i].reason &&
		       !memcmp(ser.pk[i].bytes, par.pk[i].bytes, sizeof ser.pk[i].bytes));
	for (i = 0; i < jobs; i++) {
		pft_par_seg_free(seg[i]);
		pft_par_seg_free(sp[i]);
	}
	pft_par_free(p);
	pft_par_free(pp);
	return 0;
}
