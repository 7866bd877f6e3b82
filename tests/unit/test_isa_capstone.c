/* SPDX-License-Identifier: BSD-3-Clause */
/* Oracle: the ISA classifier against capstone's decode of random encodings
 * (A32 words, every 16-bit T32 halfword, random 32-bit T32 pairs).
 * Compared: instruction size, whether the instruction writes the PC (is a
 * branch), the direct target, the link flag, barriers.  Every deliberate
 * difference falls into a named bucket below with its reason; each bucket
 * has a ceiling, so the test fails when an unexplained difference appears
 * or a known one grows.  Set PFT_ISA_ORACLE_VERBOSE=1 to print samples. */
#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/isa.h"

enum set { SET_A32, SET_T16, SET_T32, SET_NR };
static const char *const set_name[SET_NR] = { "A32", "T16", "T32" };

/* What capstone says about one encoding. */
struct csview {
	int valid;
	unsigned size;
	int writes_pc;    /* jump/call/ret group, PC in regs_write or a PC destination */
	int wb_pc;        /* writeback to a PC base register */
	int link;         /* call group */
	int has_target;   /* branch_relative with an immediate */
	uint64_t target;
	char mnem[32];
	char ops[160];
};

/* Buckets of deliberate differences.  `max` is the ceiling per 100k
 * encodings of the set (rates measured with the default seed, plus a
 * margin); a bucket that must never fire has max 0. */
struct bucket {
	enum set set;
	const char *name;
	const char *reason;
	unsigned max_per_100k;
	unsigned long count;
	uint32_t sample;
};

#define B(s, n, r, m) { s, n, r, m, 0, 0 }
static struct bucket buckets[] = {
	/* 0 */ B(SET_A32, "unexplained", "must stay empty", 0),
	/* 1 */ B(SET_T16, "unexplained", "must stay empty", 0),
	/* 2 */ B(SET_T32, "unexplained", "must stay empty", 0),
#define BK_WB_PC 3
	B(SET_A32, "unpred: writeback to a PC base",
	  "ARM ARM: UNPREDICTABLE; here not a branch (writeback is not a branch "
	  "destination), flagged F_UNPRED; capstone shows the writeback", 1300),
	B(SET_T16, "unpred: writeback to a PC base", "as A32", 0),
	B(SET_T32, "unpred: writeback to a PC base", "as A32", 750),
#define BK_UNPRED_REJ 6
	B(SET_A32, "unpred: PC destination, capstone rejects",
	  "UNPREDICTABLE encoding whose destination is the PC: classified as the "
	  "indirect branch it would be, flagged F_UNPRED; capstone refuses many", 700),
	B(SET_T16, "unpred: PC destination, capstone rejects", "as A32", 189),
	B(SET_T32, "unpred: PC destination, capstone rejects", "as A32", 1350),
#define BK_UNPRED_NOWR 9
	B(SET_A32, "unpred: PC destination, capstone no PC write",
	  "as above, but capstone decodes it without marking the PC written", 65),
	B(SET_T16, "unpred: PC destination, capstone no PC write", "as A32", 0),
	B(SET_T32, "unpred: PC destination, capstone no PC write", "as A32", 70),
#define BK_CS_STRT 12
	B(SET_A32, "capstone: STRT-family source marked written",
	  "capstone 4 marks the stored register of STRT/STRBT/STRHT as written; "
	  "a store of the PC is not a branch", 0),
	B(SET_T16, "capstone: STRT-family source marked written", "as A32", 0),
	B(SET_T32, "capstone: STRT-family source marked written", "as A32", 6),
#define BK_REJ_UNPRED 15
	B(SET_A32, "capstone rejects: UNPREDICTABLE non-branch",
	  "flagged F_UNPRED here, not a branch; capstone refuses the encoding", 2600),
	B(SET_T16, "capstone rejects: UNPREDICTABLE non-branch", "as A32", 108),
	B(SET_T32, "capstone rejects: UNPREDICTABLE non-branch", "as A32", 2450),
#define BK_REJ_ENTERX 18
	B(SET_A32, "capstone rejects: ENTERX/LEAVEX", "capstone 4 has no ThumbEE", 0),
	B(SET_T16, "capstone rejects: ENTERX/LEAVEX", "as A32", 0),
	B(SET_T32, "capstone rejects: ENTERX/LEAVEX", "capstone 4 has no ThumbEE", 1),
#define BK_REJ_PLAIN 21
	B(SET_A32, "capstone rejects: ordinary instruction here",
	  "decoded here as a non-branch without flags: the classifier does not "
	  "validate VFP/Advanced SIMD fields, nor should-be bits and register "
	  "restrictions of non-branch instructions, nor unallocated hint/MSR "
	  "forms; none of these can write the PC", 3250),
	B(SET_T16, "capstone rejects: ordinary instruction here", "as A32", 0),
	B(SET_T32, "capstone rejects: ordinary instruction here", "as A32", 8800),
};
#undef B
#define NBUCKETS (sizeof buckets / sizeof buckets[0])

static unsigned long agree[SET_NR], checked[SET_NR], cs_rejected[SET_NR], ours_undef[SET_NR];

static int verbose;

static void cs_view(csh h, enum set set, uint32_t enc, struct csview *v)
{
	uint8_t b[4];
	size_t n;
	cs_insn *ins;

	memset(v, 0, sizeof *v);
	if (set == SET_A32) {
		b[0] = (uint8_t)enc; b[1] = (uint8_t)(enc >> 8);
		b[2] = (uint8_t)(enc >> 16); b[3] = (uint8_t)(enc >> 24);
		n = 4;
	} else if (set == SET_T16) {
		b[0] = (uint8_t)enc; b[1] = (uint8_t)(enc >> 8);
		n = 2;
	} else {
		b[0] = (uint8_t)(enc >> 16); b[1] = (uint8_t)(enc >> 24);
		b[2] = (uint8_t)enc; b[3] = (uint8_t)(enc >> 8);
		n = 4;
	}
	if (cs_disasm(h, b, n, 0x10000, 1, &ins) != 1)
		return;
	v->valid = 1;
	v->size = ins->size;
	snprintf(v->mnem, sizeof v->mnem, "%s", ins->mnemonic);
	snprintf(v->ops, sizeof v->ops, "%s", ins->op_str);
	{
		const cs_detail *d = ins->detail;
		const cs_arm *a = &d->arm;
		int i;
		for (i = 0; i < d->groups_count; i++) {
			if (d->groups[i] == CS_GRP_JUMP || d->groups[i] == CS_GRP_RET ||
			    d->groups[i] == CS_GRP_CALL || d->groups[i] == CS_GRP_IRET)
				v->writes_pc = 1;
			if (d->groups[i] == CS_GRP_CALL)
				v->link = 1;
			if (d->groups[i] == CS_GRP_BRANCH_RELATIVE)
				v->has_target = 1;
		}
		for (i = 0; i < d->regs_write_count; i++)
			if (d->regs_write[i] == ARM_REG_PC)
				v->writes_pc = 1;
		for (i = 0; i < a->op_count; i++) {
			const cs_arm_op *op = &a->operands[i];
			if (op->type == ARM_OP_REG && op->reg == ARM_REG_PC && (op->access & CS_AC_WRITE)) {
				if (i == 0 && a->writeback && (op->access & CS_AC_READ))
					v->wb_pc = 1; /* (V)LDM/(V)STM pc!, {...}: base writeback */
				else
					v->writes_pc = 1;
			}
			if (op->type == ARM_OP_MEM && op->mem.base == ARM_REG_PC && a->writeback)
				v->wb_pc = 1;
			if (op->type == ARM_OP_IMM && v->has_target)
				v->target = (uint32_t)op->imm;
		}
		if (!strncmp(v->mnem, "rfe", 3) || !strcmp(v->mnem, "eret"))
			v->writes_pc = 1;
	}
	cs_free(ins, 1);
}

/* Sort a difference into its bucket; returns the bucket index. */
static unsigned classify(enum set set, uint32_t enc, const struct pft_insn_info *o,
                         const struct csview *v)
{
	unsigned s = (unsigned)set;
	int unpred = (o->flags & PFT_INSN_F_UNPRED) != 0;
	int ours_br = o->wp_class == PFT_WP_DIRECT || o->wp_class == PFT_WP_INDIRECT;

	(void)enc;
	if (!v->valid) {
		if (unpred && o->wp_class == PFT_WP_INDIRECT)
			return BK_UNPRED_REJ + s;
		if (ours_br)
			return s;
		if (unpred)
			return BK_REJ_UNPRED + s;
		if (o->wp_class == PFT_WP_ISA_CHANGE)
			return BK_REJ_ENTERX + s;
		if (o->wp_class == PFT_WP_NONE)
			return BK_REJ_PLAIN + s;
		return s;
	}
	if (!ours_br && unpred && v->wb_pc && !v->writes_pc)
		return BK_WB_PC + s;
	if (o->wp_class == PFT_WP_INDIRECT && unpred && !v->writes_pc && !v->wb_pc)
		return BK_UNPRED_NOWR + s;
	if (!ours_br && v->writes_pc && !strncmp(v->mnem, "str", 3) &&
	    v->mnem[strlen(v->mnem) - 1] == 't')
		return BK_CS_STRT + s;
	return s; /* unexplained */
}

static void diff(enum set set, uint32_t enc, const struct pft_insn_info *o, const struct csview *v,
                 const char *what)
{
	unsigned b = classify(set, enc, o, v);
	buckets[b].count++;
	if (buckets[b].count == 1)
		buckets[b].sample = enc;
	if (verbose && buckets[b].count <= 3 + (verbose > 1 ? 30 : 0))
		fprintf(stderr, "%s %08x %-8s ours class=%s flags=%04x size=%u tgt=%llx | cs %s %s %s valid=%d size=%u wpc=%d wb=%d link=%d tgt=%llx -> %s\n",
		        set_name[set], (unsigned)enc, what, pft_wp_class_name((enum pft_wp_class)o->wp_class),
		        o->flags, o->size, (unsigned long long)o->target, v->mnem, v->ops, "",
		        v->valid, v->size, v->writes_pc, v->wb_pc, v->link,
		        (unsigned long long)v->target, buckets[b].name);
}

static void compare(csh h, enum set set, uint32_t enc)
{
	struct pft_insn_info o;
	struct csview v;
	uint8_t bytes[4];
	enum pft_isa isa = set == SET_A32 ? PFT_ISA_ARM : PFT_ISA_THUMB;
	size_t n;
	int rc;

	if (set == SET_T32) {
		bytes[0] = (uint8_t)(enc >> 16); bytes[1] = (uint8_t)(enc >> 24);
		bytes[2] = (uint8_t)enc; bytes[3] = (uint8_t)(enc >> 8);
		n = 4;
	} else {
		bytes[0] = (uint8_t)enc; bytes[1] = (uint8_t)(enc >> 8);
		bytes[2] = (uint8_t)(enc >> 16); bytes[3] = (uint8_t)(enc >> 24);
		n = set == SET_T16 ? 2 : 4;
	}
	rc = pft_isa_decode(isa, 0x10000, bytes, n, 0, &o);
	checked[set]++;
	if (rc != 0) {
		CHECK_EQ(rc, 0);
		return;
	}
	cs_view(h, set, enc, &v);
	if (o.flags & PFT_INSN_F_UNDEFINED)
		ours_undef[set]++;
	if (!v.valid) {
		cs_rejected[set]++;
		if (verbose > 4 && !(o.flags & PFT_INSN_F_UNDEFINED))
			fprintf(stderr, "CSREJ %s %08x %s %04x\n", set_name[set], (unsigned)enc,
			        pft_wp_class_name((enum pft_wp_class)o.wp_class), o.flags);
		if (o.flags & PFT_INSN_F_UNDEFINED)
			agree[set]++; /* both reject */
		else
			diff(set, enc, &o, &v, "rejected");
		return;
	}
	if (v.size != o.size) {
		diff(set, enc, &o, &v, "size");
		return;
	}
	if (o.flags & PFT_INSN_F_UNDEFINED) {
		/* capstone decodes the permanently undefined UDF (and T16 0xdefe
		 * as "trap"); anything else it decodes must not be UNDEFINED here */
		if (strncmp(v.mnem, "udf", 3) != 0 && strcmp(v.mnem, "trap") != 0)
			diff(set, enc, &o, &v, "undef");
		else
			agree[set]++;
		return;
	}
	{
		int ours_br = o.wp_class == PFT_WP_DIRECT || o.wp_class == PFT_WP_INDIRECT;
		int cs_br = v.writes_pc || v.wb_pc;
		if (ours_br != cs_br) {
			diff(set, enc, &o, &v, "branch");
			return;
		}
		if (ours_br && !!(o.flags & PFT_INSN_F_LINK) != v.link) {
			diff(set, enc, &o, &v, "link");
			return;
		}
		if (o.wp_class == PFT_WP_DIRECT && (!v.has_target || v.target != o.target)) {
			diff(set, enc, &o, &v, "target");
			return;
		}
		if (o.wp_class != PFT_WP_DIRECT && v.has_target) {
			diff(set, enc, &o, &v, "direct");
			return;
		}
	}
	{
		int ours_bar = o.wp_class == PFT_WP_ISB || o.wp_class == PFT_WP_BARRIER;
		int cs_bar = !strncmp(v.mnem, "isb", 3) || !strncmp(v.mnem, "dmb", 3) ||
		             !strncmp(v.mnem, "dsb", 3);
		int cp15 = !strncmp(v.mnem, "mcr", 3) && strstr(v.ops, "p15, #0") &&
		           strstr(v.ops, "c7, c") &&
		           (strstr(v.ops, "c5, #4") || strstr(v.ops, "c10, #4") || strstr(v.ops, "c10, #5"));
		if (ours_bar != (cs_bar || (cp15 && strncmp(v.mnem, "mcr2", 4)))) {
			diff(set, enc, &o, &v, "barrier");
			return;
		}
	}
	agree[set]++;
}

/* Linear sweep of a raw code file (PFT_ISA_ORACLE_FILE, PFT_ISA_ORACLE_ISA
 * = a32 or t32): the same comparison over real code.  Prints the buckets;
 * fails only on unexplained differences. */
static int sweep_file(csh ha, csh ht, const char *path, int thumb)
{
	size_t len, off = 0;
	uint8_t *b = check_read_file(path, &len);
	unsigned k;

	if (!b) {
		fprintf(stderr, "cannot read %s\n", path);
		return 1;
	}
	while (off + 4 <= len) {
		if (!thumb) {
			compare(ha, SET_A32, (uint32_t)b[off] | (uint32_t)b[off + 1] << 8 |
			        (uint32_t)b[off + 2] << 16 | (uint32_t)b[off + 3] << 24);
			off += 4;
			continue;
		}
		{
			uint32_t hw1 = (uint32_t)b[off] | (uint32_t)b[off + 1] << 8;
			uint32_t hw2 = (uint32_t)b[off + 2] | (uint32_t)b[off + 3] << 8;
			if (pft_isa_thumb_size(hw1) == 2) {
				compare(ht, SET_T16, hw1);
				off += 2;
			} else {
				compare(ht, SET_T32, hw1 << 16 | hw2);
				off += 4;
			}
		}
	}
	free(b);
	for (k = 0; k < SET_NR; k++)
		printf("%s: %lu checked, %lu agree, %lu rejected by capstone\n",
		       set_name[k], checked[k], agree[k], cs_rejected[k]);
	for (k = 0; k < NBUCKETS; k++)
		if (buckets[k].count)
			printf("  %-4s %-45s %7lu e.g. %08x\n", set_name[buckets[k].set], buckets[k].name,
			       buckets[k].count, (unsigned)buckets[k].sample);
	return buckets[0].count + buckets[1].count + buckets[2].count != 0;
}

int main(void)
{
	uint64_t seed = check_seed(0x15A0C0DEULL), st = seed;
	const char *e = getenv("PFT_ISA_ORACLE_VERBOSE");
	csh ha, ht;
	unsigned long i, n = 200000;
	unsigned b;

	verbose = e ? atoi(e) : 0;
	if (cs_open(CS_ARCH_ARM, CS_MODE_ARM, &ha) != CS_ERR_OK ||
	    cs_open(CS_ARCH_ARM, CS_MODE_THUMB, &ht) != CS_ERR_OK) {
		fprintf(stderr, "capstone cs_open failed\n");
		return 1;
	}
	cs_option(ha, CS_OPT_DETAIL, CS_OPT_ON);
	cs_option(ht, CS_OPT_DETAIL, CS_OPT_ON);
	if (getenv("PFT_ISA_ORACLE_FILE")) {
		const char *isa = getenv("PFT_ISA_ORACLE_ISA");
		return sweep_file(ha, ht, getenv("PFT_ISA_ORACLE_FILE"), isa && isa[0] == 't');
	}

	for (i = 0; i < n; i++)
		compare(ha, SET_A32, (uint32_t)check_rand(&st));
	for (i = 0; i < 0x10000; i++)
		if (i < 0xE800)
			compare(ht, SET_T16, (uint32_t)i);
	/* ThumbEE entry/exit, which capstone does not know */
	compare(ht, SET_T32, 0xF3BF8F1Fu);
	compare(ht, SET_T32, 0xF3BF8F0Fu);
	for (i = 0; i < n; i++) {
		uint64_t r = check_rand(&st);
		uint32_t hw1 = 0xE800u + (uint32_t)(r % 0x1800u);
		compare(ht, SET_T32, hw1 << 16 | (uint32_t)((r >> 32) & 0xFFFF));
	}

	for (b = 0; b < SET_NR; b++)
		printf("%s: %lu checked, %lu agree, %lu rejected by capstone, %lu UNDEFINED here\n",
		       set_name[b], checked[b], agree[b], cs_rejected[b], ours_undef[b]);
	for (b = 0; b < NBUCKETS; b++) {
		struct bucket *k = &buckets[b];
		unsigned long ceil = (unsigned long)k->max_per_100k * checked[k->set] / 100000;
		printf("  %-4s %-40s %7lu (ceiling %lu) e.g. %08x\n", set_name[k->set], k->name,
		       k->count, ceil, (unsigned)k->sample);
		CHECK(k->count <= ceil);
	}
	/* Real code: linear sweep of the TC2 kernel image (Thumb-2 code with
	 * literal pools and tables between functions).  Only unexplained
	 * differences fail here. */
	{
		char path[512];
		memset(agree, 0, sizeof agree);
		memset(checked, 0, sizeof checked);
		memset(cs_rejected, 0, sizeof cs_rejected);
		memset(ours_undef, 0, sizeof ours_undef);
		for (b = 0; b < NBUCKETS; b++)
			buckets[b].count = 0;
		printf("TC2 kernel image, T32 linear sweep:\n");
		CHECK_EQ(sweep_file(ha, ht, check_data_path(path, sizeof path,
		                    "TC2/kernel_dump.bin"), 1), 0);
		CHECK(checked[SET_T16] + checked[SET_T32] > 100000);
	}
	cs_close(&ha);
	cs_close(&ht);
	return check_report();
}
