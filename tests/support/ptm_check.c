/* SPDX-License-Identifier: BSD-3-Clause */
/* The reference PFT decompressor of the software PTM tests (see ptm_check.h). */
#include "ptm_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void chk_fail(struct chk *c, const struct pft_packet *k, const char *what)
{
	if (!c->errors)
		snprintf(c->msg, sizeof(c->msg), "offset %llu (%s): %s",
			 (unsigned long long)(k ? k->offset : 0),
			 k ? pft_pkt_type_name((enum pft_pkt_type)k->type) : "-", what);
	c->errors++;
}

static void chk_emit(struct chk *c, uint64_t addr, unsigned exc)
{
	if (c->nout == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4096;
		c->out = realloc(c->out, c->cap * sizeof(*c->out));
	}
	struct chk_out *o = &c->out[c->nout++];
	o->addr = addr;
	o->seg = c->segs;
	o->exc = (uint8_t)exc;
	o->isa = c->isa;
	o->ns = c->ns;
	o->hyp = c->hyp;
	o->cid = c->cid;
	o->vmid = c->vmid;
}

static const struct prog_insn *chk_insn(const struct chk *c, uint64_t a)
{
	for (int i = 0; i < 2; i++) {
		const struct prog_region *r = &c->g->r[i];
		if (a >= r->base && a < r->base + PROG_REGION && r->state[(a - r->base) / 2] == 1 &&
		    r->isa == c->isa)
			return &r->insn[(a - r->base) / 2];
	}
	return NULL;
}

static int chk_is_wp(const struct chk *c, const struct prog_insn *in)
{
	return in->wp_class != PFT_WP_NONE && (in->wp_class != PFT_WP_BARRIER || c->f.dmb_waypoint);
}

/* The decoded cycle counter must equal the cycle of the item just decoded
 * (the expected item at the same position). */
static void chk_cycles(struct chk *c, const struct pft_packet *k)
{
	if (!c->check_cc || !c->nout || c->nout > c->nexp)
		return;
	const struct prog_ev *e = c->exp[c->nout - 1];
	if (e->cycle != c->cum) {
		char m[128];
		snprintf(m, sizeof(m), "cycle count: decoded cycle %llu, executed at %llu",
			 (unsigned long long)c->cum, (unsigned long long)e->cycle);
		chk_fail(c, k, m);
	}
}

/* A branch packet's target becomes the current address, its instruction
 * set and, where the packet holds them (E0, E1), its security and Hyp
 * state. */
static void chk_branch_state(struct chk *c, const struct pft_packet *k)
{
	c->addr = k->address;
	c->isa = k->isa;
	if (k->flags & PFT_PKT_F_E0)
		c->ns = (k->flags & PFT_PKT_F_NS) != 0;
	if (k->flags & PFT_PKT_F_E1)
		c->hyp = (k->flags & PFT_PKT_F_HYP) != 0;
}

/* Decode from the current address to the next waypoint (an atom, or the
 * implied E atom of a branch packet when branch != 0). */
static const struct prog_insn *chk_to_wp(struct chk *c, const struct pft_packet *k, int e,
					 int branch)
{
	for (unsigned guard = 0; guard < 200000; guard++) {
		const struct prog_insn *in = chk_insn(c, c->addr);
		if (!in) {
			chk_fail(c, k, "decoding ran into memory with no instruction");
			return NULL;
		}
		chk_emit(c, c->addr, 0);
		if (!chk_is_wp(c, in)) {
			c->addr += in->size;
			continue;
		}
		uint64_t ret = c->addr + in->size;
		uint8_t risa = c->isa;
		if (branch) {
			/* the caller sets the target */
		} else if (!e) {
			c->addr += in->size;
		} else if (in->kind == PK_DIRECT) {
			c->addr = in->target;
			c->isa = in->target_isa;
		} else if (in->wp_class == PFT_WP_INDIRECT) {
			if (!c->f.return_stack || !c->nrs) {
				chk_fail(c, k, "E atom on an indirect branch without a return stack entry");
				return NULL;
			}
			c->nrs--;
			c->addr = c->rs[c->nrs].a;
			c->isa = c->rs[c->nrs].isa;
		} else {
			c->addr += in->size;
		}
		if ((e || branch) && in->link && c->f.return_stack) {
			if (c->nrs == 64) {
				memmove(c->rs, c->rs + 1, 63 * sizeof(c->rs[0]));
				c->nrs--;
			}
			c->rs[c->nrs].a = ret;
			c->rs[c->nrs].isa = risa;
			c->nrs++;
		}
		return in;
	}
	chk_fail(c, k, "no waypoint within 200000 instructions");
	return NULL;
}

int chk_packet(const struct pft_packet *k, void *arg)
{
	struct chk *c = arg;
	switch (k->type) {
	case PFT_PKT_ASYNC:
	case PFT_PKT_IGNORE:
		break;
	case PFT_PKT_TRIGGER:
		c->triggers++;
		break;
	case PFT_PKT_ISYNC:
		c->isyncs++;
		if (k->reason != PFT_ISYNC_PERIODIC)
			c->segs++;
		if (k->reason == PFT_ISYNC_PERIODIC) {
			c->periodic++;
			if (c->synced && (k->address != c->addr || k->isa != c->isa))
				chk_fail(c, k, "periodic I-sync disagrees with the decoded address");
		}
		c->addr = k->address;
		c->isa = k->isa;
		c->ns = (k->flags & PFT_PKT_F_NS) != 0;
		c->hyp = (k->flags & PFT_PKT_F_HYP) != 0;
		if (k->flags & PFT_PKT_F_CID)
			c->cid = k->context_id;
		if (k->flags & PFT_PKT_F_CC)
			c->cum += k->cycles;
		c->nrs = 0;
		c->synced = 1;
		break;
	case PFT_PKT_ATOM:
		if (!c->synced) {
			chk_fail(c, k, "atom before I-sync");
			break;
		}
		for (unsigned i = 0; i < k->atom_count && !c->errors; i++) {
			c->atoms++;
			if (!chk_to_wp(c, k, (k->atoms >> i) & 1, 0))
				break;
		}
		if (k->flags & PFT_PKT_F_CC) {
			c->cum += k->cycles;
			chk_cycles(c, k);
		}
		break;
	case PFT_PKT_BRANCH:
		if (!c->synced) {
			chk_fail(c, k, "branch before I-sync");
			break;
		}
		if (k->exception) {
			c->excs++;
			chk_branch_state(c, k);
			chk_emit(c, k->address, k->exception);
		} else {
			c->branches++;
			if (!chk_to_wp(c, k, 1, 1))
				break;
			chk_branch_state(c, k);
		}
		if (k->flags & PFT_PKT_F_CC) {
			c->cum += k->cycles;
			chk_cycles(c, k);
		}
		break;
	case PFT_PKT_WAYPOINT_UPDATE:
		c->wpus++;
		if (!c->synced) {
			chk_fail(c, k, "WPU before I-sync");
			break;
		}
		for (unsigned guard = 0; c->addr <= k->address; guard++) {
			const struct prog_insn *in = chk_insn(c, c->addr);
			if (!in || guard > 200000) {
				chk_fail(c, k, "WPU decoding ran into memory with no instruction");
				break;
			}
			if (chk_is_wp(c, in)) {
				chk_fail(c, k, "WPU range holds a waypoint");
				break;
			}
			chk_emit(c, c->addr, 0);
			c->addr += in->size;
		}
		break;
	case PFT_PKT_CONTEXT_ID:
		c->cids++;
		c->cid = k->context_id;
		break;
	case PFT_PKT_VMID:
		c->vmids++;
		c->vmid = k->vmid;
		break;
	case PFT_PKT_TIMESTAMP:
		c->ts++;
		if (k->flags & PFT_PKT_F_CC)
			c->cum += k->cycles;
		/* v1.1: the time of the last traced waypoint; v1.0: the time the
		 * packet was generated, so no earlier than that (4.14) */
		if (!c->no_ts && c->nout && c->nout <= c->nexp &&
		    (c->f.minor >= 1 ? c->exp[c->nout - 1]->ts != k->timestamp
				     : c->exp[c->nout - 1]->ts > k->timestamp)) {
			char m[128];
			snprintf(m, sizeof(m), "timestamp 0x%llx, expected 0x%llx (last traced item)",
				 (unsigned long long)k->timestamp,
				 (unsigned long long)c->exp[c->nout - 1]->ts);
			chk_fail(c, k, m);
		}
		break;
	case PFT_PKT_EXCEPTION_RETURN:
		c->erets++;
		break;
	default:
		chk_fail(c, k, "error or unsynced bytes in the PTM's output");
		break;
	}
	return c->errors ? 1 : 0;
}
