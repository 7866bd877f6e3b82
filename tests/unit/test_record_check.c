/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the log readers' step rule (src/record/record_check.c):
 * where each kind of instruction can send the processor, on encodings
 * written out from the GNU assembler's listings, and where an exception can
 * enter.  Every case that is allowed has a neighbour that is refused. */
#include <string.h>

#include "check.h"
#include "pft/isa.h"
#include "pft/record.h"

static struct pft_rec_insn insn(uint64_t addr, enum pft_isa isa, uint32_t opcode, unsigned size,
                                unsigned condcode)
{
	struct pft_rec_insn in;

	memset(&in, 0, sizeof in);
	in.addr = addr;
	in.isa = (uint8_t)isa;
	in.opcode = opcode;
	in.size = (uint8_t)size;
	in.cond = -1;
	in.condcode = (uint8_t)condcode;
	return in;
}

#define A PFT_ISA_ARM
#define T PFT_ISA_THUMB

static int ok(struct pft_rec_insn p, uint64_t addr, enum pft_isa isa)
{
	char why[160];
	int r = pft_rec_can_follow(&p, addr, isa, why, sizeof why);

	CHECK(r ? why[0] == 0 : why[0] != 0); /* a refusal says why */
	return r;
}

static void test_a32(void)
{
	struct pft_rec_insn add = insn(0x8000, A, 0xe0810002, 4, 14);  /* add r0, r1, r2 */
	struct pft_rec_insn b = insn(0x8000, A, 0xea000000, 4, 14);    /* b 0x8008 */
	struct pft_rec_insn bne = insn(0x8000, A, 0x1a000000, 4, 1);   /* bne 0x8008 */
	struct pft_rec_insn blx = insn(0x8000, A, 0xfb000000, 4, 14);  /* blx 0x800a (Thumb) */
	struct pft_rec_insn bx = insn(0x8000, A, 0xe12fff1e, 4, 14);   /* bx lr */
	struct pft_rec_insn movpc = insn(0x8000, A, 0xe1a0f00e, 4, 14); /* mov pc, lr */
	struct pft_rec_insn ldrpc = insn(0x8000, A, 0xe49df004, 4, 14); /* ldr pc, [sp], #4 */
	struct pft_rec_insn subs = insn(0x8000, A, 0xe25ef004, 4, 14); /* subs pc, lr, #4 */
	struct pft_rec_insn svc = insn(0x8000, A, 0xef000000, 4, 14);  /* svc 0 */
	char why[160];

	CHECK(ok(add, 0x8004, A));
	CHECK(!ok(add, 0x8008, A));
	CHECK(!ok(add, 0x8004, T));
	CHECK(!ok(add, 0x8000, A));
	CHECK(pft_rec_can_follow(&add, 0x8008, A, why, sizeof why) == 0);
	CHECK(strstr(why, "not a branch: falls through to 0x00008004 A32") != NULL);
	CHECK(ok(b, 0x8008, A));
	CHECK(!ok(b, 0x8004, A));                /* unconditional: no fall-through */
	CHECK(!ok(b, 0x8008, T));
	CHECK(ok(bne, 0x8008, A));
	CHECK(ok(bne, 0x8004, A));
	CHECK(!ok(bne, 0x800c, A));
	CHECK(ok(blx, 0x800a, T));               /* BLX imm changes the set */
	CHECK(!ok(blx, 0x800a, A));
	CHECK(!ok(blx, 0x8004, A));
	CHECK(ok(bx, 0x12345678, A));
	CHECK(ok(bx, 0x12345679 & ~1u, T));
	CHECK(ok(movpc, 0x4000, T));             /* ALUWritePC interworks in A32 (v7) */
	CHECK(ok(ldrpc, 0x4000, T));
	CHECK(ok(subs, 0x4002, T));              /* exception return: the SPSR's set */
	CHECK(ok(svc, 0x8004, A));
	CHECK(!ok(svc, 0xffff0008, A));          /* the exception is the reader's to say */
	/* IT or encoding condition: a conditional B falls through */
	b.condcode = 0;
	CHECK(ok(b, 0x8004, A));
}

static void test_t32(void)
{
	struct pft_rec_insn adds = insn(0x9000, T, 0x3001, 2, 14);      /* adds r0, #1 */
	struct pft_rec_insn ldrw = insn(0x9000, T, 0xf8d10100, 4, 14);  /* ldr.w r0, [r1, #256] */
	struct pft_rec_insn bn = insn(0x9000, T, 0xe000, 2, 14);        /* b.n 0x9004 */
	struct pft_rec_insn beq = insn(0x9000, T, 0xd000, 2, 0);        /* beq.n 0x9004 */
	struct pft_rec_insn cbz = insn(0x9000, T, 0xb100, 2, 14);       /* cbz r0, 0x9004 */
	struct pft_rec_insn bl = insn(0x9000, T, 0xf000f800, 4, 14);    /* bl 0x9004 */
	struct pft_rec_insn blx = insn(0x9000, T, 0xf000e800, 4, 14);   /* blx 0x9004 (A32) */
	struct pft_rec_insn bx = insn(0x9000, T, 0x4770, 2, 14);        /* bx lr */
	struct pft_rec_insn pop = insn(0x9000, T, 0xbd00, 2, 14);       /* pop {pc} */
	struct pft_rec_insn movpc = insn(0x9000, T, 0x46f7, 2, 14);     /* mov pc, lr */

	CHECK(ok(adds, 0x9002, T));
	CHECK(!ok(adds, 0x9004, T));
	CHECK(!ok(adds, 0x9002, A));
	CHECK(ok(ldrw, 0x9004, T));
	CHECK(!ok(ldrw, 0x9002, T));             /* a 32-bit instruction */
	CHECK(ok(bn, 0x9004, T));
	CHECK(!ok(bn, 0x9002, T));
	CHECK(ok(beq, 0x9004, T));
	CHECK(ok(beq, 0x9002, T));
	CHECK(ok(cbz, 0x9004, T));
	CHECK(ok(cbz, 0x9002, T));               /* CBZ is conditional */
	CHECK(ok(bl, 0x9004, T));
	CHECK(!ok(bl, 0x9004, A));
	CHECK(ok(blx, 0x9004, A));
	CHECK(!ok(blx, 0x9004, T));
	CHECK(ok(bx, 0x8000, A));
	CHECK(ok(pop, 0x8000, A));               /* LoadWritePC interworks */
	CHECK(ok(movpc, 0x8002, T));             /* BranchWritePC: anywhere ... */
	CHECK(!ok(movpc, 0x8000, A));            /* ... but stays in T32 */
	/* in an IT block: a B whose condition comes from IT may fall through */
	bn.condcode = 1;
	CHECK(ok(bn, 0x9002, T));
}

static void test_vectors(void)
{
	CHECK(pft_rec_is_vector(PFT_REC_EXC_IRQ, 0xffff0018));
	CHECK(pft_rec_is_vector(PFT_REC_EXC_IRQ, 0x18));
	CHECK(pft_rec_is_vector(PFT_REC_EXC_IRQ, 0x80000018));   /* a VBAR */
	CHECK(!pft_rec_is_vector(PFT_REC_EXC_IRQ, 0x8000001c));
	CHECK(pft_rec_is_vector(PFT_REC_EXC_FIQ, 0x8000001c));
	CHECK(pft_rec_is_vector(PFT_REC_EXC_SVC, 0x00000008));
	CHECK(pft_rec_is_vector(PFT_REC_EXC_UNDEF, 0x00000004));
	CHECK(pft_rec_is_vector(PFT_REC_EXC_PABT, 0x0000000c));
	CHECK(pft_rec_is_vector(PFT_REC_EXC_DABT, 0x00000010));
	CHECK(!pft_rec_is_vector(PFT_REC_EXC_DABT, 0x00000014)); /* the unused slot */
	CHECK(!pft_rec_is_vector(PFT_REC_EXC_NONE, 0x0));
	CHECK(!pft_rec_is_vector(PFT_REC_EXC_SVC, 0x100000008ull));
	CHECK_EQ(pft_rec_vector_offset(PFT_REC_EXC_IRQ), 0x18);
	CHECK_EQ(pft_rec_vector_offset(PFT_REC_EXC_NONE), -1);
}

int main(void)
{
	test_a32();
	test_t32();
	test_vectors();
	return check_report();
}
