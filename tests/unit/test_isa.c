/* SPDX-License-Identifier: BSD-3-Clause */
/* ISA classifier: hand-written vectors for every waypoint class of spec
 * Tables 2-2 to 2-5 in A32, T32 and ThumbEE.  Encodings and branch targets
 * are those of the GNU assembler (arm-none-eabi-as, .arch armv7-a with the
 * security and virtualization extensions; objdump shown in the comments);
 * the ThumbEE encodings come from the ARM ARM (DDI 0406) chapter A9. */
#include <string.h>

#include "check.h"
#include "pft/isa.h"

#define A PFT_ISA_ARM
#define T PFT_ISA_THUMB
#define E PFT_ISA_THUMBEE

#define F_L PFT_INSN_F_LINK
#define F_C PFT_INSN_F_COND
#define F_X PFT_INSN_F_EXC_RETURN
#define F_U PFT_INSN_F_UNPRED
#define F_D PFT_INSN_F_UNDEFINED
#define F_T PFT_INSN_F_TARGET
#define F_I PFT_INSN_F_PC_READ_ISA

#define NO PFT_WP_NONE
#define DI PFT_WP_DIRECT
#define IN PFT_WP_INDIRECT
#define IS PFT_WP_ISB
#define BA PFT_WP_BARRIER
#define XC PFT_WP_ISA_CHANGE

struct vec {
	enum pft_isa isa;
	uint32_t addr;
	uint32_t enc;      /* A32 word, T16 halfword, T32 hw1 << 16 | hw2 */
	unsigned opts;
	uint8_t size;
	uint8_t cls;
	uint16_t flags;    /* exact flags */
	uint8_t cond;
	uint32_t target;   /* when F_T */
	uint8_t tisa;      /* when F_T */
	const char *what;
};

#define HYP PFT_ISA_OPT_HYP

static const struct vec vecs[] = {
	/* ---- A32 direct branches (Table 2-2) ---- */
	{ A, 0x00, 0xea00003e, 0, 4, DI, F_T, 14, 0x100, A, "b 100" },
	{ A, 0x04, 0x0afffffb, 0, 4, DI, F_T | F_C, 0, 0xfffffff8, A, "beq fffffff8" },
	{ A, 0x08, 0xeb0007fc, 0, 4, DI, F_T | F_L, 14, 0x2000, A, "bl 2000" },
	{ A, 0x0c, 0xfa00003b, 0, 4, DI, F_T | F_L, 14, 0x100, T, "blx 100 (Thumb)" },
	{ A, 0x10, 0xfa000058, 0, 4, DI, F_T | F_L, 14, 0x178, T, "blx 178 (Thumb)" },
	{ A, 0x10, 0xfb000058, 0, 4, DI, F_T | F_L, 14, 0x17a, T, "blx 17a (H=1)" },
	{ A, 0x54, 0xf57ff06f, 0, 4, IS, 0, 14, 0, A, "isb sy" },
	{ A, 0x58, 0xf57ff04f, 0, 4, BA, 0, 14, 0, A, "dsb sy" },
	{ A, 0x5c, 0xf57ff05b, 0, 4, BA, 0, 14, 0, A, "dmb ish" },
	{ A, 0x60, 0xee070f95, 0, 4, IS, 0, 14, 0, A, "mcr p15,0,r0,c7,c5,4 (ISB)" },
	{ A, 0x64, 0xee070f9a, 0, 4, BA, 0, 14, 0, A, "mcr p15,0,r0,c7,c10,4 (DSB)" },
	{ A, 0x68, 0xee070fba, 0, 4, BA, 0, 14, 0, A, "mcr p15,0,r0,c7,c10,5 (DMB)" },
	{ A, 0x68, 0x1e073fba, 0, 4, BA, F_C, 1, 0, A, "mcrne p15,0,r3,c7,c10,5 (DMB)" },
	/* ---- A32 indirect branches (Table 2-4) ---- */
	{ A, 0x14, 0xe12fff1e, 0, 4, IN, F_I, 14, 0, A, "bx lr" },
	{ A, 0x18, 0xe12fff33, 0, 4, IN, F_I | F_L, 14, 0, A, "blx r3" },
	{ A, 0x1c, 0xe12fff22, 0, 4, IN, F_I, 14, 0, A, "bxj r2" },
	{ A, 0x20, 0xe49df004, 0, 4, IN, F_I, 14, 0, A, "pop {pc} (ldr pc,[sp],#4)" },
	{ A, 0x24, 0xe590f008, 0, 4, IN, F_I, 14, 0, A, "ldr pc,[r0,#8]" },
	{ A, 0x28, 0xe4b1f004, 0, 4, IN, F_I | F_U, 14, 0, A, "ldrt pc,[r1],#4 (UNPREDICTABLE)" },
	{ A, 0x2c, 0xe8bd8010, 0, 4, IN, F_I, 14, 0, A, "pop {r4,pc}" },
	{ A, 0x30, 0xe8bd80f0, 0, 4, IN, F_I, 14, 0, A, "pop {r4-r7,pc}" },
	{ A, 0x34, 0xe8fd8000, 0, 4, IN, F_X, 14, 0, A, "ldm sp!,{pc}^" },
	{ A, 0x38, 0xe1a0f00e, 0, 4, IN, F_I, 14, 0, A, "mov pc,lr" },
	{ A, 0x3c, 0xe1b0f00e, 0, 4, IN, F_X, 14, 0, A, "movs pc,lr" },
	{ A, 0x40, 0xe25ef004, 0, 4, IN, F_X, 14, 0, A, "subs pc,lr,#4" },
	{ A, 0x44, 0xe08ff100, 0, 4, IN, F_I, 14, 0, A, "add pc,pc,r0,lsl #2" },
	{ A, 0x48, 0x1281f004, 0, 4, IN, F_I | F_C, 1, 0, A, "addne pc,r1,#4" },
	{ A, 0x4c, 0xf8bd0a00, 0, 4, IN, F_X, 14, 0, A, "rfeia sp!" },
	{ A, 0x50, 0xe160006e, 0, 4, IN, F_X, 14, 0, A, "eret" },
	/* Hyp mode (spec 2.2 note): these are UNDEFINED there */
	{ A, 0x34, 0xe8fd8000, HYP, 4, NO, F_D, 14, 0, A, "ldm sp!,{pc}^ in Hyp" },
	{ A, 0x3c, 0xe1b0f00e, HYP, 4, NO, F_D, 14, 0, A, "movs pc,lr in Hyp" },
	{ A, 0x40, 0xe25ef004, HYP, 4, NO, F_D, 14, 0, A, "subs pc,lr,#4 in Hyp" },
	{ A, 0x4c, 0xf8bd0a00, HYP, 4, NO, F_D, 14, 0, A, "rfeia sp! in Hyp" },
	{ A, 0x50, 0xe160006e, HYP, 4, IN, F_X, 14, 0, A, "eret in Hyp" },
	{ A, 0x38, 0xe1a0f00e, HYP, 4, IN, F_I, 14, 0, A, "mov pc,lr in Hyp" },
	/* UNPREDICTABLE PC destinations */
	{ A, 0x00, 0xe1c0e0d0, 0, 4, IN, F_U, 14, 0, A, "ldrd lr,pc,[r0]" },
	{ A, 0x00, 0xe08ff112, 0, 4, IN, F_I | F_U, 14, 0, A, "add pc,pc,r2,lsl r1" },
	{ A, 0x00, 0xe5dff000, 0, 4, IN, F_U, 14, 0, A, "ldrb pc,[pc]" },
	{ A, 0x00, 0xe5b0f004, 0, 4, IN, F_I, 14, 0, A, "ldr pc,[r0,#4]!" },
	{ A, 0x00, 0xe5bff004, 0, 4, IN, F_I | F_U, 14, 0, A, "ldr pc,[pc,#4]! (wback to PC)" },
	{ A, 0x00, 0xe52f0004, 0, 4, NO, F_U, 14, 0, A, "str r0,[pc,#-4]! (wback to PC)" },
	/* ---- A32 other flags ---- */
	{ A, 0x6c, 0xef000000, 0, 4, NO, PFT_INSN_F_SVC, 14, 0, A, "svc 0" },
	{ A, 0x70, 0xe1600070, 0, 4, NO, PFT_INSN_F_SMC, 14, 0, A, "smc 0" },
	{ A, 0x74, 0xe1400070, 0, 4, NO, PFT_INSN_F_HVC, 14, 0, A, "hvc 0" },
	{ A, 0x78, 0xe1200071, 0, 4, NO, PFT_INSN_F_BKPT, 14, 0, A, "bkpt 1" },
	{ A, 0x7c, 0xe320f003, 0, 4, NO, PFT_INSN_F_WFI, 14, 0, A, "wfi" },
	{ A, 0x80, 0xe320f002, 0, 4, NO, PFT_INSN_F_WFI, 14, 0, A, "wfe" },
	{ A, 0x84, 0xe1a00001, 0, 4, NO, 0, 14, 0, A, "mov r0,r1" },
	{ A, 0x84, 0x01a00001, 0, 4, NO, F_C, 0, 0, A, "moveq r0,r1" },
	{ A, 0x88, 0xe15f0000, 0, 4, NO, 0, 14, 0, A, "cmp pc,r0" },
	{ A, 0x8c, 0xe1c200d0, 0, 4, NO, 0, 14, 0, A, "ldrd r0,r1,[r2]" },
	{ A, 0x90, 0xe7f000f0, 0, 4, NO, F_D, 14, 0, A, "udf 0" },
	{ A, 0x94, 0xe59f0004, 0, 4, NO, 0, 14, 0, A, "ldr r0,[pc,#4]" },
	{ A, 0x94, 0xee1fff10, 0, 4, NO, 0, 14, 0, A, "mrc p15,0,apsr_nzcv,c15,c0,0" },

	/* ---- T32 direct branches (Table 2-3) ---- */
	{ T, 0x100, 0xe00e, 0, 2, DI, F_T, 14, 0x120, T, "b.n 120" },
	{ T, 0x102, 0xd0fb, 0, 2, DI, F_T | F_C, 0, 0xfc, T, "beq.n fc" },
	{ T, 0x104, 0xb1e0, 0, 2, DI, F_T | F_C, 0, 0x140, T, "cbz r0,140" },
	{ T, 0x106, 0xbbdf, 0, 2, DI, F_T | F_C, 1, 0x180, T, "cbnz r7,180" },
	{ T, 0x108, 0xf00fbffa, 0, 4, DI, F_T, 14, 0x10100, T, "b.w 10100" },
	{ T, 0x10c, 0xf47eaff8, 0, 4, DI, F_T | F_C, 1, 0xfffff100, T, "bne.w fffff100" },
	{ T, 0x110, 0xf003fff6, 0, 4, DI, F_T | F_L, 14, 0x4100, T, "bl 4100" },
	{ T, 0x114, 0xf7ffef74, 0, 4, DI, F_T | F_L, 14, 0x0, A, "blx 0 (ARM)" },
	{ T, 0x116, 0xf7ffef74, 0, 4, DI, F_T | F_L, 14, 0x0, A, "blx at 2 mod 4: Align(PC,4)" },
	{ T, 0x146, 0xf3bf8f6f, 0, 4, IS, 0, 14, 0, T, "isb sy" },
	{ T, 0x14a, 0xf3bf8f4f, 0, 4, BA, 0, 14, 0, T, "dsb sy" },
	{ T, 0x14e, 0xf3bf8f5f, 0, 4, BA, 0, 14, 0, T, "dmb sy" },
	{ T, 0x152, 0xee070f95, 0, 4, IS, 0, 14, 0, T, "mcr p15,0,r0,c7,c5,4 (ISB)" },
	{ T, 0x152, 0xee075f9a, 0, 4, BA, 0, 14, 0, T, "mcr p15,0,r5,c7,c10,4 (DSB)" },
	{ T, 0x152, 0xee070fba, 0, 4, BA, 0, 14, 0, T, "mcr p15,0,r0,c7,c10,5 (DMB)" },
	{ T, 0x152, 0xfe070f95, 0, 4, NO, 0, 14, 0, T, "mcr2 p15,... is not a barrier" },
	{ T, 0x200, 0xf3bf8f1f, 0, 4, XC, F_T, 14, 0x204, E, "enterx" },
	{ T, 0x200, 0xf3bf8f0f, 0, 4, XC, F_T, 14, 0x204, T, "leavex" },
	/* ---- T32 indirect branches (Table 2-5) ---- */
	{ T, 0x118, 0x4770, 0, 2, IN, F_I, 14, 0, T, "bx lr" },
	{ T, 0x11a, 0x4798, 0, 2, IN, F_I | F_L, 14, 0, T, "blx r3" },
	{ T, 0x11c, 0x4687, 0, 2, IN, 0, 14, 0, T, "mov pc,r0" },
	{ T, 0x11e, 0x448f, 0, 2, IN, 0, 14, 0, T, "add pc,r1" },
	{ T, 0x120, 0xbd10, 0, 2, IN, F_I, 14, 0, T, "pop {r4,pc}" },
	{ T, 0x122, 0xf85dfb04, 0, 4, IN, F_I, 14, 0, T, "ldr.w pc,[sp],#4" },
	{ T, 0x126, 0xf8d0f004, 0, 4, IN, F_I, 14, 0, T, "ldr.w pc,[r0,#4]" },
	{ T, 0x126, 0xf8dff004, 0, 4, IN, F_I, 14, 0, T, "ldr.w pc,[pc,#4] (literal)" },
	{ T, 0x126, 0xf850f021, 0, 4, IN, F_I, 14, 0, T, "ldr.w pc,[r0,r1,lsl #2]" },
	{ T, 0x12a, 0xe8b08002, 0, 4, IN, F_I, 14, 0, T, "ldmia.w r0!,{r1,pc}" },
	{ T, 0x12a, 0xe8bd8010, 0, 4, IN, F_I, 14, 0, T, "pop.w {r4,pc}" },
	{ T, 0x12e, 0xe8dff000, 0, 4, IN, 0, 14, 0, T, "tbb [pc,r0]" },
	{ T, 0x132, 0xe8d1f012, 0, 4, IN, 0, 14, 0, T, "tbh [r1,r2,lsl #1]" },
	{ T, 0x136, 0xf3de8f04, 0, 4, IN, F_X, 14, 0, T, "subs pc,lr,#4" },
	{ T, 0x13a, 0xf3de8f00, 0, 4, IN, F_X, 14, 0, T, "eret (subs pc,lr,#0)" },
	{ T, 0x13e, 0xf3c48f00, 0, 4, IN, F_I, 14, 0, T, "bxj r4" },
	{ T, 0x142, 0xe9bdc000, 0, 4, IN, F_X, 14, 0, T, "rfeia sp!" },
	{ T, 0x136, 0xf3de8f04, HYP, 4, NO, F_D, 14, 0, T, "subs pc,lr,#4 in Hyp" },
	{ T, 0x13a, 0xf3de8f00, HYP, 4, IN, F_X, 14, 0, T, "eret in Hyp" },
	{ T, 0x142, 0xe9bdc000, HYP, 4, NO, F_D, 14, 0, T, "rfeia sp! in Hyp" },
	{ T, 0x000, 0xeb0f0f01, 0, 4, IN, F_U, 14, 0, T, "add.w pc,pc,r1 (UNPREDICTABLE)" },
	{ T, 0x000, 0xe9d0ef00, 0, 4, IN, F_U, 14, 0, T, "ldrd lr,pc,[r0] (UNPREDICTABLE)" },
	{ T, 0x000, 0x4700, 0, 2, IN, F_I, 14, 0, T, "bx r0" },
	{ T, 0x000, 0x4701, 0, 2, IN, F_I | F_U, 14, 0, T, "bx r0 with SBZ bits set" },
	/* ---- T32 other ---- */
	{ T, 0x156, 0xbf08, 0, 2, NO, PFT_INSN_F_IT, 0, 0, T, "it eq" },
	{ T, 0x15a, 0xbf1a, 0, 2, NO, PFT_INSN_F_IT, 1, 0, T, "itte ne" },
	{ T, 0x15a, 0xbfe8, 0, 2, NO, PFT_INSN_F_IT, 14, 0, T, "it al" },
	{ T, 0x15a, 0xbfec, 0, 2, NO, PFT_INSN_F_IT | F_U, 14, 0, T, "itt al (UNPREDICTABLE)" },
	{ T, 0x162, 0xdf01, 0, 2, NO, PFT_INSN_F_SVC, 14, 0, T, "svc 1" },
	{ T, 0x164, 0xbe02, 0, 2, NO, PFT_INSN_F_BKPT, 14, 0, T, "bkpt 2" },
	{ T, 0x166, 0xbf30, 0, 2, NO, PFT_INSN_F_WFI, 14, 0, T, "wfi" },
	{ T, 0x168, 0xbf20, 0, 2, NO, PFT_INSN_F_WFI, 14, 0, T, "wfe" },
	{ T, 0x168, 0xf3af8003, 0, 4, NO, PFT_INSN_F_WFI, 14, 0, T, "wfi.w" },
	{ T, 0x16a, 0xf7f08000, 0, 4, NO, PFT_INSN_F_SMC, 14, 0, T, "smc 0" },
	{ T, 0x16e, 0xf7e08000, 0, 4, NO, PFT_INSN_F_HVC, 14, 0, T, "hvc 0" },
	{ T, 0x172, 0x4608, 0, 2, NO, 0, 14, 0, T, "mov r0,r1" },
	{ T, 0x174, 0xde00, 0, 2, NO, F_D, 14, 0, T, "udf 0" },
	{ T, 0x176, 0xbf00, 0, 2, NO, 0, 14, 0, T, "nop" },
	{ T, 0x176, 0xc001, 0, 2, NO, 0, 14, 0, T, "stmia r0!,{r0} (Thumb)" },
	{ T, 0x176, 0xebb00f01, 0, 4, NO, 0, 14, 0, T, "cmp.w r0,r1 (subs.w pc: CMP)" },
	{ T, 0x176, 0xf8dff000, 0, 4, IN, F_I, 14, 0, T, "ldr.w pc,[pc]" },
	{ T, 0x176, 0xf890f000, 0, 4, NO, 0, 14, 0, T, "pld [r0] (ldrb pc form)" },

	/* ---- more forms (second assembler listing) ---- */
	{ A, 0x00, 0xe51ff004, 0, 4, IN, F_I, 14, 0, A, "ldr pc,[pc,#-4]" },
	{ A, 0x04, 0xe8fd800f, 0, 4, IN, F_X, 14, 0, A, "ldm sp!,{r0-r3,pc}^" },
	{ A, 0x08, 0xe9908002, 0, 4, IN, F_I, 14, 0, A, "ldmib r0,{r1,pc}" },
	{ A, 0x0c, 0xe8308002, 0, 4, IN, F_I, 14, 0, A, "ldmda r0!,{r1,pc}" },
	{ A, 0x10, 0xe9108002, 0, 4, IN, F_I, 14, 0, A, "ldmdb r0,{r1,pc}" },
	{ A, 0x14, 0xf9100a00, 0, 4, IN, F_X, 14, 0, A, "rfedb r0" },
	{ A, 0x18, 0x012fff1e, 0, 4, IN, F_I | F_C, 0, 0, A, "bxeq lr" },
	{ A, 0x1c, 0x1160006e, 0, 4, IN, F_X | F_C, 1, 0, A, "eretne" },
	{ A, 0x20, 0xf96d0513, 0, 4, NO, 0, 14, 0, A, "srsdb sp!,#19" },
	{ A, 0x24, 0xf57ff01f, 0, 4, NO, 0, 14, 0, A, "clrex" },
	{ A, 0x28, 0xf10c0080, 0, 4, NO, 0, 14, 0, A, "cpsid i" },
	{ A, 0x2c, 0xf1010200, 0, 4, NO, 0, 14, 0, A, "setend be" },
	{ A, 0x30, 0xe791f102, 0, 4, IN, F_I, 14, 0, A, "ldr pc,[r1,r2,lsl #2]" },
	{ A, 0x34, 0x1711f002, 0, 4, IN, F_I | F_C, 1, 0, A, "ldrne pc,[r1,-r2]" },
	{ A, 0x38, 0xe3b0f000, 0, 4, IN, F_X, 14, 0, A, "movs pc,#0" },
	{ A, 0x3c, 0xe1e0f000, 0, 4, IN, F_I, 14, 0, A, "mvn pc,r0" },
	{ A, 0x40, 0xe24ff008, 0, 4, IN, F_I, 14, 0, A, "sub pc,pc,#8" },
	{ A, 0x44, 0xe3c0f003, 0, 4, IN, F_I, 14, 0, A, "bic pc,r0,#3" },
	{ A, 0x4c, 0xf57ff052, 0, 4, BA, 0, 14, 0, A, "dmb oshst" },
	{ A, 0x50, 0xec410f02, 0, 4, NO, 0, 14, 0, A, "mcrr p15,0,r0,r1,c2" },
	{ A, 0x54, 0xe10f0000, 0, 4, NO, 0, 14, 0, A, "mrs r0,apsr" },
	{ A, 0x54, 0xe10ff000, 0, 4, IN, F_U, 14, 0, A, "mrs pc,apsr (UNPREDICTABLE)" },
	{ A, 0x00, 0xe020f291, 0, 4, NO, F_U, 14, 0, A, "mla r0,r1,r2,pc: not a branch" },
	{ A, 0x00, 0xe1c0f0b0, 0, 4, NO, F_U, 14, 0, A, "strh pc,[r0]: not a branch" },
	{ A, 0x00, 0xe0000291, 0, 4, NO, 0, 14, 0, A, "mul r0,r1,r2" },
	{ T, 0x58, 0x46ff, 0, 2, IN, 0, 14, 0, T, "mov pc,pc" },
	{ T, 0x5a, 0x44ff, 0, 2, IN, F_U, 14, 0, T, "add pc,pc (UNPREDICTABLE)" },
	{ T, 0x5c, 0xe82dc013, 0, 4, NO, 0, 14, 0, T, "srsdb sp!,#19" },
	{ T, 0x60, 0xe810c000, 0, 4, IN, F_X, 14, 0, T, "rfedb r0" },
	{ T, 0x64, 0xf3bf8f2f, 0, 4, NO, 0, 14, 0, T, "clrex" },
	{ T, 0x68, 0xb672, 0, 2, NO, 0, 14, 0, T, "cpsid i" },
	{ T, 0x6a, 0xf8ddf004, 0, 4, IN, F_I, 14, 0, T, "ldr.w pc,[sp,#4]" },
	{ T, 0x6e, 0xf850fc04, 0, 4, IN, F_I, 14, 0, T, "ldr.w pc,[r0,#-4]" },
	{ T, 0x72, 0xf850ff04, 0, 4, IN, F_I, 14, 0, T, "ldr.w pc,[r0,#4]!" },
	{ T, 0x76, 0xf7f0a000, 0, 4, NO, F_D, 14, 0, T, "udf.w 0" },
	{ T, 0x7a, 0xe8bd8ff0, 0, 4, IN, F_I, 14, 0, T, "pop.w {r4-r11,pc}" },
	{ T, 0x7e, 0xe9308002, 0, 4, IN, F_I, 14, 0, T, "ldmdb r0!,{r1,pc}" },
	{ T, 0x82, 0xe8dff013, 0, 4, IN, 0, 14, 0, T, "tbh [pc,r3,lsl #1]" },
	{ T, 0x86, 0xf000f87e, 0, 4, DI, F_T | F_L, 14, 0x186, T, "bl 186" },
	{ T, 0x8a, 0xf7fdbffe, 0, 4, DI, F_T, 14, 0xffffe08a, T, "b.w ffffe08a" },
	{ T, 0x8e, 0xbff8, 0, 2, NO, PFT_INSN_F_IT | F_U, 15, 0, T, "it with firstcond 1111 (UNPREDICTABLE)" },
	{ T, 0x8e, 0xe8bd4001, 0, 4, NO, 0, 14, 0, T, "pop.w {r0,lr}" },
	{ T, 0x8e, 0xe8bdc001, 0, 4, IN, F_I | F_U, 14, 0, T, "pop.w {r0,lr,pc} (UNPREDICTABLE)" },

	/* ---- ThumbEE (ARM ARM A9) ---- */
	{ E, 0x300, 0xc205, 0, 2, IN, 0, 14, 0, E, "hb #5" },
	{ E, 0x300, 0xc305, 0, 2, IN, F_L, 14, 0, E, "hbl #5" },
	{ E, 0x300, 0xc023, 0, 2, IN, 0, 14, 0, E, "hbp #1,#3" },
	{ E, 0x300, 0xc4ab, 0, 2, IN, F_L, 14, 0, E, "hblp #5,#11" },
	{ E, 0x300, 0xca12, 0, 2, NO, 0, 14, 0, E, "chka r2,r2" },
	{ E, 0x300, 0xf7ffef74, 0, 4, NO, F_D, 14, 0, E, "blx imm is UNDEFINED in ThumbEE" },
	{ E, 0x300, 0xe00e, 0, 2, DI, F_T, 14, 0x320, E, "b.n stays ThumbEE" },
	{ E, 0x304, 0xb1e0, 0, 2, DI, F_T | F_C, 0, 0x340, E, "cbz stays ThumbEE" },
	{ E, 0x300, 0xf003fff6, 0, 4, DI, F_T | F_L, 14, 0x42f0, E, "bl stays ThumbEE" },
	{ E, 0x300, 0xf3bf8f0f, 0, 4, XC, F_T, 14, 0x304, T, "leavex" },
	{ E, 0x300, 0x4770, 0, 2, IN, F_I, 14, 0, E, "bx lr" },
	{ E, 0x300, 0xf3bf8f6f, 0, 4, IS, 0, 14, 0, E, "isb sy" },
};

static void check_vec(const struct vec *v)
{
	uint8_t b[4];
	size_t n;
	struct pft_insn_info o;
	int rc, bad = 0;

	if (v->isa == PFT_ISA_ARM || v->enc < 0x10000) {
		b[0] = (uint8_t)v->enc; b[1] = (uint8_t)(v->enc >> 8);
		b[2] = (uint8_t)(v->enc >> 16); b[3] = (uint8_t)(v->enc >> 24);
		n = v->isa == PFT_ISA_ARM ? 4 : 2;
	} else {
		b[0] = (uint8_t)(v->enc >> 16); b[1] = (uint8_t)(v->enc >> 24);
		b[2] = (uint8_t)v->enc; b[3] = (uint8_t)(v->enc >> 8);
		n = 4;
	}
	rc = pft_isa_decode(v->isa, v->addr, b, n, v->opts, &o);
	bad |= rc != 0;
	bad |= o.opcode != v->enc;
	bad |= o.size != v->size;
	bad |= o.wp_class != v->cls;
	bad |= o.flags != v->flags;
	bad |= o.cond != v->cond;
	if (v->flags & PFT_INSN_F_TARGET)
		bad |= o.target != v->target || o.target_isa != v->tisa;
	check_count++;
	if (bad) {
		check_failures++;
		fprintf(stderr, "FAIL %s %08x @%x (%s): rc=%d size=%u class=%s flags=%04x cond=%u "
		        "target=%llx/%s; want size=%u class=%s flags=%04x cond=%u target=%x/%s\n",
		        pft_isa_name(v->isa), (unsigned)v->enc, (unsigned)v->addr, v->what, rc,
		        o.size, pft_wp_class_name((enum pft_wp_class)o.wp_class), o.flags, o.cond,
		        (unsigned long long)o.target, pft_isa_name((enum pft_isa)o.target_isa),
		        v->size, pft_wp_class_name((enum pft_wp_class)v->cls), v->flags, v->cond,
		        (unsigned)v->target, pft_isa_name((enum pft_isa)v->tisa));
	}
}

static void check_it(void)
{
	static const uint8_t itte_ne[2] = { 0x1a, 0xbf }, it_eq[2] = { 0x08, 0xbf };
	static const uint8_t itttt_ge[2] = { 0xa1, 0xbf }, itete_lt[2] = { 0xb5, 0xbf };
	struct pft_insn_info o;
	struct pft_it_state st;

	/* itte ne: NE, NE, EQ, then out of the block */
	CHECK_EQ(pft_isa_decode(PFT_ISA_THUMB, 0, itte_ne, 2, 0, &o), 0);
	CHECK_EQ(pft_isa_it_length(&o), 3);
	pft_isa_it_start(&st, &o);
	CHECK(pft_isa_it_active(&st));
	CHECK_EQ(pft_isa_it_cond(&st), 1);
	CHECK(!pft_isa_it_last(&st));
	pft_isa_it_advance(&st);
	CHECK_EQ(pft_isa_it_cond(&st), 1);
	CHECK(!pft_isa_it_last(&st));
	pft_isa_it_advance(&st);
	CHECK_EQ(pft_isa_it_cond(&st), 0);
	CHECK(pft_isa_it_last(&st));
	pft_isa_it_advance(&st);
	CHECK(!pft_isa_it_active(&st));
	CHECK_EQ(pft_isa_it_cond(&st), 14);

	/* it eq: one instruction */
	CHECK_EQ(pft_isa_decode(PFT_ISA_THUMB, 0, it_eq, 2, 0, &o), 0);
	CHECK_EQ(pft_isa_it_length(&o), 1);
	pft_isa_it_start(&st, &o);
	CHECK_EQ(pft_isa_it_cond(&st), 0);
	CHECK(pft_isa_it_last(&st));
	pft_isa_it_advance(&st);
	CHECK(!pft_isa_it_active(&st));

	/* itttt ge (0xbfa1): GE x4 */
	CHECK_EQ(pft_isa_decode(PFT_ISA_THUMB, 0, itttt_ge, 2, 0, &o), 0);
	CHECK_EQ(pft_isa_it_length(&o), 4);
	pft_isa_it_start(&st, &o);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(pft_isa_it_cond(&st), 10);
		CHECK_EQ(pft_isa_it_last(&st), i == 3);
		pft_isa_it_advance(&st);
	}
	CHECK(!pft_isa_it_active(&st));

	/* itete lt (0xbfb5): LT GE LT GE */
	CHECK_EQ(pft_isa_decode(PFT_ISA_THUMB, 0, itete_lt, 2, 0, &o), 0);
	CHECK_EQ(pft_isa_it_length(&o), 4);
	pft_isa_it_start(&st, &o);
	{
		static const unsigned want[4] = { 11, 10, 11, 10 };
		for (int i = 0; i < 4; i++) {
			CHECK_EQ(pft_isa_it_cond(&st), want[i]);
			pft_isa_it_advance(&st);
		}
	}
	CHECK(!pft_isa_it_active(&st));

	/* A non-IT instruction starts no block. */
	CHECK_EQ(pft_isa_decode(PFT_ISA_THUMB, 0, (const uint8_t *)"\x00\xbf", 2, 0, &o), 0);
	pft_isa_it_start(&st, &o);
	CHECK(!pft_isa_it_active(&st));
	CHECK_EQ(pft_isa_it_length(&o), 0);
}

static void check_cond(void)
{
	/* N Z C V in bits 31..28 */
	const uint32_t N = 1u << 31, Z = 1u << 30, C = 1u << 29, V = 1u << 28;
	CHECK_EQ(pft_isa_cond_passed(0, Z), 1);   /* EQ */
	CHECK_EQ(pft_isa_cond_passed(0, 0), 0);
	CHECK_EQ(pft_isa_cond_passed(1, 0), 1);   /* NE */
	CHECK_EQ(pft_isa_cond_passed(2, C), 1);   /* CS */
	CHECK_EQ(pft_isa_cond_passed(3, C), 0);   /* CC */
	CHECK_EQ(pft_isa_cond_passed(4, N), 1);   /* MI */
	CHECK_EQ(pft_isa_cond_passed(5, N), 0);   /* PL */
	CHECK_EQ(pft_isa_cond_passed(6, V), 1);   /* VS */
	CHECK_EQ(pft_isa_cond_passed(7, V), 0);   /* VC */
	CHECK_EQ(pft_isa_cond_passed(8, C), 1);   /* HI */
	CHECK_EQ(pft_isa_cond_passed(8, C | Z), 0);
	CHECK_EQ(pft_isa_cond_passed(9, C | Z), 1); /* LS */
	CHECK_EQ(pft_isa_cond_passed(10, N | V), 1); /* GE */
	CHECK_EQ(pft_isa_cond_passed(10, N), 0);
	CHECK_EQ(pft_isa_cond_passed(11, N), 1);  /* LT */
	CHECK_EQ(pft_isa_cond_passed(12, 0), 1);  /* GT */
	CHECK_EQ(pft_isa_cond_passed(12, Z), 0);
	CHECK_EQ(pft_isa_cond_passed(13, Z), 1);  /* LE */
	CHECK_EQ(pft_isa_cond_passed(14, 0), 1);  /* AL */
	CHECK_EQ(pft_isa_cond_passed(15, 0), 1);
}

static void check_errors(void)
{
	struct pft_insn_info o;
	static const uint8_t w[4] = { 0x1e, 0xff, 0x2f, 0xe1 };
	static const uint8_t t32[4] = { 0x03, 0xf0, 0xf6, 0xff };

	CHECK_EQ(pft_isa_decode(PFT_ISA_ARM, 0, w, 3, 0, &o), -PFT_E_NOMAP);
	CHECK_EQ(o.size, 4);
	CHECK_EQ(pft_isa_decode(PFT_ISA_THUMB, 0, t32, 1, 0, &o), -PFT_E_NOMAP);
	CHECK_EQ(o.size, 2);
	CHECK_EQ(pft_isa_decode(PFT_ISA_THUMB, 0, t32, 2, 0, &o), -PFT_E_NOMAP);
	CHECK_EQ(o.size, 4);
	CHECK_EQ(pft_isa_decode(PFT_ISA_THUMB, 0, t32, 4, 0, &o), 0);
	CHECK_EQ(o.size, 4);
	CHECK_EQ(pft_isa_decode(PFT_ISA_JAZELLE, 0, w, 4, 0, &o), -PFT_E_UNSUPPORTED);
	CHECK_EQ(pft_isa_decode(PFT_ISA_UNKNOWN, 0, w, 4, 0, &o), -PFT_E_INVAL);
	CHECK_EQ(pft_isa_decode(PFT_ISA_ARM, 0, w, 4, 0, NULL), -PFT_E_INVAL);
	CHECK_EQ(pft_isa_decode(PFT_ISA_ARM, 0, NULL, 4, 0, &o), -PFT_E_INVAL);
	CHECK_EQ(pft_isa_thumb_size(0xe7fe), 2);
	CHECK_EQ(pft_isa_thumb_size(0xe800), 4);
	CHECK_EQ(pft_isa_thumb_size(0xf000), 4);
	CHECK_EQ(pft_isa_thumb_size(0xbf00), 2);

	/* Waypoint predicate: barriers only with the option. */
	CHECK_EQ(pft_isa_decode(PFT_ISA_ARM, 0, (const uint8_t *)"\x4f\xf0\x7f\xf5", 4, 0, &o), 0);
	CHECK_EQ(o.wp_class, PFT_WP_BARRIER);
	CHECK(!pft_isa_is_waypoint(&o, 0));
	CHECK(pft_isa_is_waypoint(&o, PFT_ISA_OPT_DMB_WAYPOINT));
	CHECK(strcmp(pft_wp_class_name(PFT_WP_ISA_CHANGE), "isa_change") == 0);
}

int main(void)
{
	size_t i;
	for (i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
		check_vec(&vecs[i]);
	check_it();
	check_cond();
	check_errors();
	return check_report();
}
