/* SPDX-License-Identifier: BSD-3-Clause */
/* tools/pft/decode_pipe.c: pft decode's listing made in batches on several
 * threads is byte for byte the listing of one writer, on random flow items
 * built to hit what a writer carries from one item to the next: runs of
 * ranges that go on (--ranges merges them), Thumb IT blocks (capstone
 * prints their conditions on the next instructions, whatever lies
 * between), instructions capstone cannot decode inside a block, ranges
 * with more instructions than a batch holds; every output format, 1-3
 * formatter threads, batches of 8 to 64 items. */
#define _GNU_SOURCE /* list_pipe.c: fopencookie */
#include <capstone/capstone.h> /* (linked for decode_disasm.c) */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tools/pft/decode_disasm.c"
#include "tools/pft/decode_out.c"
#include "tools/pft/decode_pipe.c"
#include "tools/pft/list_pipe.c"

#define NITEMS 3000
#define MAXINSNS 400

/* Thumb: IT blocks of 1-4 slots, 16- and 32-bit instructions, one
 * capstone cannot decode; A32: a few. */
static const uint32_t thumb16[] = { 0xBF08, 0xBF0C, 0xBF1C, 0xBF18, 0xBF04, 0xBFB8,
				    0x4618, 0x1800, 0x2001, 0x4B27, 0x463B, 0xBF00, 0xDE00 };
static const uint32_t thumb32[] = { 0xF8D00000, 0xF24C5320, 0xF8C0345C, 0xE92D4FF0 };
static const uint32_t arm[] = { 0xE1A00001, 0x03A00001, 0xE59F0010, 0xEAFFFFFE };

static struct pft_insn pool[NITEMS][MAXINSNS / 8];
static struct pft_insn big[MAXINSNS];

static void make(uint64_t *rng, struct pft_flow_item *it, size_t n)
{
	size_t i, k;
	uint64_t index = 0, addr = 0xC0008000;

	memset(it, 0, n * sizeof *it);
	for (i = 0; i < n; i++) {
		uint32_t r = (uint32_t)(check_rand(rng) % 100);

		it[i].offset = i * 3;
		it[i].index = index;
		if (r < 12) {
			it[i].kind = PFT_FLOW_EVENT;
			it[i].type = r < 6 ? PFT_EV_TRACE_ON : PFT_EV_TIMESTAMP;
			it[i].addr = addr;
			it[i].flags = r < 6 ? PFT_FLOW_F_ADDR : 0;
			it[i].value = r;
			continue;
		}
		it[i].kind = PFT_FLOW_RANGE;
		it[i].isa = r < 85 ? PFT_ISA_THUMB : PFT_ISA_ARM;
		it[i].ninsns = (uint32_t)(r == 99 ? MAXINSNS : 1 + check_rand(rng) % (MAXINSNS / 8));
		it[i].insns = r == 99 ? big : pool[i];
		it[i].end_kind = (uint8_t)(check_rand(rng) % 3 == 0 ? PFT_RANGE_MORE :
					   check_rand(rng) % 4);
		it[i].addr = addr;
		for (k = 0; k < it[i].ninsns; k++) {
			struct pft_insn *in = (struct pft_insn *)&it[i].insns[k];

			in->addr = addr;
			if (it[i].isa == PFT_ISA_ARM) {
				in->opcode = arm[check_rand(rng) % 4];
				in->size = 4;
			} else if (check_rand(rng) % 5) {
				in->opcode = thumb16[check_rand(rng) % 13];
				in->size = 2;
			} else {
				in->opcode = thumb32[check_rand(rng) % 4];
				in->size = 4;
			}
			addr += in->size;
		}
		it[i].end = addr;
		index += it[i].ninsns;
		if (check_rand(rng) % 4 == 0) /* the next range elsewhere */
			addr += 0x100;
	}
}

static void run(const struct pft_flow_item *it, size_t n, enum decode_format fmt, int disasm,
		unsigned threads, size_t items)
{
	FILE *f1 = tmpfile(), *f2 = tmpfile();
	struct decode_out *o1 = decode_out_open(f1, fmt, disasm, NULL);
	struct decode_out *o2 = decode_out_open(f2, fmt, disasm, NULL);
	struct decode_pipe *d = decode_pipe_open(o2, threads, items);
	char *a, *b;
	size_t i, la, lb;
	int r = 0;

	check_case("format %d disasm %d threads %u items %zu", (int)fmt, disasm, threads, items);
	CHECK(d != NULL);
	if (!d)
		return;
	for (i = 0; i < n; i++) {
		CHECK_EQ(decode_out_item(o1, &it[i]), 0);
		r |= decode_pipe_item(d, &it[i]);
	}
	CHECK_EQ(r, 0);
	CHECK_EQ(decode_pipe_end(d), 0);
	decode_pipe_close(d);
	CHECK_EQ(decode_out_finish(o1, NULL), 0);
	CHECK_EQ(decode_out_finish(o2, NULL), 0);
	a = check_read_stream(f1, &la);
	b = check_read_stream(f2, &lb);
	CHECK(la > 0);
	CHECK_EQ(lb, la);
	if (la == lb && memcmp(a, b, la)) {
		for (i = 0; a[i] == b[i]; i++)
			;
		check_fail(__FILE__, __LINE__, "the listings differ at byte %zu", i);
		if (getenv("PIPE_DEBUG")) {
			size_t s0 = i > 600 ? i - 600 : 0;
			fprintf(stderr, "--- one writer:\n%.*s\n--- pipe:\n%.*s\n", 700, a + s0, 700, b + s0);
		}
	}
	free(a);
	free(b);
	decode_out_close(o1);
	decode_out_close(o2);
	fclose(f1);
	fclose(f2);
}

int main(void)
{
	static struct pft_flow_item it[NITEMS];
	static const struct { enum decode_format fmt; int disasm; } f[] = {
		{ DECODE_TEXT, 1 }, { DECODE_JSON, 1 }, { DECODE_TEXT, 0 }, { DECODE_RANGES, 0 },
		{ DECODE_JSON_RANGES, 0 }, { DECODE_ADDRS, 0 }
	};
	uint64_t rng = check_seed(0xdec0de);
	unsigned k, t, rep;

	for (rep = 0; rep < 3; rep++) {
		make(&rng, it, NITEMS);
		for (k = 0; k < sizeof f / sizeof f[0]; k++)
			for (t = 1; t <= 3; t++)
				run(it, NITEMS, f[k].fmt, f[k].disasm, t, (size_t)8 << (rep + t) % 4);
	}
	return check_report();
}
