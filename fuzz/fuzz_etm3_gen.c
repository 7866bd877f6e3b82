/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target for the ETMv3 generator (pft_etm3_gen_*) with data
 * trace, read back with the ETMv3 packet decoder.
 *
 * Input: byte 0 picks the configuration (bits 1:0 ETMCR[3:2] data trace,
 * bit 2 cycle-accurate, bits 4:3 context ID size, bit 5 timestamps, bit 6
 * branch broadcast, bit 7 alternative branch encoding); byte 1 ETMSYNCFR
 * (times 4; 0 = at trace start only).  Then 4-byte steps: op, a, b, c:
 *   op & 3 == 0, 1: an instruction (ARM or Thumb from op bit 2) at a
 *     running address, condition failed with op bit 3, an indirect branch
 *     to a nearby address with op bit 4, cycles from c;
 *   op & 3 == 2: a data transfer of 1, 2 or 4 bytes (op bits 3:2; 3 gives
 *     4 bytes), at the last address + a - 128 (or, op bit 4, far away),
 *     value from b and c;
 *   op & 3 == 3: an exception (IRQ; data abort that cancels with op bit 2).
 *
 * Checks: the generator refuses nothing but a transfer with no executed
 * instruction to belong to; its bytes decode without error or unsynced
 * item; the normal data packets are the transfers accepted, in order,
 * with the address present exactly on an instruction's first transfer or
 * one that does not follow on (A bit when addresses are not traced) and
 * equal, and the value equal in the fewest bytes; the decoded atoms are
 * the generator's count. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/etm3.h"
#include "pft/etm3gen.h"
#include "pft/packet.h"

#define MAXD 4096

struct xfer {
	uint32_t addr, value;
	uint8_t need;
};

struct run {
	struct xfer d[MAXD];
	size_t nd, seen;
	uint64_t atoms;
	int daddr, dval;
};

static void fail(void)
{
	abort();
}

static unsigned vbytes(uint32_t v)
{
	return v == 0 ? 0 : v <= 0xff ? 1 : v <= 0xffff ? 2 : 4;
}

static int check_pkt(const struct pft_etm3_packet *p, void *arg)
{
	struct run *r = arg;
	const struct xfer *x;

	if (p->type == PFT_ETM3_ERROR || p->type == PFT_ETM3_UNSYNCED)
		fail();
	if (p->type == PFT_ETM3_PHDR)
		r->atoms += p->atom_count;
	if (p->type != PFT_ETM3_DATA)
		return 0;
	if (r->seen >= r->nd)
		fail();
	x = &r->d[r->seen++];
	if (r->daddr) {
		if (!!(p->flags & PFT_E3F_DADDR) != x->need)
			fail();
		if (x->need && p->address != x->addr)
			fail();
	} else if (!!(p->flags & PFT_E3F_VARIANT) != x->need) {
		fail();
	}
	if (p->data_value != (r->dval ? x->value : 0) ||
	    p->data_size != (r->dval ? vbytes(x->value) : 0))
		fail();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t cid[4] = { 0, 0x4000, 0x8000, 0xC000 };
	static struct run r;
	struct pft_config cfg;
	struct pft_etm3_gen *g;
	struct pft_etm3_gen_stats st;
	uint8_t *buf;
	size_t len, i, n;
	uint32_t pc = 0x8000, last_daddr = 0x20000000, next_daddr = 0;
	int isa = PFT_ISA_ARM, have_e = 0, first = 1;
	uint64_t ts = 0;

	if (size < 2)
		return 0;
	memset(&r, 0, sizeof r);
	pft_config_init(&cfg);
	cfg.etmcr = ((uint32_t)(data[0] & 3) << 2) | ((data[0] & 4) ? 0x1000u : 0) |
		    cid[(data[0] >> 3) & 3] | ((data[0] & 32) ? 1u << 28 : 0) |
		    ((data[0] & 64) ? 1u << 8 : 0);
	cfg.etmidr = 0x410CF250u | ((data[0] & 128) ? 1u << 20 : 0);
	cfg.etmccer = 0x344008F2u;
	cfg.etmtraceidr = 0x10;
	cfg.etmsyncfr = 4u * data[1];
	r.daddr = (data[0] & 2) != 0;
	r.dval = (data[0] & 1) != 0;
	g = pft_etm3_gen_alloc(&cfg);
	if (!g)
		fail();
	for (i = 2; i + 4 <= size; i += 4) {
		uint8_t op = data[i], a = data[i + 1], b = data[i + 2], c = data[i + 3];

		ts += c;
		if ((op & 3) < 2) {
			struct pft_etm3_gen_insn in;
			int thumb = (op & 4) != 0;

			memset(&in, 0, sizeof in);
			isa = thumb ? PFT_ISA_THUMB : PFT_ISA_ARM;
			pc = thumb ? pc & ~1u : pc & ~3u;
			in.addr = pc;
			in.isa = (uint8_t)isa;
			in.flags = (op & 8) ? PFT_ETM3_GEN_I_FAILED : 0;
			in.cycles = c & 7;
			in.timestamp = ts;
			in.context_id = b;
			if (op & 16) {
				in.flags |= PFT_ETM3_GEN_I_INDIRECT;
				in.next_addr = (pc + 4u * a + 0x100u) & (thumb ? ~1u : ~3u);
			} else {
				in.next_addr = pc + (thumb ? 2 : 4);
			}
			in.next_isa = (uint8_t)isa;
			if (pft_etm3_gen_insn(g, &in) != 0)
				fail();
			pc = (uint32_t)in.next_addr;
			have_e = !(op & 8);
			first = 1;
		} else if ((op & 3) == 2) {
			struct pft_etm3_gen_data d;
			unsigned sz = ((op >> 2) & 3) == 3 ? 4 : 1u << ((op >> 2) & 3);
			int rc;

			memset(&d, 0, sizeof d);
			d.size = (uint8_t)sz;
			d.address = (op & 16) ? ((uint32_t)a << 24 | (uint32_t)b << 8)
					      : (op & 32) && !first ? next_daddr
								    : last_daddr + a - 128u;
			d.address &= 0xffffffffu;
			d.value = ((uint32_t)b << 24 | (uint32_t)c << 8 | c) >> (8 * (4 - sz));
			rc = pft_etm3_gen_data(g, &d);
			if (rc != (have_e || !(cfg.etmcr & 0xc) ? 0 : -PFT_E_INVAL))
				fail();
			if (rc == 0 && (cfg.etmcr & 0xc) && r.nd < MAXD) {
				r.d[r.nd].addr = (uint32_t)d.address;
				r.d[r.nd].value = d.value;
				r.d[r.nd].need = first || (uint32_t)d.address != next_daddr;
				r.nd++;
				first = 0;
				last_daddr = (uint32_t)d.address;
				next_daddr = (uint32_t)d.address + sz;
			} else if (rc == 0 && (cfg.etmcr & 0xc)) {
				break; /* enough */
			}
		} else {
			struct pft_etm3_gen_exception x;

			memset(&x, 0, sizeof x);
			x.vector = 0x18;
			x.isa = PFT_ISA_ARM;
			x.number = 14;
			x.timestamp = ts;
			if ((op & 4) && have_e) {
				x.vector = 0x10;
				x.number = 12;
				x.flags = PFT_ETM3_GEN_E_CANCEL;
				x.cancel_addr = pc;
				x.cancel_isa = (uint8_t)isa;
			}
			if (pft_etm3_gen_exception(g, &x) != 0)
				fail();
			pc = 0x18;
			isa = PFT_ISA_ARM;
			have_e = 0;
		}
	}
	if (pft_etm3_gen_flush(g) != 0 || pft_etm3_gen_get_stats(g, &st, sizeof st) != 0)
		fail();
	len = pft_etm3_gen_pending(g);
	buf = malloc(len ? len : 1);
	if (!buf)
		fail();
	n = pft_etm3_gen_read(g, buf, len);
	if (n != len || pft_etm3_decode_buffer(&cfg, buf, len, check_pkt, &r) != 0)
		fail();
	if (r.seen != r.nd || st.data != r.nd || r.atoms != st.atoms)
		fail();
	free(buf);
	pft_etm3_gen_free(g);
	return 0;
}
