/* SPDX-License-Identifier: BSD-3-Clause */
/* pft coverage: per-address counts -> source lines and branches.  Every row
 * of every line table is walked instruction by instruction, so lines and
 * branches that never ran are listed too: executed instructions come from
 * the counts, the others are decoded from the image (ISA from the $a/$t
 * mapping symbols, else the function symbol; $d data ends the walk). */
#include <stdlib.h>
#include <string.h>

#include "cov_out.h"

static int grow(void **v, uint32_t *cap, uint32_t n, size_t el)
{
	void *nv;
	uint32_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	nv = realloc(*v, (size_t)nc * el);
	if (!nv)
		return -1;
	*v = nv;
	*cap = nc;
	return 0;
}

static struct cov_line *line_of(struct cov_file *f, uint32_t line)
{
	if (line >= f->nlines) {
		uint32_t n = line + 64;
		struct cov_line *nl = realloc(f->lines, (size_t)n * sizeof(*nl));

		if (!nl)
			return NULL;
		memset(nl + f->nlines, 0, (size_t)(n - f->nlines) * sizeof(*nl));
		f->lines = nl;
		f->nlines = n;
	}
	return &f->lines[line];
}

static enum pft_isa isa_at(const struct cov_ctx *c, uint64_t a, int *data)
{
	struct pft_dbg_symbol s;

	*data = 0;
	switch (pft_dbg_mapping(c->dbg, a)) {
	case PFT_DBG_MAP_ARM:
		return PFT_ISA_ARM;
	case PFT_DBG_MAP_THUMB:
		return PFT_ISA_THUMB;
	case PFT_DBG_MAP_DATA:
		*data = 1;
		return PFT_ISA_ARM;
	default:
		break;
	}
	if (pft_dbg_symbol(c->dbg, a, &s, sizeof(s)) == 0 && s.isa == PFT_ISA_THUMB)
		return PFT_ISA_THUMB;
	return PFT_ISA_ARM;
}

/* Branches are added in address order per row; rows of one line may come
 * in any order, so a line's branches are gathered at the end. */
struct pend {
	uint32_t file, line;
	struct cov_branch b;
};

static int cmp_pend(const void *x, const void *y)
{
	const struct pend *a = x, *b = y;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->b.addr < b->b.addr ? -1 : a->b.addr > b->b.addr;
}

static int walk_row(const struct cov_ctx *c, const struct pft_dbg_line *row, int entry,
		    struct cov_line *ln, struct pend **pend, uint32_t *npend, uint32_t *cap)
{
	uint64_t a = row->addr;
	struct pft_it_state it = { 0 };

	ln->code = 1;
	while (a < row->end) {
		long idx = pft_cov_insn_find(c->cov, a);
		struct pft_cov_insn ci;
		struct pft_insn_info info;
		uint8_t bytes[4];
		int n, data, have_info = 0, cond = 0;
		enum pft_isa isa;
		unsigned itcond = pft_isa_it_cond(&it);

		memset(&ci, 0, sizeof(ci));
		if (idx >= 0) {
			pft_cov_insn_at(c->cov, (size_t)idx, &ci, sizeof(ci));
			isa = (enum pft_isa)ci.isa;
		} else {
			isa = isa_at(c, a, &data);
			if (data)
				break;
		}
		n = c->img ? pft_image_read(c->img, a, bytes, 4) : -1;
		if (n > 0 && pft_isa_decode(isa, a, bytes, (size_t)n, 0, &info) == 0 && info.size)
			have_info = 1;
		if (idx >= 0) {
			cond = (ci.flags & PFT_COV_F_COND) != 0;
			if (entry && a == row->addr)
				ln->count += ci.count;
			if (ci.count > ln->most)
				ln->most = ci.count;
			if (ci.count)
				ln->ran = 1;
		} else if (have_info) {
			cond = pft_isa_is_waypoint(&info, 0) &&
			       ((info.flags & PFT_INSN_F_COND) || itcond < 14);
		} else {
			break; /* not in the image: nothing more to say about this row */
		}
		if (cond) {
			struct pend *p;

			if (grow((void **)pend, cap, *npend, sizeof(**pend)) < 0)
				return -1;
			p = &(*pend)[(*npend)++];
			p->file = row->file_id;
			p->line = row->line;
			p->b.addr = a;
			p->b.taken = ci.taken;
			p->b.not_taken = ci.not_taken;
			p->b.evaluated = ci.count > 0;
		}
		if (pft_isa_it_active(&it))
			pft_isa_it_advance(&it);
		if (have_info && (info.flags & PFT_INSN_F_IT))
			pft_isa_it_start(&it, &info);
		a += idx >= 0 ? ci.size : info.size;
	}
	return 0;
}

static int add_func(struct cov_file *f, const struct pft_dbg_func *fn, uint64_t count,
		    uint32_t line)
{
	uint32_t i;

	for (i = 0; i < f->nfuncs; i++)
		if (!strcmp(f->funcs[i].name, fn->name)) { /* one entry per name */
			f->funcs[i].count += count;
			return 0;
		}
	if (grow((void **)&f->funcs, &f->cap_funcs, f->nfuncs, sizeof(*f->funcs)) < 0)
		return -1;
	f->funcs[f->nfuncs].name = fn->name;
	f->funcs[f->nfuncs].line = line;
	f->funcs[f->nfuncs].count = count;
	f->funcs[f->nfuncs].addr = fn->addr;
	f->nfuncs++;
	return 0;
}

int cov_lines_build(const struct cov_ctx *c, struct cov_files *out)
{
	size_t nfiles = pft_dbg_file_count(c->dbg), nrows = pft_dbg_line_count(c->dbg), i;
	struct pend *pend = NULL;
	uint32_t npend = 0, cap = 0, k;

	out->n = nfiles;
	out->f = calloc(nfiles ? nfiles : 1, sizeof(*out->f));
	if (!out->f)
		return -1;
	for (i = 0; i < nfiles; i++)
		out->f[i].path = pft_dbg_file(c->dbg, i);
	for (i = 0; i < nrows; i++) {
		struct pft_dbg_line row, prev;
		struct cov_line *ln;
		int entry = 1;

		pft_dbg_line_at(c->dbg, i, &row, sizeof(row));
		/* a row continuing the line of the row before it (another column,
		 * or past line-0 code) is not an entry into the line */
		if (i > 0 && pft_dbg_line_at(c->dbg, i - 1, &prev, sizeof(prev)) == 0 &&
		    prev.file_id == row.file_id && prev.line == row.line && prev.image == row.image)
			entry = 0;
		ln = line_of(&out->f[row.file_id], row.line);
		if (!ln || walk_row(c, &row, entry, ln, &pend, &npend, &cap) < 0)
			goto fail;
	}
	for (i = 0; i < nfiles; i++) /* entered only in the middle: say it ran */
		for (k = 0; k < out->f[i].nlines; k++)
			if (!out->f[i].lines[k].count)
				out->f[i].lines[k].count = out->f[i].lines[k].most;
	if (npend) /* qsort(NULL, 0, ...) is undefined */
		if (npend) /* qsort(NULL, 0, ...) is undefined */
		qsort(pend, npend, sizeof(*pend), cmp_pend);
	for (k = 0; k < npend; k++) {
		struct cov_file *f = &out->f[pend[k].file];
		struct cov_line *ln = &f->lines[pend[k].line];

		if (grow((void **)&f->br, &f->cap_br, f->nbr, sizeof(*f->br)) < 0)
			goto fail;
		if (!ln->nbr)
			ln->br = f->nbr;
		ln->nbr++;
		f->br[f->nbr++] = pend[k].b;
	}
	free(pend);
	pend = NULL;
	for (i = 0; i < pft_dbg_func_count(c->dbg); i++) {
		struct pft_dbg_func fn;
		struct pft_dbg_line row;
		long idx;
		uint64_t count = 0;
		uint32_t line;

		pft_dbg_func_at(c->dbg, i, &fn, sizeof(fn));
		if (fn.file_id >= nfiles)
			continue;
		idx = pft_cov_insn_find(c->cov, fn.addr);
		if (idx >= 0) {
			struct pft_cov_insn ci;

			pft_cov_insn_at(c->cov, (size_t)idx, &ci, sizeof(ci));
			count = ci.count;
		}
		line = fn.line;
		if (!line && pft_dbg_line(c->dbg, fn.addr, &row, sizeof(row)) == 0)
			line = row.line;
		if (line && add_func(&out->f[fn.file_id], &fn, count, line) < 0)
			goto fail;
	}
	return 0;
fail:
	free(pend);
	cov_lines_free(out);
	return -1;
}

void cov_lines_free(struct cov_files *fs)
{
	size_t i;

	for (i = 0; fs->f && i < fs->n; i++) {
		free(fs->f[i].lines);
		free(fs->f[i].br);
		free(fs->f[i].funcs);
	}
	free(fs->f);
	fs->f = NULL;
	fs->n = 0;
}
