/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode helpers: disassembly (capstone), ELF symbols (libelf) and the
 * output formats (text, ranges, JSON Lines, bare address log, totals). */
#ifndef PFT_TOOL_DECODE_H
#define PFT_TOOL_DECODE_H

#include <stdio.h>

#include "pft/pft.h"

/* ---- disassembly ---- */
struct decode_disasm;
struct decode_disasm *decode_disasm_open(void);
void decode_disasm_close(struct decode_disasm *dis);
/* Disassembly text of one instruction ("?" if capstone cannot decode it). */
const char *decode_disasm(struct decode_disasm *dis, const struct pft_insn *in,
                          enum pft_isa isa, char *buf, size_t cap);

/* ---- symbols ---- */
struct decode_syms;
/* Function and object symbols of an ELF file, shifted by offset.  NULL with
 * a message in err on failure. */
struct decode_syms *decode_syms_load(const char *path, uint64_t offset, char *err, size_t cap);
void decode_syms_free(struct decode_syms *s);
/* Name of the symbol containing addr (or the nearest one below it), and
 * addr's offset from it; NULL if none. */
const char *decode_syms_lookup(const struct decode_syms *s, uint64_t addr, uint64_t *off);
size_t decode_syms_count(const struct decode_syms *s);

/* ---- output ---- */
enum decode_format {
	DECODE_TEXT = 0,  /* one line per instruction, events in line */
	DECODE_RANGES,    /* one line per range (runs split by blocks are merged) */
	DECODE_JSON,      /* JSON Lines: instruction and event objects */
	DECODE_JSON_RANGES, /* JSON Lines: range and event objects */
	DECODE_ADDRS,     /* "%08x ISA" per instruction, nothing else */
	DECODE_STATS      /* totals only */
};

struct decode_out;
/* syms may be NULL; disasm 0 leaves disassembly out. */
struct decode_out *decode_out_open(FILE *f, enum decode_format fmt, int disasm,
                                   const struct decode_syms *syms);
/* Returns 0, or -1 on a write error. */
int decode_out_item(struct decode_out *o, const struct pft_flow_item *it);
/* Flush a pending range line; with DECODE_STATS print the totals. */
int decode_out_finish(struct decode_out *o, const struct pft_flow_decoder *dec);
void decode_out_close(struct decode_out *o);

#endif
