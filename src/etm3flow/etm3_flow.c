/* SPDX-License-Identifier: BSD-3-Clause */
/* The ETMv3 instruction flow: P-header atoms walked against the image one
 * decoded block at a time, runs of executed instructions gathered into one
 * range, branch packets giving the targets of indirect branches, I-sync
 * (re)establishing the address, the other packets as events (doc/etm3.md,
 * "Instruction flow").
 *
 * A block is the run of instructions from an address up to and including
 * the first branch (direct, indirect, ENTERX/LEAVEX), at most BMAX long,
 * decoded once and kept in a two-way set-associative cache.  A range grows by one
 * instruction per atom while the atoms are E and the walk stays in its
 * block; it ends at the block's branch (taken for E, not_taken for N), at an
 * N atom on any instruction (not_taken: the condition-fail mark stays the
 * last instruction's end_kind), at the end of a block without a branch, and
 * before any event (more).  Ranges point into the cache; a block replaced
 * while a queued range still points into it is copied out first. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "pft/etm3flow.h"
#include "pft/image.h"
#include "pft/isa.h"

#define QCAP 64 /* a power of two */
#define BMAX 16   /* instructions in a block at most */
#define NSET_BITS 12
#define NSET (1u << NSET_BITS) /* the cache: sets of two blocks, by a hash of the start */
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

struct blk {
	uint32_t start;
	uint32_t epoch;     /* valid when fl->epoch */
	uint8_t isa;
	uint8_t n;          /* instructions; 0: the first cannot be read */
	uint8_t branch;     /* insns[n - 1] is a branch (class below) */
	uint8_t target_isa;
	uint32_t target;    /* direct branch / ENTERX / LEAVEX: next address */
	struct pft_insn insns[BMAX];
};

struct pft_etm3_flow_decoder {
	struct pft_etm3_features f;
	const struct pft_image *img;
	/* The state of the stream, from have_addr up to img_gen (made fresh by
	 * etm3_flow_reset); a field here that carries state from one packet to
	 * the next belongs in etm3_flow_state too (etm3_flow_par.h). */
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
	/* the walk: the next instruction is blk->insns[bi] while blk is set */
	struct blk *blk;
	unsigned bi;
	struct pft_flow_item *open; /* the last queued range, still growing: fl->addr,
	                               fl->index and fl->last_insn are set when it ends */
	unsigned hold;        /* the last queued item is a range (held back) */
	struct pft_flow_item q[QCAP];
	uint32_t qcyc[QCAP][BMAX];         /* insn_cycles of the ranges */
	struct pft_insn qins[QCAP][BMAX];  /* insns of a range whose block was replaced */
	unsigned qh, qn;
	uint64_t img_gen;     /* pft_image_generation() the cache was filled at */
	uint32_t epoch;
	uint8_t victim[NSET];    /* the way of each set to refill next */
	struct blk blocks[NSET][2];
	/* every byte as a P-header (ptab_entry), for the bytes read in place */
	uint32_t ptab[256];
	uint64_t img_now;         /* pft_image_generation() at the call's start */
	/* totals (pft_etm3_flow_decoder_get_stats): packets and bytes given,
	   ranges begun and events queued (the items still queued are taken
	   off when asked) */
	struct pft_flow_stats st;
};

/* A P-header as the flow uses it, in one word: bits [15:0] the atoms (bit i
 * set: atom i is E), [20:16] their number, [24:21] the W marks before the
 * first atom (cycle-accurate), bit 25 one W before each later atom (format
 * 1), bit 26 at least one atom and all of them E, bit 31 a P-header at all
 * (in ptab). */
#define PT_N(e) (((e) >> 16) & 31u)
#define PT_W0(e) (((e) >> 21) & 15u)
#define PT_REST(e) (((e) >> 25) & 1u)
#define PT_ALLE (1u << 26)
#define PT_VALID (1u << 31)

/* Format 1: a W before each atom; 2: one W, then two atoms; 3: W marks,
 * then at most one E; 4: one atom without a W.  The first atom takes the W
 * marks before it (doc/etm3.md, "Instruction flow"). */
static uint32_t ptab_entry(const struct pft_etm3_packet *pkt, int cc)
{
	unsigned n = pkt->atom_count > 16 ? 16 : pkt->atom_count;
	uint32_t atoms = pkt->format == 3 ? 1u : pkt->atoms & 0xFFFFu, w0 = 0, rest = 0;

	if (cc) {
		if (pkt->format == 3)
			w0 = pkt->cycles > 15 ? 15 : pkt->cycles;
		else if (pkt->format != 4 && n)
			w0 = 1;
		rest = pkt->format == 1;
	}
	return PT_VALID | atoms | (uint32_t)n << 16 | w0 << 21 | rest << 25 |
	       (n && (atoms & ((1u << n) - 1u)) == (1u << n) - 1u ? PT_ALLE : 0);
}

struct pft_etm3_flow_decoder *pft_etm3_flow_decoder_alloc(const struct pft_config *cfg, const struct pft_image *img)
{
	struct pft_etm3_flow_decoder *fl;
	struct pft_etm3_features f;
	unsigned i;

	if (pft_etm3_config_features(cfg, &f, NULL, 0))
		return NULL;
	fl = calloc(1, sizeof(*fl));
	if (!fl)
		return NULL;
	fl->f = f;
	fl->img = img;
	fl->isa = PFT_ISA_UNKNOWN;
	fl->epoch = 1;
	fl->img_gen = img ? pft_image_generation(img) : 0;
	for (i = 0; i < 256; i++) {
		struct pft_etm3_packet p;

		if (pft_etm3_phdr_byte(&f, (uint8_t)i, &p, sizeof(p)) == 1)
			fl->ptab[i] = ptab_entry(&p, f.cycle_accurate);
	}
	return fl;
}

void pft_etm3_flow_decoder_free(struct pft_etm3_flow_decoder *fl)
{
	free(fl);
}

/* Range it grows no more: what the walk left for its end (the address
 * after its last instruction is returned; fl->addr is the caller's). */
static ALWAYS_INLINE uint32_t finish(struct pft_etm3_flow_decoder *fl, struct pft_flow_item *it)
{
	const struct pft_insn *last = &it->insns[it->ninsns - 1];
	uint32_t end = (uint32_t)last->addr + last->size;

	fl->open = NULL;
	fl->last_insn = (uint32_t)last->addr;
	fl->have_last = 1;
	fl->index = it->index + it->ninsns;
	it->end = end;
	return end;
}

/* The growing range is complete: it ends here with more to come. */
static void close_open(struct pft_etm3_flow_decoder *fl)
{
	struct pft_flow_item *it = fl->open;

	if (!it)
		return;
	fl->addr = finish(fl, it);
	it->end_kind = PFT_RANGE_MORE;
	it->flags |= PFT_FLOW_F_NEXT;
	it->next = fl->addr;
	it->next_isa = fl->isa;
}

static struct pft_flow_item *push(struct pft_etm3_flow_decoder *fl, unsigned kind, unsigned type,
				  uint64_t off)
{
	struct pft_flow_item *it;

	close_open(fl);
	if (fl->qn >= QCAP)
		return NULL;
	it = &fl->q[(fl->qh + fl->qn) & (QCAP - 1)];
	memset(it, 0, sizeof(*it));
	fl->qn++;
	if (kind == PFT_FLOW_RANGE)
		fl->st.ranges++;
	else if (type < PFT_EV_NR)
		fl->st.events[type]++;
	fl->hold = kind == PFT_FLOW_RANGE;
	it->kind = (uint16_t)kind;
	it->type = (uint16_t)type;
	it->offset = off;
	it->index = fl->index;
	it->flags = fl->ctx_flags | (fl->ns ? PFT_FLOW_F_NS : 0) | (fl->hyp ? PFT_FLOW_F_HYP : 0);
	it->context_id = fl->cid;
	it->vmid = fl->vmid;
	return it;
}

static struct pft_flow_item *event(struct pft_etm3_flow_decoder *fl, unsigned type, uint64_t off)
{
	return push(fl, PFT_FLOW_EVENT, type, off);
}

/* The address moves other than by walking: the walk starts afresh. */
static void set_addr(struct pft_etm3_flow_decoder *fl, uint32_t addr, uint8_t isa)
{
	fl->addr = addr;
	fl->isa = isa;
	fl->have_addr = 1;
	fl->blk = NULL;
}

static void lose_addr(struct pft_etm3_flow_decoder *fl)
{
	fl->have_addr = 0;
	fl->blk = NULL;
}

/* Block slot b is about to be refilled: queued ranges that point into it
 * get their own copy of their instructions. */
static void unpin(struct pft_etm3_flow_decoder *fl, struct blk *b)
{
	unsigned k;

	for (k = 0; k < fl->qn; k++) {
		unsigned s = (fl->qh + k) & (QCAP - 1);
		struct pft_flow_item *it = &fl->q[s];

		if (it->kind == PFT_FLOW_RANGE && it->insns >= b->insns && it->insns < b->insns + BMAX) {
			memcpy(fl->qins[s], it->insns, it->ninsns * sizeof(struct pft_insn));
			it->insns = fl->qins[s];
		}
	}
}

/* The block starting at fl->addr in fl->isa if the cache has it (the walk
 * then starts at its first instruction), else NULL. */
static ALWAYS_INLINE struct blk *cached(struct pft_etm3_flow_decoder *fl)
{
	unsigned set = ((fl->addr >> 1) * 2654435761u) >> (32 - NSET_BITS), w;
	struct blk *b = fl->blocks[set];

	for (w = 0; w < 2; w++)
		if (b[w].start == fl->addr && b[w].epoch == fl->epoch && b[w].isa == fl->isa && b[w].n) {
			fl->victim[set] = (uint8_t)(w ^ 1);
			fl->bi = 0;
			return &b[w];
		}
	return NULL;
}

/* The block starting at fl->addr in fl->isa, decoded on a miss. */
static struct blk *lookup(struct pft_etm3_flow_decoder *fl)
{
	unsigned set = ((fl->addr >> 1) * 2654435761u) >> (32 - NSET_BITS), w;
	struct blk *b = fl->blocks[set];
	uint32_t a = fl->addr;
	uint8_t buf[4];
	unsigned n = 0;

	for (w = 0; w < 2; w++)
		if (b[w].epoch == fl->epoch && b[w].start == a && b[w].isa == fl->isa) {
			fl->victim[set] = (uint8_t)(w ^ 1);
			return &b[w];
		}
	w = fl->victim[set];
	fl->victim[set] = (uint8_t)(w ^ 1);
	b += w;
	unpin(fl, b);
	b->start = a;
	b->isa = fl->isa;
	b->epoch = fl->epoch;
	b->branch = 0;
	while (n < BMAX) {
		struct pft_insn_info info;
		int k = fl->img ? pft_image_read(fl->img, a, buf, 4) : -PFT_E_NOMAP;

		if (k <= 0 || pft_isa_decode((enum pft_isa)fl->isa, a, buf, (size_t)k, 0, &info) < 0)
			break;
		b->insns[n++] = (struct pft_insn){ .addr = a, .opcode = info.opcode, .size = info.size,
			.wp_class = info.wp_class, .flags = info.flags };
		a += info.size;
		if (info.wp_class == PFT_WP_DIRECT || info.wp_class == PFT_WP_ISA_CHANGE ||
		    info.wp_class == PFT_WP_INDIRECT) {
			b->branch = info.wp_class;
			b->target = (uint32_t)info.target;
			b->target_isa = info.target_isa;
			break;
		}
	}
	b->n = (uint8_t)n;
	return b;
}

/* An atom where the walk has no block: no address, Jazelle, or a new
 * block to look up (0: fl->blk is set, go on). */
static int atom_slow(struct pft_etm3_flow_decoder *fl, uint64_t off, int e, uint32_t cycles, int cc)
{
	struct pft_flow_item *it;
	struct blk *b;

	if (!fl->have_addr) {
		it = event(fl, PFT_EV_NO_ADDRESS, off);
		if (it) {
			it->flags |= PFT_FLOW_F_ATOM | (e ? PFT_FLOW_F_TAKEN : 0) | (cc ? PFT_FLOW_F_CC : 0);
			it->cycles = cycles;
		}
		return -1;
	}
	if (fl->isa == PFT_ISA_JAZELLE) {
		it = event(fl, PFT_EV_LOST, off);
		if (it) {
			it->reason = PFT_LOST_JAZELLE;
			it->flags |= PFT_FLOW_F_ATOM | (e ? PFT_FLOW_F_TAKEN : 0);
		}
		lose_addr(fl);
		return -1;
	}
	b = lookup(fl);
	if (!b->n) {
		it = event(fl, PFT_EV_MEM_NACC, off);
		if (it) {
			it->addr = fl->addr;
			it->isa = fl->isa;
			it->flags |= PFT_FLOW_F_ADDR | PFT_FLOW_F_ATOM | (e ? PFT_FLOW_F_TAKEN : 0) |
				     (cc ? PFT_FLOW_F_CC : 0);
			it->cycles = cycles;
		}
		lose_addr(fl);
		return -1;
	}
	fl->blk = b;
	fl->bi = 0;
	return 0;
}

/* A new range at the walk's instruction. */
static ALWAYS_INLINE struct pft_flow_item *start_range(struct pft_etm3_flow_decoder *fl, uint64_t off,
						       int cc)
{
	unsigned slot = (fl->qh + fl->qn) & (QCAP - 1);
	struct pft_flow_item *it = &fl->q[slot];

	/* push() for a range, written out: nothing is open here */
	if (UNLIKELY(fl->qn >= QCAP))
		return NULL;
	fl->qn++;
	fl->hold = 1;
	fl->st.ranges++;
	*it = (struct pft_flow_item){
		.kind = PFT_FLOW_RANGE,
		.flags = fl->ctx_flags | (fl->ns ? PFT_FLOW_F_NS : 0) | (fl->hyp ? PFT_FLOW_F_HYP : 0) |
			 (cc ? PFT_FLOW_F_CC : 0),
		.offset = off,
		.index = fl->index,
		.addr = fl->addr,
		.insns = &fl->blk->insns[fl->bi],
		.context_id = fl->cid,
		.isa = fl->isa,
		.vmid = fl->vmid,
		.insn_cycles = cc ? fl->qcyc[slot] : NULL,
	};
	fl->direct_pending = 0; /* set again when a range ends at a direct branch */
	fl->open = it;
	return it;
}

/* Blocks decoded before the image changed are decoded again: checked when
 * a range starts (a range reads the image as it was then), against the
 * generation read when the call began (the image does not change during a
 * call: image_now()). */
static void check_image(struct pft_etm3_flow_decoder *fl)
{
	uint64_t gen = fl->img_now;

	if (gen != fl->img_gen) {
		fl->img_gen = gen;
		fl->epoch++;
		fl->blk = NULL;
	}
}

/* One atom: E (executed) or N (condition failed), with its cycles (cc:
 * cycle-accurate). */
static ALWAYS_INLINE void atom(struct pft_etm3_flow_decoder *fl, uint64_t off, int e, uint32_t cycles,
			       int cc)
{
	struct pft_flow_item *it;
	struct blk *b;
	uint32_t end;
	unsigned k;

	it = fl->open;
	if (!it) {
		check_image(fl);
		if (!fl->blk && !(fl->have_addr && (fl->blk = cached(fl)) != NULL) &&
		    atom_slow(fl, off, e, cycles, cc))
			return;
		if (UNLIKELY(!(it = start_range(fl, off, cc))))
			return;
	}
	b = fl->blk;
	k = it->ninsns++;
	if (cc) {
		((uint32_t *)it->insn_cycles)[k] = cycles;
		it->cycles += cycles;
	}
	it->offset = off;
	if (++fl->bi == b->n) {
		/* the block's last instruction: a branch, or the block ends */
		fl->blk = NULL;
		end = finish(fl, it);
		if (b->branch && e) {
			it->end_kind = PFT_RANGE_TAKEN;
			if (b->branch == PFT_WP_INDIRECT) {
				/* the branch packet that follows gives the target */
				fl->have_addr = 0;
				return;
			}
			fl->addr = b->target;
			fl->isa = b->target_isa;
			fl->direct_pending = 1;
			it->flags |= PFT_FLOW_F_NEXT;
			it->next = fl->addr;
			it->next_isa = fl->isa;
			return;
		}
		fl->addr = end;
		if (e) {
			it->end_kind = PFT_RANGE_MORE;
			it->flags |= PFT_FLOW_F_NEXT;
			it->next = end;
			it->next_isa = fl->isa;
			return;
		}
	} else if (e) {
		return; /* the range goes on */
	} else {
		fl->addr = end = finish(fl, it);
	}
	/* N: the condition failed; the next instruction follows */
	it->end_kind = PFT_RANGE_NOT_TAKEN;
	it->flags |= PFT_FLOW_F_NEXT;
	it->next = end;
	it->next_isa = fl->isa;
}

/* One P-header (a ptab_entry word) at offset off: its atoms, each with
 * its cycles (cc: cycle-accurate). */
static ALWAYS_INLINE void phdr_word(struct pft_etm3_flow_decoder *fl, uint64_t off, uint32_t e, int cc)
{
	unsigned i, n = PT_N(e);
	uint32_t first, rest;

	if (!cc) {
		for (i = 0; i < n; i++)
			atom(fl, off, (e >> i) & 1, 0, 0);
		return;
	}
	first = fl->wcycles + PT_W0(e);
	if (!n) {
		fl->wcycles = first; /* W marks only: the next atom takes them */
		return;
	}
	rest = PT_REST(e);
	fl->wcycles = 0;
	atom(fl, off, e & 1, first, 1);
	for (i = 1; i < n; i++)
		atom(fl, off, (e >> i) & 1, rest, 1);
}

/* A P-header packet, by its fields (phdr_word() reads the same from a
 * ptab_entry word: the two are compared by fuzz_etm3_flow).  Format 1: a W
 * before each atom; 2: one W, then two atoms; 3: W marks, then at most one
 * E, which takes them all; 4: one atom without a W.  The first atom takes
 * the W marks before it. */
static ALWAYS_INLINE void phdr(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *pkt)
{
	uint32_t atoms = pkt->atoms, first, rest;
	unsigned i, n = pkt->atom_count;

	if (!fl->f.cycle_accurate) {
		for (i = 0; i < n; i++)
			atom(fl, pkt->offset, (atoms >> i) & 1, 0, 0);
		return;
	}
	if (pkt->format == 3) {
		uint32_t w = fl->wcycles + pkt->cycles;

		if (!n) {
			fl->wcycles = w;
			return;
		}
		fl->wcycles = 0;
		atom(fl, pkt->offset, 1, w, 1);
		return;
	}
	if (!n)
		return;
	first = fl->wcycles + (pkt->format != 4);
	rest = pkt->format == 1;
	fl->wcycles = 0;
	atom(fl, pkt->offset, atoms & 1, first, 1);
	for (i = 1; i < n; i++)
		atom(fl, pkt->offset, (atoms >> i) & 1, rest, 1);
}

static void isync(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *pkt)
{
	struct pft_flow_item *it;
	int ns = (pkt->flags & PFT_E3F_NS) != 0, hyp = (pkt->flags & PFT_E3F_HYP) != 0;
	int known = fl->have_addr;

	/* the context may change without an event: the range ends here */
	close_open(fl);
	if (pkt->flags & PFT_E3F_CID) {
		fl->cid = pkt->context_id;
		fl->ctx_flags |= PFT_FLOW_F_CID;
	}
	if (pkt->flags & PFT_E3F_NOADDR)
		return;
	if (pkt->reason == PFT_ISYNC_PERIODIC && fl->have_addr) {
		if (fl->addr != pkt->address || fl->isa != pkt->isa || fl->ns != ns) {
			it = event(fl, PFT_EV_SYNC_MISMATCH, pkt->offset);
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
		it = event(fl, PFT_EV_TRACE_ON, pkt->offset);
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
	if (!(fl->have_addr && fl->blk && fl->addr == pkt->address && fl->isa == pkt->isa))
		set_addr(fl, (uint32_t)pkt->address, pkt->isa);
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
	it = &fl->q[(fl->qh + fl->qn - 1) & (QCAP - 1)];
	return it->kind == PFT_FLOW_RANGE ? it : NULL;
}

/* The held range's last instruction did not complete: it goes (the range
 * with it when it was the only one).  Returns its address. */
static uint32_t cancel_last(struct pft_etm3_flow_decoder *fl, struct pft_flow_item *it)
{
	const struct pft_insn *last = &it->insns[it->ninsns - 1];
	uint32_t addr = (uint32_t)last->addr;

	close_open(fl);
	fl->index--;
	if (it->ninsns == 1) {
		fl->qn--;
		fl->st.ranges--;
		fl->hold = fl->qn && fl->q[(fl->qh + fl->qn - 1) & (QCAP - 1)].kind == PFT_FLOW_RANGE;
		return addr;
	}
	it->ninsns--;
	if (it->insn_cycles)
		it->cycles -= it->insn_cycles[it->ninsns];
	it->end = addr;
	it->end_kind = PFT_RANGE_MORE; /* the instructions before were E, not branches */
	it->flags |= PFT_FLOW_F_NEXT;
	it->next = addr;
	it->next_isa = it->isa;
	return addr;
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
		cancelled = cancel_last(fl, it);
		have_cancelled = 1;
	}
	close_open(fl);

	if (pkt->isa == PFT_ISA_UNKNOWN)
		return; /* before the first I-sync: the address is incomplete */
	if (!(pkt->flags & PFT_E3F_EXC) && fl->have_addr && fl->direct_pending &&
	    (fl->addr != pkt->address || fl->isa != pkt->isa)) {
		it = event(fl, PFT_EV_INCONSISTENT, pkt->offset);
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
			event(fl, PFT_EV_SECURITY, pkt->offset);
		}
	}
	if ((pkt->flags & PFT_E3F_EXC) && (pkt->exception || (pkt->flags & PFT_E3F_EXC_OLD))) {
		it = event(fl, PFT_EV_EXCEPTION, pkt->offset);
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
	set_addr(fl, (uint32_t)pkt->address, pkt->isa);
	fl->direct_pending = 0;
}

static void put(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *pkt)
{
	struct pft_flow_item *it;

	fl->st.bytes = pkt->offset + pkt->size;
	fl->st.packets += pkt->type != PFT_ETM3_UNSYNCED && pkt->type != PFT_ETM3_ERROR;
	switch (pkt->type) {
	case PFT_ETM3_PHDR:
		phdr(fl, pkt);
		break;
	case PFT_ETM3_UNSYNCED:
		it = event(fl, PFT_EV_UNSYNCED, pkt->offset);
		if (it)
			it->value = pkt->size;
		break;
	case PFT_ETM3_ERROR:
		it = event(fl, PFT_EV_PACKET_ERROR, pkt->offset);
		if (it) {
			it->value = pkt->size;
			it->reason = pkt->reason; /* enum pft_etm3_error */
			it->flags |= PFT_FLOW_F_ETM3;
		}
		lose_addr(fl);
		fl->have_last = 0;
		fl->wcycles = 0;
		break;
	case PFT_ETM3_ISYNC:
		isync(fl, pkt);
		break;
	case PFT_ETM3_BRANCH:
		branch(fl, pkt);
		break;
	case PFT_ETM3_TIMESTAMP:
		it = event(fl, PFT_EV_TIMESTAMP, pkt->offset);
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
		it = event(fl, PFT_EV_CONTEXT_ID, pkt->offset);
		if (it)
			it->value = pkt->context_id;
		break;
	case PFT_ETM3_VMID:
		fl->vmid = pkt->vmid;
		fl->ctx_flags |= PFT_FLOW_F_VMID;
		it = event(fl, PFT_EV_VMID, pkt->offset);
		if (it)
			it->value = pkt->vmid;
		break;
	case PFT_ETM3_TRIGGER:
		event(fl, PFT_EV_TRIGGER, pkt->offset);
		break;
	case PFT_ETM3_EXCEPTION_RETURN:
		event(fl, PFT_EV_EXCEPTION_RETURN, pkt->offset);
		break;
	default:
		/* A-sync, ignore, cycle count, exception entry and data packets
		 * do not move the instruction flow */
		break;
	}
}

/* Items wait to be pulled: more than the held range. */
static int ready(const struct pft_etm3_flow_decoder *fl)
{
	return fl->qn > fl->hold;
}

/* At the start of every call that gives packets. */
static void image_now(struct pft_etm3_flow_decoder *fl)
{
	fl->img_now = fl->img ? pft_image_generation(fl->img) : 0;
}

int pft_etm3_flow_decoder_put_packet(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *pkt)
{
	if (!fl || !pkt || fl->ended || ready(fl))
		return -PFT_E_INVAL;
	image_now(fl);
	put(fl, pkt);
	return 0;
}

int pft_etm3_flow_decoder_put_packets(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *pkts,
				      size_t n, size_t size)
{
	size_t i;

	if (!fl || !pkts || !size || fl->ended || ready(fl))
		return -PFT_E_INVAL;
	image_now(fl);
	if (n > INT_MAX)
		n = INT_MAX;
	if (size == sizeof(*pkts)) {
		for (i = 0; i < n;) {
			const struct pft_etm3_packet *pkt = &pkts[i++];

			/* P-headers, most of the stream, without a call */
			if (pkt->type == PFT_ETM3_PHDR) {
				fl->st.packets++;
				phdr(fl, pkt);
			} else {
				put(fl, pkt);
			}
			if (ready(fl))
				break;
		}
		if (i && pkts[i - 1].type == PFT_ETM3_PHDR)
			fl->st.bytes = pkts[i - 1].offset + 1;
		return (int)i;
	}
	for (i = 0; i < n;) {
		/* a packet of another pft/etm3.h: the fields it lacks are 0 */
		struct pft_etm3_packet p;

		memset(&p, 0, sizeof(p));
		pft_copy_in(&p, sizeof(p), (const char *)pkts + i++ * size, size);
		put(fl, &p);
		if (ready(fl))
			break;
	}
	return (int)i;
}

/* put_from() goes on while fewer items than this wait: one packet makes at
 * most 17 (a P-header of 16 N atoms ends 16 ranges and starts one). */
#define FILL (QCAP - 24)

/* Items wait, enough to stop taking packets. */
static ALWAYS_INLINE int full(const struct pft_etm3_flow_decoder *fl)
{
	return fl->qn >= FILL;
}

/* The common P-headers, with the walk in local variables: W marks only,
 * and (while a range is open) atoms all E that stay before the last
 * instruction of the range's block, so that they only make the range
 * longer.  Stops at any other byte, which phdr_word() takes.  The same
 * result as phdr_word() on each byte; returns how many it took. */
static ALWAYS_INLINE size_t phdr_run(struct pft_etm3_flow_decoder *fl, const uint8_t *p, size_t n,
				     uint64_t off, int cc)
{
	const uint32_t *tab = fl->ptab;
	struct pft_flow_item *it = fl->open;
	uint32_t wc = fl->wcycles;
	size_t i = 0;

	if (it) {
		unsigned bi = fl->bi, lim = fl->blk->n - 1u, k = it->ninsns, na, j;
		uint32_t sum = it->cycles, *cyc = (uint32_t *)it->insn_cycles, c;
		size_t last = SIZE_MAX;

		for (; i < n; i++) {
			uint32_t e = tab[p[i]];

			na = PT_N(e);
			if (e & PT_ALLE) {
				if (bi + na > lim)
					break; /* the block's last instruction: phdr_word() */
				if (cc) {
					c = wc + PT_W0(e);
					cyc[k] = c;
					sum += c;
					c = PT_REST(e);
					for (j = 1; j < na; j++)
						cyc[k + j] = c;
					sum += c * (na - 1);
					wc = 0;
				}
				k += na;
				bi += na;
				last = i;
			} else if ((e & PT_VALID) && !na) {
				wc += PT_W0(e);
			} else {
				break;
			}
		}
		it->ninsns = k;
		it->cycles = sum;
		fl->bi = bi;
		if (last != SIZE_MAX)
			it->offset = off + last;
	} else {
		for (; i < n; i++) {
			uint32_t e = tab[p[i]];

			if (!(e & PT_VALID) || PT_N(e))
				break;
			wc += PT_W0(e);
		}
	}
	fl->wcycles = wc;
	return i;
}

/* P-header bytes read in place (pft_etm3_flow_decoder_put_from): from p[0]
 * at stream offset off, up to n of them, until a byte that is not a
 * P-header or the queue is full enough.  Returns how many it took. */
static ALWAYS_INLINE size_t phdr_bytes(struct pft_etm3_flow_decoder *fl, const uint8_t *p, size_t n,
				       uint64_t off, int cc)
{
	const uint32_t *tab = fl->ptab;
	size_t i = 0;

	while (i < n) {
		uint32_t e;

		i += phdr_run(fl, p + i, n - i, off + i, cc);
		if (i == n)
			break;
		e = tab[p[i]];
		if (!(e & PT_VALID))
			break;
		phdr_word(fl, off + i, e, cc);
		i++;
		if (full(fl))
			break;
	}
	return i;
}

int pft_etm3_flow_decoder_put_from(struct pft_etm3_flow_decoder *fl, struct pft_etm3_decoder *dec)
{
	struct pft_etm3_packet pkt;
	const uint8_t *p;
	uint64_t off;
	size_t n, k;
	int r;

	if (!fl || !dec || fl->ended || ready(fl))
		return -PFT_E_INVAL;
	image_now(fl);
	for (;;) {
		n = pft_etm3_decoder_peek(dec, &p, &off);
		if (n) {
			k = fl->f.cycle_accurate ? phdr_bytes(fl, p, n, off, 1) : phdr_bytes(fl, p, n, off, 0);
			if (k) {
				r = pft_etm3_decoder_skip_phdrs(dec, k);
				if (r)
					return r; /* cannot happen: both read the same bytes */
				fl->st.packets += k;
				fl->st.bytes = off + k;
				if (full(fl))
					return 0;
			}
		}
		r = pft_etm3_decoder_next(dec, &pkt, sizeof(pkt));
		if (r)
			return ready(fl) ? 0 : r;
		put(fl, &pkt);
		if (full(fl))
			return 0;
	}
}

int pft_etm3_flow_decoder_get_stats(const struct pft_etm3_flow_decoder *fl, struct pft_flow_stats *st,
				    size_t size)
{
	struct pft_flow_stats t;
	unsigned k;

	if (!fl || !st || !size)
		return -PFT_E_INVAL;
	t = fl->st;
	t.insns = fl->index;
	for (k = 0; k < fl->qn; k++) {
		const struct pft_flow_item *it = &fl->q[(fl->qh + k) & (QCAP - 1)];

		/* not pulled yet (the open range is not in fl->index yet) */
		if (it->kind == PFT_FLOW_RANGE) {
			t.ranges--;
			if (it != fl->open)
				t.insns -= it->ninsns;
		} else if (it->type < PFT_EV_NR) {
			t.events[it->type]--;
		}
	}
	pft_copy_out(st, size, &t, sizeof(t));
	return 0;
}

int pft_etm3_flow_decoder_end(struct pft_etm3_flow_decoder *fl)
{
	if (!fl)
		return -PFT_E_INVAL;
	close_open(fl);
	fl->ended = 1;
	return 0;
}

/* Items wait to be pulled: more than the held range. */
static int ready(const struct pft_etm3_flow_decoder *fl);

static ALWAYS_INLINE int next_item(struct pft_etm3_flow_decoder *fl, struct pft_flow_item *item)
{
	if (UNLIKELY(!fl->qn))
		return fl->ended ? -PFT_E_EOS : -PFT_E_AGAIN;
	/* The last range is held until the next packet: it may grow, and a
	 * branch packet with exception information may say that its last
	 * instruction was cancelled. */
	if (UNLIKELY(fl->qn == fl->hold && !fl->ended)) /* one item, a range */
		return -PFT_E_AGAIN;
	*item = fl->q[fl->qh];
	fl->qh = (fl->qh + 1) & (QCAP - 1);
	fl->qn--;
	return 0;
}

int pft_etm3_flow_decoder_next(struct pft_etm3_flow_decoder *fl, struct pft_flow_item *item, size_t size)
{
	struct pft_flow_item tmp;
	int r;

	if (UNLIKELY(!fl || !item || !size))
		return -PFT_E_INVAL;
	if (__builtin_expect(size == sizeof(*item), 1))
		return next_item(fl, item);
	memset(&tmp, 0, sizeof(tmp));
	r = next_item(fl, &tmp);
	pft_copy_out(item, size, &tmp, sizeof(tmp));
	return r;
}

/* ---- parallel decode (etm3_flow_par.h) ---- */
#include <stddef.h>

#include "etm3flow/etm3_flow_par.h"

int etm3_flow_state(const struct pft_etm3_flow_decoder *fl, struct etm3_flow_state *s)
{
	const struct pft_flow_item *h = NULL;
	unsigned i;

	if (fl->ended || fl->qn > 1 || (fl->qn && !fl->hold))
		return 0;
	if (fl->qn) {
		h = &fl->q[fl->qh];
		if (h->kind != PFT_FLOW_RANGE || h->ninsns > ETM3_FLOW_STATE_INSNS)
			return 0;
	}
	memset(s, 0, sizeof(*s));
	if (h) {
		s->held = 1;
		s->open = fl->open == h;
		s->index_after = (uint32_t)(fl->index - h->index);
		s->h_offset = h->offset;
		s->h_addr = h->addr;
		s->h_end = h->end;
		s->h_next = h->next;
		s->h_value = h->value;
		s->h_flags = h->flags;
		s->h_ninsns = h->ninsns;
		s->h_cycles = h->cycles;
		s->h_context_id = h->context_id;
		s->h_kind = h->kind;
		s->h_type = h->type;
		s->h_isa = h->isa;
		s->h_next_isa = h->next_isa;
		s->h_end_kind = h->end_kind;
		s->h_reason = h->reason;
		s->h_vmid = h->vmid;
		s->h_has_cycles = h->insn_cycles != NULL;
		for (i = 0; i < h->ninsns; i++) {
			s->insns[i] = h->insns[i];
			if (h->insn_cycles)
				s->cycles[i] = h->insn_cycles[i];
		}
	}
	s->addr = fl->addr;
	s->cid = fl->cid;
	s->ctx_flags = fl->ctx_flags;
	s->last_insn = fl->last_insn;
	s->wcycles = fl->wcycles;
	if (fl->blk) {
		s->blk_start = fl->blk->start;
		s->blk_isa = fl->blk->isa;
		s->blk_n = fl->blk->n;
		s->bi = (uint8_t)fl->bi;
	}
	s->have_addr = (uint8_t)fl->have_addr;
	s->isa = fl->isa;
	s->ns = fl->ns;
	s->hyp = fl->hyp;
	s->vmid = fl->vmid;
	s->direct_pending = (uint8_t)fl->direct_pending;
	s->have_last = (uint8_t)fl->have_last;
	return 1;
}

uint64_t etm3_flow_index(const struct pft_etm3_flow_decoder *fl)
{
	if (fl->qn && fl->hold)
		return fl->q[(fl->qh + fl->qn - 1) & (QCAP - 1)].index;
	return fl->index;
}

void etm3_flow_rebase(struct pft_etm3_flow_decoder *fl, uint64_t delta)
{
	unsigned k;

	fl->index += delta;
	for (k = 0; k < fl->qn; k++)
		fl->q[(fl->qh + k) & (QCAP - 1)].index += delta;
}

void etm3_flow_reset(struct pft_etm3_flow_decoder *fl)
{
	/* the per-stream state: everything from have_addr up to the cache */
	memset(&fl->have_addr, 0,
	       offsetof(struct pft_etm3_flow_decoder, img_gen) -
		       offsetof(struct pft_etm3_flow_decoder, have_addr));
	fl->isa = PFT_ISA_UNKNOWN;
}
