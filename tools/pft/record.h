/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: shared declarations of the execution sources (Unicorn
 * emulator, qemu exec log, plain log), the cycle model and the trace
 * pipeline that feeds the software PTM.
 *
 * An execution source produces, in program order, the instructions that
 * retired (conditional ones whose condition failed included, aborted or
 * undefined ones excluded) and the exceptions taken between them.  It hands
 * them to a struct rec_sink; the pipeline (record_pipe.c) fills in each
 * instruction's successor, cycle count and timestamp, and passes them on to
 * the PTM and to the executed-instruction log. */
#ifndef PFT_RECORD_H
#define PFT_RECORD_H

#include <stdint.h>
#include <stdio.h>

#include "pft/common.h"

/* One retired instruction as a source sees it. */
struct rec_insn {
	uint64_t addr;
	uint32_t opcode;     /* A32 word; T32 32-bit: hw1 << 16 | hw2; T16: hw */
	uint8_t isa;         /* enum pft_isa */
	uint8_t size;        /* 2 or 4 */
	int8_t cond;         /* 1 condition passed, 0 failed, -1 unknown */
	uint8_t user;        /* executed in User mode */
	uint8_t condcode;    /* condition that applied: IT or encoding, 14 = always */
	uint32_t context_id; /* CONTEXTIDR while it executed */
};

/* Exception types, numbered as the PFT exception encoding (enum
 * pft_exception, spec Table 4-7). */
enum rec_exc_type {
	REC_EXC_NONE = 0,
	REC_EXC_RESET = 8,   /* unused by the sources */
	REC_EXC_UNDEF = 9,   /* undefined instruction */
	REC_EXC_SVC = 10,
	REC_EXC_PABT = 11,   /* prefetch abort */
	REC_EXC_DABT = 12,   /* data abort */
	REC_EXC_IRQ = 14,
	REC_EXC_FIQ = 15,
};
const char *rec_exc_name(unsigned type);

/* An exception taken after the last instruction delivered. */
struct rec_exc {
	uint64_t pref_return; /* preferred return address */
	uint64_t vector;      /* first handler instruction */
	uint8_t type;         /* enum rec_exc_type */
	uint8_t isa;          /* enum pft_isa at the vector */
	uint8_t untraced;     /* the handler is not in the stream (a kernel under a
	                         user-mode log): traced as entering a prohibited
	                         region, left at the next instruction delivered */
};

/* Where a source delivers.  Each callback returns 0, or a negative value
 * that stops the source (which returns it). */
struct rec_sink {
	int (*insn)(void *ctx, const struct rec_insn *in);
	int (*exception)(void *ctx, const struct rec_exc *exc);
	void *ctx;
};

/* ---- helpers (record_util.c) ------------------------------------------- */

/* Size of the instruction whose first halfword / word is given. */
static inline unsigned rec_t32_size(uint16_t hw1)
{
	return (hw1 >> 11) >= 0x1d ? 4u : 2u;
}
/* Opcode as pft_insn_info.opcode from the bytes at the address. */
uint32_t rec_opcode(enum pft_isa isa, const uint8_t *bytes, unsigned size);
/* Does condition cond (0..15) pass for the NZCV flags (CPSR[31:28])? */
int rec_cond_pass(unsigned cond, uint32_t nzcv);
/* Condition of an instruction outside IT blocks: the ARM cond field (15 for
 * the unconditional space is returned as 14), Thumb B<cond>; 14 = always. */
unsigned rec_insn_cond(enum pft_isa isa, uint32_t opcode, unsigned size);
/* Thumb IT instruction?  *itstate receives ITSTATE[7:0] after it. */
int rec_is_it(uint32_t opcode, unsigned size, uint8_t *itstate);
/* ITAdvance() of the ARM ARM. */
static inline uint8_t rec_it_advance(uint8_t it)
{
	return (it & 7u) == 0 ? 0 : (uint8_t)((it & 0xe0u) | ((it << 1) & 0x1fu));
}
/* MCR p15, 0, Rt, c13, c0, 1 (a write of CONTEXTIDR)? */
static inline int rec_is_contextidr_write(uint32_t opcode)
{
	return (opcode & 0x0fff0fffu) == 0x0e0d0f30u; /* A32 (cond) and T32 (hw1:hw2) alike */
}
/* SVC in either instruction set? */
int rec_is_svc(enum pft_isa isa, uint32_t opcode, unsigned size);
/* BKPT in either instruction set? */
int rec_is_bkpt(enum pft_isa isa, uint32_t opcode, unsigned size);
/* Parse a number (decimal, 0x hex); 0 on success. */
int rec_parse_u64(const char *s, uint64_t *out);

/* ---- program ELF (record_elf.c) ----------------------------------------- */

struct rec_segment {
	uint64_t vaddr;
	uint64_t filesz, memsz;
	uint8_t *data;       /* memsz bytes (zero filled past filesz) */
	unsigned flags;      /* PF_X | PF_W | PF_R */
};

struct rec_elf {
	char *path;
	uint64_t entry;
	struct rec_segment *seg;
	unsigned nseg;
	struct rec_sym { uint64_t addr; uint64_t size; char *name; } *sym;
	unsigned nsym;
};

/* Load an ELF32 ARM executable's PT_LOAD segments and symbols.  0 or a
 * -PFT_E_* code; msg receives a reason. */
int rec_elf_load(struct rec_elf *elf, const char *path, char *msg, size_t cap);
void rec_elf_free(struct rec_elf *elf);
/* Move the image by bias (segments, symbols and entry): a shared object or
 * position-independent executable loaded at bias. */
void rec_elf_rebase(struct rec_elf *elf, uint64_t bias);
/* Symbol value by name (bit 0 = Thumb for functions); 0 if found. */
int rec_elf_symbol(const struct rec_elf *elf, const char *name, uint64_t *addr);
/* Bytes at addr (up to cap, within one segment); returns how many. */
unsigned rec_elf_read(const struct rec_elf *elf, uint64_t addr, uint8_t *buf, unsigned cap);

/* ---- cycle model (record_cycles.c) -------------------------------------- */

enum rec_cycle_class {
	REC_CYC_OTHER, REC_CYC_BRANCH, REC_CYC_LOAD, REC_CYC_STORE, REC_CYC_MUL,
	REC_CYC_FAILED, REC_CYC_EXCEPTION, REC_CYC_NR
};
struct rec_cycles {
	uint32_t cost[REC_CYC_NR];
};
/* "N" (every instruction N cycles) or "class=N,..." with classes other,
 * branch (taken), load, store, mul, failed (condition failed), exception
 * (entry); unnamed classes cost 1.  0 or -PFT_E_INVAL. */
int rec_cycles_parse(struct rec_cycles *m, const char *spec);
void rec_cycles_default(struct rec_cycles *m);
enum rec_cycle_class rec_cycles_classify(enum pft_isa isa, uint32_t opcode, unsigned size);

/* ---- execution sources -------------------------------------------------- */

struct rec_emu_opts {
	uint64_t max_insns;      /* 0 = no limit */
	uint64_t until;          /* stop before this address */
	int have_until;
	uint64_t irq_every;      /* 0 = off */
	const uint64_t *irq_at;  /* instruction indexes, ascending */
	unsigned n_irq_at;
	uint64_t irq_random;     /* mean interval of random IRQs, 0 = off */
	uint64_t seed;
	int verbose;
};
struct rec_emu_stats {
	uint64_t insns;          /* retired, delivered */
	uint64_t it_reinserted;  /* condition-failed IT instructions Unicorn did not report */
	uint64_t exceptions[16];  /* by enum rec_exc_type */
	uint64_t exc_in_it;       /* exceptions taken inside an IT block */
	const char *stop_reason; /* "bkpt", "until", "max-insns", "end", "error" */
	uint64_t stop_addr;
	uint32_t r0;              /* R0 when it stopped (main's return value at BKPT) */
	uint8_t stop_isa;
};
/* Run elf under Unicorn from its entry, delivering to sink.  0 or -PFT_E_*;
 * msg receives the reason for an error. */
int rec_emu_run(const struct rec_elf *elf, const struct rec_emu_opts *o,
                const struct rec_sink *sink, struct rec_emu_stats *st,
                char *msg, size_t cap);

struct rec_src_stats {
	uint64_t lines, insns, skipped_lines, syscalls;
};
/* Replay a qemu-arm "-singlestep -d exec,nochain" log; code bytes from elf
 * (and extra images).  Streams the file.  0 or -PFT_E_*. */
int rec_qemu_run(FILE *log, const struct rec_elf *const *elfs, unsigned nelf,
                 uint64_t max_insns, const struct rec_sink *sink,
                 struct rec_src_stats *st, char *msg, size_t cap);
/* Replay a plain executed-instruction log (doc/record.md). */
int rec_plain_run(FILE *log, const struct rec_elf *const *elfs, unsigned nelf,
                  uint64_t max_insns, const struct rec_sink *sink,
                  struct rec_src_stats *st, char *msg, size_t cap);

/* ---- the pipeline (record_pipe.c) --------------------------------------- */

/* A retired instruction with its successor and timing, as the PTM takes it. */
struct rec_full {
	struct rec_insn in;
	uint64_t next_addr;
	uint8_t next_isa;
	uint8_t taken;        /* waypoint semantics: left to the PTM; here: next != addr+size */
	uint64_t cycle;       /* processor cycle counter after it retired */
};

/* Consumer of the completed stream (the PTM adapter). */
struct rec_consumer {
	int (*insn)(void *ctx, const struct rec_full *f);
	int (*exception)(void *ctx, const struct rec_exc *x, uint64_t cycle);
	int (*end)(void *ctx, uint64_t cycle);
	void *ctx;
};

struct rec_pipe {
	struct rec_cycles cycles;
	uint64_t cycle;
	FILE *log;             /* executed-instruction log or NULL */
	int log_exceptions;    /* also "! TYPE PREF_RETURN" lines (the plain format) */
	const struct rec_consumer *out; /* or NULL */
	struct rec_insn prev;
	int have_prev;
	uint64_t insns, exceptions;
	int err;
};
void rec_pipe_init(struct rec_pipe *p, const struct rec_cycles *c, FILE *log,
                   const struct rec_consumer *out);
/* The sink an execution source writes to. */
void rec_pipe_sink(struct rec_pipe *p, struct rec_sink *sink);
/* End of the run: the last instruction goes out with next = addr + size
 * (or stop_addr when known). */
int rec_pipe_end(struct rec_pipe *p, uint64_t stop_addr, enum pft_isa stop_isa, int have_stop);

#endif
