/* SPDX-License-Identifier: BSD-3-Clause */
/* Flow decoder internals: the decoder object and the output queue
 * (pft_flow_emit).  The files stand on floors: flow_state.c (the state
 * update a branch target makes), flow_walk.c (walking the program image for
 * atoms, branches and waypoint updates), flow.c (input, one handler per
 * packet type, the entry points); each calls only those before it. */
#ifndef PFT_FLOW_INT_H
#define PFT_FLOW_INT_H

#include "state/rstack.h"
#include "image/block_cache.h"
#include "pft/flow.h"
#include "pft/packet.h"

#include <assert.h>
#include <string.h>

/* Walks of a waypoint update may be long (an exception after a long
 * straight run); they are bounded too, so corrupt input cannot make the
 * decoder emit billions of instructions from a huge image. */
#define PFT_FLOW_MAX_WPU_WALK (16u << 20)

#define FLOW_QCAP 8

/* CurrentState / LastState of spec B.2.1. */
struct flow_state {
	uint64_t addr;
	uint32_t cid;
	uint8_t isa;
	uint8_t ns;
	uint8_t hyp;
	uint8_t vmid;
	uint8_t addr_valid;
	uint8_t cid_valid;
	uint8_t vmid_valid;
};

enum walk_mode { WALK_NONE = 0, WALK_ATOM, WALK_BRANCH, WALK_WPU };

struct flow_walk {
	uint8_t mode;       /* enum walk_mode */
	uint8_t taken;      /* ATOM: E */
	uint8_t has_cc;
	uint32_t cycles;
	uint64_t bytes;     /* walked so far */
	uint64_t wpu;       /* WPU: last address executed */
};

enum flow_input { INPUT_NONE = 0, INPUT_BYTES, INPUT_PACKETS };

struct pft_flow_decoder {
	struct pft_config cfg;
	struct pft_features feat;
	struct pft_image *img;
	struct pft_blkcache *bc;
	struct pft_pkt_decoder *pkt;
	uint8_t input;      /* enum flow_input */
	uint8_t ended;
	uint8_t need_input; /* the last pull ran out of input */
	uint8_t slot_full;
	uint8_t have_pkt;   /* cur is being processed */
	uint8_t synced;     /* an I-sync was seen since the start / the last error */
	uint8_t last_wp_valid;
	uint8_t atom_i;     /* next atom of cur */
	struct pft_packet slot;
	struct pft_packet cur;
	struct flow_state cs, ls;
	struct pft_rstack rs;
	struct flow_walk walk;
	uint64_t insn_index;
	uint64_t last_wp_addr;
	uint8_t last_wp_isa;
	struct pft_flow_item q[FLOW_QCAP];
	unsigned qhead, qn;
	/* Set if a step ever emitted more than the queue holds (a bug in
	 * libpft): pft_flow_decoder_next then fails with -PFT_E_INTERNAL. */
	uint8_t q_overflow;
	/* The caller's item during pft_flow_decoder_next: the first item a step emits
	 * goes straight there (no queue copy); NULL once filled. */
	struct pft_flow_item *direct;
	struct pft_flow_stats st;
};

/* pft_flow_decoder_alloc with a block cache of cache_blocks entries (the fuzzer
 * uses a small one). */
struct pft_flow_decoder *pft_flow_alloc_cache(const struct pft_config *cfg,
                                              struct pft_image *img, unsigned cache_blocks);

/* A new item: the caller's (first of a step) or at the tail of the queue,
 * zeroed, with kind/type, the current packet offset, index and context
 * filled in.  Inline: it runs once per output item. */
static const struct pft_flow_item pft_flow_item_zero;

static inline struct pft_flow_item *pft_flow_emit(struct pft_flow_decoder *d,
						   enum pft_flow_kind kind,
						   enum pft_flow_event type)
{
	struct pft_flow_item *it;

	if (d->direct) {
		it = d->direct;
		d->direct = NULL;
	} else {
		/* A step emits a handful of items at most: a range and the
		 * events that go with it.  The queue holds FLOW_QCAP; more is a
		 * bug, reported, never an item silently overwritten. */
		assert(d->qn < FLOW_QCAP);
		it = &d->q[(d->qhead + d->qn) % FLOW_QCAP];
		if (d->qn < FLOW_QCAP)
			d->qn++;
		else
			d->q_overflow = 1; /* nothing queued is returned any more */
	}
	/* a structure copy, not memset: compilers turn a memset of this size
	 * into `rep stos`, slow to start, once per item */
	*it = pft_flow_item_zero;
	it->kind = (uint16_t)kind;
	it->type = (uint16_t)type;
	it->offset = d->cur.offset;
	it->index = d->insn_index;
	if (d->cs.ns)
		it->flags |= PFT_FLOW_F_NS;
	if (d->cs.hyp)
		it->flags |= PFT_FLOW_F_HYP;
	if (d->cs.cid_valid) {
		it->flags |= PFT_FLOW_F_CID;
		it->context_id = d->cs.cid;
	}
	if (d->cs.vmid_valid) {
		it->flags |= PFT_FLOW_F_VMID;
		it->vmid = d->cs.vmid;
	}
	if (kind == PFT_FLOW_EVENT)
		d->st.events[type < PFT_EV_NR ? type : 0]++;
	return it;
}

/* Start a walk from CurrentState.  ATOM: taken = E.  BRANCH: the implied E
 * atom of a branch packet in d->cur.  WPU: up to d->cur.address. */
void pft_flow_walk_start(struct pft_flow_decoder *d, enum walk_mode mode, int taken,
                         int has_cc, uint32_t cycles);

/* One step: emits at least one item, or finishes the walk (mode becomes
 * WALK_NONE) possibly emitting items too. */
void pft_flow_walk_step(struct pft_flow_decoder *d);

/* Apply a branch packet's target (d->cur) to CurrentState/LastState and
 * report Jazelle entry and NS/Hyp changes (flow_state.c: used by the walk
 * and the exception handler, so it sits below both). */
void pft_flow_take_branch_target(struct pft_flow_decoder *d, int report);

#endif
