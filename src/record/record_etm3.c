/* SPDX-License-Identifier: BSD-3-Clause */
/* Record part: the ETMv3 sink.  Every completed instruction is classified
 * from its opcode with the ISA layer, as the ETMv3 flow decoder classifies
 * it from the image, and goes to the ETMv3 generator (pft/etm3gen.h):
 *   - N atom: the source says the condition failed, or a direct branch
 *     whose successor is not its target (B<cond>, CBZ/CBNZ not taken), or,
 *     for sources that do not know the flags (logs), a conditional
 *     waypoint that falls through (the PTM sink's rule, record_ptm.c);
 *   - an executed indirect branch gets a branch address (its successor);
 *     a direct one too under branch broadcast;
 *   - an exception return (SUBS PC, LR, RFE, LDM ^ ...) an exception
 *     return packet.
 * With data trace (ETMCR[3:2]) each data transfer the source saw (the
 * emulator's memory hooks, pft_rec_insn.access) follows its instruction
 * as a normal data packet (pft_etm3_gen_data).
 * Exceptions become exception branch packets; the types in cancel_mask
 * trace the instruction at the preferred return address (the one that
 * aborted, which the sources do not deliver) and cancel it.  The cycles of
 * each instruction are the pipeline's cycle count since the previous one.
 * The bytes are kept in memory, framed at the end when asked. */
#include <stdlib.h>
#include <string.h>

#include "pft/etm3.h"
#include "pft/etm3gen.h"
#include "pft/frame.h"
#include "pft/isa.h"
#include "pft/record.h"

#define CHUNK 65536

struct pft_rec_etm3 {
	struct pft_etm3_gen *gen;
	int frames;
	uint8_t trace_id;
	unsigned cancel_mask;
	uint8_t *buf;
	size_t len, cap;
	uint64_t cpu_freq, ts_freq;
	uint64_t last_cycle;
	int data;                /* ETMCR[3:2]: data transfers traced */
};

int pft_rec_etm3_alloc(struct pft_rec_etm3 **out, const struct pft_config *cfg, int frames,
                       unsigned cancel_mask, uint64_t cpu_freq, uint64_t ts_freq)
{
	struct pft_rec_etm3 *re;
	struct pft_etm3_features f;

	if (!out || !cfg || !cpu_freq || !ts_freq)
		return -PFT_E_INVAL;
	*out = NULL;
	if (pft_etm3_config_features(cfg, &f, NULL, 0) || f.data_only)
		return -PFT_E_BAD_CONFIG;
	re = calloc(1, sizeof(*re));
	if (!re)
		return -PFT_E_NOMEM;
	re->gen = pft_etm3_gen_alloc(cfg);
	if (!re->gen) {
		free(re);
		return -PFT_E_NOMEM;
	}
	re->frames = frames;
	re->data = f.data_value || f.data_address;
	re->trace_id = f.trace_id;
	re->cancel_mask = cancel_mask;
	re->cpu_freq = cpu_freq;
	re->ts_freq = ts_freq;
	*out = re;
	return 0;
}

void pft_rec_etm3_free(struct pft_rec_etm3 *re)
{
	if (!re)
		return;
	pft_etm3_gen_free(re->gen);
	free(re->buf);
	free(re);
}

const uint8_t *pft_rec_etm3_trace(const struct pft_rec_etm3 *re, size_t *len)
{
	*len = re->len;
	return re->buf ? re->buf : (const uint8_t *)"";
}

int pft_rec_etm3_get_stats(const struct pft_rec_etm3 *re, struct pft_etm3_gen_stats *st, size_t size)
{
	return re ? pft_etm3_gen_get_stats(re->gen, st, size) : -PFT_E_INVAL;
}

static int reserve(struct pft_rec_etm3 *re, size_t more)
{
	if (re->cap - re->len < more) {
		size_t ncap = re->cap ? re->cap : 4 * CHUNK;
		uint8_t *nb;

		while (ncap - re->len < more)
			ncap *= 2;
		nb = realloc(re->buf, ncap);
		if (!nb)
			return -PFT_E_NOMEM;
		re->buf = nb;
		re->cap = ncap;
	}
	return 0;
}

static int drain(struct pft_rec_etm3 *re)
{
	size_t n = pft_etm3_gen_pending(re->gen);

	if (reserve(re, n) < 0)
		return -PFT_E_NOMEM;
	re->len += pft_etm3_gen_read(re->gen, re->buf + re->len, n);
	return 0;
}

static uint64_t ts_of(const struct pft_rec_etm3 *re, uint64_t cycle)
{
	return pft_rec_ts_of_cycle(cycle, re->cpu_freq, re->ts_freq);
}

static uint32_t cycles_since(struct pft_rec_etm3 *re, uint64_t cycle)
{
	uint64_t d = cycle - re->last_cycle;

	re->last_cycle = cycle;
	return d > 0xffffffffu ? 0xffffffffu : (uint32_t)d;
}

static unsigned classify(const struct pft_rec_full *f)
{
	struct pft_insn_info info;
	uint8_t b[4];
	uint32_t op = f->in.opcode;
	unsigned flags = f->in.cond == 0 ? PFT_ETM3_GEN_I_FAILED : 0, i;

	if (f->in.size == 4 && f->in.isa != PFT_ISA_ARM)
		op = (op >> 16) | (op << 16);
	for (i = 0; i < 4; i++)
		b[i] = (uint8_t)(op >> (8 * i));
	if (flags || pft_isa_decode((enum pft_isa)f->in.isa, f->in.addr, b, f->in.size, 0, &info) < 0)
		return flags;
	if (pft_isa_is_waypoint(&info, 0)) {
		if (info.flags & PFT_INSN_F_TARGET) {
			if (f->next_addr != info.target || f->next_isa != info.target_isa)
				return PFT_ETM3_GEN_I_FAILED;
		} else if (f->in.cond < 0 && f->in.condcode != 14 &&
		           f->next_addr == f->in.addr + f->in.size) {
			return PFT_ETM3_GEN_I_FAILED;
		}
	}
	if (info.wp_class == PFT_WP_INDIRECT)
		flags |= PFT_ETM3_GEN_I_INDIRECT;
	else if (info.wp_class == PFT_WP_DIRECT || info.wp_class == PFT_WP_ISA_CHANGE)
		flags |= PFT_ETM3_GEN_I_DIRECT;
	if (info.flags & PFT_INSN_F_EXC_RETURN)
		flags |= PFT_ETM3_GEN_I_EXC_RETURN;
	return flags;
}

/* The instruction's data transfers (the emulator's, in order) as normal
 * data packets; a 64-bit transfer as two 32-bit ones, the lower address
 * first (little endian).  More transfers than the source kept: unsupported. */
static int put_data(struct pft_rec_etm3 *re, const struct pft_rec_insn *in)
{
	struct pft_etm3_gen_data d;
	unsigned i, h;
	int rc;

	if (in->naccess > PFT_REC_MAX_ACCESS)
		return -PFT_E_UNSUPPORTED;
	for (i = 0; i < in->naccess; i++) {
		const struct pft_rec_access *a = &in->access[i];
		unsigned halves = a->size == 8 ? 2 : 1;

		for (h = 0; h < halves; h++) {
			memset(&d, 0, sizeof(d));
			d.address = a->addr + 4u * h;
			d.size = halves == 2 ? 4 : a->size;
			d.value = (uint32_t)(a->value >> (32 * h));
			d.flags = a->write ? PFT_ETM3_GEN_D_STORE : 0;
			if ((rc = pft_etm3_gen_data(re->gen, &d)) < 0)
				return rc;
		}
	}
	return 0;
}

static int on_insn(void *ctx, const struct pft_rec_full *f)
{
	struct pft_rec_etm3 *re = ctx;
	struct pft_etm3_gen_insn gi;
	int rc;

	memset(&gi, 0, sizeof(gi));
	gi.addr = f->in.addr;
	gi.next_addr = f->next_addr;
	gi.isa = f->in.isa;
	gi.next_isa = f->next_isa;
	gi.context_id = f->in.context_id;
	gi.cycles = cycles_since(re, f->cycle);
	gi.timestamp = ts_of(re, f->cycle);
	gi.flags = (uint8_t)classify(f);
	rc = pft_etm3_gen_insn(re->gen, &gi);
	if (rc == 0 && re->data && f->in.naccess)
		rc = put_data(re, &f->in);
	if (rc == 0 && pft_etm3_gen_pending(re->gen) >= CHUNK)
		rc = drain(re);
	return rc;
}

static int on_exc(void *ctx, const struct pft_rec_exc *x, uint64_t cycle)
{
	struct pft_rec_etm3 *re = ctx;
	struct pft_etm3_gen_exception ge;

	memset(&ge, 0, sizeof(ge));
	ge.vector = x->vector;
	ge.isa = x->isa;
	ge.number = x->type;
	ge.cycles = cycles_since(re, cycle);
	ge.timestamp = ts_of(re, cycle);
	if (x->untraced)
		ge.flags |= PFT_ETM3_GEN_E_UNTRACED;
	if (x->type < 32 && (re->cancel_mask >> x->type) & 1u) {
		ge.flags |= PFT_ETM3_GEN_E_CANCEL;
		ge.cancel_addr = x->pref_return;
		ge.cancel_isa = x->return_isa;
	}
	return pft_etm3_gen_exception(re->gen, &ge);
}

static int on_end(void *ctx, uint64_t cycle)
{
	struct pft_rec_etm3 *re = ctx;
	uint8_t *framed;
	size_t cap;
	int64_t n;
	int rc;

	(void)cycle;
	rc = pft_etm3_gen_flush(re->gen);
	if (rc == 0)
		rc = drain(re);
	if (rc < 0 || !re->frames)
		return rc;
	cap = 20 * (re->len / 7 + 2);
	framed = malloc(cap);
	if (!framed)
		return -PFT_E_NOMEM;
	n = pft_frame_encode_buffer(PFT_FRAME_CORESIGHT, re->trace_id, re->buf, re->len, framed, cap);
	if (n < 0) {
		free(framed);
		return (int)n;
	}
	free(re->buf);
	re->buf = framed;
	re->len = (size_t)n;
	re->cap = cap;
	re->frames = 0; /* framed once */
	return 0;
}

void pft_rec_etm3_consumer(struct pft_rec_etm3 *re, struct pft_rec_consumer *c)
{
	c->insn = on_insn;
	c->exception = on_exc;
	c->end = on_end;
	c->ctx = re;
}
