/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: random bytes through the ETMv3 packet decoder and the
 * ETMv3 instruction flow, against a fixed small image of pseudo-random code
 * at 0x1000 (so every branch class occurs).  Byte 0 picks the
 * configuration (bit 0 cycle-accurate, bits 2:1 context ID size, bit 3 data
 * values, bit 4 data addresses, bit 6 alternative branch encoding, bit 7
 * 64-bit timestamps).  Checks: no crash or hang; every flow item of a
 * packet is pulled before the next packet; a range's instructions follow
 * one another from its address to its end, inside the image; in
 * cycle-accurate mode insn_cycles add up to cycles; indexes count the
 * instructions; pft_etm3_flow_decoder_put_packets on batches gives the same
 * items as pft_etm3_flow_decoder_put_packet on each packet, and so does
 * pft_etm3_flow_decoder_put_from (P-headers read in place, the fast path)
 * with the stream fed in chunks whose lengths come from the input (a
 * differential check of the fast path against the general one), with the
 * same totals from pft_etm3_flow_decoder_get_stats. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/etm3flow.h"
#include "pft/image.h"

#include "fuzz_util.h"


static uint8_t code[1024];
static struct pft_image *img;

static void init_image(void)
{
	img = fuzz_code_image(0x9E3779B9u, code, sizeof(code), NULL, 0);
}

/* What is compared between the two ways of giving packets. */
struct seen {
	uint64_t index, addr, end, next;
	uint32_t kind, type, ninsns, cycles, end_kind, flags;
};

/* One item: checked, then recorded (pass 0) or compared (passes 1, 2). */
static void item(const struct pft_flow_item *it, uint64_t *insns, struct seen *v, size_t cap,
		 size_t *n, int pass)
{
	struct seen s;
	uint32_t j, sum = 0;

	ASSERT(it->index == *insns);
	if (it->kind == PFT_FLOW_RANGE) {
		ASSERT(it->ninsns >= 1 && it->insns && it->insns[0].addr == it->addr);
		for (j = 1; j < it->ninsns; j++)
			ASSERT(it->insns[j].addr == it->insns[j - 1].addr + it->insns[j - 1].size);
		ASSERT(it->end == it->insns[it->ninsns - 1].addr + it->insns[it->ninsns - 1].size);
		ASSERT(it->addr >= 0x1000 && it->end <= 0x1000 + sizeof(code));
		if (it->insn_cycles) {
			ASSERT(it->flags & PFT_FLOW_F_CC);
			for (j = 0; j < it->ninsns; j++)
				sum += it->insn_cycles[j];
			ASSERT(sum == it->cycles);
		}
		*insns += it->ninsns;
	}
	memset(&s, 0, sizeof(s));
	s.index = it->index;
	s.addr = it->addr;
	s.end = it->end;
	s.next = it->next;
	s.kind = it->kind;
	s.type = it->type;
	s.ninsns = it->ninsns;
	s.cycles = it->cycles;
	s.end_kind = it->end_kind;
	s.flags = it->flags;
	if (*n < cap) {
		if (pass == 0)
			v[*n] = s;
		else
			ASSERT(!memcmp(&v[*n], &s, sizeof(s)));
	}
	++*n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pft_etm3_packet pk[16];
	struct pft_config cfg;
	struct pft_flow_item it;
	size_t cap = 16 * size + 16, n[3] = { 0, 0, 0 };
	struct pft_flow_stats st[3];
	struct seen *v;
	uint8_t sel;
	int pass;

	if (!img)
		init_image();
	if (size < 1)
		return 0;
	v = malloc(cap * sizeof(*v));
	ASSERT(v);
	sel = data[0];
	fuzz_etm3_config(&cfg, sel);
	for (pass = 0; pass < 3; pass++) {
		struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(&cfg);
		struct pft_etm3_flow_decoder *fl = pft_etm3_flow_decoder_alloc(&cfg, img);
		struct pft_etm3_packet p;
		uint64_t insns = 0;
		int np = 0, ip = 0;
		size_t fpos = 1, fk = 0;

		ASSERT(d && fl);
		if (pass < 2) {
			pft_etm3_decoder_feed(d, data + 1, size - 1);
			pft_etm3_decoder_end(d);
		}
		for (;;) {
			int more;

			if (pass == 2) {
				int r = pft_etm3_flow_decoder_put_from(fl, d);

				if (r == -PFT_E_AGAIN) {
					/* the next chunk: 1 to 64 bytes, its length from
					   the input's bytes in turn, or the end */
					size_t len = 1 + (data[fk++ % size] & 63u);

					if (fpos < size) {
						if (len > size - fpos)
							len = size - fpos;
						ASSERT(pft_etm3_decoder_feed(d, data + fpos, len) == 0);
						fpos += len;
					} else {
						ASSERT(pft_etm3_decoder_end(d) == 0);
					}
					continue;
				}
				ASSERT(r == 0 || r == -PFT_E_EOS);
				more = r == 0;
			} else if (pass == 0) {
				more = pft_etm3_decoder_next(d, &p, sizeof p) == 0;
				if (more)
					ASSERT(pft_etm3_flow_decoder_put_packet(fl, &p) == 0);
			} else {
				if (ip == np) {
					np = pft_etm3_decoder_next_batch(d, pk, 16, sizeof pk[0]);
					ip = 0;
					if (np < 0)
						np = 0;
				}
				more = np > 0;
				if (more) {
					int k = pft_etm3_flow_decoder_put_packets(fl, &pk[ip], (size_t)(np - ip),
										  sizeof pk[0]);
					ASSERT(k > 0 && k <= np - ip);
					ip += k;
				}
			}
			if (!more)
				ASSERT(pft_etm3_flow_decoder_end(fl) == 0);
			while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0)
				item(&it, &insns, v, cap, &n[pass], pass);
			if (!more)
				break;
		}
		ASSERT(pft_etm3_flow_decoder_next(fl, &it, sizeof it) == -PFT_E_EOS);
		ASSERT(pft_etm3_flow_decoder_get_stats(fl, &st[pass], sizeof st[pass]) == 0);
		ASSERT(st[pass].insns == insns);
		ASSERT(st[pass].bytes == size - 1);
		if (pass)
			ASSERT(!memcmp(&st[pass], &st[0], sizeof st[0]));
		pft_etm3_flow_decoder_free(fl);
		pft_etm3_decoder_free(d);
	}
	ASSERT(n[0] == n[1] && n[0] == n[2]);
	free(v);
	return 0;
}
