/* SPDX-License-Identifier: BSD-3-Clause */
/* pft coverage --format listing: for a person in a terminal.  With DWARF,
 * every source file that ran, line by line as gcov -b shows it:
 *     COUNT:  LINE:source text          (COUNT "-" no code, "#####" never ran)
 *             branch 0x... taken N, not taken M   (or "never evaluated")
 * Without DWARF (or with --disasm), every executed instruction:
 *     COUNT  ADDR  ISA  disassembly  [taken N not taken M]  <symbol+0xOFF> */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cov_out.h"
#include "decode.h"

static void put_branches(FILE *f, const struct cov_file *cf, const struct cov_line *ln)
{
	uint32_t k;

	for (k = 0; k < ln->nbr; k++) {
		const struct cov_branch *b = &cf->br[ln->br + k];

		if (b->evaluated)
			fprintf(f, "%16s branch %08" PRIx64 " taken %" PRIu64 ", not taken %" PRIu64
				"\n", "", b->addr, b->taken, b->not_taken);
		else
			fprintf(f, "%16s branch %08" PRIx64 " never evaluated\n", "", b->addr);
	}
}

static void put_line(FILE *f, const struct cov_file *cf, uint32_t i, const char *text)
{
	const struct cov_line *ln = i < cf->nlines ? &cf->lines[i] : NULL;
	char cnt[32];

	if (!ln || !ln->code)
		snprintf(cnt, sizeof(cnt), "-");
	else if (!ln->count)
		snprintf(cnt, sizeof(cnt), "#####");
	else
		snprintf(cnt, sizeof(cnt), "%" PRIu64, ln->count);
	fprintf(f, "%9s:%5u:%s", cnt, i, text);
	if (!text[0] || text[strlen(text) - 1] != '\n')
		fputc('\n', f);
	if (ln)
		put_branches(f, cf, ln);
}

static void source_file(FILE *f, const struct cov_file *cf)
{
	uint32_t i, lf = 0, lh = 0, brf = 0, brh = 0, last = 0;
	FILE *src = fopen(cf->path, "r");
	char *text = NULL;
	size_t cap = 0;

	for (i = 1; i < cf->nlines; i++) {
		const struct cov_line *ln = &cf->lines[i];
		uint32_t k;

		if (ln->code) {
			lf++;
			lh += ln->count > 0;
			last = i;
		}
		for (k = 0; k < ln->nbr; k++) {
			brf += 2;
			brh += (cf->br[ln->br + k].taken > 0) + (cf->br[ln->br + k].not_taken > 0);
		}
	}
	fprintf(f, "%9s:%5s:Source:%s\n%9s:%5s:Lines executed: %u of %u, branches taken: %u of %u\n",
		"-", "0", cf->path, "-", "0", lh, lf, brh, brf);
	if (!src) {
		fprintf(f, "%9s:%5s:(source not readable: counts only)\n", "-", "0");
		for (i = 1; i <= last; i++)
			if (cf->lines[i].code)
				put_line(f, cf, i, "");
		return;
	}
	for (i = 1; getline(&text, &cap, src) >= 0; i++)
		put_line(f, cf, i, text);
	for (; i <= last; i++) /* lines beyond the end of the file as read */
		if (cf->lines[i].code)
			put_line(f, cf, i, "");
	free(text);
	fclose(src);
}

static int disasm_listing(FILE *f, const struct cov_ctx *c)
{
	struct decode_disasm *dis = decode_disasm_open();
	long n = pft_cov_insn_count(c->cov), i;
	char buf[160];

	if (!dis)
		return -1;
	for (i = 0; i < n; i++) {
		struct pft_cov_insn ci;
		struct pft_insn in;
		struct pft_dbg_symbol s;
		int sym;

		pft_cov_insn_at(c->cov, (size_t)i, &ci, sizeof(ci));
		memset(&in, 0, sizeof(in));
		in.addr = ci.addr;
		in.opcode = ci.opcode;
		in.size = ci.size;
		in.wp_class = ci.wp_class;
		sym = pft_dbg_symbol(c->dbg, ci.addr, &s, sizeof(s)) == 0;
		if (sym && s.addr == ci.addr)
			fprintf(f, "%s:\n", s.name);
		fprintf(f, (ci.flags & PFT_COV_F_COND) || sym ?
				   "%9" PRIu64 "  %08" PRIx64 "  %-3s  %-36s" :
				   "%9" PRIu64 "  %08" PRIx64 "  %-3s  %s",
			ci.count, ci.addr, pft_isa_name((enum pft_isa)ci.isa),
			decode_disasm(dis, &in, (enum pft_isa)ci.isa, buf, sizeof(buf)));
		if (ci.flags & PFT_COV_F_COND)
			fprintf(f, "  taken %" PRIu64 " not taken %" PRIu64, ci.taken, ci.not_taken);
		if (sym)
			fprintf(f, "  <%s+0x%" PRIx64 ">", s.name, ci.addr - s.addr);
		fputc('\n', f);
	}
	decode_disasm_close(dis);
	return 0;
}

int cov_write_listing(FILE *f, const struct cov_ctx *c, int disasm)
{
	struct cov_files fs;
	size_t i;

	if (disasm || !pft_dbg_has_lines(c->dbg)) {
		if (disasm_listing(f, c) < 0)
			return -1;
	} else {
		if (cov_lines_build(c, &fs) < 0)
			return -1;
		for (i = 0; i < fs.n; i++) {
			uint32_t k;
			int ran = 0;

			for (k = 0; k < fs.f[i].nlines && !ran; k++)
				ran = fs.f[i].lines[k].ran;
			if (ran)
				source_file(f, &fs.f[i]);
		}
		cov_lines_free(&fs);
	}
	cov_write_gaps(f, c, "# ");
	return ferror(f) ? -1 : 0;
}
