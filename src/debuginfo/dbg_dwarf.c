/* SPDX-License-Identifier: BSD-3-Clause */
/* Debug information: DWARF (elfutils libdw).  Every compilation unit's line
 * table is read row by row (.debug_aranges is not used: clang omits it), so
 * the lines that never executed are known too; rows with line 0 end the
 * previous row's range and are dropped.  Subprograms with code give the
 * function list; scopes at an address give the inline chain. */
#include <dwarf.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo/dbg_int.h"

/* Executable sections of a linked file: rows outside them come from code
 * the linker dropped (their sequences restart at 0). */
struct xsec {
	uint64_t lo, hi;
};

static int exec_sections(Elf *elf, struct xsec **out, size_t *n)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (!gelf_getehdr(elf, &eh) || eh.e_type == ET_REL)
		return 0; /* relocatable: section addresses are all 0, keep every row */
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR) ||
		    !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		if (dbg_grow((void **)out, &cap, *n, sizeof(**out)) < 0)
			return -PFT_E_NOMEM;
		(*out)[*n].lo = sh.sh_addr;
		(*out)[*n].hi = sh.sh_addr + sh.sh_size;
		(*n)++;
	}
	if (!*n) { /* no section headers to judge by: keep every row */
		free(*out);
		*out = NULL;
	}
	return 0;
}

static int in_exec(const struct xsec *x, size_t n, uint64_t a)
{
	size_t i;

	if (!x)
		return 1;
	for (i = 0; i < n; i++)
		if (a >= x[i].lo && a < x[i].hi)
			return 1;
	return 0;
}

static int add_row(struct pft_dbg *d, const struct dbg_row *r)
{
	if (d->n_rows) {
		struct dbg_row *p = &d->rows[d->n_rows - 1];

		/* contiguous continuation of the same line: one row */
		if (p->end == r->addr && p->file_id == r->file_id && p->line == r->line &&
		    p->column == r->column && p->discr == r->discr && p->cu == r->cu) {
			p->end = r->end;
			return 0;
		}
	}
	if (DBG_PUSH(d, rows) < 0)
		return -PFT_E_NOMEM;
	d->rows[d->n_rows++] = *r;
	d->dirty = 1;
	return 0;
}

static int cu_lines(struct pft_dbg *d, uint32_t image, uint32_t cu, Dwarf_Die *cudie,
		    const struct xsec *x, size_t nx)
{
	struct dbg_image *im = &d->images[image];
	Dwarf_Lines *lines;
	size_t n, i;

	if (dwarf_getsrclines(cudie, &lines, &n) != 0)
		return 0; /* a unit without a line table */
	for (i = 0; i + 1 < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i), *nx_l = dwarf_onesrcline(lines, i + 1);
		Dwarf_Addr a, b;
		bool endseq;
		int line = 0, col = 0;
		unsigned discr = 0;
		const char *src;
		struct dbg_row r;
		long fid;
		int err;

		if (!l || !nx_l || dwarf_lineendsequence(l, &endseq) != 0 || endseq)
			continue;
		if (dwarf_lineaddr(l, &a) != 0 || dwarf_lineaddr(nx_l, &b) != 0 || b <= a)
			continue;
		if (dwarf_lineno(l, &line) != 0 || line <= 0)
			continue;
		if (!in_exec(x, nx, a))
			continue;
		src = dwarf_linesrc(l, NULL, NULL);
		if (!src)
			continue;
		dwarf_linecol(l, &col);
		dwarf_linediscriminator(l, &discr);
		fid = dbg_file_id(d, src);
		if (fid < 0)
			return (int)fid;
		memset(&r, 0, sizeof(r));
		r.addr = a + im->offset;
		r.end = b + im->offset;
		r.file_id = (uint32_t)fid;
		r.line = (uint32_t)line;
		r.column = col > 0 ? (uint32_t)col : 0;
		r.discr = discr;
		r.image = image;
		r.cu = cu;
		err = add_row(d, &r);
		if (err < 0)
			return err;
		im->has_lines = 1;
	}
	return 0;
}

static const char *die_name(Dwarf_Die *die, int linkage)
{
	Dwarf_Attribute at;
	const char *s = NULL;

	if (linkage) {
		if (dwarf_attr_integrate(die, DW_AT_linkage_name, &at))
			s = dwarf_formstring(&at);
		if (!s && dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at))
			s = dwarf_formstring(&at);
	}
	if (!s && dwarf_attr_integrate(die, DW_AT_name, &at))
		s = dwarf_formstring(&at);
	return s;
}

static int add_func(struct pft_dbg *d, uint32_t image, uint32_t cu, Dwarf_Die *die,
		    const struct xsec *x, size_t nx)
{
	struct dbg_image *im = &d->images[image];
	Dwarf_Addr base, start, end, lo = UINT64_MAX, hi = 0, entry;
	ptrdiff_t off = 0;
	struct dbg_func f;
	const char *file;
	int line = 0;

	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
		if (end <= start)
			continue;
		if (start < lo)
			lo = start;
		if (end > hi)
			hi = end;
	}
	if (lo >= hi || !in_exec(x, nx, lo))
		return 0;
	if (dwarf_entrypc(die, &entry) != 0 || entry < lo || entry >= hi)
		entry = lo;
	memset(&f, 0, sizeof(f));
	f.name = die_name(die, 1);
	if (!f.name)
		return 0;
	f.addr = entry + im->offset;
	f.end = hi + im->offset;
	f.image = image;
	f.cu = cu;
	f.file_id = UINT32_MAX;
	file = dwarf_decl_file(die);
	if (file) {
		long fid = dbg_file_id(d, file);

		if (fid < 0)
			return (int)fid;
		f.file_id = (uint32_t)fid;
	}
	if (dwarf_decl_line(die, &line) == 0 && line > 0)
		f.line = (uint32_t)line;
	if (DBG_PUSH(d, funcs) < 0)
		return -PFT_E_NOMEM;
	d->funcs[d->n_funcs++] = f;
	d->dirty = 1;
	return 0;
}

static int walk_funcs(struct pft_dbg *d, uint32_t image, uint32_t cu, Dwarf_Die *parent, int depth,
		      const struct xsec *x, size_t nx)
{
	Dwarf_Die child;
	int rc, err;

	if (depth > 8 || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			err = add_func(d, image, cu, &child, x, nx);
			if (err < 0)
				return err;
			break;
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_module:
			err = walk_funcs(d, image, cu, &child, depth + 1, x, nx);
			if (err < 0)
				return err;
			break;
		default:
			break;
		}
	} while ((rc = dwarf_siblingof(&child, &child)) == 0);
	return 0;
}

int dbg_dwarf_load(struct pft_dbg *d, uint32_t image, char *msg, size_t cap)
{
	Dwarf *dw = d->images[image].dw;
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Half version;
	uint8_t utype;
	Dwarf_Die cudie, subdie;
	struct xsec *x;
	size_t nx;
	int rc, err;

	err = exec_sections(d->images[image].elf, &x, &nx);
	if (err < 0)
		return err;
	while ((rc = dwarf_get_units(dw, cu, &next, &version, &utype, &cudie, &subdie)) == 0) {
		cu = next;
		if (utype != DW_UT_compile && utype != DW_UT_partial)
			continue;
		if (DBG_PUSH(d, cus) < 0) {
			err = -PFT_E_NOMEM;
			break;
		}
		d->cus[d->n_cus].image = image;
		d->cus[d->n_cus].die = dwarf_dieoffset(&cudie);
		err = cu_lines(d, image, (uint32_t)d->n_cus, &cudie, x, nx);
		if (err < 0)
			break;
		err = walk_funcs(d, image, (uint32_t)d->n_cus, &cudie, 0, x, nx);
		d->n_cus++;
		if (err < 0)
			break;
	}
	free(x);
	if (err < 0)
		return err;
	if (rc < 0) {
		snprintf(msg, cap, "bad DWARF: %s", dwarf_errmsg(-1));
		return -PFT_E_FORMAT;
	}
	return 0;
}

/* ---- inline chain ---- */

static const char *call_file(Dwarf_Die *cudie, Dwarf_Die *die)
{
	Dwarf_Attribute at;
	Dwarf_Word idx;
	Dwarf_Files *files;
	size_t nfiles;

	if (!dwarf_attr(die, DW_AT_call_file, &at) || dwarf_formudata(&at, &idx) != 0)
		return NULL;
	if (dwarf_getsrcfiles(cudie, &files, &nfiles) != 0 || idx >= nfiles)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

static uint32_t udata_attr(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute at;
	Dwarf_Word v;

	if (!dwarf_attr(die, name, &at) || dwarf_formudata(&at, &v) != 0 || v > UINT32_MAX)
		return 0;
	return (uint32_t)v;
}

int dbg_dwarf_chain(const struct pft_dbg *d, uint32_t cu_index, long r, uint64_t addr,
		    struct pft_dbg_frame *frames, size_t max)
{
	const struct dbg_cu *cu = &d->cus[cu_index];
	const struct dbg_image *im = &d->images[cu->image];
	Dwarf_Die cudie, *scopes = NULL, *chain = NULL;
	const char *file = r >= 0 ? d->files[d->rows[r].file_id] : NULL;
	uint32_t line = r >= 0 ? d->rows[r].line : 0, col = r >= 0 ? d->rows[r].column : 0;
	int n, i, count = 0;

	if (!im->dw || !dwarf_offdie(im->dw, cu->die, &cudie))
		return 0;
	/* dwarf_getscopes goes from an inlined instance into the abstract
	 * definition's scopes; the callers are the concrete DIE's parents */
	n = dwarf_getscopes(&cudie, addr - im->offset, &scopes);
	if (n <= 0) {
		free(scopes); /* set by some failures */
		return 0;
	}
	n = dwarf_getscopes_die(&scopes[0], &chain);
	free(scopes);
	if (n <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		int tag = dwarf_tag(&chain[i]);

		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		if ((size_t)count < max) {
			frames[count].function = die_name(&chain[i], 0);
			frames[count].file = file;
			frames[count].line = line;
			frames[count].column = col;
		}
		count++;
		if (tag == DW_TAG_subprogram)
			break;
		/* the caller's line is this inlined instance's call site */
		file = call_file(&cudie, &chain[i]);
		line = udata_attr(&chain[i], DW_AT_call_line);
		col = udata_attr(&chain[i], DW_AT_call_column);
	}
	free(chain);
	return count;
}
