/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode helpers: disassembly (capstone) and the output formats (text, ranges, JSON Lines, bare address log, totals). */
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
/* dbg (symbols and source lines) may be NULL; disasm 0 leaves disassembly out. */
struct decode_out *decode_out_open(FILE *f, enum decode_format fmt, int disasm,
                                   const struct pft_dbg *dbg);
/* --id all: every line starts with the source (text "0x13 PTM_0 ", JSON
 * "trace_id":19,"source":"PTM_0" first); name may be NULL or "". */
void decode_out_set_source(struct decode_out *o, unsigned trace_id, const char *name);
/* Returns 0, or -1 on a write error. */
int decode_out_item(struct decode_out *o, const struct pft_flow_item *it);
/* Flush a pending range line; with DECODE_STATS print the totals. */
int decode_out_finish(struct decode_out *o, const struct pft_flow_stats *st);
void decode_out_close(struct decode_out *o);

#endif
