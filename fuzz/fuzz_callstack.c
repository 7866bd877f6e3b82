/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: random bytes through the flow decoder and the call-stack
 * tracker, against a fixed small image of pseudo-random ARM and Thumb code
 * (as fuzz_flow) cut into 64-byte "functions".  Byte 0 picks the ETMCR
 * features; byte 1 a small max_depth and max_contexts, so that the depth
 * limit and stack eviction happen.  Checks: no crash, no hang, every frame
 * pushed is popped exactly once and in order per context, depth and level
 * as the events say, every instruction of the flow counted. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/pft.h"

#include "fuzz_util.h"


static uint8_t code[1024], vectors[64];
static struct pft_image *img;

static void init_image(void)
{
	img = fuzz_code_image(0x9E3779B9u, code, sizeof(code), vectors, sizeof(vectors));
}

static int func_of(void *ctx, uint64_t addr, uint64_t *s, uint64_t *e)
{
	(void)ctx;
	if (addr < 0x1000 || addr >= 0x1400)
		return 0;
	*s = addr & ~63ull;
	*e = *s + 64;
	return 1;
}

/* per-context mirror depth, a few contexts by hash */
struct mirror {
	uint32_t cid[64];
	uint32_t depth[64];
	unsigned n;
};

static uint32_t *depth_of(struct mirror *m, uint32_t cid)
{
	unsigned i;

	for (i = 0; i < m->n; i++)
		if (m->cid[i] == cid)
			return &m->depth[i];
	if (m->n == 64)
		return NULL;
	m->cid[m->n] = cid;
	m->depth[m->n] = 0;
	return &m->depth[m->n++];
}

static void check(struct pft_cs_tracker *cs, struct mirror *m, uint64_t *insns)
{
	struct pft_cs_event ev;
	uint32_t *d;
	int r;

	while ((r = pft_cs_tracker_next(cs, &ev, sizeof(ev))) == 0) {
		ASSERT(ev.kind >= PFT_CS_RUN && ev.kind < PFT_CS_KIND_NR);
		ASSERT(ev.level <= ev.depth);
		d = depth_of(m, ev.context_id);
		if (!d)
			continue;
		switch (ev.kind) {
		case PFT_CS_RUN:
			*insns += ev.ninsns;
			ASSERT(!ev.ninsns || ev.insns);
			break;
		case PFT_CS_CALL:
		case PFT_CS_EXC_ENTRY:
			ASSERT(ev.depth == *d + 1);
			*d = ev.depth;
			break;
		case PFT_CS_RETURN:
		case PFT_CS_EXC_RETURN:
			ASSERT(*d > 0 && ev.depth == *d - 1);
			ASSERT(ev.reason < PFT_CS_HOW_NR);
			*d = ev.depth;
			break;
		default:
			break;
		}
	}
	ASSERT(r == -PFT_E_AGAIN || r == -PFT_E_EOS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t variants[8] = {
		0x00000000u, 0x00001000u, 0x20000000u, 0x10001000u,
		0x0000C100u, 0x5000D000u, 0x30004000u, 0x2000C000u
	};
	struct pft_config cfg;
	struct pft_cs_config cc;
	struct pft_flow_decoder *d;
	struct pft_cs_tracker *cs;
	struct pft_flow_item it;
	struct pft_flow_stats fst;
	struct pft_cs_stats st;
	struct mirror m;
	size_t pos = 2, chunk = 64;
	uint64_t insns = 0;
	unsigned i;
	int r;

	if (!img)
		init_image();
	if (size < 2)
		return 0;
	pft_config_init(&cfg);
	cfg.etmcr = variants[data[0] & 7];
	pft_cs_config_init(&cc);
	cc.max_depth = 1 + (data[1] & 15);
	cc.max_contexts = 1 + ((data[1] >> 4) & 3);
	cc.cpu_hz = (data[0] & 8) ? 1000000 : 0;
	cc.ts_hz = (data[0] & 16) ? 24000000 : 0;
	cc.flags = (data[0] & 32) ? PFT_CS_CFG_NO_RUNS : 0;
	if (data[0] & 64)
		cc.func_of = func_of;
	d = pft_flow_decoder_alloc(&cfg, img);
	cs = pft_cs_tracker_alloc(&cc);
	ASSERT(d && cs);
	memset(&m, 0, sizeof(m));
	for (;;) {
		fuzz_flow_feed(d, data, size, &pos, chunk);
		while ((r = pft_flow_decoder_next(d, &it, sizeof(it))) == 0) {
			ASSERT(pft_cs_tracker_put(cs, &it, sizeof(it)) == 0);
			ASSERT(pft_cs_tracker_depth(cs) <= cc.max_depth);
			check(cs, &m, &insns);
		}
		if (r == -PFT_E_EOS)
			break;
		ASSERT(r == -PFT_E_AGAIN);
	}
	ASSERT(pft_cs_tracker_end(cs) == 0);
	check(cs, &m, &insns);
	for (i = 0; i < m.n; i++)
		ASSERT(m.depth[i] == 0);
	pft_flow_decoder_get_stats(d, &fst, sizeof(fst));
	pft_cs_tracker_get_stats(cs, &st, sizeof(st));
	ASSERT(st.insns == fst.insns);
	if (!cc.flags)
		ASSERT(insns == fst.insns);
	pft_cs_tracker_free(cs);
	pft_flow_decoder_free(d);
	return 0;
}
