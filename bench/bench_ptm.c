/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM throughput: executed instructions per second for a long
 * random program (the test generator's, tests/support/ptm_prog.h), under a few
 * configurations.  The program is executed once into an array; only the
 * pft_ptm_insn / pft_ptm_exception calls and the output reads are timed.
 *   bench_ptm [instructions]      (default 2000000) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptm_prog.h"
#include "bench_util.h"

/* The execution, recorded: instructions and exceptions in order. */
struct rec {
	struct pft_ptm_insn *in;
	struct pft_ptm_exception *ex;
	uint32_t *kind_idx; /* bit 31: exception */
	size_t n, nin, nex;
};

static void record(struct rec *r, size_t n)
{
	struct prog *g = calloc(1, sizeof(*g));
	struct prog_opts o;
	memset(&o, 0, sizeof(o));
	o.cid_changes = 1;
	o.exceptions = 10;
	prog_init(g, 12345, &o);
	/* run in slices so the generator's own log stays small */
	r->in = malloc(n * sizeof(*r->in));
	r->ex = malloc(n / 4 * sizeof(*r->ex) + 64 * sizeof(*r->ex));
	r->kind_idx = malloc(2 * n * sizeof(*r->kind_idx));
	r->n = r->nin = r->nex = 0;
	while (r->nin < n) {
		g->nev = 0;
		g->nblk = 0;
		g->cur_blk_first = 0;
		if (prog_run(g, NULL, 4096, 1, 0) < 0)
			break;
		/* replay the log into PTM calls */
		for (uint32_t i = 0; i < g->nev && r->nin < n; i++) {
			const struct prog_ev *e = &g->ev[i];
			if (e->exc) {
				if (e->exc == PFT_EXC_DEBUG_HALT || r->nex >= n / 4 + 64)
					continue;
				struct pft_ptm_exception *x = &r->ex[r->nex];
				memset(x, 0, sizeof(*x));
				x->type = e->exc;
				x->vector = e->addr;
				x->isa = e->isa;
				x->cycle = e->cycle;
				x->context_id = e->cid;
				r->kind_idx[r->n++] = 0x80000000u | (uint32_t)r->nex++;
				continue;
			}
			const struct prog_insn *pi = NULL;
			for (int k = 0; k < 2; k++)
				if (e->addr >= g->r[k].base && e->addr < g->r[k].base + PROG_REGION)
					pi = &g->r[k].insn[(e->addr - g->r[k].base) / 2];
			struct pft_ptm_insn *x = &r->in[r->nin];
			memset(x, 0, sizeof(*x));
			x->addr = e->addr;
			x->cycle = e->cycle;
			x->isa = e->isa;
			x->size = pi->size;
			x->opcode = pi->opcode;
			x->wp_class = pi->wp_class;
			x->context_id = e->cid;
			x->flags = pi->link ? PFT_PTM_I_LINK : 0;
			/* next address: the following event's, if an instruction */
			x->next_addr = e->addr + pi->size;
			x->next_isa = e->isa;
			if (i + 1 < g->nev && !g->ev[i + 1].exc) {
				x->next_addr = g->ev[i + 1].addr;
				x->next_isa = g->ev[i + 1].isa;
			}
			if (pi->wp_class && x->next_addr == e->addr + pi->size && pi->kind == PK_DIRECT &&
			    pi->target != x->next_addr)
				x->flags |= PFT_PTM_I_COND_FAILED;
			r->kind_idx[r->n++] = (uint32_t)r->nin++;
		}
	}
	prog_fini(g);
	free(g);
}

static void run(const struct rec *r, const char *name, uint32_t etmcr, int classify)
{
	struct pft_config cfg;
	static uint8_t out[1 << 16];
	pft_config_init(&cfg);
	cfg.etmcr = etmcr;
	struct pft_ptm *p = pft_ptm_alloc(&cfg, NULL);
	if (!p)
		return;
	uint64_t bytes = 0;
	double t0 = bench_wall();
	for (size_t i = 0; i < r->n; i++) {
		uint32_t k = r->kind_idx[i];
		if (k & 0x80000000u) {
			pft_ptm_exception(p, &r->ex[k & 0x7FFFFFFFu]);
		} else {
			struct pft_ptm_insn x = r->in[k];
			if (classify)
				x.flags |= PFT_PTM_I_CLASSIFY;
			pft_ptm_insn(p, &x);
		}
		if ((i & 4095) == 0)
			bytes += pft_ptm_read(p, out, sizeof(out));
	}
	pft_ptm_flush(p);
	size_t n;
	while ((n = pft_ptm_read(p, out, sizeof(out))) > 0)
		bytes += n;
	double dt = bench_wall() - t0;
	printf("%-34s %9.1f M insns/s  %6.2f bytes/insn  (%zu insns, %.3f s)\n", name,
	       (double)r->nin / dt / 1e6, (double)bytes / (double)r->nin, r->nin, dt);
	pft_ptm_free(p);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000000;
	struct rec r;
	record(&r, n);
	printf("software PTM, %zu instructions, %zu exceptions\n", r.nin, r.nex);
	run(&r, "plain (ETMCR 0)", 0, 0);
	run(&r, "cycle-accurate + timestamps", 0x10001000u, 0);
	run(&r, "return stack + context ID", 0x2000C000u, 0);
	run(&r, "branch broadcast", 0x00000100u, 0);
	run(&r, "plain, classified by the ISA layer", 0, 1);
	free(r.in);
	free(r.ex);
	free(r.kind_idx);
	return 0;
}
