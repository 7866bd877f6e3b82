/* SPDX-License-Identifier: BSD-3-Clause */
/* Harness for focused software PTM tests (see ptm_harness.h). */
#include "ptm_harness.h"

#include <stdio.h>
#include <string.h>

void h_cb(const struct pft_packet *k, void *arg)
{
	struct h *h = arg;
	if (h->n < H_MAX)
		h->pk[h->n++] = *k;
}

int h_init(struct h *h, uint32_t etmcr, int v11, const struct pft_ptm_params *par)
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

void h_free(struct h *h)
{
	pft_ptm_free(h->p);
	h->p = NULL;
}

int h_insn(struct h *h, uint64_t addr, unsigned isa, unsigned size, unsigned cls,
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

int h_nop(struct h *h, uint64_t addr)
{
	return h_insn(h, addr, PFT_ISA_ARM, 4, PFT_WP_NONE, addr + 4, PFT_ISA_ARM, 0);
}

int h_b(struct h *h, uint64_t addr, uint64_t target, int taken)
{
	return h_insn(h, addr, PFT_ISA_ARM, 4, PFT_WP_DIRECT, taken ? target : addr + 4, PFT_ISA_ARM,
		      taken ? 0 : PFT_PTM_I_COND_FAILED);
}

int h_bx(struct h *h, uint64_t addr, uint64_t target, unsigned tisa)
{
	return h_insn(h, addr, PFT_ISA_ARM, 4, PFT_WP_INDIRECT, target, tisa, 0);
}

int h_exc(struct h *h, unsigned type, uint64_t vector, uint8_t eflags)
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

const char *h_seq(struct h *h, unsigned from)
{
	size_t o = 0;
	h->seq[0] = '\0';
	for (unsigned i = from; i < h->n && o + 24 < sizeof(h->seq); i++)
		o += (size_t)snprintf(h->seq + o, sizeof(h->seq) - o, "%s%s", o ? " " : "",
				      pft_pkt_type_name((enum pft_pkt_type)h->pk[i].type));
	return h->seq;
}

int h_find(const struct h *h, unsigned type, unsigned from)
{
	for (unsigned i = from; i < h->n; i++)
		if (h->pk[i].type == type)
			return (int)i;
	return -1;
}

void h_check_seq(struct h *h, unsigned from, const char *want, const char *file, int line)
{
	const char *got = h_seq(h, from);

	check_count++;
	if (strcmp(got, want))
		check_fail(file, line, "packets\n  got:  %s\n  want: %s", got, want);
}
