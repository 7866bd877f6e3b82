/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the ETMv3 generator (pft/etm3gen.h) under a
 * configuration and an event sequence taken from the input, its bytes read
 * back by the ETMv3 packet decoder (pft/etm3.h): the instruction-trace
 * events (fuzz_etm3_gen weighs the data packets).
 *
 * Bytes 0-3 pick the configuration: byte 0 bit 0 cycle-accurate, bits 2:1
 * context ID size, bit 3 timestamps, bit 4 branch broadcast, bit 5 data
 * values, bit 6 data addresses, bit 7 64-bit timestamps; byte 1 bits 1:0
 * the version (ETMv3.0, 3.3, 3.4, 3.5), bit 2 the alternative branch
 * encoding (v3.4+), bits 7:3 ETMSYNCFR / 8 (0: trace start only); byte 2
 * the trace ID; byte 3 the first instruction set.  Then events of 8 bytes:
 * byte 0 % 8 < 5 an instruction (flags from byte 1: condition failed,
 * indirect, direct, exception return; the next address from bytes 2-3
 * as an offset, the next ISA switching with byte 1 bit 4; cycles from
 * byte 4; a new context ID with byte 1 bit 5), 5 an exception (number,
 * cancel, untraced, NS from bytes 1-2, its vector the next instruction's
 * address; not seen while trace is off after an untraced handler), 6-7 a
 * data transfer of the last instruction (size, address,
 * value).  Each instruction starts where the one before said it goes
 * (next_addr / the vector), so the sequence is one execution.
 *
 * Checks: the generator accepts every event it is given in this form (or
 * refuses it with -PFT_E_INVAL, and then it is not expected); every byte
 * decodes with no error or unsynced item; the P-headers' atoms are exactly
 * the instructions' (E, or N when the condition failed; the instruction a
 * cancelling exception names, E) in order; every I-sync and branch packet
 * gives the address and instruction set of the next instruction to come;
 * exception packets carry the exceptions given, in order (number, cancel
 * bit); context ID packets and I-syncs the context ID of the next
 * instruction; data packets the values and addresses given, in order; the
 * generator's counters equal the packets decoded. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/etm3.h"
#include "pft/etm3gen.h"

#include "fuzz_util.h"

#define MAXEV 4096

struct atom {
	uint32_t addr, cid;
	uint8_t isa, e;
};

struct exc {
	uint32_t vector;
	uint16_t number;
	uint8_t cancel;
};

struct dat {
	uint32_t address, value;
	uint8_t size;
};

struct expect {
	struct atom a[2 * MAXEV];
	struct exc x[MAXEV];
	struct dat d[MAXEV];
	size_t na, nx, nd;
};

static struct expect ex;
static uint8_t out[1 << 20];

/* An address the instruction set can have. */
static uint32_t align(uint32_t a, unsigned isa)
{
	return isa == PFT_ISA_ARM ? a & ~3u : a & ~1u;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t minors[4] = { 0, 3, 4, 5 };
	struct pft_config cfg;
	struct pft_etm3_features f;
	struct pft_etm3_gen *g;
	struct pft_etm3_gen_stats gs;
	struct pft_etm3_decoder *d;
	struct pft_etm3_packet p;
	uint64_t n_isync = 0, n_branch = 0, n_exc = 0, n_cancel = 0, n_ts = 0, n_cid = 0, n_ret = 0,
		 n_data = 0, n_daddr = 0, total = 0, ts = 0;
	size_t pos, len = 0, ia = 0, ix = 0, id = 0, k;
	uint32_t addr, cid = 0;
	unsigned isa, minor;
	int last_exec = 0, on = 0, r;

	if (size < 4)
		return 0;
	minor = minors[data[1] & 3];
	pft_config_init(&cfg);
	cfg.etmcr = ((data[0] & 1) ? 1u << 12 : 0) | ((uint32_t)((data[0] >> 1) & 3) << 14) |
		    ((data[0] & 8) ? 1u << 28 : 0) | ((data[0] & 16) ? 1u << 8 : 0) |
		    ((data[0] & 32) ? 1u << 2 : 0) | ((data[0] & 64) ? 1u << 3 : 0);
	cfg.etmidr = 0x410CF200u | (minor << 4) | ((minor >= 4 && (data[1] & 4)) ? 1u << 20 : 0);
	cfg.etmccer = 0x344008F2u & ~(1u << 29);
	if (data[0] & 128)
		cfg.etmccer |= 1u << 29;
	cfg.etmsyncfr = (uint32_t)(data[1] >> 3) * 8u;
	cfg.etmtraceidr = 1u + data[2] % 0x6Fu;
	if (pft_etm3_config_features(&cfg, &f, NULL, 0))
		return 0;
	g = pft_etm3_gen_alloc(&cfg);
	ASSERT(g);
	memset(&ex, 0, sizeof(ex));
	isa = data[3] & 1;
	addr = align(0x8000u + (uint32_t)data[3] * 4u, isa);
	for (pos = 4; pos + 8 <= size && ex.na < MAXEV; pos += 8) {
		const uint8_t *b = data + pos;
		unsigned kind = b[0] % 8;

		if (kind < 5) {
			struct pft_etm3_gen_insn in;
			unsigned nisa = (b[1] & 16) ? isa ^ 1u : isa;

			memset(&in, 0, sizeof(in));
			in.addr = addr;
			in.isa = (uint8_t)isa;
			in.flags = b[1] & 0x0Fu;
			in.next_isa = (uint8_t)nisa;
			in.next_addr = align(addr + (uint32_t)(int16_t)(b[2] | b[3] << 8), nisa);
			if (!(in.flags & (PFT_ETM3_GEN_I_INDIRECT | PFT_ETM3_GEN_I_DIRECT | PFT_ETM3_GEN_I_EXC_RETURN)) ||
			    (in.flags & PFT_ETM3_GEN_I_FAILED)) {
				/* not a branch taken: the next instruction follows */
				in.next_isa = (uint8_t)isa;
				in.next_addr = addr + (isa == PFT_ISA_ARM ? 4u : 2u);
			}
			in.cycles = b[4] % 8;
			if (b[1] & 32)
				cid = (uint32_t)b[5] * 0x01010101u;
			in.context_id = cid;
			ts += b[6];
			in.timestamp = ts;
			r = pft_etm3_gen_insn(g, &in);
			ASSERT(r == 0 || r == -PFT_E_INVAL);
			if (r == 0) {
				ex.a[ex.na++] = (struct atom){ addr, cid, (uint8_t)isa,
							       !(in.flags & PFT_ETM3_GEN_I_FAILED) };
				addr = (uint32_t)in.next_addr;
				isa = in.next_isa;
				last_exec = !(in.flags & PFT_ETM3_GEN_I_FAILED);
				on = 1;
			}
		} else if (kind == 5) {
			struct pft_etm3_gen_exception x;

			memset(&x, 0, sizeof(x));
			x.number = (uint16_t)(1 + b[1] % 15);
			x.flags = b[2] & 7u;
			x.isa = (uint8_t)(b[3] & 1);
			x.vector = align(0xFFFF0000u + (uint32_t)b[4] * 4u, x.isa);
			x.cancel_addr = addr;
			x.cancel_isa = (uint8_t)isa;
			x.cycles = b[5] % 8;
			ts += b[6];
			x.timestamp = ts;
			r = pft_etm3_gen_exception(g, &x);
			ASSERT(r == 0 || r == -PFT_E_INVAL);
			if (r == 0 && on) {
				/* while trace is off (after an untraced handler) an
				   exception is not seen */
				if (x.flags & PFT_ETM3_GEN_E_CANCEL)
					ex.a[ex.na++] = (struct atom){ addr, cid, (uint8_t)isa, 1 };
				if (!(x.flags & PFT_ETM3_GEN_E_UNTRACED))
					ex.x[ex.nx++] = (struct exc){ (uint32_t)x.vector, x.number,
								      (uint8_t)(x.flags & PFT_ETM3_GEN_E_CANCEL) };
				else
					on = 0;
			}
			if (r == 0) {
				addr = (uint32_t)x.vector;
				isa = x.isa;
				last_exec = 0;
			}
		} else {
			struct pft_etm3_gen_data dt;
			static const uint8_t sizes[4] = { 1, 2, 4, 4 };

			memset(&dt, 0, sizeof(dt));
			dt.size = sizes[b[1] & 3];
			dt.address = 0x20000000u + ((uint32_t)(b[2] | b[3] << 8) & ~(uint32_t)(dt.size - 1));
			dt.value = ((uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
				    (uint32_t)b[7] << 24) & (dt.size == 4 ? 0xFFFFFFFFu : (1u << (8 * dt.size)) - 1u);
			dt.flags = (b[1] >> 2) & PFT_ETM3_GEN_D_STORE;
			r = pft_etm3_gen_data(g, &dt);
			ASSERT(r == 0 || r == -PFT_E_INVAL);
			ASSERT(r == 0 || !last_exec);
			if (r == 0 && (f.data_value || f.data_address))
				ex.d[ex.nd++] = (struct dat){ (uint32_t)dt.address, dt.value, dt.size };
		}
	}
	ASSERT(pft_etm3_gen_flush(g) == 0);
	while ((k = pft_etm3_gen_read(g, out + len, sizeof(out) - len)) > 0)
		len += k;
	ASSERT(pft_etm3_gen_pending(g) == 0);
	ASSERT(pft_etm3_gen_get_stats(g, &gs, sizeof(gs)) == 0);
	ASSERT(gs.bytes == len);
	pft_etm3_gen_free(g);

	d = pft_etm3_decoder_alloc(&cfg);
	ASSERT(d);
	pft_etm3_decoder_feed(d, out, len);
	pft_etm3_decoder_end(d);
	while ((r = pft_etm3_decoder_next(d, &p, sizeof(p))) == 0) {
		total += p.size;
		ASSERT(p.type != PFT_ETM3_ERROR && p.type != PFT_ETM3_UNSYNCED);
		switch (p.type) {
		case PFT_ETM3_PHDR:
			for (k = 0; k < p.atom_count; k++) {
				ASSERT(ia < ex.na);
				ASSERT(ex.a[ia].e == ((p.atoms >> k) & 1));
				ia++;
			}
			break;
		case PFT_ETM3_ISYNC:
			n_isync++;
			if (ia < ex.na) {
				ASSERT(p.address == ex.a[ia].addr && p.isa == ex.a[ia].isa);
				if (p.flags & PFT_E3F_CID)
					ASSERT(p.context_id == (ex.a[ia].cid & (f.contextid_bytes == 4 ? 0xFFFFFFFFu :
										 (1u << (8 * f.contextid_bytes)) - 1u)));
			}
			break;
		case PFT_ETM3_BRANCH:
			n_branch++;
			if (p.flags & PFT_E3F_EXC) {
				n_exc++;
				n_cancel += (p.flags & PFT_E3F_CANCEL) != 0;
				ASSERT(ix < ex.nx);
				ASSERT(p.exception == ex.x[ix].number && p.address == ex.x[ix].vector);
				ASSERT(!(p.flags & PFT_E3F_CANCEL) == !ex.x[ix].cancel);
				ix++;
			} else if (ia < ex.na) {
				ASSERT(p.address == ex.a[ia].addr && p.isa == ex.a[ia].isa);
			}
			break;
		case PFT_ETM3_CONTEXT_ID:
			n_cid++;
			if (ia < ex.na)
				ASSERT(p.context_id == (ex.a[ia].cid & (f.contextid_bytes == 4 ? 0xFFFFFFFFu :
									 (1u << (8 * f.contextid_bytes)) - 1u)));
			break;
		case PFT_ETM3_TIMESTAMP:
			n_ts++;
			break;
		case PFT_ETM3_EXCEPTION_RETURN:
			n_ret++;
			break;
		case PFT_ETM3_DATA:
			n_data++;
			ASSERT(id < ex.nd);
			if (f.data_value)
				ASSERT(p.data_value == ex.d[id].value);
			if (p.flags & PFT_E3F_DADDR) {
				n_daddr++;
				ASSERT(p.address == ex.d[id].address);
			}
			id++;
			break;
		default:
			break;
		}
	}
	ASSERT(r == -PFT_E_EOS);
	ASSERT(total == len);
	ASSERT(ia == ex.na && ix == ex.nx && id == ex.nd);
	ASSERT(gs.atoms == ex.na && gs.isyncs == n_isync && gs.branches == n_branch &&
	       gs.exceptions == n_exc && gs.cancels == n_cancel && gs.timestamps == n_ts &&
	       gs.context_ids == n_cid && gs.exc_returns == n_ret && gs.data == n_data &&
	       gs.data_addresses == n_daddr);
	pft_etm3_decoder_free(d);
	return 0;
}
