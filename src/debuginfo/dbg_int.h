/* SPDX-License-Identifier: BSD-3-Clause */
/* Debug information layer, internal: the tables every reader fills and every
 * query reads.  Floors: dbg_tables.c (storage, sorting, lookups) <- dbg_elf.c
 * (ELF symbols), dbg_dwarf.c (line tables, functions, inline chains),
 * dbg_map.c (plain symbol maps) <- dbg.c (public entry points). */
#ifndef PFT_DBG_INT_H
#define PFT_DBG_INT_H

#include <elfutils/libdw.h>
#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

#include "pft/debuginfo.h"

struct dbg_image {
	Elf *elf;          /* NULL for a symbol map */
	Dwarf *dw;         /* NULL without DWARF */
	int fd;            /* -1 when read from memory */
	void *mem;         /* owned copy of an in-memory ELF */
	uint64_t offset;   /* load offset */
	int has_lines;
};

struct dbg_sym {
	uint64_t addr, size;
	const char *name;
	uint32_t image;
	uint8_t isa, is_func;
};

struct dbg_mapsym {
	uint64_t addr;
	uint32_t image;
	uint8_t kind; /* enum pft_dbg_map */
};

struct dbg_row {
	uint64_t addr, end;
	uint32_t file_id, line, column, discr, image, cu;
};

struct dbg_func {
	uint64_t addr, end;
	const char *name;
	uint32_t file_id, line, image, cu;
};

struct dbg_cu {
	uint32_t image;
	Dwarf_Off die; /* offset of the CU DIE */
};

#define DBG_VEC(T, name) T *name; size_t n_##name, cap_##name

struct pft_dbg {
	DBG_VEC(struct dbg_image, images);
	DBG_VEC(struct dbg_sym, syms);
	DBG_VEC(struct dbg_mapsym, maps);
	DBG_VEC(struct dbg_row, rows);
	DBG_VEC(struct dbg_func, funcs);
	DBG_VEC(struct dbg_cu, cus);
	DBG_VEC(char *, files);   /* owned paths by file id */
	DBG_VEC(char *, strs);    /* other owned strings (symbol map names) */
	uint32_t *fhash;          /* open addressing: file id + 1, 0 = empty */
	size_t fhash_cap;
	int dirty;                /* tables need sorting */
};

/* Grow a vector to hold one more element: 0 or -PFT_E_NOMEM. */
int dbg_grow(void **v, size_t *cap, size_t n, size_t elsize);
#define DBG_PUSH(d, name) \
	dbg_grow((void **)&(d)->name, &(d)->cap_##name, (d)->n_##name, sizeof(*(d)->name))

/* Intern a path: its file id, or -PFT_E_NOMEM. */
long dbg_file_id(struct pft_dbg *d, const char *path);
/* Keep a copy of s; NULL if out of memory. */
const char *dbg_strdup(struct pft_dbg *d, const char *s);
int dbg_add_sym(struct pft_dbg *d, const struct dbg_sym *s);
int dbg_add_map(struct pft_dbg *d, uint64_t addr, uint32_t image, enum pft_dbg_map kind);
/* Sort the tables if something was added. */
void dbg_sort(struct pft_dbg *d);
/* Index of the last element with addr <= a in a sorted table, or -1. */
long dbg_sym_below(const struct pft_dbg *d, uint64_t a);
/* The same, and the addresses [*lo, *hi) around a that all give the same answer. */
long dbg_sym_below_range(const struct pft_dbg *d, uint64_t a, uint64_t *lo, uint64_t *hi);
long dbg_row_find(const struct pft_dbg *d, uint64_t a);
long dbg_func_find(const struct pft_dbg *d, uint64_t a);
enum pft_dbg_map dbg_map_find(const struct pft_dbg *d, uint64_t a);

/* Mapping symbol kind of an Arm symbol name ($a, $t, $d, optionally
 * followed by '.' and more), or PFT_DBG_MAP_NONE. */
enum pft_dbg_map dbg_map_kind(const char *name);

/* ELF symbols of image (its elf set).  0 or -PFT_E_*. */
int dbg_elf_symbols(struct pft_dbg *d, uint32_t image, char *msg, size_t cap);
/* DWARF line tables and functions of image (dw set).  0 or -PFT_E_*. */
int dbg_dwarf_load(struct pft_dbg *d, uint32_t image, char *msg, size_t cap);
/* Inline chain (see pft_dbg_inline_chain) at addr, in compilation unit cu,
 * whose line table row is r (-1: none). */
int dbg_dwarf_chain(const struct pft_dbg *d, uint32_t cu, long r, uint64_t addr,
                    struct pft_dbg_frame *frames, size_t max);
/* A symbol map file.  0 or -PFT_E_*. */
int dbg_map_load(struct pft_dbg *d, uint32_t image, const char *path, char *msg, size_t cap);

#endif
