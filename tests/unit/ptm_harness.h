/* SPDX-License-Identifier: BSD-3-Clause */
/* Small harness for focused software PTM tests: feed hand-written
 * instruction sequences and look at the packets the PTM emitted (through
 * its packet callback) as a list of type names, and at the decoded bytes. */
#ifndef PFT_TEST_PTM_HARNESS_H
#define PFT_TEST_PTM_HARNESS_H

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pft/ptm.h"

#define H_MAX 4096

struct h {
	struct pft_ptm *p;
	struct pft_config cfg;
	struct pft_packet pk[H_MAX];
	unsigned n;
	uint64_t cyc;
	uint32_t cid;
	uint8_t vmid;
	uint16_t fl;         /* PFT_PTM_I_NS / HYP for the instructions fed */
	char seq[8192];
};

static inline void h_cb(const struct pft_packet *k, void *arg)
{
	struct h *h = arg;
	if (h->n < H_MAX)
		h->pk[h->n++] = *k;
}

/* etmcr: ETMCR (ProgBit clear); v11: PFTv1.1 (else v1.0). */
static inline int h_init(struct h *h, uint32_t etmcr, int v11, const struct pft_ptm_params *par)
{
	memset(h, 0, sizeof(*h));
	pft_config_init(&h->cfg);
	h->cfg.etmcr = etmcr;
	if (!v11) {
		h->cfg.etmidr = 0x411CF301u;
		h->cfg.etmccer = 0x000008EAu | (1u << 22);
	}
	h->cfg.etmsyncfr = 0;
	h->p = pft_ptm_alloc(&h->cfg, par);
	if (!h->p)
		return -1;
	pft_ptm_set_packet_cb(h->p, h_cb, h);
	/* the A-sync of enabling was emitted before the callback was set */
	h->pk[h->n].type = PFT_PKT_ASYNC;
	h->n++;
	return 0;
}

static inline void h_free(struct h *h)
{
	pft_ptm_free(h->p);
	h->p = NULL;
}

/* Feed one instruction. */
static inline int h_insn(struct h *h, uint64_t addr, unsigned isa, unsigned size, unsigned cls,
			 uint64_t next, unsigned nisa, uint16_t flags)
{
	struct pft_ptm_insn x;
	memset(&x, 0, sizeof(x));
	h->cyc += 2;
	x.addr = addr;
	x.next_addr = next;
	x.cycle = h->cyc;
	x.context_id = h->cid;
	x.vmid = h->vmid;
	x.isa = (uint8_t)isa;
	x.next_isa = (uint8_t)nisa;
	x.size = (uint8_t)size;
	x.wp_class = (uint8_t)cls;
	x.flags = (uint16_t)(flags | h->fl);
	if (h->fl & PFT_PTM_I_NS)
		x.flags |= PFT_PTM_I_NEXT_NS;
	if (h->fl & PFT_PTM_I_HYP)
		x.flags |= PFT_PTM_I_NEXT_HYP;
	return pft_ptm_insn(h->p, &x);
}

/* ARM nonwaypoint */
static inline int h_nop(struct h *h, uint64_t addr)
{
	return h_insn(h, addr, PFT_ISA_ARM, 4, PFT_WP_NONE, addr + 4, PFT_ISA_ARM, 0);
}

/* ARM direct branch, taken or not */
static inline int h_b(struct h *h, uint64_t addr, uint64_t target, int taken)
{
	return h_insn(h, addr, PFT_ISA_ARM, 4, PFT_WP_DIRECT, taken ? target : addr + 4, PFT_ISA_ARM,
		      taken ? 0 : PFT_PTM_I_COND_FAILED);
}

/* ARM indirect branch (taken) */
static inline int h_bx(struct h *h, uint64_t addr, uint64_t target, unsigned tisa)
{
	return h_insn(h, addr, PFT_ISA_ARM, 4, PFT_WP_INDIRECT, target, tisa, 0);
}

static inline int h_exc(struct h *h, unsigned type, uint64_t vector, uint8_t eflags)
{
	struct pft_ptm_exception e;
	memset(&e, 0, sizeof(e));
	h->cyc += 3;
	e.type = (uint16_t)type;
	e.vector = vector;
	e.isa = PFT_ISA_ARM;
	e.cycle = h->cyc;
	e.flags = eflags;
	e.context_id = h->cid;
	e.vmid = h->vmid;
	return pft_ptm_exception(h->p, &e);
}

/* Packet types from index `from`, space separated. */
static inline const char *h_seq(struct h *h, unsigned from)
{
	size_t o = 0;
	h->seq[0] = '\0';
	for (unsigned i = from; i < h->n && o + 24 < sizeof(h->seq); i++)
		o += (size_t)snprintf(h->seq + o, sizeof(h->seq) - o, "%s%s", o ? " " : "",
				      pft_pkt_type_name((enum pft_pkt_type)h->pk[i].type));
	return h->seq;
}

/* Index of the first packet of a type at or after from, or -1. */
static inline int h_find(const struct h *h, unsigned type, unsigned from)
{
	for (unsigned i = from; i < h->n; i++)
		if (h->pk[i].type == type)
			return (int)i;
	return -1;
}

#define CHECK_SEQ(h, from, want)                                                        \
	do {                                                                            \
		const char *got_ = h_seq((h), (from));                                  \
		check_count++;                                                          \
		if (strcmp(got_, (want))) {                                             \
			check_failures++;                                               \
			fprintf(stderr, "%s:%d: packets\n  got:  %s\n  want: %s\n", __FILE__, \
				__LINE__, got_, (want));                                \
		}                                                                       \
	} while (0)

#endif
