/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft record part (pft_rec_, library pft_record, src/record/): the
 * execution sources (Unicorn emulator, qemu exec log, plain log), the cycle
 * model, the trace pipeline and the sink that feeds the software PTM.  Built
 * beside libpft, optional; the Unicorn source only when Unicorn is found
 * (otherwise pft_rec_emu_run returns -PFT_E_UNSUPPORTED).
 *
 *     struct pft_rec_elf elf;
 *     struct pft_rec_pipe pipe;
 *     struct pft_rec_sink sink;
 *     struct pft_rec_consumer ptm;              // pft_rec_ptm_consumer()
 *
 *     pft_rec_elf_load(&elf, "prog.elf", msg, sizeof msg);
 *     pft_rec_pipe_init(&pipe, &cycles, NULL, &ptm);
 *     pft_rec_pipe_sink(&pipe, &sink);
 *     pft_rec_emu_run(&elf, &opts, &sink, &stats, msg, sizeof msg);
 *     pft_rec_pipe_end(&pipe, stats.stop_addr, stats.stop_isa, 1);
 *
 * An execution source produces, in program order, the instructions that
 * retired (conditional ones whose condition failed included, aborted or
 * undefined ones excluded) and the exceptions taken between them.  It hands
 * them to a struct pft_rec_sink; the pipeline (record_pipe.c) fills in each
 * instruction's successor, cycle count and timestamp, and passes them on to
 * the PTM and to the executed-instruction log. */
#ifndef PFT_RECORD_H
#define PFT_RECORD_H

#include <stdint.h>
#include <stdio.h>

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One data transfer of an instruction (the emulator's memory hooks), in the
 * order the processor made them. */
struct pft_rec_access {
	uint64_t value;      /* the bytes transferred, little endian (a load: as read) */
	uint32_t addr;
	uint8_t size;        /* 1, 2, 4 or 8 bytes */
	uint8_t write;       /* 1 store, 0 load */
};
#define PFT_REC_MAX_ACCESS 16

/* One retired instruction as a source sees it. */
struct pft_rec_insn {
	uint64_t addr;
	uint32_t opcode;     /* A32 word; T32 32-bit: hw1 << 16 | hw2; T16: hw */
	uint8_t isa;         /* enum pft_isa */
	uint8_t size;        /* 2 or 4 */
	int8_t cond;         /* 1 condition passed, 0 failed, -1 unknown */
	uint8_t user;        /* executed in User mode */
	uint8_t condcode;    /* condition that applied: IT or encoding, 14 = always */
	uint32_t context_id; /* CONTEXTIDR while it executed */
	/* Its data transfers, when the source sees them (the emulator; the log
	 * sources give 0): naccess counts them all, access[] holds the first
	 * PFT_REC_MAX_ACCESS. */
	uint8_t naccess;
	struct pft_rec_access access[PFT_REC_MAX_ACCESS];
};

/* Exception types, numbered as the PFT exception encoding (enum
 * pft_exception, spec Table 4-7). */
enum pft_rec_exc_type {
	PFT_REC_EXC_NONE = 0,
	PFT_REC_EXC_RESET = 8,   /* unused by the sources */
	PFT_REC_EXC_UNDEF = 9,   /* undefined instruction */
	PFT_REC_EXC_SVC = 10,
	PFT_REC_EXC_PABT = 11,   /* prefetch abort */
	PFT_REC_EXC_DABT = 12,   /* data abort */
	PFT_REC_EXC_IRQ = 14,
	PFT_REC_EXC_FIQ = 15,
};
PFT_API const char *pft_rec_exc_type_name(unsigned type);

/* An exception taken after the last instruction delivered. */
struct pft_rec_exc {
	uint64_t pref_return; /* preferred return address */
	uint64_t vector;      /* first handler instruction */
	uint8_t type;         /* enum pft_rec_exc_type */
	uint8_t isa;          /* enum pft_isa at the vector */
	uint8_t untraced;     /* the handler is not in the stream (a kernel under a
	                         user-mode log): traced as entering a prohibited
	                         region, left at the next instruction delivered */
	uint8_t return_isa;   /* enum pft_isa at pref_return: the target's after a
	                         BLX interrupted before its target's first
	                         instruction, which makes that BLX taken */
};

/* Where a source delivers.  Each callback returns 0, or a negative value
 * that stops the source (which returns it). */
struct pft_rec_sink {
	int (*insn)(void *ctx, const struct pft_rec_insn *in);
	int (*exception)(void *ctx, const struct pft_rec_exc *exc);
	void *ctx;
};

/* ---- helpers (record_util.c) ------------------------------------------- */

/* (Instruction sizes: pft_isa_thumb_size; condition codes:
 * pft_isa_cond_passed, both in pft/isa.h.) */
/* Opcode as pft_insn_info.opcode from the bytes at the address. */
PFT_API uint32_t pft_rec_opcode(enum pft_isa isa, const uint8_t *bytes, unsigned size);
/* Condition of an instruction outside IT blocks: the ARM cond field (15 for
 * the unconditional space is returned as 14), Thumb B<cond>; 14 = always. */
PFT_API unsigned pft_rec_insn_cond(enum pft_isa isa, uint32_t opcode, unsigned size);
/* Thumb IT instruction?  *itstate receives ITSTATE[7:0] after it. */
PFT_API int pft_rec_is_it(uint32_t opcode, unsigned size, uint8_t *itstate);
/* ITAdvance() of the ARM ARM. */
static inline uint8_t pft_rec_it_advance(uint8_t it)
{
	return (it & 7u) == 0 ? 0 : (uint8_t)((it & 0xe0u) | ((it << 1) & 0x1fu));
}
/* MCR p15, 0, Rt, c13, c0, 1 (a write of CONTEXTIDR)? */
static inline int pft_rec_is_contextidr_write(uint32_t opcode)
{
	return (opcode & 0x0fff0fffu) == 0x0e0d0f30u; /* A32 (cond) and T32 (hw1:hw2) alike */
}
/* SVC in either instruction set? */
PFT_API int pft_rec_is_svc(enum pft_isa isa, uint32_t opcode, unsigned size);
/* BKPT in either instruction set? */
PFT_API int pft_rec_is_bkpt(enum pft_isa isa, uint32_t opcode, unsigned size);
/* Parse a number (decimal, 0x hex); 0 on success. */
PFT_API int pft_rec_parse_u64(const char *s, uint64_t *out);
/* The timestamp counter at CPU cycle `cycle`: cycle * ts_freq / cpu_freq in
 * exact integer arithmetic, modulo 2^64 as the counter wraps (any
 * frequencies > 0; cpu_freq 0 gives cycle). */
PFT_API uint64_t pft_rec_ts_of_cycle(uint64_t cycle, uint64_t cpu_freq, uint64_t ts_freq);

/* ---- the step rule (record_check.c) ------------------------------------ */

/* Can the instruction at addr, in instruction set isa, be the next to retire
 * after prev (opcode, size, isa and condcode filled in) with no exception in
 * between?  prev falls through (a non-branch, a conditional branch whose
 * condition failed), goes to its direct target in the target's instruction
 * set, or, an indirect branch, goes anywhere, changing the instruction set
 * only when it interworks (BX, BLX, loads to the PC, A32 data processing to
 * the PC) or returns from an exception.  1 yes; 0 no, and why (if not NULL)
 * receives what prev can do ("A32 0xe0810002, not a branch: falls through to
 * 0x00001004 A32"). */
PFT_API int pft_rec_can_follow(const struct pft_rec_insn *prev, uint64_t addr, enum pft_isa isa,
                               char *why, size_t cap);
/* Can an exception of this type (enum pft_rec_exc_type) enter at vector?
 * Its offset in a vector table whose base is 32-byte aligned (VBAR, the low
 * vectors at 0, the high vectors at 0xFFFF0000): 1 yes, 0 no. */
PFT_API int pft_rec_is_vector(unsigned type, uint64_t vector);
/* That offset (0x04 undef, 0x08 svc, 0x0c pabt, 0x10 dabt, 0x18 irq, 0x1c
 * fiq, 0 reset); -1 for another type. */
PFT_API int pft_rec_vector_offset(unsigned type);

/* ---- program ELF (record_elf.c) ----------------------------------------- */

struct pft_rec_segment {
	uint64_t vaddr;
	uint64_t filesz, memsz;
	uint8_t *data;       /* memsz bytes (zero filled past filesz) */
	unsigned flags;      /* PF_X | PF_W | PF_R */
};

struct pft_rec_elf {
	char *path;
	uint64_t entry;
	struct pft_rec_segment *seg;
	unsigned nseg;
	struct pft_rec_sym { uint64_t addr; uint64_t size; char *name; } *sym;
	unsigned nsym;
};

/* Load an ELF32 ARM executable's PT_LOAD segments and symbols.  0 or a
 * -PFT_E_* code; msg receives a reason. */
PFT_API int pft_rec_elf_load(struct pft_rec_elf *elf, const char *path, char *msg, size_t cap);
PFT_API void pft_rec_elf_free(struct pft_rec_elf *elf);
/* Move the image by bias (segments, symbols and entry): a shared object or
 * position-independent executable loaded at bias. */
PFT_API void pft_rec_elf_rebase(struct pft_rec_elf *elf, uint64_t bias);
/* Symbol value by name (bit 0 = Thumb for functions); 0 if found. */
PFT_API int pft_rec_elf_symbol(const struct pft_rec_elf *elf, const char *name, uint64_t *addr);
/* Bytes at addr (up to cap, within one segment); returns how many. */
PFT_API unsigned pft_rec_elf_read(const struct pft_rec_elf *elf, uint64_t addr, uint8_t *buf, unsigned cap);

/* ---- cycle model (record_cycles.c) -------------------------------------- */

enum pft_rec_cycle_class {
	PFT_REC_CYC_OTHER, PFT_REC_CYC_BRANCH, PFT_REC_CYC_LOAD, PFT_REC_CYC_STORE, PFT_REC_CYC_MUL,
	PFT_REC_CYC_FAILED, PFT_REC_CYC_EXCEPTION, PFT_REC_CYC_NR
};
struct pft_rec_cycles {
	uint32_t cost[PFT_REC_CYC_NR];
};
/* "N" (every instruction N cycles) or "class=N,..." with classes other,
 * branch (taken), load, store, mul, failed (condition failed), exception
 * (entry); unnamed classes cost 1.  0 or -PFT_E_INVAL. */
PFT_API int pft_rec_cycles_parse(struct pft_rec_cycles *m, const char *spec);
PFT_API void pft_rec_cycles_default(struct pft_rec_cycles *m);
PFT_API enum pft_rec_cycle_class pft_rec_cycles_classify(enum pft_isa isa, uint32_t opcode, unsigned size);
/* "other", "branch", "load", "store", "mul", "failed", "exception" */
PFT_API const char *pft_rec_cycle_class_name(enum pft_rec_cycle_class c);

/* ---- execution sources -------------------------------------------------- */

struct pft_rec_emu_opts {
	uint64_t max_insns;      /* 0 = no limit */
	uint64_t until;          /* stop before this address */
	int have_until;
	uint64_t irq_every;      /* 0 = off */
	const uint64_t *irq_at;  /* instruction indexes, ascending */
	unsigned n_irq_at;
	uint64_t irq_random;     /* mean interval of random IRQs, 0 = off */
	uint64_t seed;
	int verbose;
	int accesses;            /* deliver each instruction's data transfers
	                            (pft_rec_insn.access; memory hooks slow Unicorn) */
};
struct pft_rec_emu_stats {
	uint64_t insns;          /* retired, delivered */
	uint64_t it_reinserted;  /* condition-failed IT instructions Unicorn did not report */
	uint64_t exceptions[16];  /* by enum pft_rec_exc_type */
	uint64_t exc_in_it;       /* exceptions taken inside an IT block */
	const char *stop_reason; /* "bkpt", "until", "max-insns", "end", "error" */
	uint64_t stop_addr;
	uint32_t r0;              /* R0 when it stopped (main's return value at BKPT) */
	uint8_t stop_isa;
};
/* Run elf under Unicorn from its entry, delivering to sink.  0 or -PFT_E_*;
 * msg receives the reason for an error. */
PFT_API int pft_rec_emu_run(const struct pft_rec_elf *elf, const struct pft_rec_emu_opts *o,
                const struct pft_rec_sink *sink, struct pft_rec_emu_stats *st,
                char *msg, size_t cap);

struct pft_rec_src_stats {
	uint64_t lines, insns, skipped_lines, syscalls;
	uint64_t signals;        /* qemu: asynchronous signals delivered */
};
/* Replay a qemu-arm "-singlestep -d exec,nochain" log; code bytes from elf
 * (and extra images).  Streams the file.  0 or -PFT_E_*. */
PFT_API int pft_rec_qemu_run(FILE *log, const struct pft_rec_elf *const *elfs, unsigned nelf,
                 uint64_t max_insns, const struct pft_rec_sink *sink,
                 struct pft_rec_src_stats *st, char *msg, size_t cap);
/* The lines of the plain executed-instruction log (doc/record.md), which
 * pft_rec_plain_run reads back, without the newline: "00008000 A32" and
 * "! irq 00002002 T32" (with " untraced" for an exception whose handler is
 * not in the stream).  snprintf's return value. */
PFT_API int pft_rec_log_insn_line(char *buf, size_t cap, uint64_t addr, enum pft_isa isa);
PFT_API int pft_rec_log_exc_line(char *buf, size_t cap, const struct pft_rec_exc *x);
/* Replay a plain executed-instruction log (doc/record.md). */
PFT_API int pft_rec_plain_run(FILE *log, const struct pft_rec_elf *const *elfs, unsigned nelf,
                  uint64_t max_insns, const struct pft_rec_sink *sink,
                  struct pft_rec_src_stats *st, char *msg, size_t cap);

/* ---- the pipeline (record_pipe.c) --------------------------------------- */

/* A retired instruction with its successor and timing, as the PTM takes it. */
struct pft_rec_full {
	struct pft_rec_insn in;
	uint64_t next_addr;
	uint8_t next_isa;
	uint8_t taken;        /* waypoint semantics: left to the PTM; here: next != addr+size */
	uint64_t cycle;       /* processor cycle counter after it retired */
};

/* Consumer of the completed stream (the PTM sink, the executed-instruction
 * log).  Each callback may be NULL. */
struct pft_rec_consumer {
	int (*insn)(void *ctx, const struct pft_rec_full *f);
	int (*exception)(void *ctx, const struct pft_rec_exc *x, uint64_t cycle);
	int (*end)(void *ctx, uint64_t cycle);
	void *ctx;
};

struct pft_rec_pipe {
	struct pft_rec_cycles cycles;
	uint64_t cycle;
	const struct pft_rec_consumer *log; /* the executed-instruction log, or NULL */
	const struct pft_rec_consumer *out; /* the PTM, or NULL */
	struct pft_rec_insn prev;
	int have_prev;
	uint64_t insns, exceptions;
	int err;
};
/* log and out (either may be NULL) get every completed instruction and
 * exception, log first. */
PFT_API void pft_rec_pipe_init(struct pft_rec_pipe *p, const struct pft_rec_cycles *c,
                               const struct pft_rec_consumer *log,
                               const struct pft_rec_consumer *out);
/* The sink an execution source writes to. */
PFT_API void pft_rec_pipe_sink(struct pft_rec_pipe *p, struct pft_rec_sink *sink);
/* End of the run: the last instruction goes out with next = addr + size
 * (or stop_addr when known). */
PFT_API int pft_rec_pipe_end(struct pft_rec_pipe *p, uint64_t stop_addr, enum pft_isa stop_isa, int have_stop);

/* ---- the PTM sink (record_ptm.c) ---------------------------------------- */

struct pft_ptm;
struct pft_rec_ptm;
/* A sink over a software PTM whose registers are set (ETMCR.Programming
 * clear); it takes ownership of ptm.  frames: drain CoreSight frames (1) or
 * raw bytes (0).  The global timestamp is the cycle count scaled from
 * cpu_freq to ts_freq.  0, -PFT_E_INVAL or -PFT_E_NOMEM. */
PFT_API int pft_rec_ptm_alloc(struct pft_rec_ptm **out, struct pft_ptm *ptm, int frames,
                              uint64_t cpu_freq, uint64_t ts_freq);
PFT_API void pft_rec_ptm_free(struct pft_rec_ptm *rp); /* and its PTM */
/* The consumer the pipeline feeds (end flushes the PTM and drains it). */
PFT_API void pft_rec_ptm_consumer(struct pft_rec_ptm *rp, struct pft_rec_consumer *c);
PFT_API struct pft_ptm *pft_rec_ptm_ptm(struct pft_rec_ptm *rp);
/* The trace drained so far (all of it after the consumer's end). */
PFT_API const uint8_t *pft_rec_ptm_trace(const struct pft_rec_ptm *rp, size_t *len);
/* Waypoints marked condition failed by the sink's own rule (see record_ptm.c). */
PFT_API uint64_t pft_rec_ptm_failed_marked(const struct pft_rec_ptm *rp);

/* ---- the ETMv3 sink (record_etm3.c) ------------------------------------- */

struct pft_rec_etm3;
struct pft_etm3_gen_stats;
/* A sink over the software ETMv3 (pft/etm3gen.h) with these registers
 * (ETMCR, ETMIDR, ETMCCER, ETMSYNCFR, ETMTRACEIDR).  frames: the trace in
 * CoreSight frames with the trace ID (1) or raw (0).  cancel_mask: bit t set
 * = an exception of type t (enum pft_rec_exc_type) aborted the instruction
 * at its preferred return address, which is traced and then cancelled (0:
 * none).  The timestamp is the cycle count scaled from cpu_freq to ts_freq.
 * With data trace in ETMCR[3:2], each executed instruction's data transfers
 * (pft_rec_insn.access: the emulator with pft_rec_emu_opts.accesses) become
 * normal data packets; an instruction with more than PFT_REC_MAX_ACCESS
 * makes the consumer fail with -PFT_E_UNSUPPORTED.
 * 0, -PFT_E_INVAL (NULL, zero frequencies), -PFT_E_BAD_CONFIG (not an
 * ETMv3 doing instruction trace) or -PFT_E_NOMEM. */
PFT_API int pft_rec_etm3_alloc(struct pft_rec_etm3 **out, const struct pft_config *cfg, int frames,
                               unsigned cancel_mask, uint64_t cpu_freq, uint64_t ts_freq);
PFT_API void pft_rec_etm3_free(struct pft_rec_etm3 *re);
/* The consumer the pipeline feeds (end flushes the generator). */
PFT_API void pft_rec_etm3_consumer(struct pft_rec_etm3 *re, struct pft_rec_consumer *c);
/* The trace so far (all of it after the consumer's end; framed then). */
PFT_API const uint8_t *pft_rec_etm3_trace(const struct pft_rec_etm3 *re, size_t *len);
/* The generator's counters; size = sizeof *st.  0 or -PFT_E_INVAL. */
PFT_API int pft_rec_etm3_get_stats(const struct pft_rec_etm3 *re, struct pft_etm3_gen_stats *st,
                                   size_t size);

#ifdef __cplusplus
}
#endif
#endif
