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

#include "fuzz_par.h"

static uint8_t code[1024];
static struct pft_image *img;

static void init_image(void)
{
	img = fuzz_code_image(0x9E3779B9u, code, sizeof(code), NULL, 0);
}

struct pkts {
	struct pft_etm3_packet pk[FUZZ_PAR_MAXI];
	size_t n;
};

static struct fuzz_items ser, par;
static struct pkts ser_pk, par_pk;
static struct pft_flow_stats ser_st;
static struct pft_flow_item segit[8][64];
static struct pft_insn segin[8][256];
static uint32_t segcyc[8][256];
static struct pft_etm3_packet segpk[8][64];

static void put_pk(struct pkts *o, const struct pft_etm3_packet *p)
{
	if (o->n < FUZZ_PAR_MAXI)
		o->pk[o->n++] = *p;
}

static int take_pkts(struct pft_par *pp, void *arg)
{
	struct pft_etm3_packet pk;
	int r;

	while ((r = pft_par_next_etm3_packet(pp, &pk, sizeof pk)) == 0)
		put_pk(arg, &pk);
	return r;
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
			fuzz_items_put(&ser, &it);
			if (it.kind == PFT_FLOW_EVENT) {
				ser_st.events[it.type]++;
			} else {
				ser_st.ranges++;
				ser_st.insns += it.ninsns;
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
			ser_st.packets++;
		put_pk(&ser_pk, &p);
		ASSERT(pft_etm3_flow_decoder_put_packet(fl, &p) == 0);
	}
	ser_st.bytes = pft_etm3_decoder_get_offset(d);
	pft_etm3_flow_decoder_free(fl);
	pft_etm3_decoder_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pft_config cfg;
	struct pft_etm3_counts c1, c2;
	struct pft_flow_stats par_st;
	struct pft_par *p;
	struct pft_par_buf b[8], bp[8];
	struct fuzz_par f;
	size_t i;
	unsigned k;
	uint8_t sel;
	const uint8_t *s;
	size_t len;

	if (!img)
		init_image();
	if (size < 2)
		return 0;
	sel = data[0];
	fuzz_etm3_config(&cfg, sel);
	f.cfg = &cfg;
	f.img = img;
	f.mode = PFT_ISYNC_RESYNC_LOST;
	f.jobs = 1 + (data[1] & 7);
	f.window = 16 + (size_t)((data[1] >> 3) & 15) * 37;
	s = data + 2;
	len = size - 2;

	memset(&ser, 0, sizeof ser);
	memset(&par, 0, sizeof par);
	memset(&ser_st, 0, sizeof ser_st);
	ser_pk.n = par_pk.n = 0;
	serial(&cfg, s, len);

	for (k = 0; k < f.jobs; k++) {
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
	p = fuzz_par_run(&f, PFT_PAR_FLOW, b, s, len, fuzz_par_take_items, &par);
	ASSERT(pft_par_get_stats(p, &par_st, sizeof par_st) == 0);
	pft_par_free(p);
	p = fuzz_par_run(&f, PFT_PAR_PACKETS, bp, s, len, take_pkts, &par_pk);
	ASSERT(pft_par_get_etm3_counts(p, &c2, sizeof c2) == 0);
	pft_par_free(p);
	ASSERT(!memcmp(&ser_st, &par_st, sizeof ser_st));
	ASSERT(fuzz_items_same(&ser, &par));
	ASSERT(ser_pk.n == par_pk.n);
	for (i = 0; i < ser_pk.n; i++) /* up to the end of bytes[]: the tail padding is not set */
		ASSERT(!memcmp(&ser_pk.pk[i], &par_pk.pk[i],
			       offsetof(struct pft_etm3_packet, bytes) + PFT_ETM3_MAX_BYTES));
	memset(&c1, 0, sizeof c1);
	for (i = 0; i < ser_pk.n; i++) {
		const struct pft_etm3_packet *x = &ser_pk.pk[i];
		if (x->type == PFT_ETM3_ERROR && !c1.items[PFT_ETM3_ERROR])
			c1.first_error = x->offset;
		c1.items[x->type]++;
		c1.bytes[x->type] += x->size;
	}
	ASSERT(ser_pk.n == FUZZ_PAR_MAXI || !memcmp(&c1, &c2, sizeof c1));
	return 0;
}
