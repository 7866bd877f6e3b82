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

#include "fuzz_par.h"

static uint8_t code[1024], vectors[64];
static struct pft_image *img;

static void init_image(void)
{
	img = fuzz_code_image(0x12345678u, code, sizeof(code), vectors, sizeof(vectors));
}

struct pkts {
	struct pft_packet pk[FUZZ_PAR_MAXI];
	size_t n;
};

static struct fuzz_items ser, par;
static struct pkts ser_pk, par_pk;
static struct pft_flow_item segit[8][64];
static struct pft_insn segin[8][256];
static struct pft_packet segpk[8][64];

static void put_pk(struct pkts *o, const struct pft_packet *p)
{
	if (o->n < FUZZ_PAR_MAXI)
		o->pk[o->n++] = *p;
}

static int take_pkts(struct pft_par *pp, void *arg)
{
	struct pft_packet pk;
	int r;

	while ((r = pft_par_next_packet(pp, &pk, sizeof pk)) == 0)
		put_pk(arg, &pk);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t variants[8] = FUZZ_FLOW_ETMCR_VARIANTS;
	struct pft_config cfg;
	struct pft_flow_decoder *d;
	struct pft_flow_item it;
	struct pft_packet pk;
	struct pft_flow_stats s1, s2;
	struct pft_par *p;
	struct pft_par_buf b[8], bp[8];
	struct fuzz_par f;
	unsigned i;
	const uint8_t *s;
	size_t len;

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
	f.cfg = &cfg;
	f.img = img;
	f.mode = (enum pft_isync_resync)((data[0] >> 5) % 3);
	f.jobs = 1 + (data[1] & 7);
	f.window = 16 + (size_t)(data[1] >> 3) * 37;
	s = data + 2;
	len = size - 2;

	memset(&ser, 0, sizeof ser);
	memset(&par, 0, sizeof par);
	ser_pk.n = par_pk.n = 0;
	d = pft_flow_decoder_alloc(&cfg, img);
	ASSERT(d);
	pft_flow_decoder_set_isync_resync(d, f.mode);
	pft_flow_decoder_feed(d, s, len);
	while (pft_flow_decoder_next(d, &it, sizeof it) == 0)
		fuzz_items_put(&ser, &it);
	pft_flow_decoder_end(d);
	while (pft_flow_decoder_next(d, &it, sizeof it) == 0)
		fuzz_items_put(&ser, &it);
	pft_flow_decoder_get_stats(d, &s1, sizeof s1);
	pft_flow_decoder_free(d);
	{
		struct pft_pkt_decoder *k = pft_pkt_decoder_alloc(&cfg);
		ASSERT(k);
		pft_pkt_decoder_set_isync_resync(k, f.mode);
		pft_pkt_decoder_feed(k, s, len);
		while (pft_pkt_decoder_next(k, &pk, sizeof pk) == 0)
			put_pk(&ser_pk, &pk);
		pft_pkt_decoder_end(k);
		while (pft_pkt_decoder_next(k, &pk, sizeof pk) == 0)
			put_pk(&ser_pk, &pk);
		pft_pkt_decoder_free(k);
	}

	for (i = 0; i < f.jobs; i++) {
		memset(&b[i], 0, sizeof b[i]);
		memset(&bp[i], 0, sizeof bp[i]);
		b[i].items = segit[i];
		b[i].items_cap = data[1] & 0x80 ? 4 : 64;
		b[i].insns = segin[i];
		b[i].insns_cap = 256;
		bp[i].pkts = segpk[i];
		bp[i].pkts_cap = data[1] & 0x80 ? 3 : 64;
	}
	p = fuzz_par_run(&f, PFT_PAR_FLOW, b, s, len, fuzz_par_take_items, &par);
	ASSERT(pft_par_get_stats(p, &s2, sizeof s2) == 0);
	pft_par_free(p);
	pft_par_free(fuzz_par_run(&f, PFT_PAR_PACKETS, bp, s, len, take_pkts, &par_pk));
	s1.cache_hits = s1.cache_misses = s2.cache_hits = s2.cache_misses = 0;
	ASSERT(!memcmp(&s1, &s2, sizeof s1));
	ASSERT(fuzz_items_same(&ser, &par));
	ASSERT(ser_pk.n == par_pk.n);
	for (i = 0; i < ser_pk.n; i++) { /* field by field: a packet's padding is not set */
		const struct pft_packet *x = &ser_pk.pk[i], *y = &par_pk.pk[i];
		ASSERT(x->offset == y->offset && x->size == y->size && x->type == y->type &&
		       x->flags == y->flags && x->address == y->address &&
		       x->timestamp == y->timestamp && x->atoms == y->atoms &&
		       x->reason == y->reason && !memcmp(x->bytes, y->bytes, sizeof x->bytes));
	}
	return 0;
}
