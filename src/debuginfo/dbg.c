/* SPDX-License-Identifier: BSD-3-Clause */
/* Debug information: public entry points (pft/debuginfo.h).  Images are
 * added whole (symbols, then DWARF); a failure leaves the tables as they
 * were before the call. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/struct_size.h"
#include "debuginfo/dbg_int.h"

/* The caller's struct of size bytes gets the common part, the rest zeroed. */
#define COPY_OUT(out, size, val)                                            \
	do {                                                                \
		__typeof__(*(out)) copy_out_v_;                             \
		if (!(out) || !(size))                                      \
			return -PFT_E_INVAL;                                \
		copy_out_v_ = (val);                                        \
		pft_copy_out((out), (size), &copy_out_v_, sizeof(copy_out_v_)); \
	} while (0)

struct pft_dbg *pft_dbg_alloc(void)
{
	return calloc(1, sizeof(struct pft_dbg));
}

static void image_close(struct dbg_image *im)
{
	if (im->dw)
		dwarf_end(im->dw);
	if (im->elf)
		elf_end(im->elf);
	if (im->fd >= 0)
		close(im->fd);
	free(im->mem);
	memset(im, 0, sizeof(*im));
	im->fd = -1;
}

void pft_dbg_free(struct pft_dbg *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n_images; i++)
		image_close(&d->images[i]);
	for (i = 0; i < d->n_files; i++)
		free(d->files[i]);
	for (i = 0; i < d->n_strs; i++)
		free(d->strs[i]);
	free(d->images);
	free(d->syms);
	free(d->maps);
	free(d->rows);
	free(d->funcs);
	free(d->cus);
	free(d->files);
	free(d->strs);
	free(d->fhash);
	free(d);
}

static void set_msg(char *msg, size_t cap, const char *s)
{
	if (msg && cap)
		snprintf(msg, cap, "%s", s);
}

/* A new image slot, or NULL. */
static struct dbg_image *new_image(struct pft_dbg *d, uint64_t offset)
{
	struct dbg_image *im;

	if (d->n_images >= UINT32_MAX || DBG_PUSH(d, images) < 0)
		return NULL;
	im = &d->images[d->n_images];
	memset(im, 0, sizeof(*im));
	im->fd = -1;
	im->offset = offset;
	return im;
}

struct counts {
	size_t syms, maps, rows, funcs, cus;
};

static void save_counts(const struct pft_dbg *d, struct counts *c)
{
	c->syms = d->n_syms;
	c->maps = d->n_maps;
	c->rows = d->n_rows;
	c->funcs = d->n_funcs;
	c->cus = d->n_cus;
}

static void restore_counts(struct pft_dbg *d, const struct counts *c)
{
	d->n_syms = c->syms;
	d->n_maps = c->maps;
	d->n_rows = c->rows;
	d->n_funcs = c->funcs;
	d->n_cus = c->cus;
}

/* Read symbols and DWARF of the image just set up in slot n_images. */
static int load_elf(struct pft_dbg *d, char *msg, size_t cap)
{
	uint32_t image = (uint32_t)d->n_images;
	struct dbg_image *im = &d->images[image];
	struct counts c;
	char buf[256] = "";
	int err;

	save_counts(d, &c);
	if (!im->elf || elf_kind(im->elf) != ELF_K_ELF) {
		set_msg(msg, cap, "not an ELF file");
		err = -PFT_E_FORMAT;
		goto fail;
	}
	d->n_images++; /* the readers index the image */
	err = dbg_elf_symbols(d, image, buf, sizeof(buf));
	if (err == 0) {
		im->dw = dwarf_begin_elf(im->elf, DWARF_C_READ, NULL);
		if (im->dw)
			err = dbg_dwarf_load(d, image, buf, sizeof(buf));
	}
	if (err < 0) {
		d->n_images--;
		set_msg(msg, cap, buf[0] ? buf : pft_errstr(err));
		goto fail;
	}
	dbg_sort(d);
	return (int)image;
fail:
	restore_counts(d, &c);
	image_close(im);
	return err;
}

int pft_dbg_add_elf(struct pft_dbg *d, const char *path, uint64_t load_offset, char *msg,
		    size_t cap)
{
	struct dbg_image *im;

	if (!d || !path)
		return -PFT_E_INVAL;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		set_msg(msg, cap, "libelf initialisation failed");
		return -PFT_E_INTERNAL;
	}
	im = new_image(d, load_offset);
	if (!im)
		return -PFT_E_NOMEM;
	im->fd = open(path, O_RDONLY);
	if (im->fd < 0) {
		if (msg && cap)
			snprintf(msg, cap, "cannot open '%s': %s", path, strerror(errno));
		return -PFT_E_IO;
	}
	im->elf = elf_begin(im->fd, ELF_C_READ_MMAP, NULL);
	return load_elf(d, msg, cap);
}

int pft_dbg_add_elf_mem(struct pft_dbg *d, const void *buf, size_t len, uint64_t load_offset,
			char *msg, size_t cap)
{
	struct dbg_image *im;

	if (!d || !buf || !len)
		return -PFT_E_INVAL;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		set_msg(msg, cap, "libelf initialisation failed");
		return -PFT_E_INTERNAL;
	}
	im = new_image(d, load_offset);
	if (!im)
		return -PFT_E_NOMEM;
	im->mem = malloc(len);
	if (!im->mem)
		return -PFT_E_NOMEM;
	memcpy(im->mem, buf, len);
	im->elf = elf_memory(im->mem, len);
	return load_elf(d, msg, cap);
}

int pft_dbg_add_symbol_map(struct pft_dbg *d, const char *path, uint64_t load_offset, char *msg,
			   size_t cap)
{
	struct dbg_image *im;
	struct counts c;
	char buf[256] = "";
	uint32_t image;
	int err;

	if (!d || !path)
		return -PFT_E_INVAL;
	im = new_image(d, load_offset);
	if (!im)
		return -PFT_E_NOMEM;
	save_counts(d, &c);
	image = (uint32_t)d->n_images++;
	err = dbg_map_load(d, image, path, buf, sizeof(buf));
	if (err < 0) {
		d->n_images--;
		restore_counts(d, &c);
		set_msg(msg, cap, buf[0] ? buf : pft_errstr(err));
		return err;
	}
	dbg_sort(d);
	return (int)image;
}

size_t pft_dbg_image_count(const struct pft_dbg *d)
{
	return d ? d->n_images : 0;
}

int pft_dbg_image_has_lines(const struct pft_dbg *d, size_t image)
{
	return d && image < d->n_images && d->images[image].has_lines;
}

int pft_dbg_has_lines(const struct pft_dbg *d)
{
	return d && d->n_rows > 0;
}

/* ---- symbols ---- */

static struct pft_dbg_symbol sym_out(const struct dbg_sym *s)
{
	struct pft_dbg_symbol o;

	memset(&o, 0, sizeof(o));
	o.addr = s->addr;
	o.size = s->size;
	o.name = s->name;
	o.image = s->image;
	o.isa = s->isa;
	o.is_func = s->is_func;
	return o;
}

int pft_dbg_symbol(const struct pft_dbg *d, uint64_t addr, struct pft_dbg_symbol *out,
		   size_t size)
{
	long i;

	if (!d)
		return -PFT_E_INVAL;
	i = dbg_sym_below(d, addr);
	if (i < 0) {
		if (!out || !size)
			return -PFT_E_INVAL;
		return -PFT_E_NOTFOUND;
	}
	COPY_OUT(out, size, sym_out(&d->syms[i]));
	return 0;
}

int pft_dbg_symbol_range(const struct pft_dbg *d, uint64_t addr, struct pft_dbg_symbol *out,
			 size_t size, uint64_t *lo, uint64_t *hi)
{
	long i;

	if (!d || !out || !size || !lo || !hi)
		return -PFT_E_INVAL;
	i = dbg_sym_below_range(d, addr, lo, hi);
	if (i < 0)
		return -PFT_E_NOTFOUND;
	COPY_OUT(out, size, sym_out(&d->syms[i]));
	return 0;
}

size_t pft_dbg_symbol_count(const struct pft_dbg *d)
{
	return d ? d->n_syms : 0;
}

int pft_dbg_symbol_at(const struct pft_dbg *d, size_t i, struct pft_dbg_symbol *out, size_t size)
{
	if (!d || i >= d->n_syms)
		return -PFT_E_INVAL;
	COPY_OUT(out, size, sym_out(&d->syms[i]));
	return 0;
}

const char *pft_dbg_map_name(enum pft_dbg_map m)
{
	switch (m) {
	case PFT_DBG_MAP_NONE: return "none";
	case PFT_DBG_MAP_ARM: return "arm";
	case PFT_DBG_MAP_THUMB: return "thumb";
	case PFT_DBG_MAP_DATA: return "data";
	default: return "?";
	}
}

enum pft_dbg_map pft_dbg_mapping(const struct pft_dbg *d, uint64_t addr)
{
	return d ? dbg_map_find(d, addr) : PFT_DBG_MAP_NONE;
}

/* ---- lines ---- */

static struct pft_dbg_line line_out(const struct pft_dbg *d, const struct dbg_row *r)
{
	struct pft_dbg_line o;

	memset(&o, 0, sizeof(o));
	o.addr = r->addr;
	o.end = r->end;
	o.file = d->files[r->file_id];
	o.line = r->line;
	o.column = r->column;
	o.discriminator = r->discr;
	o.image = r->image;
	o.file_id = r->file_id;
	o.cu = r->cu;
	return o;
}

int pft_dbg_line(const struct pft_dbg *d, uint64_t addr, struct pft_dbg_line *out, size_t size)
{
	long i;

	if (!d || !out || !size)
		return -PFT_E_INVAL;
	i = dbg_row_find(d, addr);
	if (i < 0)
		return -PFT_E_NOTFOUND;
	COPY_OUT(out, size, line_out(d, &d->rows[i]));
	return 0;
}

size_t pft_dbg_line_count(const struct pft_dbg *d)
{
	return d ? d->n_rows : 0;
}

int pft_dbg_line_at(const struct pft_dbg *d, size_t i, struct pft_dbg_line *out, size_t size)
{
	if (!d || i >= d->n_rows)
		return -PFT_E_INVAL;
	COPY_OUT(out, size, line_out(d, &d->rows[i]));
	return 0;
}

long pft_dbg_line_index(const struct pft_dbg *d, uint64_t addr)
{
	long i;

	if (!d)
		return -PFT_E_INVAL;
	i = dbg_row_find(d, addr);
	return i < 0 ? -PFT_E_NOTFOUND : i;
}

size_t pft_dbg_file_count(const struct pft_dbg *d)
{
	return d ? d->n_files : 0;
}

const char *pft_dbg_file(const struct pft_dbg *d, size_t id)
{
	return d && id < d->n_files ? d->files[id] : NULL;
}

int pft_dbg_inline_chain(const struct pft_dbg *d, uint64_t addr, struct pft_dbg_frame *frames,
			 size_t max)
{
	long r, f;

	if (!d || (!frames && max))
		return -PFT_E_INVAL;
	r = dbg_row_find(d, addr);
	if (r >= 0)
		return dbg_dwarf_chain(d, d->rows[r].cu, r, addr, frames, max);
	f = dbg_func_find(d, addr); /* code without a line (line-0 rows) */
	if (f >= 0)
		return dbg_dwarf_chain(d, d->funcs[f].cu, -1, addr, frames, max);
	return 0;
}

/* ---- functions ---- */

static struct pft_dbg_func func_out(const struct pft_dbg *d, const struct dbg_func *f)
{
	struct pft_dbg_func o;

	memset(&o, 0, sizeof(o));
	o.addr = f->addr;
	o.end = f->end;
	o.name = f->name;
	o.file = f->file_id == UINT32_MAX ? NULL : d->files[f->file_id];
	o.line = f->line;
	o.image = f->image;
	o.file_id = f->file_id;
	return o;
}

size_t pft_dbg_func_count(const struct pft_dbg *d)
{
	return d ? d->n_funcs : 0;
}

int pft_dbg_func_at(const struct pft_dbg *d, size_t i, struct pft_dbg_func *out, size_t size)
{
	if (!d || i >= d->n_funcs)
		return -PFT_E_INVAL;
	COPY_OUT(out, size, func_out(d, &d->funcs[i]));
	return 0;
}

int pft_dbg_func_find(const struct pft_dbg *d, uint64_t addr, struct pft_dbg_func *out,
		      size_t size)
{
	long i;

	if (!d || !out || !size)
		return -PFT_E_INVAL;
	i = dbg_func_find(d, addr);
	if (i < 0)
		return -PFT_E_NOTFOUND;
	COPY_OUT(out, size, func_out(d, &d->funcs[i]));
	return 0;
}
