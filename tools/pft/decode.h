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

/* Capstone's Thumb disassembler carries the state of an IT block from one
 * instruction to the next (the condition it prints on the 1-4 instructions
 * after an IT), whatever lies between them in the trace.  That state is
 * set by an IT it decodes outside a block (one inside changes nothing);
 * each other Thumb instruction it decodes takes one of the block's slots,
 * one it cannot decode none: so it is a function of the IT that opened
 * the block and the instructions decoded after it (up to 3, then the
 * block is over).  Those are kept here, so that another
 * disassembler can be put in the same state by disassembling them again
 * (a listing formatted in pieces: decode_pipe.h). */
struct decode_it {
	uint32_t n;                 /* 0: no IT block open */
	struct pft_insn insn[4];    /* the IT, then those decoded after it */
};
/* The instructions an IT instruction's block covers (1-4); 0 if in is not
 * an IT (Thumb). */
unsigned decode_it_slots(const struct pft_insn *in);
void decode_disasm_get_it(const struct decode_disasm *dis, struct decode_it *st);
/* A fresh Thumb disassembler (no IT block), then st's instructions
 * disassembled again. */
void decode_disasm_set_it(struct decode_disasm *dis, const struct decode_it *st);

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
/* A writer on f with o's format, disassembly, symbols and source prefix
 * (and nothing held back); NULL if out of memory. */
struct decode_out *decode_out_like(const struct decode_out *o, FILE *f);
FILE *decode_out_file(const struct decode_out *o);
/* --id all: every line starts with the source (text "0x13 PTM_0 ", JSON
 * "trace_id":19,"source":"PTM_0" first); name may be NULL or "". */
void decode_out_set_source(struct decode_out *o, unsigned trace_id, const char *name);
/* Returns 0, or -1 on a write error. */
int decode_out_item(struct decode_out *o, const struct pft_flow_item *it);
/* 1 if, after it, a writer such as o holds nothing back (no range line
 * pending): the text of what follows depends on nothing before.  Where a
 * listing may be cut into pieces formatted apart (decode_pipe.h). */
int decode_out_cut_after(const struct decode_out *o, const struct pft_flow_item *it);
/* The disassembler's IT block state (st->n 0 without disassembly). */
void decode_out_get_it(const struct decode_out *o, struct decode_it *st);
void decode_out_set_it(struct decode_out *o, const struct decode_it *st);
/* Flush a pending range line; with DECODE_STATS print the totals. */
int decode_out_finish(struct decode_out *o, const struct pft_flow_stats *st);
void decode_out_close(struct decode_out *o);

#endif
