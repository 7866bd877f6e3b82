/* SPDX-License-Identifier: BSD-3-Clause */
/* ISA classifier speed: pft_isa_decode over the TC2 kernel image (Thumb-2,
 * linear sweep) and over random A32 words, beside capstone's cs_disasm
 * (details off) on the same bytes for scale.
 *   bench_isa [kernel_dump.bin]   (default data/TC2/kernel_dump.bin) */
#define _POSIX_C_SOURCE 200809L
#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pft/isa.h"

#include "bench_util.h"

/* One pass of the Thumb linear sweep; returns instructions decoded. */
static unsigned long sweep_thumb(const uint8_t *b, size_t len, unsigned long *wp)
{
	struct pft_insn_info in;
	size_t off = 0;
	unsigned long n = 0;
	while (off + 4 <= len) {
		pft_isa_decode(PFT_ISA_THUMB, 0xC0008000u + off, b + off, len - off, 0, &in);
		*wp += in.wp_class != PFT_WP_NONE;
		off += in.size;
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : PFT_DATA_DIR "/TC2/kernel_dump.bin";
	size_t len;
	uint8_t *b = bench_read_file(path, &len);
	unsigned long n = 0, wp = 0, reps = 0, i;
	double t0, t1, pft_rate, cs_rate;
	csh h;

	if (!b) {
		fprintf(stderr, "bench_isa: cannot read %s\n", path);
		return 2;
	}
	t0 = bench_wall();
	do {
		n += sweep_thumb(b, len, &wp);
		reps++;
	} while ((t1 = bench_wall()) - t0 < 1.0);
	pft_rate = (double)n / (t1 - t0);
	printf("pft_isa_decode  T32 sweep of %s: %lu insns in %.3f s = %.1f M insn/s (%lu waypoints/pass)\n",
	       path, n, t1 - t0, pft_rate / 1e6, wp / reps);

	if (cs_open(CS_ARCH_ARM, CS_MODE_THUMB, &h) == CS_ERR_OK) {
		cs_insn *insn = cs_malloc(h);
		const uint8_t *code;
		size_t size;
		uint64_t addr;
		unsigned long m = 0;
		t0 = bench_wall();
		do {
			code = b; size = len; addr = 0xC0008000u;
			while (size >= 2) {
				if (!cs_disasm_iter(h, &code, &size, &addr, insn)) {
					code += 2; size -= 2; addr += 2;
				}
				m++;
			}
		} while ((t1 = bench_wall()) - t0 < 1.0);
		cs_rate = (double)m / (t1 - t0);
		printf("capstone cs_disasm_iter (no detail), same bytes: %.1f M insn/s; ratio %.1fx\n",
		       cs_rate / 1e6, pft_rate / cs_rate);
		cs_free(insn, 1);
		cs_close(&h);
	}

	{
		enum { N = 1 << 16 };
		static uint8_t words[N * 4];
		uint64_t s = 0x9E3779B97F4A7C15ULL;
		struct pft_insn_info in;
		for (i = 0; i < sizeof words; i++) {
			s ^= s << 13; s ^= s >> 7; s ^= s << 17;
			words[i] = (uint8_t)s;
		}
		n = 0;
		t0 = bench_wall();
		do {
			for (i = 0; i < N; i++) {
				pft_isa_decode(PFT_ISA_ARM, i * 4, words + i * 4, 4, 0, &in);
				wp += in.wp_class;
			}
			n += N;
		} while ((t1 = bench_wall()) - t0 < 1.0);
		printf("pft_isa_decode  A32 random words: %.1f M insn/s (%lu)\n",
		       (double)n / (t1 - t0) / 1e6, wp & 1);
	}
	free(b);
	return 0;
}
