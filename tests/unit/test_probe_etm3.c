/* SPDX-License-Identifier: BSD-3-Clause */
/* The probe never calls an ETMv3 stream PFT.  Program-flow-like ETMv3.5
 * streams are written with the ETMv3 encoder (pft/etm3.h) under the
 * configurations closest to PFT: cycle-accurate off and on, context ID of
 * 0, 1, 2 or 4 bytes (with one or two, an ETMv3 I-sync can read as a PFT
 * one without a byte lost), with and without timestamps; A-sync and a periodic I-sync
 * every ~600 bytes, P-headers of random E/N runs, branches near the last
 * address, in ARM and Thumb, at a kernel's address or a bare-metal one.  Each stream, raw and in CoreSight frames next
 * to a PFT stream (TC2's 0x13), must not be PFT, and should be ETMv3. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/etm3.h"
#include "pft/packet.h"
#include "pft/probe.h"

#define LEN 24000

static struct pft_probe_report rep;

static size_t put(struct pft_etm3_encoder *enc, const struct pft_etm3_packet *p, uint8_t *out,
                  size_t w)
{
	int r = pft_etm3_encoder_encode(enc, p, out + w, LEN + 64 - w);
	CHECK(r > 0);
	return r > 0 ? w + (size_t)r : w;
}

static size_t gen(const struct pft_config *cfg, int ca, int cid, int ts, int data, uint32_t base,
                  uint8_t *out, uint64_t *rng)
{
	struct pft_etm3_encoder *enc = pft_etm3_encoder_alloc(cfg);
	struct pft_etm3_packet p;
	uint32_t addr = base;
	uint8_t isa = PFT_ISA_ARM;
	size_t w = 0, last_sync = 0;
	int first = 1;

	CHECK(enc != NULL);
	if (!enc)
		return 0;
	while (w < LEN) {
		memset(&p, 0, sizeof p);
		if (first || w - last_sync > 600) {
			p.type = PFT_ETM3_ASYNC;
			p.size = 6;
			w = put(enc, &p, out, w);
			memset(&p, 0, sizeof p);
			p.type = PFT_ETM3_ISYNC;
			p.reason = first ? PFT_ISYNC_TRACE_ON : PFT_ISYNC_PERIODIC;
			p.isa = isa;
			p.address = addr;
			if (cid) {
				p.flags |= PFT_E3F_CID;
				p.context_id = 0x1234;
			}
			if (ca && !first) {
				p.flags |= PFT_E3F_CC;
				p.cycles = 1 + (uint32_t)(check_rand(rng) % 50);
			}
			w = put(enc, &p, out, w);
			if (ts) {
				memset(&p, 0, sizeof p);
				p.type = PFT_ETM3_TIMESTAMP;
				p.timestamp = 1000000 + w * 10;
				w = put(enc, &p, out, w);
			}
			last_sync = w;
			first = 0;
			continue;
		}
		if (data && check_rand(rng) % 5 == 0) {
			/* a load or store: its value and/or its address (ETMCR[3:2]) */
			p.type = PFT_ETM3_DATA;
			p.data_size = (data & 1) ? 4 : 0;
			p.data_value = (data & 1) ? (uint32_t)check_rand(rng) : 0;
			if (data & 2) {
				p.flags |= PFT_E3F_DADDR;
				p.address = 0x20000000u + ((uint32_t)check_rand(rng) & 0xFFFCu);
			}
		} else if (check_rand(rng) % 4 == 0) {
			p.type = PFT_ETM3_BRANCH;
			if (check_rand(rng) % 8 == 0)
				isa = isa == PFT_ISA_ARM ? PFT_ISA_THUMB : PFT_ISA_ARM;
			addr = (addr ^ ((uint32_t)check_rand(rng) & 0xFFF)) & (isa == PFT_ISA_ARM ? ~3u : ~1u);
			p.address = addr;
			p.isa = isa;
		} else {
			unsigned e = (unsigned)(check_rand(rng) % 6), n = (unsigned)(check_rand(rng) % 2);
			p.type = PFT_ETM3_PHDR;
			p.format = 1;
			if (e + n == 0) /* an ETM writes no empty P-header (0x80 is reserved in PFT) */
				e = 1;
			if (ca && e > 7)
				e = 7;
			p.atom_count = (uint8_t)(e + n);
			p.atoms = (1u << e) - 1u;
			p.cycles = ca ? e + n : 0;
		}
		w = put(enc, &p, out, w);
	}
	pft_etm3_encoder_free(enc);
	return w;
}

int main(void)
{
	char path[4096];
	size_t tc2_n, ptm_n = 0;
	uint8_t *tc2 = check_read_file(check_data_path(path, sizeof path, "TC2/cstrace.bin"), &tc2_n);
	uint8_t *e3 = malloc(LEN + 64), *ptm = malloc(1 << 16), *frames = malloc(1 << 20);
	uint64_t rng = check_seed(3);
	unsigned c, i;

	CHECK(tc2 && e3 && ptm && frames);
	if (!tc2 || !e3 || !ptm || !frames)
		return check_report();
	{
		int64_t k = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, tc2, tc2_n, ptm, 1 << 16, NULL);
		CHECK(k == 4533);
		ptm_n = k > 0 ? (size_t)k : 0;
	}
	for (c = 0; c < 64; c++) {
		int ca = c & 1, cid = (c >> 1) & 3, ts = (c >> 3) & 1, alt = (c >> 4) & 1;
		/* a kernel's address, or a bare-metal program's: there the byte
		 * after a one-byte context ID and the information byte (address
		 * bits [23:16] = 0x01) reads as a plausible PFT information byte */
		uint32_t base = (c >> 5) ? 0x00018000u : 0xC0008000u;
		struct pft_config cfg;
		size_t n, got;

		pft_config_init(&cfg);
		cfg.etmidr = 0x410CF250u | (alt ? 1u << 20 : 0);
		cfg.etmccer = 0x344008F2u;
		cfg.etmcr = (ca ? 1u << 12 : 0) | ((uint32_t)cid << 14) | (ts ? 1u << 28 : 0);
		cfg.etmtraceidr = 0x10;
		n = gen(&cfg, ca, cid, ts, 0, base, e3, &rng);
		CHECK(n >= LEN);

		rep.size = sizeof rep;
		CHECK_EQ(pft_probe_buffer(e3, n, PFT_PROBE_LAYOUT_UNKNOWN, &rep), 0);
		CHECK_EQ(pft_probe_pft_count(&rep), 0);
		CHECK(rep.nstreams == 1 && rep.streams[0].protocol == PFT_PROBE_PROTO_ETM3);
		CHECK_EQ(rep.layout, PFT_PROBE_LAYOUT_RAW);
		if (rep.nstreams != 1 || rep.streams[0].protocol != PFT_PROBE_PROTO_ETM3)
			fprintf(stderr, "config %u (ca %d cid %d ts %d alt %d base 0x%08x): protocol %s, layout %s\n",
				c, ca, cid, ts, alt, (unsigned)base, pft_probe_proto_name(rep.streams[0].protocol),
				pft_probe_layout_name(rep.layout));

		/* framed with the PTM stream of TC2 */
		{
			struct pft_frame_encoder *enc = pft_frame_encoder_alloc(PFT_FRAME_CORESIGHT, 0, 0);
			size_t used, half = n / 2;
			int r;
			got = 0;
			r = pft_frame_encoder_encode(enc, 0x10, e3, half, frames, 1 << 20, &used);
			got += (size_t)(r > 0 ? r : 0);
			r = pft_frame_encoder_encode(enc, 0x13, ptm, ptm_n, frames + got, (1 << 20) - got, &used);
			got += (size_t)(r > 0 ? r : 0);
			r = pft_frame_encoder_encode(enc, 0x10, e3 + half, n - half, frames + got, (1 << 20) - got,
			                             &used);
			got += (size_t)(r > 0 ? r : 0);
			r = pft_frame_encoder_flush(enc, frames + got, (1 << 20) - got);
			got += (size_t)(r > 0 ? r : 0);
			pft_frame_encoder_free(enc);
		}
		CHECK_EQ(pft_probe_buffer(frames, got, PFT_PROBE_LAYOUT_UNKNOWN, &rep), 0);
		CHECK_EQ(rep.layout, PFT_PROBE_LAYOUT_FRAMES);
		CHECK_EQ(pft_probe_pft_count(&rep), 1);
		for (i = 0; i < rep.nstreams; i++) {
			if (rep.streams[i].id == 0x13)
				CHECK_EQ(rep.streams[i].protocol, PFT_PROBE_PROTO_PFT);
			if (rep.streams[i].id == 0x10)
				CHECK_EQ(rep.streams[i].protocol, PFT_PROBE_PROTO_ETM3);
		}
	}
	/* the options of ETMv3 streams, data trace included: every claim of
	 * confidence medium or high is the configuration written */
	for (c = 0; c < 32; c++) {
		static const uint8_t cids[4] = { 0, 1, 2, 4 };
		int ca = c & 1, cid = (c >> 1) & 3, data = 1 + (int)((c >> 3) % 3), alt = (c >> 4) & 1;
		struct pft_config cfg;
		const struct pft_probe_stream *st = &rep.streams[0];
		struct pft_etm3_features f;
		size_t n;

		pft_config_init(&cfg);
		cfg.etmidr = 0x410CF250u | (alt ? 1u << 20 : 0);
		cfg.etmccer = 0x344008F2u;
		cfg.etmcr = (ca ? 1u << 12 : 0) | ((uint32_t)cid << 14) | (1u << 28) | ((uint32_t)data << 2);
		cfg.etmtraceidr = 0x10;
		n = gen(&cfg, ca, cid, 1, data, 0xC0008000u, e3, &rng);
		rep.size = sizeof rep;
		CHECK_EQ(pft_probe_buffer(e3, n, PFT_PROBE_LAYOUT_UNKNOWN, &rep), 0);
		CHECK(rep.nstreams == 1 && st->protocol == PFT_PROBE_PROTO_ETM3);
		if (rep.nstreams != 1 || st->protocol != PFT_PROBE_PROTO_ETM3)
			continue;
		CHECK_EQ(pft_etm3_config_features(&st->config, &f, NULL, 0), 0);
		CHECK(st->conf[PFT_PROBE_OPT_DATA_TRACE] >= PFT_PROBE_CONF_MEDIUM);
		CHECK_EQ(f.data_value + 2 * f.data_address, data);
		CHECK(st->etm3_data > 0 && st->etm3_errors == 0);
		CHECK(st->conf[PFT_PROBE_OPT_TIMESTAMPS] == PFT_PROBE_CONF_HIGH && f.timestamps);
		if (st->conf[PFT_PROBE_OPT_CYCLE_ACCURATE] >= PFT_PROBE_CONF_MEDIUM)
			CHECK_EQ(f.cycle_accurate, ca);
		if (st->conf[PFT_PROBE_OPT_CONTEXTID] >= PFT_PROBE_CONF_MEDIUM)
			CHECK_EQ(f.contextid_bytes, cids[cid]);
		if (st->conf[PFT_PROBE_OPT_ALT_BRANCH] >= PFT_PROBE_CONF_MEDIUM)
			CHECK_EQ(f.alt_branch, alt);
		if (f.data_value + 2 * f.data_address != data)
			fprintf(stderr, "config %u: data trace %d, probe says %d (%s)\n", c, data,
				f.data_value + 2 * f.data_address,
				pft_probe_conf_name(st->conf[PFT_PROBE_OPT_DATA_TRACE]));
	}
	/* a stream without data headers: data trace off, low (it may be on
	 * with nothing traced) */
	{
		struct pft_config cfg;
		size_t n;

		pft_config_init(&cfg);
		cfg.etmidr = 0x410CF250u;
		cfg.etmccer = 0x344008F2u;
		cfg.etmcr = 1u << 12;
		n = gen(&cfg, 1, 0, 0, 0, 0xC0008000u, e3, &rng);
		CHECK_EQ(pft_probe_buffer(e3, n, PFT_PROBE_LAYOUT_UNKNOWN, &rep), 0);
		CHECK_EQ(rep.streams[0].conf[PFT_PROBE_OPT_DATA_TRACE], PFT_PROBE_CONF_LOW);
		CHECK_EQ(rep.streams[0].config.etmcr & 0xCu, 0);
		CHECK_EQ(rep.streams[0].conf[PFT_PROBE_OPT_TIMESTAMPS], PFT_PROBE_CONF_NONE);
		CHECK_EQ(rep.streams[0].conf[PFT_PROBE_OPT_CYCLE_ACCURATE], PFT_PROBE_CONF_HIGH);
	}
	free(e3);
	free(ptm);
	free(frames);
	free(tc2);
	return check_report();
}
