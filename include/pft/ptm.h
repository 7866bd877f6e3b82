/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft: software PTM: registers, TraceEnable, trace generation (pft_ptm_).
 *
 * A model of a Program Trace Macrocell (spec chapters 3-5, appendix A) that
 * an execution source (simulator, emulator, replayed log) drives one
 * executed instruction at a time.  It emits the PFT byte stream a PTM with
 * the same registers would emit, through the packet encoder (pft_pkt_encoder_*).
 *
 * Use:
 *   struct pft_ptm *ptm = pft_ptm_alloc(&cfg, NULL);   // cfg: ETMCR, ETMIDR ...
 *   pft_ptm_set_reg_by_name(ptm, "ETMTECR1", 0x01000000);  // optional
 *   for each executed instruction: pft_ptm_insn(ptm, &insn);
 *   exceptions: pft_ptm_exception(ptm, &exc);
 *   periodically and at the end: pft_ptm_read(ptm, buf, cap)
 *   pft_ptm_flush(ptm); pft_ptm_read(...); pft_ptm_free(ptm);
 *
 * Timing model.  Time is the caller's processor cycle counter (insn.cycle,
 * absolute, non-decreasing).  Cycle-accurate counts are differences of it.
 * The PTM's resources (comparators, events, counters, sequencer, trigger,
 * external outputs) are evaluated at every waypoint, exception and
 * external-input change, the points where they can change (the address
 * comparators are tested at waypoints, 3.4.1); the cycles in between are
 * played then: counters count every cycle their enable event is TRUE.
 * The FIFO drains drain_bytes every drain_cycles cycles.
 *
 * Nothing is allocated per instruction; all memory is taken at alloc. */
#ifndef PFT_PTM_H
#define PFT_PTM_H

#include "pft/common.h"
#include "pft/isa.h"
#include "pft/packet.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pft_ptm;

/* ---- creation ----------------------------------------------------------- */

/* Model parameters that are IMPLEMENTATION DEFINED in a real PTM. */
struct pft_ptm_params {
	size_t size;              /* sizeof(struct pft_ptm_params) */
	uint32_t fifo_bytes;      /* trace FIFO size; 0 = unbounded (never overflows) */
	uint32_t drain_bytes;     /* FIFO drain rate: drain_bytes every ... */
	uint32_t drain_cycles;    /* ... drain_cycles processor cycles (0 = instant) */
	uint32_t out_bytes;       /* output buffer the caller reads from (default 1 MiB);
	                             when it is full the FIFO cannot drain */
	uint8_t return_stack_depth; /* 0..15, default 15 (spec 4.13) */
	uint8_t reserved[3];
};

/* Defaults: unbounded FIFO, instant drain, 1 MiB output, return stack 15. */
PFT_API void pft_ptm_params_init(struct pft_ptm_params *p);

/* Create a PTM with the registers of cfg (ETMCR, ETMCCR, ETMCCER, ETMIDR,
 * ETMTRACEIDR, ETMSYNCFR); every other register takes the value that traces
 * everything: ETMTEEVR = 0x6F (always TRUE), ETMTECR1 = 0x01000000 (exclude
 * nothing), all other events NOT(TRUE) (0x406F), counters and comparators 0.
 * ETMCR bits of features that ETMCCER/ETMIDR report absent read as 0
 * (return stack without ETMCCER[23], timestamps without [22], VMID without
 * v1.1 and [26]): read ETMCR back for the configuration a decoder needs.
 * If ETMCR.ProgBit (bit 10) is 0 the PTM is enabled at once (A-sync first);
 * otherwise it waits until ETMCR is written with bit 10 clear.
 * params may be NULL for the defaults.  NULL if cfg fails
 * pft_config_features(), params are invalid, or out of memory. */
PFT_API struct pft_ptm *pft_ptm_alloc(const struct pft_config *cfg,
                                      const struct pft_ptm_params *params);
PFT_API void pft_ptm_free(struct pft_ptm *ptm);

/* ---- programmers' model (chapter 3) -------------------------------------
 * Registers by number (Table 3-16).  Writes follow the spec's Programming
 * bit rules: writing ETMCR with bit 10 going 1->0 enables the PTM (A-sync,
 * then a trace-on I-sync, then a T-sync); 0->1 stops trace, flushes atoms
 * and drains the FIFO.  Read-only registers (ETMCCR, ETMCCER, ETMIDR, ETMSCR)
 * can be written too: the model is configured through them.
 * Returns 0, -PFT_E_INVAL (NULL), -PFT_E_NOTFOUND (no such register),
 * -PFT_E_BAD_CONFIG (a value the model cannot honour, e.g. ETMIDR that is not
 * a PTM; the register is left unchanged). */
PFT_API int pft_ptm_set_reg(struct pft_ptm *ptm, unsigned regno, uint32_t value);
/* Current value (status registers, counters and sequencer state live). */
PFT_API int pft_ptm_get_reg(const struct pft_ptm *ptm, unsigned regno, uint32_t *value);

/* Register numbers by name: "ETMCR", "ETMACVR3", "ETMSQ12EVR", "ETMTEEVR"
 * (also "ETMTTEVR"), "ETMEXTINSELR"/"ETMEXTINSEL" ...  Case-insensitive; a
 * snapshot suffix "(id:0x10)" is accepted and ignored, and numbers ("0x1E",
 * "30") are accepted.  Returns the number (>= 0) or -PFT_E_NOTFOUND. */
PFT_API int pft_ptm_reg_lookup(const char *name);
/* Canonical name of a register number, or NULL. */
PFT_API const char *pft_ptm_reg_name(unsigned regno);
PFT_API int pft_ptm_set_reg_by_name(struct pft_ptm *ptm, const char *name, uint32_t value);

/* Load the [regs] sections of a snapshot device .ini (text, len bytes),
 * read exactly as pft_snapshot_open() reads them (one ini reader, one
 * register table, doc/snapshot.md): section names without case, keys
 * "NAME", "NAME(0xNN)", "NAME(id:0xNN)", values as C/OpenCSD numbers (0x
 * hex, leading 0 octal, else decimal).  A key names a PTM register by its
 * name (or alias), else by its number when the name starts with "ETM";
 * other keys are skipped.  As the spec's programming sequence (3.15.4):
 * ProgBit is set first, every register is written, ETMCR last (snapshots
 * usually hold ProgBit = 1: write ETMCR without bit 10 afterwards to start
 * tracing).  Returns the number of registers set; -PFT_E_FORMAT if the text
 * is not an ini file, has no [regs] section, or a key or value there is
 * malformed or a PTM register's value exceeds 32 bits (nothing is written
 * then); or a pft_ptm_set_reg error. */
PFT_API int pft_ptm_load_ini_regs(struct pft_ptm *ptm, const char *text, size_t len);

/* Register numbers: PFT_PTM_ETM* and PFT_PTM_NR_REGS in pft/common.h. */

/* Event encoding helpers (Table 3-7, 3-8): function, resource B, resource A. */
#define PFT_PTM_EVENT(fn, b, a) ((((uint32_t)(fn) & 7u) << 14) | (((uint32_t)(b) & 0x7Fu) << 7) | ((uint32_t)(a) & 0x7Fu))
#define PFT_PTM_RES_SAC(n)     (0x00 + (n) - 1)  /* single address comparator 1..16 */
#define PFT_PTM_RES_ARC(n)     (0x10 + (n) - 1)  /* address range comparator 1..8 */
#define PFT_PTM_RES_COUNTER(n) (0x40 + (n) - 1)  /* counter 1..4 at zero */
#define PFT_PTM_RES_SEQ(n)     (0x50 + (n) - 1)  /* sequencer in state 1..3 */
#define PFT_PTM_RES_CIDC(n)    (0x58 + (n) - 1)  /* context ID comparator 1..3 */
#define PFT_PTM_RES_VMIDC      0x5B
#define PFT_PTM_RES_STARTSTOP  0x5F
#define PFT_PTM_RES_EXTIN(n)   (0x60 + (n) - 1)  /* external input 1..4 */
#define PFT_PTM_RES_EXTSEL(n)  (0x68 + (n) - 1)  /* extended external input selector 1..4 */
#define PFT_PTM_RES_NS         0x6D
#define PFT_PTM_RES_PROHIBITED 0x6E
#define PFT_PTM_RES_TRUE       0x6F
#define PFT_PTM_EVENT_ALWAYS   0x6Fu      /* A = TRUE */
#define PFT_PTM_EVENT_NEVER    0x406Fu    /* NOT(TRUE) */

/* ---- execution input ---------------------------------------------------- */

/* pft_ptm_insn.flags */
#define PFT_PTM_I_COND_FAILED 0x0001u /* failed its condition code check (not executed) */
#define PFT_PTM_I_NS          0x0002u /* executed in Non-secure state */
#define PFT_PTM_I_HYP         0x0004u /* executed in Hyp mode */
#define PFT_PTM_I_USER        0x0008u /* executed in User mode (address comparator filters) */
#define PFT_PTM_I_NEXT_NS     0x0010u /* the next instruction runs in Non-secure state */
#define PFT_PTM_I_NEXT_HYP    0x0020u /* the next instruction runs in Hyp mode */
#define PFT_PTM_I_LINK        0x0040u /* branch with link (return stack push) */
#define PFT_PTM_I_EXC_RETURN  0x0080u /* exception return (SUBS PC,LR / ERET / RFE / LDM ^) */
#define PFT_PTM_I_CLASSIFY    0x0100u /* ignore wp_class/LINK/EXC_RETURN: classify opcode
                                         with pft_isa_decode() */
#define PFT_PTM_I_NEXT_PROHIBITED 0x0200u /* the next instruction is in a prohibited
                                         region (4.7), e.g. an exception return into
                                         Secure code with SPNIDEN low: traced as a
                                         branch to address 0, then trace stops until
                                         pft_ptm_prohibited(ptm, 0, ...) */

/* One executed (committed) instruction, conditional-failed ones included. */
struct pft_ptm_insn {
	uint64_t addr;       /* address of the instruction */
	uint64_t next_addr;  /* address of the next instruction in program order
	                        (the branch target if a branch was taken) */
	uint64_t cycle;      /* processor cycle counter when it retired (absolute) */
	uint32_t opcode;     /* as pft_insn_info.opcode; used with PFT_PTM_I_CLASSIFY */
	uint32_t context_id; /* CONTEXTIDR while it executed */
	uint16_t flags;      /* PFT_PTM_I_* */
	uint8_t isa;         /* enum pft_isa */
	uint8_t next_isa;    /* enum pft_isa of next_addr */
	uint8_t size;        /* 2 or 4 bytes */
	uint8_t wp_class;    /* enum pft_wp_class (PFT_WP_BARRIER counts only if ETMCCER[24]) */
	uint8_t vmid;        /* VMID while it executed */
	uint8_t reserved;
};

/* Feed one executed instruction.  Returns 0, -PFT_E_INVAL for bad arguments
 * (size not 2/4, ISA unknown, address not aligned for its ISA), the error of
 * pft_isa_decode with PFT_PTM_I_CLASSIFY, or -PFT_E_INTERNAL if the encoder
 * refused a packet the model built (a libpft bug).  A cycle lower than the
 * last one is taken as the last one.  Never fails for lack of space:
 * a full FIFO is a trace overflow (4.8), as in hardware. */
PFT_API int pft_ptm_insn(struct pft_ptm *ptm, const struct pft_ptm_insn *insn);

/* pft_ptm_exception.flags */
#define PFT_PTM_E_NS         0x01u /* the handler runs in Non-secure state */
#define PFT_PTM_E_HYP        0x02u /* the handler runs in Hyp mode */
#define PFT_PTM_E_PROHIBITED 0x04u /* the handler is in a prohibited region (4.7):
                                      traced as a branch to 0, then trace stops
                                      until pft_ptm_prohibited(ptm, 0, ...) */

/* An exception taken after the last instruction fed (which completed; an
 * aborted instruction is not fed).  Debug entry: use pft_ptm_debug_entry. */
struct pft_ptm_exception {
	uint64_t vector;      /* address of the first handler instruction */
	uint64_t pref_return; /* preferred return address (informational) */
	uint64_t cycle;       /* cycle counter when the exception was taken */
	uint32_t context_id;  /* in the handler (a change gives a Context ID packet) */
	uint16_t type;        /* enum pft_exception (1..15; 3 = Hyp entry on v1.1) */
	uint8_t isa;          /* enum pft_isa at the vector */
	uint8_t flags;        /* PFT_PTM_E_* */
	uint8_t vmid;         /* in the handler */
	uint8_t reserved[7];
};
PFT_API int pft_ptm_exception(struct pft_ptm *ptm, const struct pft_ptm_exception *exc);

/* Halting debug: entry is traced as exception 1 to address 0 (5.3.8);
 * instructions fed in Debug state are ignored; exit restarts trace with an
 * I-sync of reason "debug exit" at addr. */
PFT_API int pft_ptm_debug_entry(struct pft_ptm *ptm, uint64_t cycle);
PFT_API int pft_ptm_debug_exit(struct pft_ptm *ptm, uint64_t addr, enum pft_isa isa,
                               unsigned ns_hyp_flags /* PFT_PTM_E_NS|HYP */, uint64_t cycle);

/* Prohibited region (4.7) entered or left without an exception, e.g. NIDEN
 * or SPNIDEN deasserted: entry stops trace after flushing atoms (no branch
 * packet); exit makes the next instruction fed the target of a waypoint,
 * traced with an I-sync. */
PFT_API int pft_ptm_prohibited(struct pft_ptm *ptm, int enter, uint64_t cycle);

/* WFI/WFE committed (4.9): atoms are flushed and the FIFO drained. */
PFT_API int pft_ptm_wfi(struct pft_ptm *ptm, uint64_t cycle);

/* External inputs 1..4 (bit n-1) and the extended external input bus (bit i
 * of ext[i/64], up to 256 signals; NULL leaves it).  Clocks the resources. */
PFT_API int pft_ptm_set_inputs(struct pft_ptm *ptm, uint32_t inputs,
                               const uint64_t ext[4], uint64_t cycle);
/* External outputs 1..4 (bit n-1) as last evaluated. */
PFT_API uint32_t pft_ptm_get_outputs(const struct pft_ptm *ptm);

/* Global timestamp counter value (binary).  clock_changed = 1 reports a
 * processor clock frequency change (timestamp with the R bit). */
PFT_API void pft_ptm_timestamp(struct pft_ptm *ptm, uint64_t value, int clock_changed);

/* An external periodic synchronisation request (4.11.1): A-sync, I-sync,
 * T-sync at the next traced waypoint.  A second request while one is pending
 * is a forced overflow. */
PFT_API void pft_ptm_sync_request(struct pft_ptm *ptm);

/* ---- output ------------------------------------------------------------- */

/* Flush (4.15.1, ATB flush): output the atoms held, a timestamp if enabled,
 * and drain the whole FIFO to the output buffer. */
PFT_API int pft_ptm_flush(struct pft_ptm *ptm);

/* Copy up to cap drained bytes of the PFT stream (no formatting) to buf.
 * Returns the number of bytes copied (0 when nothing is waiting). */
PFT_API size_t pft_ptm_read(struct pft_ptm *ptm, uint8_t *buf, size_t cap);

/* Like pft_ptm_read, but in 16-byte CoreSight frames carrying the trace ID
 * of ETMTRACEIDR (pft_frame_encoder_encode).  Only whole frames are written; with
 * flush != 0, once everything drained is framed, the last partial frame is
 * padded and written too.  cap must be at least 40.  Returns the number of
 * bytes written, -PFT_E_NOSPC (cap too small), -PFT_E_NOMEM. */
PFT_API int64_t pft_ptm_read_frames(struct pft_ptm *ptm, uint8_t *buf, size_t cap, int flush);

/* Bytes waiting in the output buffer / in the FIFO. */
PFT_API size_t pft_ptm_pending(const struct pft_ptm *ptm);
PFT_API size_t pft_ptm_fifo_level(const struct pft_ptm *ptm);

/* Observe every packet as it enters the FIFO (debugging, listings, tests).
 * The packet carries its encoded bytes and its offset in the stream.
 * Packets lost to an overflow are not shown.  cb may be NULL to stop. */
typedef void (*pft_ptm_packet_cb)(const struct pft_packet *pkt, void *arg);
PFT_API void pft_ptm_set_packet_cb(struct pft_ptm *ptm, pft_ptm_packet_cb cb, void *arg);

/* Statistics. */
struct pft_ptm_stats {
	uint64_t insns;          /* instructions fed */
	uint64_t traced_insns;   /* instructions inside TraceEnable blocks while tracing */
	uint64_t waypoints;      /* waypoints fed */
	uint64_t packets;        /* packets that entered the FIFO */
	uint64_t bytes;          /* bytes that entered the FIFO */
	uint64_t overflows;      /* FIFO overflows */
	uint64_t lost_packets;   /* packets dropped by overflows */
	uint64_t triggers;       /* trigger packets */
};
/* Copy the counters into *st of size bytes (sizeof *st; a shorter or longer
 * struct from another version of this header gets the common part, the
 * rest zeroed).  0; -PFT_E_INVAL for NULL or size 0. */
PFT_API int pft_ptm_get_stats(const struct pft_ptm *ptm, struct pft_ptm_stats *st, size_t size);

#ifdef __cplusplus
}
#endif
#endif
