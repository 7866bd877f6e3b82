/* SPDX-License-Identifier: BSD-3-Clause */
/* pft_probe_buffer / pft_probe_stream against captures whose truth is known:
 *   - TC2's ETB (data/TC2/cstrace.bin, the bytes alone): frames, wrapped,
 *     ID 0x13 PFT 1.1 cycle-accurate with timestamps and no context ID
 *     (device_8.ini: ETMCR 0x10001000), IDs 0x10-0x12 not PFT (ETMv3.5,
 *     device_5-7.ini);
 *   - the same PTM stream re-framed as a TPIU capture with FSYNCs, cut so
 *     that it starts mid-frame;
 *   - TC2's 0x13 stream alone (raw);
 *   - trace_cov_a15/PTM_0_2.bin: raw, PFT, not cycle-accurate;
 *   - streams that are not PFT: random bytes, an ETMv4-like stream (11-zero
 *     A-syncs), an STM-like stream (STPv2 ASYNC), and these framed together
 *     with the PFT stream, an ITM stream: never called PFT. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/probe.h"

static struct pft_probe_report rep;

static const struct pft_probe_stream *find(uint8_t id)
{
	unsigned i;
	for (i = 0; i < rep.nstreams; i++)
		if (rep.streams[i].id == id)
			return &rep.streams[i];
	return NULL;
}

static int probe(const uint8_t *b, size_t n, enum pft_probe_layout l)
{
	rep.size = sizeof rep;
	return pft_probe_buffer(b, n, l, &rep);
}

static void check_tc2_ptm(const struct pft_probe_stream *s)
{
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(s->protocol, PFT_PROBE_PROTO_PFT);
	CHECK_EQ(s->proto_conf, PFT_PROBE_CONF_HIGH);
	CHECK_EQ((s->config.etmidr >> 4) & 0xF, 1);
	CHECK_EQ(s->config.etmcr & ((1u << 12) | (3u << 14) | (1u << 28) | (1u << 30) | (1u << 8)),
		 (1u << 12) | (1u << 28));
	CHECK(s->conf[PFT_PROBE_OPT_CYCLE_ACCURATE] >= PFT_PROBE_CONF_MEDIUM);
	CHECK(s->conf[PFT_PROBE_OPT_CONTEXTID] >= PFT_PROBE_CONF_MEDIUM);
	CHECK_EQ(s->conf[PFT_PROBE_OPT_TIMESTAMPS], PFT_PROBE_CONF_HIGH);
	CHECK_EQ(s->conf[PFT_PROBE_OPT_RETURN_STACK], PFT_PROBE_CONF_NONE);
	CHECK_EQ(s->lost, 0);
	CHECK_EQ(s->errors, 0);
}

static void fill_random(uint8_t *b, size_t n, uint64_t *st)
{
	size_t i;
	for (i = 0; i < n; i++)
		b[i] = (uint8_t)check_rand(st);
}

/* A stream with a sync pattern every 512 bytes and random bytes between
 * (that never form another sync). */
static void synth(uint8_t *b, size_t n, const uint8_t *sync, size_t slen, uint64_t *st)
{
	size_t i;
	fill_random(b, n, st);
	for (i = 0; i < n; i++)
		if (b[i] == 0 || b[i] == 0xFF)
			b[i] = 0x55;
	for (i = 0; i + slen <= n; i += 512)
		memcpy(b + i, sync, slen);
}

int main(void)
{
	static const uint8_t etm4_sync[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80 };
	static const uint8_t stm_sync[11] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
		                              0xFF, 0xFF, 0x0F };
	char p[4096];
	size_t n, cov_n, i, ptm_n;
	uint8_t *tc2 = check_read_file(check_data_path(p, sizeof p, "TC2/cstrace.bin"), &n);
	uint8_t *cov = check_read_file(check_data_path(p, sizeof p, "trace_cov_a15/PTM_0_2.bin"), &cov_n);
	uint8_t *ptm, *frames, *buf;
	uint64_t st = check_seed(9);
	int64_t w;

	CHECK(tc2 && cov);
	if (!tc2 || !cov)
		return check_report();

	/* TC2: frames, wrapped, 0x13 PFT, 0x10-0x12 not */
	CHECK_EQ(probe(tc2, n, PFT_PROBE_LAYOUT_UNKNOWN), 0);
	CHECK_EQ(rep.layout, PFT_PROBE_LAYOUT_FRAMES);
	CHECK_EQ(rep.layout_conf, PFT_PROBE_CONF_HIGH);
	CHECK(rep.wrapped);
	CHECK_EQ(rep.nstreams, 4);
	check_tc2_ptm(find(0x13));
	for (i = 0x10; i <= 0x12; i++) {
		const struct pft_probe_stream *s = find((uint8_t)i);
		CHECK(s && s->protocol == PFT_PROBE_PROTO_ETM3);
		CHECK(s && s->proto_conf == PFT_PROBE_CONF_HIGH); /* decodes as ETMv3 */
		CHECK(s && s->etm3_lost == 0 && s->lost * 2 > s->bytes);
	}
	CHECK_EQ(pft_probe_pft_count(&rep), 1);

	/* the PTM stream alone: raw */
	ptm = malloc(n);
	w = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, tc2, n, ptm, n, NULL);
	CHECK(w == 4533);
	ptm_n = (size_t)w;
	CHECK_EQ(probe(ptm, ptm_n, PFT_PROBE_LAYOUT_UNKNOWN), 0);
	CHECK_EQ(rep.layout, PFT_PROBE_LAYOUT_RAW);
	CHECK_EQ(rep.nstreams, 1);
	check_tc2_ptm(&rep.streams[0]);
	CHECK(rep.wrapped); /* starts mid-packet */

	/* TPIU, FSYNC every 4 frames, starting 6 bytes into the capture (the
	 * ID in every frame, else a capture cut mid-way never names it) */
	frames = malloc(8 * ptm_n + 4096);
	w = pft_frame_encode_buffer(PFT_FRAME_TPIU, 0x13, ptm, ptm_n, frames, 8 * ptm_n + 4096);
	CHECK(w > 0);
	CHECK_EQ(probe(frames, (size_t)w, PFT_PROBE_LAYOUT_UNKNOWN), 0);
	CHECK_EQ(rep.layout, PFT_PROBE_LAYOUT_TPIU);
	CHECK(rep.aligned);
	check_tc2_ptm(find(0x13));
	{
		struct pft_frame_encoder *enc = pft_frame_encoder_alloc(PFT_FRAME_TPIU, 4, PFT_FRAME_ENC_ID_EVERY_FRAME);
		size_t used, got = 0;
		int r = pft_frame_encoder_encode(enc, 0x13, ptm, ptm_n, frames, 8 * ptm_n + 4096, &used);
		CHECK(r > 0 && used == ptm_n);
		got = (size_t)r;
		r = pft_frame_encoder_flush(enc, frames + got, 8 * ptm_n + 4096 - got);
		got += (size_t)(r > 0 ? r : 0);
		pft_frame_encoder_free(enc);
		CHECK_EQ(probe(frames + 6, got - 6, PFT_PROBE_LAYOUT_UNKNOWN), 0);
		CHECK_EQ(rep.layout, PFT_PROBE_LAYOUT_TPIU);
		CHECK(!rep.aligned);
		CHECK(rep.lead_bytes > 0);
		CHECK(rep.fsyncs > 10);
		check_tc2_ptm(find(0x13));
	}

	/* trace_cov_a15: raw PFT, not cycle-accurate */
	CHECK_EQ(probe(cov, cov_n, PFT_PROBE_LAYOUT_UNKNOWN), 0);
	CHECK_EQ(rep.layout, PFT_PROBE_LAYOUT_RAW);
	CHECK_EQ(rep.streams[0].protocol, PFT_PROBE_PROTO_PFT);
	CHECK_EQ(rep.streams[0].config.etmcr & (1u << 12), 0);
	CHECK(rep.streams[0].conf[PFT_PROBE_OPT_CYCLE_ACCURATE] >= PFT_PROBE_CONF_MEDIUM);

	/* not PFT: random, ETMv4-like, STM-like; never PFT, raw or framed */
	buf = malloc(65536);
	for (i = 0; i < 20; i++) {
		size_t len = 64 + (size_t)(check_rand(&st) % 65000);
		fill_random(buf, len, &st);
		CHECK_EQ(probe(buf, len, PFT_PROBE_LAYOUT_UNKNOWN), 0);
		CHECK_EQ(pft_probe_pft_count(&rep), 0);
	}
	synth(buf, 8192, etm4_sync, sizeof etm4_sync, &st);
	CHECK_EQ(probe(buf, 8192, PFT_PROBE_LAYOUT_UNKNOWN), 0);
	CHECK_EQ(rep.layout, PFT_PROBE_LAYOUT_RAW);
	CHECK_EQ(rep.streams[0].protocol, PFT_PROBE_PROTO_ETM4);
	CHECK_EQ(pft_probe_pft_count(&rep), 0);
	synth(buf, 8192, stm_sync, sizeof stm_sync, &st);
	CHECK_EQ(probe(buf, 8192, PFT_PROBE_LAYOUT_UNKNOWN), 0);
	CHECK_EQ(rep.streams[0].protocol, PFT_PROBE_PROTO_STM);
	CHECK_EQ(pft_probe_pft_count(&rep), 0);
	{ /* framed: STM on 0x20, ETMv4 on 0x21, the PTM on 0x13, interleaved */
		struct pft_frame_encoder *enc = pft_frame_encoder_alloc(PFT_FRAME_CORESIGHT, 0, 0);
		uint8_t *stm = malloc(8192), *e4 = malloc(8192);
		size_t got = 0, used, k;
		synth(stm, 8192, stm_sync, sizeof stm_sync, &st);
		synth(e4, 8192, etm4_sync, sizeof etm4_sync, &st);
		for (k = 0; k < 8; k++) {
			int r = pft_frame_encoder_encode(enc, 0x20, stm + k * 1024, 1024, frames + got,
			                         8 * ptm_n + 4096 - got, &used);
			got += (size_t)r;
			r = pft_frame_encoder_encode(enc, 0x21, e4 + k * 1024, 1024, frames + got,
			                     8 * ptm_n + 4096 - got, &used);
			got += (size_t)r;
			if (k < 4) {
				r = pft_frame_encoder_encode(enc, 0x13, ptm + k * (ptm_n / 4),
				                     k == 3 ? ptm_n - 3 * (ptm_n / 4) : ptm_n / 4,
				                     frames + got, 8 * ptm_n + 4096 - got, &used);
				got += (size_t)r;
			}
		}
		got += (size_t)pft_frame_encoder_flush(enc, frames + got, 8 * ptm_n + 4096 - got);
		pft_frame_encoder_free(enc);
		CHECK_EQ(probe(frames, got, PFT_PROBE_LAYOUT_UNKNOWN), 0);
		CHECK_EQ(rep.layout, PFT_PROBE_LAYOUT_FRAMES);
		CHECK(find(0x20) && find(0x20)->protocol == PFT_PROBE_PROTO_STM);
		CHECK(find(0x21) && find(0x21)->protocol == PFT_PROBE_PROTO_ETM4);
		check_tc2_ptm(find(0x13));
		CHECK_EQ(pft_probe_pft_count(&rep), 1);
		free(stm);
		free(e4);
	}

	/* ITM: its sync is the PFT A-sync; instrumentation packets on random
	 * ports, local timestamps, an overflow now and then, a sync every ~1 KiB:
	 * ITM, never PFT; random bytes with the same syncs: not ITM */
	{
		size_t iw = 0, last = 0;
		static const uint8_t sync[6] = { 0, 0, 0, 0, 0, 0x80 };
		while (iw < 16384) {
			unsigned k = (unsigned)(check_rand(&st) % 16), sz, j;
			if (iw == 0 || iw - last > 1024) {
				memcpy(buf + iw, sync, 6);
				iw += 6;
				last = iw;
			} else if (k == 0) {
				buf[iw++] = 0xC0; /* local timestamp, 2 bytes */
				buf[iw++] = (uint8_t)(1 + check_rand(&st) % 127);
			} else if (k == 1) {
				buf[iw++] = 0x70;
			} else {
				sz = 1 + (unsigned)(check_rand(&st) % 3);
				buf[iw++] = (uint8_t)(((check_rand(&st) % 32) << 3) | sz);
				for (j = 0; j < (sz == 3 ? 4u : sz); j++)
					buf[iw++] = (uint8_t)check_rand(&st);
			}
		}
		CHECK_EQ(probe(buf, iw, PFT_PROBE_LAYOUT_UNKNOWN), 0);
		CHECK_EQ(pft_probe_pft_count(&rep), 0);
		CHECK_EQ(rep.layout, PFT_PROBE_LAYOUT_RAW);
		CHECK_EQ(rep.streams[0].protocol, PFT_PROBE_PROTO_ITM);
		fill_random(buf, iw, &st);
		for (i = 0; i + 6 <= iw; i += 1024)
			memcpy(buf + i, sync, 6);
		CHECK_EQ(probe(buf, iw, PFT_PROBE_LAYOUT_RAW), 0);
		CHECK_EQ(pft_probe_pft_count(&rep), 0);
		CHECK(rep.streams[0].protocol != PFT_PROBE_PROTO_ITM);
	}

	/* misuse and empty input */
	rep.size = 1;
	CHECK_EQ(pft_probe_buffer(tc2, n, PFT_PROBE_LAYOUT_UNKNOWN, &rep), -PFT_E_INVAL);
	CHECK_EQ(probe(NULL, 0, PFT_PROBE_LAYOUT_UNKNOWN), 0);
	CHECK_EQ(rep.nstreams, 0);
	CHECK_EQ(rep.layout, PFT_PROBE_LAYOUT_UNKNOWN);
	CHECK_EQ(probe(tc2, n, (enum pft_probe_layout)9), -PFT_E_INVAL);
	CHECK(!strcmp(pft_probe_proto_name(PFT_PROBE_PROTO_ETM3), "etmv3"));
	CHECK(!strcmp(pft_probe_layout_name(PFT_PROBE_LAYOUT_TPIU), "tpiu"));
	CHECK_EQ(pft_probe_frame_format(PFT_PROBE_LAYOUT_TPIU), PFT_FRAME_TPIU);
	CHECK_EQ(pft_probe_frame_format(PFT_PROBE_LAYOUT_FRAMES), PFT_FRAME_CORESIGHT);
	CHECK_EQ(pft_probe_frame_format(PFT_PROBE_LAYOUT_RAW), PFT_FRAME_RAW);
	CHECK_EQ(pft_probe_frame_format(PFT_PROBE_LAYOUT_UNKNOWN), PFT_FRAME_RAW);

	free(buf);
	free(frames);
	free(ptm);
	free(tc2);
	free(cov);
	return check_report();
}
