/* SPDX-License-Identifier: BSD-3-Clause */
/* The ETMv3 trace generator: retired instructions and exceptions in,
 * ETMv3 packets out through the layer's encoder (doc/etm3.md, "Generator").
 *
 * Atoms wait in a queue of at most 16 and become P-headers when something
 * else must be written (a branch address, an I-sync, a context ID, an
 * exception), or when the queue is full.  The branch address of an executed
 * indirect branch waits for the next event: the next instruction writes it;
 * an exception writes only its own branch packet, whose address is the
 * vector.  A-sync and I-sync are written before an instruction once
 * ETMSYNCFR bytes were written since the last ones.  A data transfer of
 * the last instruction closes the P-header holding its atom and writes a
 * normal data packet (pft_etm3_gen_data). */
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "pft/etm3.h"
#include "pft/etm3gen.h"
#include "pft/packet.h"

#define QMAX 16
#define OUT_MIN 4096

struct atom {
	uint8_t e;
	uint32_t w;
};

struct pft_etm3_gen {
	struct pft_etm3_features f;
	struct pft_etm3_encoder *enc;
	uint32_t syncfr;
	uint8_t *buf;            /* written bytes buf[rd..len) */
	size_t rd, len, cap;
	struct atom q[QMAX];
	unsigned nq;
	int on;                  /* trace on: the address is known to the decoder */
	int started;             /* the first A-sync was written */
	uint64_t since_sync;     /* bytes since the last A-sync */
	int br_pending;          /* a branch address waits for the next event */
	uint64_t br_addr;
	uint8_t br_isa;
	uint32_t cid;
	uint32_t carry_w;        /* cycles to add to the next atom (exceptions) */
	uint32_t off_w;          /* cycles while trace was off */
	uint64_t ts;             /* last timestamp value given */
	int full_ts;             /* the next timestamp packet carries every byte */
	int last_e;              /* the last thing given was an executed instruction */
	int data_insn;           /* ... and it has had a data transfer */
	int full_daddr;          /* the next data address carries every byte */
	uint64_t dnext;          /* the address after the last data transfer */
	struct pft_etm3_gen_stats st;
};

struct pft_etm3_gen *pft_etm3_gen_alloc(const struct pft_config *cfg)
{
	struct pft_etm3_gen *g;
	struct pft_etm3_features f;

	if (!cfg || pft_etm3_config_features(cfg, &f, NULL, 0) || f.data_only)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->f = f;
	g->enc = pft_etm3_encoder_alloc(cfg);
	if (!g->enc) {
		free(g);
		return NULL;
	}
	g->syncfr = cfg->etmsyncfr & 0xfffu;
	return g;
}

void pft_etm3_gen_free(struct pft_etm3_gen *g)
{
	if (!g)
		return;
	pft_etm3_encoder_free(g->enc);
	free(g->buf);
	free(g);
}

static int put(struct pft_etm3_gen *g, const struct pft_etm3_packet *pkt)
{
	int n;

	if (g->cap - g->len < 64) {
		size_t live = g->len - g->rd;
		if (g->rd && g->rd >= live) {
			memmove(g->buf, g->buf + g->rd, live);
			g->len = live;
			g->rd = 0;
		}
		if (g->cap - g->len < 64) {
			size_t ncap = g->cap ? g->cap * 2 : OUT_MIN;
			uint8_t *nb = realloc(g->buf, ncap);
			if (!nb)
				return -PFT_E_NOMEM;
			g->buf = nb;
			g->cap = ncap;
		}
	}
	n = pft_etm3_encoder_encode(g->enc, pkt, g->buf + g->len, g->cap - g->len);
	if (n < 0)
		return n;
	g->len += (size_t)n;
	g->since_sync += (uint64_t)n;
	g->st.bytes += (uint64_t)n;
	g->st.packets++;
	return 0;
}

static void pkt_init(struct pft_etm3_packet *p, unsigned type)
{
	memset(p, 0, sizeof(*p));
	p->type = (uint16_t)type;
}

/* One P-header of the given format over atoms q[i..i+cnt). */
static int put_phdr(struct pft_etm3_gen *g, unsigned format, unsigned i, unsigned cnt,
		    uint32_t cycles)
{
	struct pft_etm3_packet p;
	unsigned k;

	pkt_init(&p, PFT_ETM3_PHDR);
	p.format = (uint8_t)format;
	p.atom_count = (uint8_t)cnt;
	p.cycles = cycles;
	for (k = 0; k < cnt; k++)
		p.atoms |= (uint32_t)g->q[i + k].e << k;
	g->st.atoms += cnt;
	return put(g, &p);
}

/* Cycle-accurate: W-only P-headers (format 3 without an atom) for w marks. */
static int put_w(struct pft_etm3_gen *g, uint32_t w)
{
	struct pft_etm3_packet p;
	int rc;

	while (w) {
		uint32_t n = w > 8 ? 8 : w;
		pkt_init(&p, PFT_ETM3_PHDR);
		p.format = 3;
		p.cycles = n;
		if ((rc = put(g, &p)) < 0)
			return rc;
		w -= n;
	}
	return 0;
}

static int flush_ca(struct pft_etm3_gen *g)
{
	unsigned i = 0, n = g->nq;
	int rc = 0;

	while (i < n && rc == 0) {
		const struct atom *a = &g->q[i];

		if (a->w == 0) {
			rc = put_phdr(g, 4, i++, 1, 0);
		} else if (a->w == 1 && i + 1 < n && g->q[i + 1].w == 0) {
			rc = put_phdr(g, 2, i, 2, 1);
			i += 2;
		} else if (a->w == 1) {
			unsigned k = 0;
			while (i + k < n && k < 7 && g->q[i + k].e && g->q[i + k].w == 1)
				k++;
			if (i + k < n && !g->q[i + k].e && g->q[i + k].w == 1)
				k++;
			rc = put_phdr(g, 1, i, k, k);
			i += k;
		} else if (a->e) {
			rc = put_w(g, a->w > 8 ? a->w - 8 : 0);
			if (rc == 0)
				rc = put_phdr(g, 3, i, 1, a->w > 8 ? 8 : a->w);
			i++;
		} else {
			rc = put_w(g, a->w - 1);
			if (rc == 0)
				rc = put_phdr(g, 1, i, 1, 1);
			i++;
		}
	}
	return rc;
}

static int flush_nca(struct pft_etm3_gen *g)
{
	unsigned i = 0, n = g->nq;
	int rc = 0;

	while (i < n && rc == 0) {
		unsigned k = 0;

		if (!g->q[i].e && i + 1 < n) {
			rc = put_phdr(g, 2, i, 2, 0);
			i += 2;
			continue;
		}
		while (i + k < n && k < 15 && g->q[i + k].e)
			k++;
		if (i + k < n && !g->q[i + k].e)
			k++;
		rc = put_phdr(g, 1, i, k, 0);
		i += k;
	}
	return rc;
}

/* The queued atoms as P-headers. */
static int flush_atoms(struct pft_etm3_gen *g)
{
	int rc;

	if (!g->nq)
		return 0;
	rc = g->f.cycle_accurate ? flush_ca(g) : flush_nca(g);
	g->nq = 0;
	return rc;
}

static int push_atom(struct pft_etm3_gen *g, int e, uint32_t w)
{
	if (g->nq == QMAX) {
		int rc = flush_atoms(g);
		if (rc < 0)
			return rc;
	}
	g->q[g->nq].e = (uint8_t)(e != 0);
	g->q[g->nq].w = w;
	g->nq++;
	return 0;
}

static int put_branch(struct pft_etm3_gen *g, uint64_t addr, unsigned isa,
		      const struct pft_etm3_gen_exception *x)
{
	struct pft_etm3_packet p;

	pkt_init(&p, PFT_ETM3_BRANCH);
	p.address = addr;
	p.isa = (uint8_t)isa;
	if (x) {
		p.flags = PFT_E3F_EXC | ((x->flags & PFT_ETM3_GEN_E_CANCEL) ? PFT_E3F_CANCEL : 0) |
			  ((x->flags & PFT_ETM3_GEN_E_NS) ? PFT_E3F_NS : 0);
		p.exception = x->number;
		p.exc_bytes = x->number > 15 ? 2 : 1;
		g->st.exceptions++;
		g->st.cancels += (x->flags & PFT_ETM3_GEN_E_CANCEL) != 0;
	}
	g->st.branches++;
	return put(g, &p);
}

static int flush_branch(struct pft_etm3_gen *g)
{
	if (!g->br_pending)
		return 0;
	g->br_pending = 0;
	return put_branch(g, g->br_addr, g->br_isa, NULL);
}

static int put_timestamp(struct pft_etm3_gen *g)
{
	struct pft_etm3_packet p;

	if (!g->f.timestamps)
		return 0;
	pkt_init(&p, PFT_ETM3_TIMESTAMP);
	p.timestamp = g->f.ts_bits == 48 ? g->ts & ((1ull << 48) - 1) : g->ts;
	if (g->full_ts)
		p.ts_bytes = g->f.ts_bits == 64 ? 9 : 7;
	g->full_ts = 0;
	g->st.timestamps++;
	return put(g, &p);
}

/* I-sync for the instruction at addr (reason: enum pft_isync_reason). */
static int put_isync(struct pft_etm3_gen *g, uint64_t addr, unsigned isa, unsigned reason)
{
	struct pft_etm3_packet p;

	pkt_init(&p, PFT_ETM3_ISYNC);
	p.address = addr;
	p.isa = (uint8_t)isa;
	p.reason = (uint8_t)reason;
	if (g->f.contextid_bytes) {
		p.flags |= PFT_E3F_CID;
		p.context_id = g->cid;
	}
	if (g->f.cycle_accurate && reason != PFT_ISYNC_PERIODIC) {
		p.flags |= PFT_E3F_CC;
		p.cycles = g->off_w;
		p.cc_bytes = 1;
	}
	g->off_w = 0;
	g->st.isyncs++;
	return put(g, &p);
}

static int put_async(struct pft_etm3_gen *g)
{
	struct pft_etm3_packet p;
	int rc;

	pkt_init(&p, PFT_ETM3_ASYNC);
	p.size = 6;
	rc = put(g, &p);
	g->since_sync = 0;
	g->started = 1;
	g->full_ts = 1;
	g->full_daddr = 1;
	return rc;
}

static uint32_t mask_cid(const struct pft_etm3_gen *g, uint32_t cid)
{
	unsigned b = g->f.contextid_bytes;

	return b >= 4 ? cid : cid & ((1u << (8 * b)) - 1u);
}

/* Before the atom of an instruction at addr: the pending branch address,
 * a context ID change, trace on or a periodic sync. */
static int before_insn(struct pft_etm3_gen *g, uint64_t addr, unsigned isa, uint32_t cid)
{
	int rc = flush_branch(g);

	if (rc < 0)
		return rc;
	cid = mask_cid(g, cid);
	if (g->on && g->f.contextid_bytes && cid != g->cid) {
		struct pft_etm3_packet p;

		if ((rc = flush_atoms(g)) < 0)
			return rc;
		pkt_init(&p, PFT_ETM3_CONTEXT_ID);
		p.context_id = cid;
		if ((rc = put(g, &p)) < 0)
			return rc;
		g->st.context_ids++;
	}
	g->cid = cid;
	if (!g->on || !g->started || (g->syncfr && g->since_sync >= g->syncfr)) {
		unsigned reason = g->on && g->started ? PFT_ISYNC_PERIODIC : PFT_ISYNC_TRACE_ON;

		if ((rc = flush_atoms(g)) < 0)
			return rc;
		if (!g->started || reason == PFT_ISYNC_PERIODIC)
			rc = put_async(g);
		if (rc == 0)
			rc = put_isync(g, addr, isa, reason);
		if (rc == 0)
			rc = put_timestamp(g);
		if (rc < 0)
			return rc;
		g->on = 1;
	}
	return 0;
}

static int check_addr(uint64_t addr, unsigned isa)
{
	if (addr >> 32)
		return -PFT_E_INVAL;
	if (isa == PFT_ISA_ARM)
		return (addr & 3) ? -PFT_E_INVAL : 0;
	if (isa == PFT_ISA_THUMB || isa == PFT_ISA_THUMBEE)
		return (addr & 1) ? -PFT_E_INVAL : 0;
	return isa == PFT_ISA_JAZELLE ? 0 : -PFT_E_INVAL;
}

int pft_etm3_gen_insn(struct pft_etm3_gen *g, const struct pft_etm3_gen_insn *in)
{
	int e, rc;
	uint32_t w;

	if (!g || !in || check_addr(in->addr, in->isa) ||
	    ((in->flags & (PFT_ETM3_GEN_I_INDIRECT | PFT_ETM3_GEN_I_DIRECT)) &&
	     check_addr(in->next_addr, in->next_isa)))
		return -PFT_E_INVAL;
	g->ts = in->timestamp;
	rc = before_insn(g, in->addr, in->isa, in->context_id);
	if (rc < 0)
		return rc;
	e = !(in->flags & PFT_ETM3_GEN_I_FAILED);
	g->last_e = e;
	g->data_insn = 0;
	w = in->cycles + g->carry_w;
	g->carry_w = 0;
	if ((rc = push_atom(g, e, w)) < 0)
		return rc;
	g->st.insns++;
	if (e && (in->flags & PFT_ETM3_GEN_I_EXC_RETURN)) {
		struct pft_etm3_packet p;

		if ((rc = flush_atoms(g)) < 0)
			return rc;
		pkt_init(&p, PFT_ETM3_EXCEPTION_RETURN);
		if ((rc = put(g, &p)) < 0 || (rc = put_timestamp(g)) < 0)
			return rc;
		g->st.exc_returns++;
	}
	/* a direct branch that changes the instruction set (BLX immediate) has
	 * its address output too: OpenCSD keeps the old ISA until it sees one */
	if (e && ((in->flags & PFT_ETM3_GEN_I_INDIRECT) ||
		  ((in->flags & PFT_ETM3_GEN_I_DIRECT) &&
		   (g->f.branch_broadcast || in->next_isa != in->isa)))) {
		if ((rc = flush_atoms(g)) < 0)
			return rc;
		g->br_pending = 1;
		g->br_addr = in->next_addr;
		g->br_isa = in->next_isa;
	}
	return 0;
}

int pft_etm3_gen_exception(struct pft_etm3_gen *g, const struct pft_etm3_gen_exception *x)
{
	int rc;

	if (!g || !x || check_addr(x->vector, x->isa) || x->number > 0x1ff ||
	    ((x->flags & PFT_ETM3_GEN_E_CANCEL) && check_addr(x->cancel_addr, x->cancel_isa)))
		return -PFT_E_INVAL;
	g->ts = x->timestamp;
	g->last_e = 0;
	if (!g->on) {
		/* nothing traced since trace went off: the exception is not seen */
		g->off_w += x->cycles;
		return 0;
	}
	if (x->flags & PFT_ETM3_GEN_E_CANCEL) {
		/* the instruction that did not complete is traced, then cancelled */
		if ((rc = before_insn(g, x->cancel_addr, x->cancel_isa, g->cid)) < 0 ||
		    (rc = push_atom(g, 1, 0)) < 0)
			return rc;
	} else {
		g->br_pending = 0; /* the exception's packet gives the address */
	}
	if ((rc = flush_atoms(g)) < 0)
		return rc;
	if (x->flags & PFT_ETM3_GEN_E_UNTRACED) {
		g->br_pending = 0;
		g->on = 0;
		g->off_w = x->cycles;
		return put_timestamp(g);
	}
	g->carry_w += x->cycles;
	return put_branch(g, x->vector, x->isa, x);
}

/* The fewest value bytes (0, 1, 2 or 4) that hold v. */
static uint8_t value_bytes(uint32_t v)
{
	return v == 0 ? 0 : v <= 0xffu ? 1 : v <= 0xffffu ? 2 : 4;
}

int pft_etm3_gen_data(struct pft_etm3_gen *g, const struct pft_etm3_gen_data *d)
{
	struct pft_etm3_packet p;
	int rc, first, need_addr;
	uint32_t v;

	if (!g || !d || (d->size != 1 && d->size != 2 && d->size != 4) || (d->address >> 32))
		return -PFT_E_INVAL;
	if (!g->f.data_value && !g->f.data_address) {
		g->st.data_ignored++;
		return 0;
	}
	if (!g->last_e || !g->on)
		return -PFT_E_INVAL;
	first = !g->data_insn;
	/* the data instruction's atom goes out first: a normal data packet
	 * belongs to the last data instruction traced */
	if (first && (rc = flush_atoms(g)) < 0)
		return rc;
	/* A bit: the first transfer of the instruction, or one that does not
	 * follow on from the one before */
	need_addr = first || d->address != g->dnext;
	pkt_init(&p, PFT_ETM3_DATA);
	if (g->f.data_address && need_addr) {
		p.flags |= PFT_E3F_DADDR;
		p.address = d->address;
		if (g->full_daddr)
			p.addr_bytes = 5;
	} else if (need_addr) {
		p.flags |= PFT_E3F_VARIANT; /* A set, no address field */
	}
	if (g->f.data_value) {
		v = d->size == 4 ? d->value : d->value & ((1u << (8 * d->size)) - 1u);
		p.data_value = v;
		p.data_size = value_bytes(v);
	}
	if ((rc = put(g, &p)) < 0)
		return rc;
	if (p.flags & PFT_E3F_DADDR) {
		g->full_daddr = 0;
		g->st.data_addresses++;
	}
	g->st.data++;
	g->data_insn = 1;
	g->dnext = (d->address + d->size) & 0xffffffffu;
	return 0;
}

int pft_etm3_gen_flush(struct pft_etm3_gen *g)
{
	int rc;

	if (!g)
		return -PFT_E_INVAL;
	/* (cycles after the last atom are not traced) */
	rc = flush_branch(g);
	return rc == 0 ? flush_atoms(g) : rc;
}

size_t pft_etm3_gen_pending(const struct pft_etm3_gen *g)
{
	return g ? g->len - g->rd : 0;
}

size_t pft_etm3_gen_read(struct pft_etm3_gen *g, uint8_t *buf, size_t cap)
{
	size_t n;

	if (!g || !buf)
		return 0;
	n = g->len - g->rd;
	if (n > cap)
		n = cap;
	if (!n)
		return 0; /* nothing written yet: no buffer either */
	memcpy(buf, g->buf + g->rd, n);
	g->rd += n;
	if (g->rd == g->len)
		g->rd = g->len = 0;
	return n;
}

int pft_etm3_gen_get_stats(const struct pft_etm3_gen *g, struct pft_etm3_gen_stats *st, size_t size)
{
	if (!g || !st || !size)
		return -PFT_E_INVAL;
	pft_copy_out(st, size, &g->st, sizeof(g->st));
	return 0;
}
