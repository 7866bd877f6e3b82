/* SPDX-License-Identifier: BSD-3-Clause */
/* The ETMv3 instruction flow: P-header atoms walked one instruction each
 * against the image, branch packets giving the targets of indirect
 * branches, I-sync (re)establishing the address, the other packets as
 * events (doc/etm3.md, "Instruction flow"). */
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "common/struct_size.h"
#include "pft/etm3flow.h"
#include "pft/image.h"
#include "pft/isa.h"

#define QCAP 48
#define ICACHE 16384 /* decoded instructions, direct-mapped by a hash of the address */

struct icache_entry {
	uint32_t addr;
	uint8_t isa, valid;
	struct pft_insn_info info;
};

struct pft_etm3_flow_decoder {
	struct pft_etm3_features f;
	const struct pft_image *img;
	int have_addr;        /* addr/isa known */
	uint32_t addr;        /* next instruction */
	uint8_t isa;
	uint8_t ns, hyp;
	uint8_t vmid;
	uint32_t cid;
	uint32_t ctx_flags;   /* PFT_FLOW_F_CID / F_VMID once known */
	int direct_pending;   /* the last E atom was a direct branch to addr */
	uint32_t last_insn;   /* address of the last instruction output */
	int have_last;
	uint64_t index;       /* instructions output */
	int ended;            /* pft_etm3_flow_decoder_end() called */
	uint32_t wcycles;     /* W marks not yet given to an instruction */
	struct pft_flow_item q[QCAP];
	struct pft_insn qi[QCAP];
	unsigned qh, qn;
	struct pft_insn cur;  /* insns of the item last returned */
	uint64_t img_gen;     /* pft_image_generation() the cache was filled at */
	struct icache_entry icache[ICACHE];
};

struct pft_etm3_flow_decoder *pft_etm3_flow_decoder_alloc(const struct pft_config *cfg, const struct pft_image *img)
{
	struct pft_etm3_flow_decoder *fl;
	struct pft_etm3_features f;

	if (pft_etm3_config_features(cfg, &f, NULL, 0))
		return NULL;
	fl = calloc(1, sizeof(*fl));
	if (!fl)
		return NULL;
	fl->f = f;
	fl->img = img;
	fl->isa = PFT_ISA_UNKNOWN;
	return fl;
}

void pft_etm3_flow_decoder_free(struct pft_etm3_flow_decoder *fl)
{
	free(fl);
}

static struct pft_flow_item *push(struct pft_etm3_flow_decoder *fl, unsigned kind, unsigned type,
				  const struct pft_etm3_packet *pkt)
{
	struct pft_flow_item *it;

	if (fl->qn >= QCAP)
		return NULL;
	it = &fl->q[(fl->qh + fl->qn) % QCAP];
	memset(it, 0, sizeof(*it));
	fl->qn++;
	it->kind = (uint16_t)kind;
	it->type = (uint16_t)type;
	it->offset = pkt->offset;
	it->index = fl->index;
	it->flags = fl->ctx_flags | (fl->ns ? PFT_FLOW_F_NS : 0) | (fl->hyp ? PFT_FLOW_F_HYP : 0);
	it->context_id = fl->cid;
	it->vmid = fl->vmid;
	return it;
}

static struct pft_flow_item *event(struct pft_etm3_flow_decoder *fl, unsigned type,
				   const struct pft_etm3_packet *pkt)
{
	return push(fl, PFT_FLOW_EVENT, type, pkt);
}

/* The instruction at fl->addr in fl->isa: 0, or -PFT_E_NOMAP when its bytes
 * cannot be read.  Decoded instructions are kept in a small cache, emptied
 * when the image changes. */
static int insn_at(struct pft_etm3_flow_decoder *fl, struct pft_insn_info *info)
{
	struct icache_entry *e = &fl->icache[((fl->addr >> 1) * 2654435761u) >> 18];
	uint64_t gen = fl->img ? pft_image_generation(fl->img) : 0;
	uint8_t buf[4];
	int n, r;

	if (gen != fl->img_gen) {
		memset(fl->icache, 0, sizeof(fl->icache));
		fl->img_gen = gen;
	}
	if (e->valid && e->addr == fl->addr && e->isa == fl->isa) {
		*info = e->info;
		return 0;
	}
	n = fl->img ? pft_image_read(fl->img, fl->addr, buf, 4) : -PFT_E_NOMAP;
	r = n > 0 ? pft_isa_decode((enum pft_isa)fl->isa, fl->addr, buf, (size_t)n, 0, info) :
		    -PFT_E_NOMAP;
	if (r < 0)
		return r;
	e->addr = fl->addr;
	e->isa = fl->isa;
	e->valid = 1;
	e->info = *info;
	return 0;
}

/* One atom: E (taken) or N, with its cycles (cc: valid). */
static void atom(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *pkt, int e,
		 uint32_t cycles, int cc)
{
	struct pft_insn_info info;
	struct pft_flow_item *it;
	int r;

	if (!fl->have_addr) {
		it = event(fl, PFT_EV_NO_ADDRESS, pkt);
		if (it) {
			it->flags |= PFT_FLOW_F_ATOM | (e ? PFT_FLOW_F_TAKEN : 0) | (cc ? PFT_FLOW_F_CC : 0);
			it->cycles = cycles;
		}
		return;
	}
	if (fl->isa == PFT_ISA_JAZELLE) {
		it = event(fl, PFT_EV_LOST, pkt);
		if (it) {
			it->reason = PFT_LOST_JAZELLE;
			it->flags |= PFT_FLOW_F_ATOM | (e ? PFT_FLOW_F_TAKEN : 0);
		}
		fl->have_addr = 0;
		return;
	}
	r = insn_at(fl, &info);
	if (r < 0) {
		it = event(fl, PFT_EV_MEM_NACC, pkt);
		if (it) {
			it->addr = fl->addr;
			it->isa = fl->isa;
			it->flags |= PFT_FLOW_F_ADDR | PFT_FLOW_F_ATOM | (e ? PFT_FLOW_F_TAKEN : 0) |
				     (cc ? PFT_FLOW_F_CC : 0);
			it->cycles = cycles;
		}
		fl->have_addr = 0;
		return;
	}
	it = push(fl, PFT_FLOW_RANGE, 0, pkt);
	if (!it)
		return;
	fl->qi[(unsigned)(it - fl->q)] = (struct pft_insn){ .addr = fl->addr, .opcode = info.opcode,
		.size = info.size, .wp_class = info.wp_class, .flags = info.flags };
	it->addr = fl->addr;
	it->end = fl->addr + info.size;
	it->ninsns = 1;
	it->isa = fl->isa;
	it->cycles = cycles;
	if (cc)
		it->flags |= PFT_FLOW_F_CC;
	fl->last_insn = fl->addr;
	fl->have_last = 1;
	fl->index++;
	fl->direct_pending = 0;
	if (!e) {
		it->end_kind = PFT_RANGE_NOT_TAKEN;
		fl->addr += info.size;
	} else if (info.wp_class == PFT_WP_DIRECT || info.wp_class == PFT_WP_ISA_CHANGE) {
		it->end_kind = PFT_RANGE_TAKEN;
		fl->addr = (uint32_t)info.target;
		fl->isa = info.target_isa;
		fl->direct_pending = 1;
	} else if (info.wp_class == PFT_WP_INDIRECT) {
		it->end_kind = PFT_RANGE_TAKEN;
		fl->have_addr = 0; /* the branch packet that follows gives the target */
		return;
	} else {
		it->end_kind = PFT_RANGE_MORE;
		fl->addr += info.size;
	}
	it->flags |= PFT_FLOW_F_NEXT;
	it->next = fl->addr;
	it->next_isa = fl->isa;
}

static void phdr(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *pkt)
{
	int ca = fl->f.cycle_accurate;
	unsigned i;

	if (!ca) {
		for (i = 0; i < pkt->atom_count; i++)
			atom(fl, pkt, (pkt->atoms >> i) & 1, 0, 0);
		return;
	}
	switch (pkt->format) {
	case 1: /* a W before each atom */
		for (i = 0; i < pkt->atom_count; i++) {
			atom(fl, pkt, (pkt->atoms >> i) & 1, fl->wcycles + 1, 1);
			fl->wcycles = 0;
		}
		break;
	case 2: /* one W, then two atoms */
		atom(fl, pkt, pkt->atoms & 1, fl->wcycles + 1, 1);
		atom(fl, pkt, (pkt->atoms >> 1) & 1, 0, 1);
		fl->wcycles = 0;
		break;
	case 3: /* W marks, then at most one E */
		fl->wcycles += pkt->cycles;
		if (pkt->atom_count) {
			atom(fl, pkt, 1, fl->wcycles, 1);
			fl->wcycles = 0;
		}
		break;
	default: /* 4: one atom without a W */
		atom(fl, pkt, pkt->atoms & 1, fl->wcycles, 1);
		fl->wcycles = 0;
		break;
	}
}

static void isync(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *pkt)
{
	struct pft_flow_item *it;
	int ns = (pkt->flags & PFT_E3F_NS) != 0, hyp = (pkt->flags & PFT_E3F_HYP) != 0;
	int known = fl->have_addr;

	if (pkt->flags & PFT_E3F_CID) {
		fl->cid = pkt->context_id;
		fl->ctx_flags |= PFT_FLOW_F_CID;
	}
	if (pkt->flags & PFT_E3F_NOADDR)
		return;
	if (pkt->reason == PFT_ISYNC_PERIODIC && fl->have_addr) {
		if (fl->addr != pkt->address || fl->isa != pkt->isa || fl->ns != ns) {
			it = event(fl, PFT_EV_SYNC_MISMATCH, pkt);
			if (it) {
				it->addr = pkt->address;
				it->isa = pkt->isa;
				it->next = fl->addr;
				it->next_isa = fl->isa;
				it->reason = pkt->reason;
				it->flags |= PFT_FLOW_F_ADDR | PFT_FLOW_F_NEXT;
			}
		}
	} else {
		fl->ns = (uint8_t)ns;
		fl->hyp = (uint8_t)hyp;
		it = event(fl, PFT_EV_TRACE_ON, pkt);
		if (it) {
			it->addr = pkt->address;
			it->isa = pkt->isa;
			it->reason = pkt->reason;
			it->flags |= PFT_FLOW_F_ADDR;
			if (pkt->flags & PFT_E3F_CC) {
				/* with the W marks no atom took before trace went
				 * off (as DS-5 counts them) */
				it->flags |= PFT_FLOW_F_CC;
				it->cycles = pkt->cycles + (known ? fl->wcycles : 0);
			}
		}
	}
	fl->ns = (uint8_t)ns;
	fl->hyp = (uint8_t)hyp;
	fl->addr = (uint32_t)pkt->address;
	fl->isa = pkt->isa;
	fl->have_addr = 1;
	fl->direct_pending = 0;
	/* W marks go on across a periodic I-sync (DS-5 counts them); those
	 * before trace on, or while the address was unknown, are dropped */
	if (pkt->reason != PFT_ISYNC_PERIODIC || !known)
		fl->wcycles = 0;
}

/* The last queued item is a range held back (see pft_etm3_flow_decoder_next). */
static struct pft_flow_item *held(struct pft_etm3_flow_decoder *fl)
{
	struct pft_flow_item *it;

	if (!fl->qn)
		return NULL;
	it = &fl->q[(fl->qh + fl->qn - 1) % QCAP];
	return it->kind == PFT_FLOW_RANGE ? it : NULL;
}

static void branch(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *pkt)
{
	struct pft_flow_item *it;
	uint32_t cancelled = 0;
	int have_cancelled = 0;

	if ((pkt->flags & (PFT_E3F_EXC | PFT_E3F_CANCEL)) == (PFT_E3F_EXC | PFT_E3F_CANCEL) &&
	    (it = held(fl)) != NULL) {
		/* the last instruction traced did not complete: it is not output
		 * (it is the exception's return address) */
		cancelled = (uint32_t)it->addr;
		have_cancelled = 1;
		fl->qn--;
		fl->index--;
	}

	if (pkt->isa == PFT_ISA_UNKNOWN)
		return; /* before the first I-sync: the address is incomplete */
	if (!(pkt->flags & PFT_E3F_EXC) && fl->have_addr && fl->direct_pending &&
	    (fl->addr != pkt->address || fl->isa != pkt->isa)) {
		it = event(fl, PFT_EV_INCONSISTENT, pkt);
		if (it) {
			it->reason = PFT_INCONS_BRANCH_TARGET;
			it->addr = pkt->address;
			it->isa = pkt->isa;
			it->next = fl->addr;
			it->next_isa = fl->isa;
			it->flags |= PFT_FLOW_F_ADDR | PFT_FLOW_F_NEXT;
		}
	}
	if ((pkt->flags & PFT_E3F_EXC) && !(pkt->flags & PFT_E3F_EXC_OLD)) {
		int ns = (pkt->flags & PFT_E3F_NS) != 0;
		int hyp = (pkt->flags & PFT_E3F_E1) ? (pkt->flags & PFT_E3F_HYP) != 0 : fl->hyp;
		if (ns != fl->ns || hyp != fl->hyp) {
			fl->ns = (uint8_t)ns;
			fl->hyp = (uint8_t)hyp;
			event(fl, PFT_EV_SECURITY, pkt);
		}
	}
	if ((pkt->flags & PFT_E3F_EXC) && (pkt->exception || (pkt->flags & PFT_E3F_EXC_OLD))) {
		it = event(fl, PFT_EV_EXCEPTION, pkt);
		if (it) {
			it->value = pkt->exception;
			it->addr = pkt->address;
			it->isa = pkt->isa;
			it->flags |= PFT_FLOW_F_ADDR;
			if (have_cancelled) {
				it->next = cancelled;
				it->flags |= PFT_FLOW_F_NEXT;
			} else if (fl->have_addr) {
				it->next = fl->addr;
				it->flags |= PFT_FLOW_F_NEXT;
			}
		}
	}
	fl->addr = (uint32_t)pkt->address;
	fl->isa = pkt->isa;
	fl->have_addr = 1;
	fl->direct_pending = 0;
}

int pft_etm3_flow_decoder_put_packet(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *pkt)
{
	struct pft_flow_item *it;

	if (!fl || !pkt || fl->ended || (fl->qn && !(fl->qn == 1 && held(fl))))
		return -PFT_E_INVAL;
	switch (pkt->type) {
	case PFT_ETM3_UNSYNCED:
		it = event(fl, PFT_EV_UNSYNCED, pkt);
		if (it)
			it->value = pkt->size;
		break;
	case PFT_ETM3_ERROR:
		it = event(fl, PFT_EV_PACKET_ERROR, pkt);
		if (it) {
			it->value = pkt->size;
			it->reason = pkt->reason; /* enum pft_etm3_error */
			it->flags |= PFT_FLOW_F_ETM3;
		}
		fl->have_addr = 0;
		fl->have_last = 0;
		fl->wcycles = 0;
		break;
	case PFT_ETM3_ISYNC:
		isync(fl, pkt);
		break;
	case PFT_ETM3_PHDR:
		phdr(fl, pkt);
		break;
	case PFT_ETM3_BRANCH:
		branch(fl, pkt);
		break;
	case PFT_ETM3_TIMESTAMP:
		it = event(fl, PFT_EV_TIMESTAMP, pkt);
		if (it) {
			it->value = pkt->timestamp;
			if (fl->have_last) {
				it->addr = fl->last_insn;
				it->flags |= PFT_FLOW_F_ADDR;
			}
			if (pkt->flags & PFT_E3F_TS_R)
				it->flags |= PFT_FLOW_F_TS_R;
		}
		break;
	case PFT_ETM3_CONTEXT_ID:
		fl->cid = pkt->context_id;
		fl->ctx_flags |= PFT_FLOW_F_CID;
		it = event(fl, PFT_EV_CONTEXT_ID, pkt);
		if (it)
			it->value = pkt->context_id;
		break;
	case PFT_ETM3_VMID:
		fl->vmid = pkt->vmid;
		fl->ctx_flags |= PFT_FLOW_F_VMID;
		it = event(fl, PFT_EV_VMID, pkt);
		if (it)
			it->value = pkt->vmid;
		break;
	case PFT_ETM3_TRIGGER:
		event(fl, PFT_EV_TRIGGER, pkt);
		break;
	case PFT_ETM3_EXCEPTION_RETURN:
		event(fl, PFT_EV_EXCEPTION_RETURN, pkt);
		break;
	default:
		/* A-sync, ignore, cycle count, exception entry and data packets
		 * do not move the instruction flow */
		break;
	}
	return 0;
}

int pft_etm3_flow_decoder_end(struct pft_etm3_flow_decoder *fl)
{
	if (!fl)
		return -PFT_E_INVAL;
	fl->ended = 1;
	return 0;
}

static int next_item(struct pft_etm3_flow_decoder *fl, struct pft_flow_item *item);

int pft_etm3_flow_decoder_next(struct pft_etm3_flow_decoder *fl, struct pft_flow_item *item, size_t size)
{
	struct pft_flow_item tmp;
	int r;

	if (!fl || !item || !size)
		return -PFT_E_INVAL;
	if (size == sizeof(*item))
		return next_item(fl, item);
	memset(&tmp, 0, sizeof(tmp));
	r = next_item(fl, &tmp);
	pft_copy_out(item, size, &tmp, sizeof(tmp));
	return r;
}

static int next_item(struct pft_etm3_flow_decoder *fl, struct pft_flow_item *item)
{
	unsigned i;

	if (!fl->qn)
		return fl->ended ? -PFT_E_EOS : -PFT_E_AGAIN;
	/* The last range of a packet is held until the next packet: a branch
	 * packet with exception information may say it was cancelled. */
	if (fl->qn == 1 && !fl->ended && fl->q[fl->qh].kind == PFT_FLOW_RANGE)
		return -PFT_E_AGAIN;
	i = fl->qh;
	*item = fl->q[i];
	if (item->kind == PFT_FLOW_RANGE) {
		fl->cur = fl->qi[i];
		item->insns = &fl->cur;
	}
	fl->qh = (fl->qh + 1) % QCAP;
	fl->qn--;
	return 0;
}
