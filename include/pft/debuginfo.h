/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft debug information (pft_dbg_): what the program's symbols and DWARF
 * say about an address, for several images at once (a kernel and its
 * modules, a program and its shared libraries), each with a load offset.
 *
 *   address -> symbol        ELF symbol tables (bit 0 of Arm Thumb function
 *                            values cleared), or a plain symbol map (nm or
 *                            System.map text) for binary images without ELF
 *   address -> A32/T32/data  the Arm mapping symbols $a, $t, $d
 *   address -> file:line     DWARF line tables (libdw), read row by row for
 *                            every compilation unit (.debug_aranges is not
 *                            used: clang leaves it out); rows with line 0
 *                            are kept as "no line", never reported as line 0
 *   address -> inline chain  DWARF scopes: innermost inlined function first,
 *                            then each caller with its call site
 *   every line, function     the whole line table, so that lines which never
 *                            ran can be reported; DWARF subprograms with their
 *                            declaration line
 *
 * Addresses in the API are run-time addresses: file addresses plus the load
 * offset of their image.  Strings returned point into the object and stay
 * valid until pft_dbg_free.  Not thread-safe, but the lookups only read:
 * once loaded, an object may be looked up from several threads at once.
 * No printing.
 *
 *     dbg = pft_dbg_alloc();
 *     pft_dbg_add_elf(dbg, "prog.elf", 0, msg, sizeof msg);
 *     if (pft_dbg_line(dbg, addr, &ln, sizeof ln) == 0) ...  // file:line
 *     pft_dbg_symbol(dbg, addr, &sym, sizeof sym);           // function
 *     pft_dbg_free(dbg); */
#ifndef PFT_DEBUGINFO_H
#define PFT_DEBUGINFO_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pft_dbg;

/* An empty set of images.  NULL if out of memory. */
PFT_API struct pft_dbg *pft_dbg_alloc(void);
PFT_API void pft_dbg_free(struct pft_dbg *dbg);

/* Add the symbols and DWARF line tables of an ELF file (32- or 64-bit),
 * its addresses shifted by load_offset (modulo 2^64).  A file without DWARF
 * adds its symbols only.  Returns the image number (>= 0), -PFT_E_IO (cannot
 * open or read), -PFT_E_FORMAT (not an ELF file, or DWARF libdw rejects;
 * msg says which), -PFT_E_INVAL, -PFT_E_NOMEM.  msg (may be NULL) receives a
 * NUL-terminated reason on failure. */
PFT_API int pft_dbg_add_elf(struct pft_dbg *dbg, const char *path, uint64_t load_offset,
                            char *msg, size_t cap);

/* The same from len bytes in memory (copied). */
PFT_API int pft_dbg_add_elf_mem(struct pft_dbg *dbg, const void *buf, size_t len,
                                uint64_t load_offset, char *msg, size_t cap);

/* Add a plain symbol map: text lines "ADDR [SIZE] TYPE NAME" or "ADDR NAME"
 * with hexadecimal ADDR and SIZE (the output of nm, nm -S, or a Linux
 * System.map).  Types U, a, A, N and names starting with '.' are skipped;
 * $a/$t/$d names are mapping symbols; an odd text symbol address is a
 * Thumb function (bit 0 cleared, isa THUMB).  Returns the image number, -PFT_E_IO,
 * -PFT_E_FORMAT (a line that is none of these; msg names it), -PFT_E_INVAL,
 * -PFT_E_NOMEM. */
PFT_API int pft_dbg_add_symbol_map(struct pft_dbg *dbg, const char *path, uint64_t load_offset,
                                   char *msg, size_t cap);

/* Number of images added, and whether image i has DWARF line information. */
PFT_API size_t pft_dbg_image_count(const struct pft_dbg *dbg);
PFT_API int pft_dbg_image_has_lines(const struct pft_dbg *dbg, size_t image);
/* Whether any image has DWARF line information. */
PFT_API int pft_dbg_has_lines(const struct pft_dbg *dbg);

/* ---- symbols ---- */

struct pft_dbg_symbol {
	uint64_t addr;     /* run-time address (Thumb bit cleared) */
	uint64_t size;     /* 0 when the symbol table gives none */
	const char *name;
	uint32_t image;
	uint8_t isa;       /* enum pft_isa of a function: THUMB when bit 0 was set,
	                      else ARM; PFT_ISA_UNKNOWN for data and unknown */
	uint8_t is_func;   /* STT_FUNC (or a text symbol of a map) */
	uint8_t reserved[2];
};

/* The symbol containing addr: the sized symbol around it, or else the
 * nearest one below it (as binutils names padding after a function).  Returns 0,
 * -PFT_E_NOTFOUND, -PFT_E_INVAL (NULL or size too small). */
PFT_API int pft_dbg_symbol(const struct pft_dbg *dbg, uint64_t addr,
                           struct pft_dbg_symbol *out, size_t size);

/* pft_dbg_symbol, and the addresses [*lo, *hi) around addr that all give
 * the same answer (the same symbol, or -PFT_E_NOTFOUND): a caller that
 * looks up many nearby addresses keeps the range and skips the lookups.
 * Valid until symbols are added.  Returns as pft_dbg_symbol (*lo, *hi are
 * set for -PFT_E_NOTFOUND too). */
PFT_API int pft_dbg_symbol_range(const struct pft_dbg *dbg, uint64_t addr,
                                 struct pft_dbg_symbol *out, size_t size,
                                 uint64_t *lo, uint64_t *hi);

/* Symbols of every image, sorted by address: count, and the i-th one
 * (0 or -PFT_E_INVAL). */
PFT_API size_t pft_dbg_symbol_count(const struct pft_dbg *dbg);
PFT_API int pft_dbg_symbol_at(const struct pft_dbg *dbg, size_t i,
                              struct pft_dbg_symbol *out, size_t size);

/* What the Arm mapping symbols say about addr. */
enum pft_dbg_map {
	PFT_DBG_MAP_NONE = 0, /* no mapping symbol at or below addr */
	PFT_DBG_MAP_ARM,      /* $a: A32 code */
	PFT_DBG_MAP_THUMB,    /* $t: T32 code */
	PFT_DBG_MAP_DATA      /* $d: literal pool or other data */
};
PFT_API enum pft_dbg_map pft_dbg_mapping(const struct pft_dbg *dbg, uint64_t addr);
/* "none", "arm", "thumb", "data" */
PFT_API const char *pft_dbg_map_name(enum pft_dbg_map m);

/* ---- lines ---- */

/* One row of a line table, made into an address range: [addr, end). */
struct pft_dbg_line {
	uint64_t addr;
	uint64_t end;
	const char *file;      /* full path as DWARF gives it */
	uint32_t line;         /* never 0 */
	uint32_t column;       /* 0 = unknown */
	uint32_t discriminator;
	uint32_t image;
	uint32_t file_id;      /* equal paths have equal ids, across images */
	uint32_t cu;           /* compilation unit number (per dbg) */
};

/* The row whose range holds addr.  Returns 0, -PFT_E_NOTFOUND (no line
 * table row, or a line-0 row), -PFT_E_INVAL. */
PFT_API int pft_dbg_line(const struct pft_dbg *dbg, uint64_t addr,
                         struct pft_dbg_line *out, size_t size);

/* Every row with a line, sorted by address (rows of zero length, where a
 * later row at the same address takes over, are left out): count and the
 * i-th row (0 or -PFT_E_INVAL).  pft_dbg_line_index gives the index of the
 * row holding addr (or -PFT_E_NOTFOUND). */
PFT_API size_t pft_dbg_line_count(const struct pft_dbg *dbg);
PFT_API int pft_dbg_line_at(const struct pft_dbg *dbg, size_t i,
                            struct pft_dbg_line *out, size_t size);
PFT_API long pft_dbg_line_index(const struct pft_dbg *dbg, uint64_t addr);

/* Source files named by the rows: count and path of file id i (NULL if out
 * of range). */
PFT_API size_t pft_dbg_file_count(const struct pft_dbg *dbg);
PFT_API const char *pft_dbg_file(const struct pft_dbg *dbg, size_t id);

/* ---- inline chain ---- */

/* One level of the chain at an address, innermost first (as addr2line -f -i
 * prints it): frame 0 is the innermost function with the address's own
 * line; frame k > 0 is the function that inlined frame k-1, with the line of
 * that call site. */
struct pft_dbg_frame {
	const char *function;  /* NULL when DWARF names none */
	const char *file;      /* NULL when unknown */
	uint32_t line;         /* 0 when unknown */
	uint32_t column;
};

/* Fill up to max frames for addr.  Returns the number of frames in the
 * whole chain (may exceed max; 0 when no DWARF function covers addr),
 * -PFT_E_INVAL, -PFT_E_NOMEM. */
PFT_API int pft_dbg_inline_chain(const struct pft_dbg *dbg, uint64_t addr,
                                 struct pft_dbg_frame *frames, size_t max);

/* ---- functions ---- */

/* A DWARF subprogram with code (out-of-line instance). */
struct pft_dbg_func {
	uint64_t addr;          /* entry (low_pc or first range), run-time */
	uint64_t end;           /* end of its last range */
	const char *name;
	const char *file;       /* declaration file; NULL if unknown */
	uint32_t line;          /* declaration line; 0 if unknown */
	uint32_t image;
	uint32_t file_id;       /* as pft_dbg_line.file_id, or UINT32_MAX */
	uint32_t reserved;
};

/* Functions of every image sorted by entry address: count, the i-th one
 * (0 or -PFT_E_INVAL), and the one whose [addr, end) holds addr (0 or
 * -PFT_E_NOTFOUND). */
PFT_API size_t pft_dbg_func_count(const struct pft_dbg *dbg);
PFT_API int pft_dbg_func_at(const struct pft_dbg *dbg, size_t i,
                            struct pft_dbg_func *out, size_t size);
PFT_API int pft_dbg_func_find(const struct pft_dbg *dbg, uint64_t addr,
                              struct pft_dbg_func *out, size_t size);

#ifdef __cplusplus
}
#endif
#endif
