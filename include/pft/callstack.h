/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft call-stack layer (pft_cs_): the call stack of every execution
 * context, followed over the items of the flow decoder (pft/flow.h).
 *
 *     cs = pft_cs_tracker_alloc(&cscfg);
 *     for each flow item:
 *         pft_cs_tracker_put(cs, &item, sizeof item);
 *         while (pft_cs_tracker_next(cs, &ev, sizeof ev) == 0)
 *             use(&ev);                 (then -PFT_E_AGAIN)
 *     pft_cs_tracker_end(cs);                    (closes every frame still open)
 *     while (pft_cs_tracker_next(cs, &ev, sizeof ev) == 0)
 *         use(&ev);                      (then -PFT_E_EOS)
 *
 * Every frame pushed (CALL, EXC_ENTRY) is popped by exactly one RETURN or
 * EXC_RETURN event, in stack order, per context: a consumer can open a
 * slice on a push and close it on the pop.  Each context (context ID) has
 * its own stack; an exception pushes an exception frame on the stack of the
 * context it interrupts, and the frames above it form the nested stack of
 * the handler, which its exception return leaves.
 *
 * The rules (doc/profile.md, "Call and return rules", tested one by one in
 * tests/unit/test_callstack.c):
 *  - call: a taken waypoint with PFT_INSN_F_LINK (BL, BLX imm and reg, and
 *    the other link-setting forms the classifier marks), and an indirect
 *    branch right after A32 MOV LR, PC.  Return address: the instruction
 *    after the branch.
 *  - return: a taken indirect branch whose target equals the return address
 *    of a frame of the current exception level: that frame and every frame
 *    above it are popped.  The form alone never makes a return.
 *  - tail call: a branch to the entry of another function (needs func_of):
 *    the frame is replaced (RETURN then CALL, both with PFT_CS_F_TAIL).
 *  - non-local jump (longjmp): an indirect branch into the function of an
 *    older frame (needs func_of): the frames above it are popped.
 *  - a return form (BX LR, POP/LDM {..PC}, LDR PC,[SP],#4, MOV PC,LR) whose
 *    target matches nothing, from the bottom frame of its level: the caller
 *    was never seen (it called before the trace began): the frame is popped
 *    and an unknown frame starts at the target (the stack grows upward).
 *    From a deeper frame: the stack is lost (a GAP event).
 *  - exception entry pushes an exception frame; an exception return
 *    (PFT_INSN_F_EXC_RETURN) pops down to it and through it.
 *  - an exception whose handler is not traced (trace on follows it at
 *    once: a user-mode trace's system calls and signals): back at the
 *    preferred return address of an exception frame, the frames down to
 *    and through it are popped; elsewhere in the same context (a signal
 *    handler) the new code runs above the exception frame.
 *  - a trace gap (unsynced bytes, packet error, address lost, memory not in
 *    the image, atoms without an address, trace/image disagreement, a
 *    periodic I-sync mismatch, trace turned back on other than right after
 *    an exception, above) pops every frame of the
 *    context: the stack is unknown, never silently wrong.  Other contexts'
 *    stacks are popped when next switched to. */
#ifndef PFT_CALLSTACK_H
#define PFT_CALLSTACK_H

#include "pft/common.h"
#include "pft/flow.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pft_cs_tracker;

enum pft_cs_kind {
	PFT_CS_RUN = 1,    /* instructions (or cycles alone) in the top frame */
	PFT_CS_CALL,       /* frame pushed (CALL, or an UNKNOWN frame: see frame.kind) */
	PFT_CS_RETURN,     /* frame popped: reason = enum pft_cs_how */
	PFT_CS_EXC_ENTRY,  /* exception frame pushed: frame.exception, addr = vector */
	PFT_CS_EXC_RETURN, /* exception frame popped (after the frames above it) */
	PFT_CS_GAP,        /* the stack became unknown: reason = enum pft_flow_event
	                      of the flow item (0: a return matched no frame) */
	PFT_CS_CONTEXT,    /* the current context is now context_id */
	PFT_CS_KIND_NR
};

/* How a frame was popped (RETURN / EXC_RETURN reason). */
enum pft_cs_how {
	PFT_CS_HOW_MATCHED = 0, /* a return to this frame's return address */
	PFT_CS_HOW_SKIPPED,     /* popped under a return to an older frame, or a non-local jump */
	PFT_CS_HOW_TAIL,        /* replaced by a tail call */
	PFT_CS_HOW_UNMATCHED,   /* a return form with no frame to match: caller never seen */
	PFT_CS_HOW_EXCEPTION,   /* popped by an exception return */
	PFT_CS_HOW_GAP,         /* popped because the stack became unknown */
	PFT_CS_HOW_END,         /* open at the end of the trace (pft_cs_tracker_end) */
	PFT_CS_HOW_NR
};

enum pft_cs_frame_kind {
	PFT_CS_FRAME_CALL = 1,  /* entered by a call or tail call */
	PFT_CS_FRAME_EXCEPTION, /* an exception; the handler's frames sit above it */
	PFT_CS_FRAME_UNKNOWN    /* entered before the trace began or during a gap:
	                           entry is the first address seen in it */
};

struct pft_cs_frame {
	uint64_t entry;     /* callee entry, vector, or first address seen */
	uint64_t ret;       /* return address (exception: preferred return); 0 none */
	uint64_t site;      /* address of the call instruction; 0 none */
	uint64_t index;     /* instructions executed before the frame was pushed */
	uint64_t cycles;    /* cumulative cycles when pushed */
	uint64_t time_ns;   /* time when pushed (event F_TIME) */
	uint32_t exception; /* EXCEPTION: exception number (enum pft_exception) */
	uint8_t kind;       /* enum pft_cs_frame_kind */
	uint8_t isa;        /* of entry */
	uint16_t reserved;
};

/* pft_cs_event.flags */
#define PFT_CS_F_CC     0x0001u /* cycles valid (cycle-accurate trace seen) */
#define PFT_CS_F_TIME   0x0002u /* time_ns valid */
#define PFT_CS_F_TS     0x0004u /* timestamp valid */
#define PFT_CS_F_TAIL   0x0008u /* CALL / RETURN of a tail call */
#define PFT_CS_F_RSTACK 0x0010u /* RETURN whose target came from the PTM return stack */
#define PFT_CS_F_FORM   0x0020u /* RETURN: the branch had a return form */

struct pft_cs_event {
	uint16_t kind;        /* enum pft_cs_kind */
	uint16_t reason;      /* RETURN/EXC_RETURN: enum pft_cs_how; GAP: flow event */
	uint32_t flags;       /* PFT_CS_F_* */
	uint32_t depth;       /* frames on the current context's stack after the event */
	uint32_t level;       /* exception frames among them */
	uint64_t index;       /* instructions executed before the event (RUN: before its first) */
	uint64_t cycles;      /* cumulative cycles before the event (F_CC) */
	uint64_t time_ns;     /* (F_TIME): from timestamps and/or cycles, see pft_cs_config */
	uint64_t timestamp;   /* last timestamp value (F_TS) */
	uint64_t offset;      /* stream offset of the flow item behind the event */
	uint64_t addr;        /* RUN: first instruction; CALL/RETURN: the branch (0 if
	                         none); EXC_ENTRY: vector; GAP: flow item's addr */
	uint64_t end;         /* RUN: address after the last instruction */
	uint64_t target;      /* CALL/RETURN/EXC_RETURN: where execution went (0 unknown) */
	uint64_t ninsns;      /* RUN: instructions in it */
	uint64_t ncycles;     /* RUN: cycles charged to it (F_CC) */
	uint32_t context_id;  /* the context the event belongs to */
	uint8_t isa;          /* RUN: ISA of its instructions */
	uint8_t reserved[3];
	const struct pft_insn *insns; /* RUN: its instructions, valid until the next
	                         pft_cs_tracker_put (NULL for a cycles-only RUN) */
	struct pft_cs_frame frame;    /* CALL/EXC_ENTRY: pushed; RETURN/EXC_RETURN: popped */
};

/* Function lookup for tail calls and non-local jumps: set *start, *end to
 * the function holding addr and return 1, or return 0 if addr is in no
 * known function.  Called from pft_cs_tracker_put only. */
typedef int (*pft_cs_func_of)(void *ctx, uint64_t addr, uint64_t *start, uint64_t *end);

struct pft_cs_config {
	size_t size;          /* sizeof(struct pft_cs_config) */
	uint64_t cpu_hz;      /* CPU clock: cycles -> time (0: unknown) */
	uint64_t ts_hz;       /* timestamp clock (0: unknown) */
	uint32_t max_depth;   /* frames per context; deeper calls make a GAP (0: 4096) */
	uint32_t max_contexts;/* stacks kept; the least recently used is dropped (0: 256) */
	uint32_t flags;       /* PFT_CS_CFG_* */
	uint32_t reserved;
	pft_cs_func_of func_of; /* may be NULL: no tail calls or non-local jumps */
	void *func_ctx;
};
#define PFT_CS_CFG_NO_RUNS 0x1u /* do not emit RUN events (counts still kept) */

/* Time: with ts_hz and a timestamp seen, time = timestamp / ts_hz, plus the
 * cycles since it / cpu_hz when both are known; else, with cpu_hz and
 * cycle counts, cycles / cpu_hz; else no time (F_TIME clear).  Never
 * decreases. */

PFT_API void pft_cs_config_init(struct pft_cs_config *cfg);

/* NULL if out of memory or cfg is NULL / too small. */
PFT_API struct pft_cs_tracker *pft_cs_tracker_alloc(const struct pft_cs_config *cfg);
PFT_API void pft_cs_tracker_free(struct pft_cs_tracker *cs);

/* Give the next flow item.  Returns 0; -PFT_E_INVAL for NULL arguments, a
 * size below sizeof(struct pft_flow_item), events still pending, or after
 * pft_cs_tracker_end; -PFT_E_NOMEM when the event queue cannot grow. */
PFT_API int pft_cs_tracker_put(struct pft_cs_tracker *cs, const struct pft_flow_item *it, size_t size);

/* The effect of the last item's branch waits for the next item (an
 * exception may follow at once, and then the branch went to its preferred
 * return address).  Apply it now, to read the stacks as the input leaves
 * them (pft_cs_tracker_end does this itself).  0, or -PFT_E_INVAL (NULL,
 * events pending, after end). */
PFT_API int pft_cs_tracker_flush(struct pft_cs_tracker *cs);

/* No more items: every open frame of every context is popped (HOW_END). */
PFT_API int pft_cs_tracker_end(struct pft_cs_tracker *cs);

/* Next event: 0; -PFT_E_AGAIN when the last item's events are out;
 * -PFT_E_EOS after pft_cs_tracker_end and the last event; -PFT_E_INVAL for NULL
 * arguments or size < sizeof(struct pft_cs_event). */
PFT_API int pft_cs_tracker_next(struct pft_cs_tracker *cs, struct pft_cs_event *ev, size_t size);

/* All the events not yet pulled, at once and in place: *evs points at *n
 * events (0 when none is left), valid until the next pft_cs_tracker_put,
 * _flush or _end; they count as pulled.  size must be sizeof(struct
 * pft_cs_event) (a caller built with another size uses
 * pft_cs_tracker_next).  0, or -PFT_E_INVAL. */
PFT_API int pft_cs_tracker_take(struct pft_cs_tracker *cs, const struct pft_cs_event **evs,
                                size_t *n, size_t size);

/* The current context's stack, as of the last event pulled's item:
 * frames 0 (bottom) .. depth-1 (top). */
PFT_API uint32_t pft_cs_tracker_depth(const struct pft_cs_tracker *cs);
/* Copy frame i; -PFT_E_INVAL if i >= depth. */
PFT_API int pft_cs_tracker_frame(const struct pft_cs_tracker *cs, uint32_t i,
                             struct pft_cs_frame *f, size_t size);

struct pft_cs_stats {
	uint64_t insns, cycles;
	uint64_t calls, tail_calls, returns, unmatched, skipped;
	uint64_t exceptions, exception_returns, gaps, contexts;
	uint32_t max_depth;
};
PFT_API int pft_cs_tracker_get_stats(const struct pft_cs_tracker *cs, struct pft_cs_stats *st, size_t size);

/* "run", "call", "return", "exception", "exception_return", "gap", "context" */
PFT_API const char *pft_cs_kind_name(enum pft_cs_kind k);
/* "call", "exception", "unknown" */
PFT_API const char *pft_cs_frame_kind_name(enum pft_cs_frame_kind k);
/* "matched", "skipped", "tail", "unmatched", "exception", "gap", "end" */
PFT_API const char *pft_cs_how_name(enum pft_cs_how h);

/* Does the instruction have one of the return forms above (BX LR, POP/LDM
 * with PC, LDR PC,[SP],#imm, MOV PC,LR; exception returns excluded)? */
PFT_API int pft_cs_is_return_form(enum pft_isa isa, uint32_t opcode, unsigned size);

#ifdef __cplusplus
}
#endif
#endif
