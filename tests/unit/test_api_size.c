/* SPDX-License-Identifier: BSD-3-Clause */
/* Structs that grow: a program built against an older pft header passes
 * the size of its shorter struct, one built against a newer header a
 * longer one.  The library copies the smaller size and zeroes the rest
 * (out), or keeps its defaults for fields the caller lacks (in).  The
 * "old" structs below are shorter copies of today's: their first fields,
 * as an older header would have declared them. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/flow.h"
#include "pft/frame.h"
#include "pft/packet.h"
#include "pft/ptm.h"
#include "tc2.h"

struct old_packet {             /* struct pft_packet up to flags */
	uint64_t offset;
	uint32_t size;
	uint16_t type;
	uint16_t flags;
};

struct old_frame_stats {        /* struct pft_frame_stats without id_bytes, unknown_id */
	uint64_t bytes_in, data, overhead, sync, unsynced, error, frames;
};

struct old_ptm_stats {          /* struct pft_ptm_stats, first three counters */
	uint64_t insns, traced_insns, waypoints;
};

struct old_config {             /* struct pft_config without etmtraceidr, etmsyncfr */
	size_t size;
	uint32_t etmcr, etmccr, etmccer, etmidr;
};

struct old_ptm_params {         /* struct pft_ptm_params without out_bytes ... */
	size_t size;
	uint32_t fifo_bytes, drain_bytes, drain_cycles;
};

#define GUARD 0xA5

static void packets(const uint8_t *buf, size_t len)
{
	struct pft_config cfg;
	struct { struct old_packet p; uint8_t guard[16]; } old;
	struct { struct pft_packet p; uint8_t future[24]; } big;
	struct pft_packet ref;
	int n = 0;

	pft_config_init(&cfg);
	cfg.etmcr = 0x10001000u; /* TC2 PTM_0: cycle accurate, timestamps */
	struct pft_pkt_decoder *a = pft_pkt_decoder_alloc(&cfg);
	struct pft_pkt_decoder *b = pft_pkt_decoder_alloc(&cfg);
	struct pft_pkt_decoder *c = pft_pkt_decoder_alloc(&cfg);
	CHECK(a && b && c);
	if (!a || !b || !c)
		return;
	pft_pkt_decoder_feed(a, buf, len);
	pft_pkt_decoder_feed(b, buf, len);
	pft_pkt_decoder_feed(c, buf, len);
	for (;;) {
		memset(&old, GUARD, sizeof old);
		memset(&big, GUARD, sizeof big);
		int ra = pft_pkt_decoder_next(a, &ref, sizeof ref);
		int rb = pft_pkt_decoder_next(b, (struct pft_packet *)(void *)&old.p, sizeof old.p);
		int rc = pft_pkt_decoder_next(c, &big.p, sizeof big);
		CHECK_EQ(rb, ra);
		CHECK_EQ(rc, ra);
		if (ra < 0)
			break;
		CHECK_EQ(old.p.offset, ref.offset);
		CHECK_EQ(old.p.size, ref.size);
		CHECK_EQ(old.p.type, ref.type);
		CHECK_EQ(old.p.flags, ref.flags);
		for (size_t i = 0; i < sizeof old.guard; i++)
			CHECK_EQ(old.guard[i], GUARD);          /* nothing beyond the old struct */
		CHECK(memcmp(&big.p, &ref, sizeof ref) == 0);
		for (size_t i = 0; i < sizeof big.future; i++)
			CHECK_EQ(big.future[i], 0);             /* the newer fields zeroed */
		n++;
	}
	CHECK(n > 1000);
	if (n <= 1000)
		fprintf(stderr, "  %d packets\n", n);
	/* the batch call with an older element size: the stride is the caller's */
	{
		struct old_packet arr[8];
		pft_pkt_decoder_resync(b);
		pft_pkt_decoder_feed(b, buf, len);
		pft_pkt_decoder_resync(a);
		pft_pkt_decoder_feed(a, buf, len);
		int k = pft_pkt_decoder_next_batch(b, (struct pft_packet *)(void *)arr, 8, sizeof arr[0]);
		CHECK(k > 0);
		for (int i = 0; i < k; i++) {
			CHECK_EQ(pft_pkt_decoder_next(a, &ref, sizeof ref), 0);
			CHECK_EQ(arr[i].offset, ref.offset);
			CHECK_EQ(arr[i].type, ref.type);
		}
	}
	pft_pkt_decoder_free(a);
	pft_pkt_decoder_free(b);
	pft_pkt_decoder_free(c);
}

static void frame_stats(void)
{
	char path[512];
	size_t len;
	check_data_path(path, sizeof path, "TC2/cstrace.bin");
	uint8_t *buf = check_read_file(path, &len);
	CHECK(buf != NULL);
	if (!buf)
		return;
	struct pft_frame_decoder *d = pft_frame_decoder_alloc(PFT_FRAME_CORESIGHT, 0);
	struct pft_frame_item it;
	struct pft_frame_stats ref;
	struct { struct old_frame_stats s; uint8_t guard[32]; } old;
	struct { struct pft_frame_stats s; uint64_t future[3]; } big;
	CHECK(d != NULL);
	pft_frame_decoder_feed(d, buf, len);
	while (pft_frame_decoder_next(d, &it, sizeof it) == 0)
		;
	memset(&old, GUARD, sizeof old);
	memset(&big, GUARD, sizeof big);
	CHECK_EQ(pft_frame_decoder_get_stats(d, &ref, sizeof ref), 0);
	CHECK_EQ(pft_frame_decoder_get_stats(d, (struct pft_frame_stats *)(void *)&old.s,
					     sizeof old.s), 0);
	CHECK_EQ(pft_frame_decoder_get_stats(d, &big.s, sizeof big), 0);
	CHECK(ref.frames > 0);
	CHECK(memcmp(&old.s, &ref, sizeof old.s) == 0);
	for (size_t i = 0; i < sizeof old.guard; i++)
		CHECK_EQ(old.guard[i], GUARD);
	CHECK(memcmp(&big.s, &ref, sizeof ref) == 0);
	for (size_t i = 0; i < 3; i++)
		CHECK_EQ(big.future[i], 0);
	CHECK_EQ(pft_frame_decoder_get_stats(d, &ref, 0), -PFT_E_INVAL);
	pft_frame_decoder_free(d);
	free(buf);
}

/* An older pft_config (no ETMSYNCFR) and older ptm params (no out_bytes,
 * return_stack_depth ...): the missing fields take their defaults. */
static void inputs(void)
{
	struct { struct old_config c; uint8_t guard[16]; } oc;
	struct pft_config full, got;
	struct pft_features f;

	memset(&oc, GUARD, sizeof oc); /* the bytes after it are not the caller's */
	oc.c.size = sizeof oc.c;
	oc.c.etmcr = 0x1000;
	oc.c.etmccr = 0x8D294004u;
	oc.c.etmccer = 0x34C01AC2u;
	oc.c.etmidr = 0x411CF312u;
	const struct pft_config *old = (const struct pft_config *)(const void *)&oc.c;
	CHECK_EQ(pft_config_copy(&got, old), 0);
	pft_config_init(&full);
	CHECK_EQ(got.size, sizeof got);
	CHECK_EQ(got.etmcr, 0x1000);
	CHECK_EQ(sizeof oc.c, 24); /* no tail padding for the new fields to fall in */
	CHECK_EQ(got.etmtraceidr, full.etmtraceidr); /* defaults, not the guard bytes */
	CHECK_EQ(got.etmsyncfr, full.etmsyncfr);
	CHECK_EQ(pft_config_features(old, &f), 0);
	CHECK_EQ(f.cycle_accurate, 1);
	CHECK_EQ(f.trace_id, full.etmtraceidr);
	struct pft_pkt_decoder *pd = pft_pkt_decoder_alloc(old);
	CHECK(pd != NULL);
	pft_pkt_decoder_free(pd);
	struct pft_flow_decoder *fd = pft_flow_decoder_alloc(old, NULL);
	CHECK(fd != NULL);
	pft_flow_decoder_free(fd);
	oc.c.size = 0; /* not initialised */
	CHECK_EQ(pft_config_features(old, &f), -PFT_E_INVAL);

	/* ptm: old params, old stats */
	struct { struct old_ptm_params p; uint8_t guard[16]; } op;
	memset(&op, GUARD, sizeof op);
	op.p.size = sizeof op.p;
	op.p.fifo_bytes = 0;
	op.p.drain_bytes = 0;
	op.p.drain_cycles = 0;
	pft_config_init(&full);
	struct pft_ptm *p = pft_ptm_alloc(&full, (const struct pft_ptm_params *)(const void *)&op.p);
	CHECK(p != NULL); /* return_stack_depth 0xA5 would be refused: the default was used */
	if (!p)
		return;
	struct pft_ptm_insn in;
	memset(&in, 0, sizeof in);
	in.addr = 0x8000;
	in.size = 4;
	in.isa = PFT_ISA_ARM;
	in.next_isa = PFT_ISA_ARM;
	in.next_addr = 0x8004;
	for (int i = 0; i < 10; i++) {
		CHECK_EQ(pft_ptm_insn(p, &in), 0);
		in.addr += 4;
		in.next_addr += 4;
		in.cycle++;
	}
	struct pft_ptm_stats ref;
	struct { struct old_ptm_stats s; uint8_t guard[16]; } os;
	memset(&os, GUARD, sizeof os);
	CHECK_EQ(pft_ptm_get_stats(p, &ref, sizeof ref), 0);
	CHECK_EQ(pft_ptm_get_stats(p, (struct pft_ptm_stats *)(void *)&os.s, sizeof os.s), 0);
	CHECK_EQ(ref.insns, 10);
	CHECK_EQ(os.s.insns, ref.insns);
	CHECK_EQ(os.s.traced_insns, ref.traced_insns);
	CHECK_EQ(os.s.waypoints, ref.waypoints);
	for (size_t i = 0; i < sizeof os.guard; i++)
		CHECK_EQ(os.guard[i], GUARD);
	pft_ptm_free(p);
}

int main(void)
{
	size_t len = 0;
	uint8_t *buf = tc2_stream(0x13, &len); /* PTM_0: cycle accurate, timestamps */
	if (buf)
		packets(buf, len);
	free(buf);
	frame_stats();
	inputs();
	return check_report();
}
