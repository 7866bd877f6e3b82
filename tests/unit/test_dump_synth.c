/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump against OpenCSD on synthetic trace of every packet type, for the
 * configurations the real traces lack (context ID 1/2/4 bytes, VMID, PFTv1.0
 * with Gray timestamps, 48-bit timestamps, branch broadcast, ThumbEE,
 * exceptions with NS/Hyp, triggers, ignores, waypoint updates).  Random
 * packets (seeded) are encoded with the libpft encoder, framed with the libpft
 * formatter together with a second source (or left raw), and written as a
 * snapshot.  tests/scripts/dump_oracle.py then compares `pft dump` with
 * trc_pkt_lister packet by packet: zero differences beyond the deliberate
 * ones listed in the script. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pft/frame.h"
#include "pft/packet.h"
#include "pft/snapshot.h"

#define NPKT 1500

struct variant {
	const char *name;
	uint32_t etmcr, etmidr, etmccer;
	int framed;
};

static const struct variant variants[] = {
	{ "cid4_vmid", 0x4000C000, 0x411CF312, 0x34C01AC2, 0 },
	{ "ca_ts64_cid1", 0x10005000, 0x411CF312, 0x34C01AC2, 1 },
	{ "v10_ca_ts_gray", 0x10001000, 0x411CF301, 0x000008EA, 1 },
	{ "ts48_gray_cid2", 0x10008000, 0x411CF312, 0x04C01AC2, 0 },
	{ "ca_bb_cid4", 0x0000D100, 0x411CF312, 0x34C01AC2, 1 },
};

static uint32_t rnd(uint64_t *s, uint32_t n)
{
	return (uint32_t)(check_rand(s) % n);
}

static uint64_t addr_for(uint64_t *s, unsigned isa, uint64_t near)
{
	uint64_t a;

	switch (rnd(s, 4)) {
	case 0: a = near + (rnd(s, 64) << 1); break;           /* short hop */
	case 1: a = (near & ~0xFFFFull) | rnd(s, 0x10000); break;
	case 2: a = (near & ~0xFFFFFFull) | rnd(s, 0x1000000); break;
	default: a = (uint64_t)(uint32_t)check_rand(s); break;
	}
	a &= 0xFFFFFFFFull;
	return isa == PFT_ISA_ARM ? a & ~3ull : a & ~1ull;
}

static unsigned pick_isa(uint64_t *s)
{
	unsigned r = rnd(s, 10);
	return r < 5 ? PFT_ISA_THUMB : r < 9 ? PFT_ISA_ARM : PFT_ISA_THUMBEE;
}

/* Encode one random packet sequence; returns its length. */
static size_t generate(const struct variant *v, const struct pft_config *cfg, uint64_t *s,
		       uint8_t *out, size_t cap)
{
	struct pft_features f;
	struct pft_pkt_encoder *e = pft_pkt_encoder_alloc(cfg);
	struct pft_packet p;
	size_t n = 0;
	uint64_t last = 0x80000000, ts = 0x1000;
	unsigned i, cur_isa = PFT_ISA_ARM, ns = 0, hyp = 0;
	int r;

	(void)v;
	pft_config_features(cfg, &f);
	CHECK(e != NULL);
	if (!e)
		return 0;
	/* Some junk before the first A-sync, as in a wrapped buffer. */
	for (i = 0; i < 7; i++)
		out[n++] = (uint8_t)(0x81 + i);
	for (i = 0; i < NPKT && n + 64 < cap; i++) {
		unsigned kind = i == 0 ? 100 : i == 1 ? 101 : rnd(s, 100);

		memset(&p, 0, sizeof p);
		if (kind == 100 || (kind >= 98 && kind < 100)) {
			p.type = PFT_PKT_ASYNC;
			if (kind == 99)
				p.size = 6 + rnd(s, 4);
		} else if (kind == 101 || kind >= 94) {
			p.type = PFT_PKT_ISYNC;
			cur_isa = pick_isa(s);
			p.isa = (uint8_t)cur_isa;
			p.address = last = addr_for(s, cur_isa, last);
			p.reason = (uint8_t)rnd(s, 4);
			ns = rnd(s, 2);
			hyp = f.minor ? rnd(s, 4) == 0 : 0;
			p.flags = (uint16_t)((ns ? PFT_PKT_F_NS : 0) | (hyp ? PFT_PKT_F_HYP : 0));
			if (f.contextid_bytes) {
				p.flags |= PFT_PKT_F_CID;
				p.context_id = (uint32_t)check_rand(s) &
					       (f.contextid_bytes == 4 ? 0xFFFFFFFFu :
						f.contextid_bytes == 2 ? 0xFFFFu : 0xFFu);
			}
			if (f.cycle_accurate && p.reason) {
				p.flags |= PFT_PKT_F_CC;
				p.cycles = rnd(s, 3) ? rnd(s, 300) : (uint32_t)check_rand(s) >> rnd(s, 32);
			}
		} else if (kind < 40) {
			p.type = PFT_PKT_ATOM;
			if (f.cycle_accurate) {
				p.atom_count = 1;
				p.atoms = rnd(s, 2);
				p.flags = PFT_PKT_F_CC;
				p.cycles = rnd(s, 4) ? rnd(s, 100) : (uint32_t)check_rand(s) >> rnd(s, 32);
			} else {
				p.atom_count = (uint8_t)(1 + rnd(s, 5));
				p.atoms = rnd(s, 32) & ((1u << p.atom_count) - 1);
			}
		} else if (kind < 70) {
			p.type = PFT_PKT_BRANCH;
			if (rnd(s, 6) == 0)
				cur_isa = pick_isa(s);
			p.isa = (uint8_t)cur_isa;
			p.address = last = addr_for(s, cur_isa, last);
			if (rnd(s, 5) == 0) {
				static const uint8_t exc[] = { 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15 };
				p.exception = exc[rnd(s, sizeof exc)];
				if (rnd(s, 3) == 0)
					ns = !ns;
				if (f.minor && rnd(s, 4) == 0)
					hyp = !hyp;
			}
			p.flags = (uint16_t)((ns ? PFT_PKT_F_NS : 0) | (hyp ? PFT_PKT_F_HYP : 0));
			if (f.cycle_accurate) {
				p.flags |= PFT_PKT_F_CC;
				p.cycles = rnd(s, 300);
			}
		} else if (kind < 74) {
			/* Waypoint update: no ISA change (OpenCSD reads the information
			 * byte only after a 5-byte address, A9). */
			p.type = PFT_PKT_WAYPOINT_UPDATE;
			p.isa = (uint8_t)cur_isa;
			p.address = last = addr_for(s, cur_isa, last);
		} else if (kind < 80) {
			if (!f.timestamps)
				continue;
			p.type = PFT_PKT_TIMESTAMP;
			ts += rnd(s, 3) ? rnd(s, 5000) : (uint64_t)rnd(s, 1u << 30) << rnd(s, 16);
			if (f.ts_bits == 48)
				ts &= 0xFFFFFFFFFFFFull;
			p.timestamp = ts;
			if (f.cycle_accurate) {
				p.flags = PFT_PKT_F_CC;
				p.cycles = rnd(s, 1000);
			}
		} else if (kind < 84) {
			if (!f.contextid_bytes)
				continue;
			p.type = PFT_PKT_CONTEXT_ID;
			p.context_id = (uint32_t)check_rand(s) &
				       (f.contextid_bytes == 4 ? 0xFFFFFFFFu :
					f.contextid_bytes == 2 ? 0xFFFFu : 0xFFu);
		} else if (kind < 87) {
			if (!f.vmid)
				continue;
			p.type = PFT_PKT_VMID;
			p.vmid = (uint8_t)check_rand(s);
		} else if (kind < 89) {
			p.type = PFT_PKT_TRIGGER;
		} else if (kind < 91) {
			p.type = PFT_PKT_IGNORE;
		} else {
			p.type = PFT_PKT_EXCEPTION_RETURN;
		}
		r = pft_pkt_encoder_encode(e, &p, out + n, cap - n);
		if (r < 0) {
			fprintf(stderr, "%s: packet %u (type %s) not encodable: %s\n", v->name, i,
				pft_pkt_type_name(p.type), pft_errstr(r));
			CHECK(0);
			break;
		}
		n += (size_t)r;
	}
	pft_pkt_encoder_free(e);
	return n;
}

int main(void)
{
	uint64_t seed = check_seed(0x7e57d0e5);
	const char *pft = getenv("PFT_BIN"), *src = getenv("PFT_SOURCE");
	static uint8_t stream[64 * NPKT], other[4096], framed[8 * 64 * NPKT];
	size_t k;

	CHECK(pft && src);
	if (!pft || !src)
		return check_report();
	for (k = 0; k < sizeof other; k++)
		other[k] = (uint8_t)(k * 7);
	for (k = 0; k < sizeof variants / sizeof variants[0]; k++) {
		const struct variant *v = &variants[k];
		struct pft_snapshot_spec spec;
		char dir[] = "/tmp/pft_synthXXXXXX", cmd[2048], msg[300];
		size_t n;
		int rc;

		pft_snapshot_spec_init(&spec);
		spec.config.etmcr = v->etmcr;
		spec.config.etmidr = v->etmidr;
		spec.config.etmccer = v->etmccer;
		spec.config.etmtraceidr = 0x13;
		CHECK_EQ(pft_config_check(&spec.config, msg, sizeof msg), 0);
		n = generate(v, &spec.config, &seed, stream, sizeof stream);
		CHECK(n > 1000);
		spec.trace = stream;
		spec.trace_len = n;
		if (v->framed) {
			/* interleave ID 0x13 with chunks of a second source, ID 0x22 */
			struct pft_frame_encoder *fe = pft_frame_encoder_alloc(PFT_FRAME_CORESIGHT, 0, 0);
			size_t pos = 0, w = 0, c, o = 0;
			int r;

			while (pos < n) {
				size_t len = 1 + (size_t)(check_rand(&seed) % 40);
				if (len > n - pos)
					len = n - pos;
				r = pft_frame_encoder_encode(fe, 0x13, stream + pos, len, framed + w,
						     sizeof framed - w, &c);
				CHECK(r >= 0 && c == len);
				w += (size_t)(r > 0 ? r : 0);
				pos += len;
				len = (size_t)(check_rand(&seed) % 12);
				if (o + len > sizeof other)
					o = 0;
				r = pft_frame_encoder_encode(fe, 0x22, other + o, len, framed + w,
						     sizeof framed - w, &c);
				CHECK(r >= 0);
				w += (size_t)(r > 0 ? r : 0);
				o += len;
			}
			r = pft_frame_encoder_flush(fe, framed + w, sizeof framed - w);
			w += (size_t)(r > 0 ? r : 0);
			pft_frame_encoder_free(fe);
			spec.trace = framed;
			spec.trace_len = w;
			spec.trace_format = PFT_FRAME_CORESIGHT;
		}
		CHECK(mkdtemp(dir) != NULL);
		CHECK_EQ(pft_snapshot_write(dir, &spec, msg, sizeof msg), 0);
		snprintf(cmd, sizeof cmd, "python3 '%s/tests/scripts/dump_oracle.py' '%s' '%s'%s --min-packets %d",
			 src, pft, dir, v->framed ? " --id 0x13" : "", NPKT / 2);
		printf("%s (%zu stream bytes, %s): ", v->name, n, v->framed ? "framed with ID 0x22" : "raw");
		fflush(stdout);
		rc = system(cmd);
		CHECK_EQ(rc, 0);
		if (rc == 0) {
			snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
			CHECK_EQ(system(cmd), 0);
		} else {
			fprintf(stderr, "%s: differences; snapshot kept in %s\n", v->name, dir);
		}
	}
	return check_report();
}
