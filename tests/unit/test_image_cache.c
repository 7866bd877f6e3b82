/* SPDX-License-Identifier: BSD-3-Clause */
/* Decoded-block cache: blocks end at the first waypoint (with its target),
 * at PFT_BLK_MAX_INSNS instructions, or where memory ends; hits and misses;
 * refill after the image changes; Hyp-mode decoding is a separate key.
 * Instruction sizes and the sequence of blocks over 64 KiB of the TC2
 * kernel are checked against capstone's decode of the same bytes. */
#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "image/block_cache.h"

static void test_tc2(void)
{
	char path[512];
	struct pft_image *img = pft_image_alloc();
	struct pft_blkcache *bc;
	const struct pft_block *b;
	uint64_t hits, misses, a, end;
	size_t len;
	uint8_t *raw;
	csh cs;
	cs_insn *ci;
	unsigned checked = 0, blocks = 0;

	check_data_path(path, sizeof(path), "TC2/kernel_dump.bin");
	raw = check_read_file(path, &len);
	CHECK(raw != NULL);
	if (!raw)
		return;
	CHECK(pft_image_add_buffer(img, 0xC0008000u, raw, len) == 0);
	bc = pft_blkcache_alloc(img, 0, 64);
	/* DS-5 rows 0-2: ADD.W, LDR, CBZ r3 -> 0xC0018DC8 */
	b = pft_blkcache_get(bc, 0xC0018D82u, PFT_ISA_THUMB, 0);
	CHECK_EQ(b->n, 3);
	CHECK_EQ(b->end, PFT_BLK_WAYPOINT);
	CHECK_EQ(b->insns[0].size, 4);
	CHECK_EQ(b->insns[0].opcode, 0xEB020385u);
	CHECK_EQ(b->insns[2].opcode, 0xB1F3u);
	CHECK_EQ(b->insns[2].wp_class, PFT_WP_DIRECT);
	CHECK_EQ(b->target, 0xC0018DC8u);
	CHECK_EQ(b->target_isa, PFT_ISA_THUMB);
	CHECK_EQ(b->next, 0xC0018D8Au);
	b = pft_blkcache_get(bc, 0xC0018D82u, PFT_ISA_THUMB, 0);
	CHECK_EQ(b->n, 3);
	pft_blkcache_stats(bc, &hits, &misses);
	CHECK_EQ(hits, 1);
	CHECK_EQ(misses, 1);

	/* capstone over 64 KiB of Thumb code from 0xC0018000, block after block */
	CHECK(cs_open(CS_ARCH_ARM, CS_MODE_THUMB, &cs) == CS_ERR_OK);
	ci = cs_malloc(cs);
	a = 0xC0018000u;
	end = a + 0x10000;
	while (a < end) {
		unsigned i;

		b = pft_blkcache_get(bc, a, PFT_ISA_THUMB, 0);
		CHECK(b->n > 0);
		if (!b->n)
			break;
		blocks++;
		for (i = 0; i < b->n; i++) {
			const uint8_t *p = raw + (b->insns[i].addr - 0xC0008000u);
			size_t n = 4;
			uint64_t pc = b->insns[i].addr;

			CHECK_EQ(b->insns[i].addr, a);
			if (cs_disasm_iter(cs, &p, &n, &pc, ci)) {
				CHECK_EQ(ci->size, b->insns[i].size);
				checked++;
			}
			a += b->insns[i].size;
		}
		CHECK_EQ(b->next, a);
		CHECK(b->end == PFT_BLK_WAYPOINT || b->end == PFT_BLK_LIMIT);
		CHECK(b->end != PFT_BLK_LIMIT || b->n == PFT_BLK_MAX_INSNS);
	}
	CHECK(checked > 20000);
	CHECK(blocks > 1000);
	cs_free(ci, 1);
	cs_close(&cs);
	pft_blkcache_free(bc);
	pft_image_free(img);
	free(raw);
}

/* one full block of NOPs, then 8 more up to the end of memory */
#define NOPS (PFT_BLK_MAX_INSNS + 8)

static void test_edges(void)
{
	static uint8_t nops[NOPS * 4], code2[8];
	struct pft_image *img = pft_image_alloc();
	struct pft_blkcache *bc = pft_blkcache_alloc(img, 0, 8);
	const struct pft_block *b;
	unsigned i;
	/* RFEIA sp! : an exception return outside Hyp mode, UNDEFINED in Hyp */
	static const uint8_t rfe[4] = { 0x00, 0x0A, 0xBD, 0xF8 };

	for (i = 0; i < NOPS; i++) {
		nops[4 * i + 0] = 0x00;
		nops[4 * i + 1] = 0xF0;
		nops[4 * i + 2] = 0x20;
		nops[4 * i + 3] = 0xE3;
	}
	CHECK(pft_image_add_buffer(img, 0x1000, nops, sizeof(nops)) == 0);
	b = pft_blkcache_get(bc, 0x1000, PFT_ISA_ARM, 0);
	CHECK_EQ(b->n, PFT_BLK_MAX_INSNS);
	CHECK_EQ(b->end, PFT_BLK_LIMIT);
	CHECK_EQ(b->next, 0x1000 + 4 * PFT_BLK_MAX_INSNS);
	b = pft_blkcache_get(bc, b->next, PFT_ISA_ARM, 0);
	CHECK_EQ(b->n, NOPS - PFT_BLK_MAX_INSNS);
	CHECK_EQ(b->end, PFT_BLK_NOMAP);
	CHECK_EQ(b->next, 0x1000 + 4 * NOPS);
	b = pft_blkcache_get(bc, 0x9000, PFT_ISA_ARM, 0);
	CHECK_EQ(b->n, 0);
	CHECK_EQ(b->end, PFT_BLK_NOMAP);
	b = pft_blkcache_get(bc, 0x9000, PFT_ISA_JAZELLE, 0);
	CHECK_EQ(b->n, 0);
	/* the image changes under the cache: B . at 0x1000 */
	code2[0] = 0xFE;
	code2[1] = 0xFF;
	code2[2] = 0xFF;
	code2[3] = 0xEA;
	CHECK(pft_image_add_buffer(img, 0x1000, code2, 4) == 0);
	b = pft_blkcache_get(bc, 0x1000, PFT_ISA_ARM, 0);
	CHECK_EQ(b->n, 1);
	CHECK_EQ(b->end, PFT_BLK_WAYPOINT);
	CHECK_EQ(b->target, 0x1000);
	/* Hyp mode is part of the key */
	CHECK(pft_image_add_buffer(img, 0x2000, rfe, 4) == 0);
	b = pft_blkcache_get(bc, 0x2000, PFT_ISA_ARM, 0);
	CHECK_EQ(b->end, PFT_BLK_WAYPOINT);
	CHECK_EQ(b->insns[0].wp_class, PFT_WP_INDIRECT);
	b = pft_blkcache_get(bc, 0x2000, PFT_ISA_ARM, 1);
	CHECK_EQ(b->insns[0].wp_class, PFT_WP_NONE);
	CHECK(b->end != PFT_BLK_WAYPOINT);
	pft_blkcache_free(bc);
	pft_image_free(img);
}

int main(void)
{
	test_tc2();
	test_edges();
	return check_report();
}
