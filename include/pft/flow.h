/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft instruction-flow decoder (pft_flow_): the trace decompressor of
 * spec appendix B.  Input: the PFT byte stream of one trace source (or its
 * packets) and a program image.  Output, pulled one item at a time: ranges
 * of executed instructions and events, in execution order.
 *
 *     dec = pft_flow_decoder_alloc(&cfg, img);
 *     for each chunk:
 *         pft_flow_decoder_feed(dec, chunk, len);
 *         while ((err = pft_flow_decoder_next(dec, &it, sizeof it)) == 0)
 *             use(&it);            (err is -PFT_E_AGAIN here)
 *     pft_flow_decoder_end(dec);
 *     while (pft_flow_decoder_next(dec, &it, sizeof it) == 0)
 *         use(&it);                (then -PFT_E_EOS)
 *
 * Nothing is lost silently: bytes skipped before an A-sync, malformed
 * packets, atoms that cannot be followed (code not in the image, address
 * unknown) and trace/image disagreements all come out as events with the
 * stream offset of the packet that caused them.
 *
 * Departures from appendix B, each for a reason given at the code:
 *  - after a waypoint update the current address moves past the last
 *    instruction executed (B leaves it on that instruction, which would
 *    output it twice when the >4096-byte WPU is followed by its atom);
 *  - a walk that meets a waypoint before reaching the waypoint-update
 *    address stops before that waypoint and reports the disagreement;
 *  - a walk longer than PFT_FLOW_MAX_WALK bytes without a waypoint stops
 *    (the PTM would have sent a waypoint update after 4096 bytes). */
#ifndef PFT_FLOW_H
#define PFT_FLOW_H

#include "pft/common.h"
#include "pft/packet.h"
#include "pft/isa.h" /* struct pft_insn */

#ifdef __cplusplus
extern "C" {
#endif

struct pft_image;

enum pft_flow_kind {
	PFT_FLOW_RANGE = 1,  /* a run of executed instructions */
	PFT_FLOW_EVENT = 2
};

/* How a range ends. */
enum pft_range_end {
	PFT_RANGE_TAKEN = 0,     /* last instruction is a waypoint traced as executed
	                            (E atom or branch packet): branch taken, ISB done */
	PFT_RANGE_NOT_TAKEN,     /* last is a waypoint traced by an N atom: condition failed */
	PFT_RANGE_WPU,           /* last was executed per a waypoint update (condition unknown) */
	PFT_RANGE_MORE,          /* no waypoint yet: the next range continues the run */
	PFT_RANGE_STOPPED        /* the walk stopped early; an event follows saying why */
};

enum pft_flow_event {
	PFT_EV_NONE = 0,
	PFT_EV_TRACE_ON,        /* I-sync: reason (enum pft_isync_reason), addr, isa, NS,
	                           Hyp, context ID, cycles (CA, non-periodic).  Every
	                           non-periodic I-sync, and a periodic one that
	                           (re)establishes the address */
	PFT_EV_SYNC_MISMATCH,   /* a periodic I-sync disagrees with the decoded state:
	                           addr/isa/NS = the I-sync's, next/next_isa = what the
	                           decoder expected.  The I-sync's state is adopted */
	PFT_EV_EXCEPTION,       /* value = exception number; addr = vector (0 for debug
	                           entry), next = preferred return address (F_NEXT),
	                           cycles */
	PFT_EV_EXCEPTION_RETURN,/* the last waypoint was an exception return */
	PFT_EV_CONTEXT_ID,      /* value = new context ID */
	PFT_EV_VMID,            /* value = new VMID */
	PFT_EV_TIMESTAMP,       /* value = timestamp of the last traced waypoint, whose
	                           address is addr (F_ADDR) and instruction index is
	                           index - 1; cycles; F_TS_R = clock frequency changed */
	PFT_EV_TRIGGER,
	PFT_EV_SECURITY,        /* a normal branch changed NS or Hyp (flags NS/HYP) */
	PFT_EV_JAZELLE,         /* a branch entered Jazelle state at addr; untraced until
	                           the next I-sync */
	PFT_EV_MEM_NACC,        /* memory not readable at addr (isa): the instructions
	                           there cannot be followed.  If an atom or branch packet
	                           needed them: F_ATOM with F_TAKEN (E) or not (N),
	                           cycles.  The address is unknown from here until the
	                           next address packet */
	PFT_EV_NO_ADDRESS,      /* an atom (F_ATOM, F_TAKEN, cycles), or with F_WPU a
	                           waypoint update, arrived while the address is unknown */
	PFT_EV_LOST,            /* the address became unknown: reason = enum pft_flow_lost */
	PFT_EV_INCONSISTENT,    /* trace and image disagree: reason = enum
	                           pft_flow_inconsistent; decoding continues */
	PFT_EV_PACKET_ERROR,    /* malformed packet: reason = enum pft_pkt_error, offset,
	                           value = size in bytes.  Sync is lost until A-sync and
	                           I-sync */
	PFT_EV_UNSYNCED,        /* bytes skipped while searching for an A-sync: offset,
	                           value = count */
	PFT_EV_NR
};

enum pft_flow_lost {
	PFT_LOST_NONE = 0,
	PFT_LOST_RSTACK_EMPTY,     /* E atom on an indirect branch, return stack empty */
	PFT_LOST_INDIRECT_ATOM,    /* E atom on an indirect branch, return stack disabled */
	PFT_LOST_NO_TARGET,        /* E atom on a direct branch whose target is unknown */
	PFT_LOST_WALK_LIMIT,       /* no waypoint within PFT_FLOW_MAX_WALK bytes */
	PFT_LOST_JAZELLE,          /* an atom needs an instruction in Jazelle state */
	PFT_LOST_NR
};

enum pft_flow_inconsistent {
	PFT_INCONS_NONE = 0,
	PFT_INCONS_WPU_BEHIND,     /* waypoint update address before the current address */
	PFT_INCONS_WPU_WAYPOINT,   /* a waypoint lies before the waypoint update address */
	PFT_INCONS_WPU_ISA,        /* waypoint update ISA differs from the current ISA */
	PFT_INCONS_BRANCH_TARGET,  /* branch packet target differs from a direct branch's */
	PFT_INCONS_NR
};

/* pft_flow_item.flags */
#define PFT_FLOW_F_CC       0x0001u /* cycles valid */
#define PFT_FLOW_F_NS       0x0002u /* Non-secure */
#define PFT_FLOW_F_HYP      0x0004u /* Hyp mode */
#define PFT_FLOW_F_CID      0x0008u /* context_id valid */
#define PFT_FLOW_F_VMID     0x0010u /* vmid valid */
#define PFT_FLOW_F_NEXT     0x0020u /* next / next_isa valid */
#define PFT_FLOW_F_ATOM     0x0040u /* event carries an atom (F_TAKEN = E) */
#define PFT_FLOW_F_TAKEN    0x0080u /* the atom is E (else N) */
#define PFT_FLOW_F_ADDR     0x0100u /* event addr (and isa) valid */
#define PFT_FLOW_F_WPU      0x0200u /* event caused by a waypoint update */
#define PFT_FLOW_F_BRANCH   0x0400u /* event atom implied by a branch packet */
#define PFT_FLOW_F_TS_R     0x0800u /* timestamp: clock frequency changed */
#define PFT_FLOW_F_RSTACK   0x1000u /* range: its target came from the return stack */
#define PFT_FLOW_F_ETM3     0x2000u /* PACKET_ERROR from the ETMv3 flow (etm3flow.h):
                                       reason is enum pft_etm3_error */

/* One output item.  Fields not listed for a kind are 0. */
struct pft_flow_item {
	uint16_t kind;        /* enum pft_flow_kind */
	uint16_t type;        /* EVENT: enum pft_flow_event */
	uint32_t flags;       /* PFT_FLOW_F_* */
	uint64_t offset;      /* stream offset of the packet behind this item */
	uint64_t index;       /* RANGE: index of its first instruction; EVENT: instructions
	                         output before it (counting from 0 at the start) */
	uint64_t addr;        /* RANGE: first instruction; EVENT: see the event */
	uint64_t end;         /* RANGE: address after the last instruction */
	uint64_t next;        /* RANGE: next instruction executed (F_NEXT);
	                         EXCEPTION: preferred return address */
	uint64_t value;       /* EVENT: see the event */
	const struct pft_insn *insns; /* RANGE: its instructions; valid until the next
	                         call on this decoder */
	uint32_t ninsns;      /* RANGE */
	uint32_t cycles;      /* F_CC: cycle count (0xFFFFFFFF = counter overflow); for a
	                         range it belongs to the last instruction (a waypoint),
	                         or is the sum of insn_cycles */
	uint32_t context_id;  /* current context ID (F_CID) */
	uint8_t isa;          /* RANGE: ISA of its instructions; EVENT: ISA at addr */
	uint8_t next_isa;     /* F_NEXT */
	uint8_t end_kind;     /* RANGE: enum pft_range_end */
	uint8_t reason;       /* TRACE_ON/SYNC_MISMATCH: enum pft_isync_reason; LOST,
	                         INCONSISTENT: their enum; PACKET_ERROR: enum pft_pkt_error */
	uint8_t vmid;         /* current VMID (F_VMID) */
	uint8_t reserved[3];
	const uint32_t *insn_cycles; /* RANGE with F_CC where the trace gives every
	                         instruction its own count (ETMv3 cycle-accurate):
	                         ninsns counts, in order, summing to cycles; valid as
	                         insns.  NULL: cycles belong to the last instruction */
};

/* Longest run of instruction bytes walked for one waypoint. */
#define PFT_FLOW_MAX_WALK 65536u

struct pft_flow_decoder;

/* A decoder for the trace source described by cfg (copied), reading code
 * from img (borrowed; may be NULL, then every address is unreadable).
 * NULL if out of memory or cfg fails pft_config_features(). */
PFT_API struct pft_flow_decoder *pft_flow_decoder_alloc(const struct pft_config *cfg,
                                                struct pft_image *img);
PFT_API void pft_flow_decoder_free(struct pft_flow_decoder *dec);

/* Feed the next chunk of the byte stream (borrowed until the next feed).
 * All items of the previous chunk must have been pulled.  Returns 0,
 * -PFT_E_INVAL on misuse (items pending, after pft_flow_decoder_end, or mixed with
 * pft_flow_decoder_put_packet). */
PFT_API int pft_flow_decoder_feed(struct pft_flow_decoder *dec, const uint8_t *buf, size_t len);

/* Alternative input: give one packet (from a caller's own pft_pkt_decoder,
 * configured like this decoder), then pull until -PFT_E_AGAIN.  Returns 0 or
 * -PFT_E_INVAL (items pending, or mixed with pft_flow_decoder_feed). */
PFT_API int pft_flow_decoder_put_packet(struct pft_flow_decoder *dec, const struct pft_packet *pkt);

/* No more input. */
PFT_API int pft_flow_decoder_end(struct pft_flow_decoder *dec);

/* Next item.  0 on success; -PFT_E_AGAIN when the input is used up;
 * -PFT_E_EOS after pft_flow_decoder_end() and the last item; -PFT_E_INVAL for NULL
 * arguments or size < sizeof(struct pft_flow_item); -PFT_E_INTERNAL (from
 * then on) if the decoder ever produced more items in one step than it can
 * queue, a bug in libpft that would otherwise lose an item. */
PFT_API int pft_flow_decoder_next(struct pft_flow_decoder *dec, struct pft_flow_item *item, size_t size);

/* Forget the instruction state (as after a packet error): the next I-sync
 * resynchronises.  The packet decoder also searches for an A-sync again. */
PFT_API void pft_flow_decoder_resync(struct pft_flow_decoder *dec);

/* The packet decoder's resynchronisation at I-syncs
 * (pft_pkt_decoder_set_isync_resync). */
PFT_API int pft_flow_decoder_set_isync_resync(struct pft_flow_decoder *dec,
                                              enum pft_isync_resync mode);

/* Offset in the byte stream of the next byte the decoder will read. */
PFT_API uint64_t pft_flow_decoder_get_offset(const struct pft_flow_decoder *dec);

/* Totals so far. */
struct pft_flow_stats {
	uint64_t bytes;          /* stream bytes consumed */
	uint64_t packets;        /* packets decoded (not counting unsynced/error items) */
	uint64_t insns;          /* instructions output in ranges */
	uint64_t ranges;
	uint64_t events[PFT_EV_NR]; /* by enum pft_flow_event */
	uint64_t cache_hits, cache_misses; /* decoded-block cache */
};
PFT_API int pft_flow_decoder_get_stats(const struct pft_flow_decoder *dec, struct pft_flow_stats *st,
                               size_t size);

/* Names for listings and JSON: "trace_on", "sync_mismatch", "exception",
 * "exception_return", "context_id", "vmid", "timestamp", "trigger",
 * "security", "jazelle", "memory_not_readable", "unknown_address",
 * "address_lost", "inconsistent", "packet_error", "unsynced". */
PFT_API const char *pft_flow_event_name(enum pft_flow_event ev);
/* "range", "event" */
PFT_API const char *pft_flow_kind_name(enum pft_flow_kind k);
/* "rstack_empty", "indirect_atom", "no_target", "walk_limit", "jazelle" */
PFT_API const char *pft_flow_lost_name(enum pft_flow_lost r);
/* "wpu_behind", "wpu_waypoint", "wpu_isa", "branch_target" */
PFT_API const char *pft_flow_inconsistent_name(enum pft_flow_inconsistent r);
/* "taken", "not_taken", "wpu", "more", "stopped" */
PFT_API const char *pft_range_end_name(enum pft_range_end e);

#ifdef __cplusplus
}
#endif
#endif
