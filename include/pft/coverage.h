/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft coverage counts (pft_cov_): from the flow decoder's items, how
 * often each instruction executed and how often each waypoint went each
 * way, plus the trace gaps that could hide executed code.  No file formats
 * and no source lines here: writers (lcov, listings, AutoFDO) map the
 * per-address counts to lines with pft/debuginfo.h.
 *
 *     cov = pft_cov_alloc();
 *     while (pft_flow_decoder_next(dec, &it, sizeof it) == 0)
 *         pft_cov_put(cov, &it, sizeof it);
 *     n = pft_cov_insn_count(cov);        (builds the per-address table)
 *     for (i = 0; i < n; i++) pft_cov_insn_at(cov, i, &ci, sizeof ci);
 *
 * Only instructions the decoder output in ranges are counted: coverage never
 * counts what was not decoded.  Counting is per distinct range (a hash of
 * start, end and instruction set), so it costs one lookup per range, not per
 * instruction; the per-address table is built on demand.
 *
 * Branch outcomes are object-level and exact: a range that ends with a
 * waypoint traced by an E atom (or a branch packet) counts "taken" for that
 * instruction, one traced by an N atom counts "not taken".  A waypoint is
 * conditional (PFT_COV_F_COND) when its encoding has a condition, when it
 * sits in a Thumb IT block that started in the same range, or when it was
 * ever traced not taken. */
#ifndef PFT_COVERAGE_H
#define PFT_COVERAGE_H

#include "pft/common.h"
#include "pft/flow.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pft_cov;

/* Empty counts.  NULL if out of memory. */
PFT_API struct pft_cov *pft_cov_alloc(void);
PFT_API void pft_cov_free(struct pft_cov *cov);

/* Count one flow item (ranges count instructions and outcomes; gap events
 * are recorded; other events are ignored).  Items must come in the order the
 * decoder gave them (NO_ADDRESS atoms belong to the gap before them).
 * size: sizeof *it (an item of another pft/flow.h version is read up to
 * its size, the fields it lacks taken as 0).
 * Returns 0, -PFT_E_NOMEM, -PFT_E_INVAL (NULL, size 0, or a range whose
 * instruction count does not match its size). */
PFT_API int pft_cov_put(struct pft_cov *cov, const struct pft_flow_item *it, size_t size);

/* Add src's counts and gaps into dst (traces of several runs of the same
 * program).  Returns 0, -PFT_E_NOMEM, -PFT_E_INVAL. */
PFT_API int pft_cov_merge(struct pft_cov *dst, const struct pft_cov *src);

/* ---- per-address results ---- */

#define PFT_COV_F_WAYPOINT 0x01u /* the instruction is a waypoint */
#define PFT_COV_F_COND     0x02u /* a conditional waypoint: it has two outcomes */
#define PFT_COV_F_LINK     0x04u /* branch with link (a call) */
#define PFT_COV_F_INDIRECT 0x08u /* indirect branch (target from a register / memory) */

struct pft_cov_insn {
	uint64_t addr;
	uint64_t count;      /* times executed (as far as the trace shows it) */
	uint64_t taken;      /* waypoint traced as executed: E atom or branch packet */
	uint64_t not_taken;  /* waypoint traced by an N atom: condition failed */
	uint32_t opcode;     /* as pft_insn.opcode */
	uint8_t size;        /* 2 or 4 */
	uint8_t isa;         /* enum pft_isa */
	uint8_t wp_class;    /* enum pft_wp_class */
	uint8_t flags;       /* PFT_COV_F_* */
};

/* Number of distinct instructions executed.  Builds (or rebuilds after
 * more pft_cov_put calls) the address-sorted table.  Returns the count, or
 * -PFT_E_NOMEM / -PFT_E_INVAL as a negative value. */
PFT_API long pft_cov_insn_count(struct pft_cov *cov);

/* The i-th instruction of the table (address order).  0 or -PFT_E_INVAL
 * (index beyond pft_cov_insn_count, NULL, size too small). */
PFT_API int pft_cov_insn_at(const struct pft_cov *cov, size_t i,
                            struct pft_cov_insn *out, size_t size);

/* Index of the instruction at addr in the table, or -PFT_E_NOTFOUND. */
PFT_API long pft_cov_insn_find(const struct pft_cov *cov, uint64_t addr);

/* ---- taken branches (for profiles) ---- */

/* A branch edge: the waypoint at from was taken and execution continued at
 * to (the next range's first instruction), count times. */
struct pft_cov_edge {
	uint64_t from, to;
	uint64_t count;
	uint8_t from_isa, to_isa;
	uint8_t reserved[6];
};

/* Number of distinct taken edges (address-sorted table, built with the
 * instruction table); the i-th one (0 or -PFT_E_INVAL). */
PFT_API long pft_cov_edge_count(struct pft_cov *cov);
PFT_API int pft_cov_edge_at(const struct pft_cov *cov, size_t i,
                            struct pft_cov_edge *out, size_t size);

/* ---- gaps and totals ---- */

/* A place where executed code may be missing from the counts. */
struct pft_cov_gap {
	uint64_t offset;     /* stream offset of the event that opened it */
	uint64_t addr;       /* address where following stopped (if known) */
	uint64_t bytes;      /* trace bytes not decoded (unsynced, malformed) */
	uint64_t atoms;      /* atoms (waypoints) that could not be followed */
	uint64_t max_insns;  /* most instructions the gap could hide: every
	                        waypoint may stand for up to PFT_COV_MAX_RUN
	                        instructions, every undecoded byte for up to 5
	                        atoms; UINT64_MAX when unbounded (trace off for
	                        an unknown time does not count as a gap) */
	uint16_t type;       /* enum pft_flow_event that opened the gap */
	uint8_t reason;      /* its reason field */
	uint8_t isa;
	uint32_t reserved;
};

/* Instructions one waypoint may stand for: 4096 bytes of 2-byte Thumb
 * instructions before the PTM must send a waypoint update, plus the
 * waypoint. */
#define PFT_COV_MAX_RUN 2049u

/* Gaps in the order they happened (merged inputs: appended). */
PFT_API size_t pft_cov_gap_count(const struct pft_cov *cov);
PFT_API int pft_cov_gap_at(const struct pft_cov *cov, size_t i,
                           struct pft_cov_gap *out, size_t size);

struct pft_cov_totals {
	uint64_t insns;          /* instructions counted */
	uint64_t ranges;         /* range items counted */
	uint64_t distinct_ranges;
	uint64_t waypoints_taken, waypoints_not_taken;
	uint64_t gaps;
	uint64_t gap_bytes, gap_atoms;
	uint64_t gap_max_insns;  /* sum of max_insns (saturating) */
	uint64_t inputs;         /* traces counted: 1 once an item was put, plus the
	                            inputs of every object merged in */
};
PFT_API int pft_cov_get_totals(const struct pft_cov *cov, struct pft_cov_totals *out,
                               size_t size);

#ifdef __cplusplus
}
#endif
#endif
