/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM round trip: random programs (every waypoint class in ARM and
 * Thumb, exceptions back to back, resets, debug entry/exit, context ID,
 * VMID, security and Hyp changes) under random configurations (PFTv1.0 and
 * v1.1, cycle-accurate, branch broadcast, return stack, timestamps, context
 * ID sizes, VMID, DMB waypoints, periodic sync, TraceEnable include/exclude
 * ranges and start/stop) go through the PTM, the packet decoder and a
 * reference decompressor (ptm_check.h), which must give back exactly the
 * executed instructions and exceptions of the blocks TraceEnable selects,
 * with the same state, cycle counts and timestamps.  Seeded: PFT_SEED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/flow.h"
#include "pft/image.h"
#include "ptm_check.h"
#include "ptm_prog.h"

enum te_mode { TE_ALL, TE_INCLUDE, TE_EXCLUDE, TE_STARTSTOP, TE_NR };

struct te_cfg {
	enum te_mode mode;
	uint64_t lo, hi;      /* ARC 1 */
	uint64_t start, stop; /* SAC 1, SAC 2 */
};

/* The blocks TraceEnable selects (3.3.3, 3.3.4, 3.4), modelled from the
 * spec's formulas on the program's own block list. */
static uint32_t expected(const struct prog *g, const struct te_cfg *t, int t32_halves,
			 const struct prog_ev **out)
{
	uint32_t n = 0;
	int held = 0, ss = 0;
	for (uint32_t b = 0; b < g->nblk; b++) {
		const struct prog_blk *k = &g->blk[b];
		uint64_t s = k->start & ~1ull, e = k->end & ~1ull;
		int te = 1, prohib = 0;
		/* ETMIDR[18] = 0: a 32-bit Thumb instruction ends at its upper
		 * halfword (the model's choice among those of Table 3-2) */
		if (t32_halves && k->end_t32)
			e += 2;
		/* 4.7: nothing of a prohibited region is traced, and its blocks
		 * leave the comparators alone */
		for (uint32_t i = k->first; i < k->first + k->n; i++)
			prohib |= g->ev[i].prohib;
		if (prohib)
			continue;
		switch (t->mode) {
		case TE_ALL:
			te = 1;
			break;
		case TE_INCLUDE:
			if (k->n_insn)
				held = t->lo <= e && t->hi > s;
			te = held;
			break;
		case TE_EXCLUDE:
			te = !k->n_insn || !(t->lo <= s && t->hi > e);
			break;
		default: {
			int st = k->n_insn && t->start >= s && t->start <= e;
			int sp = k->n_insn && t->stop >= s && t->stop <= e;
			te = ss || st;
			ss = sp ? 0 : te;
			break;
		}
		}
		if (!te)
			continue;
		for (uint32_t i = k->first; i < k->first + k->n; i++)
			if (!g->ev[i].dropped)
				out[n++] = &g->ev[i];
	}
	return n;
}

/* The same stream through the library's flow decoder, with the program's
 * memory as its image: the instructions, exceptions, context IDs, VMIDs,
 * cycle counts and timestamps must be the executed ones.  Returns the
 * number of disagreements; msg says the first. */
static unsigned flow_check(const struct prog *g, const struct pft_config *cfg,
			   const struct pft_features *f, const uint8_t *buf, size_t len,
			   const struct prog_ev **exp, uint32_t nexp, int lenient, char *msg,
			   size_t cap)
{
	static const uint32_t cm[5] = { 0, 0xFF, 0xFFFF, 0, 0xFFFFFFFFu };
	struct pft_image *img = pft_image_alloc();
	unsigned errs = 0;
	uint32_t k = 0;
	uint64_t cum = 0;
	struct pft_flow_item it;
	char m[256];
	msg[0] = '\0';
	for (int i = 0; i < 2; i++)
		pft_image_add_buffer(img, g->r[i].base, g->r[i].mem, PROG_REGION);
	struct pft_flow_decoder *d = pft_flow_decoder_alloc(cfg, img);
	if (!d) {
		pft_image_free(img);
		snprintf(msg, cap, "pft_flow_decoder_alloc failed");
		return 1;
	}
	pft_flow_decoder_feed(d, buf, len);
	pft_flow_decoder_end(d);
#define FAIL(...) do { if (!errs++) { snprintf(m, sizeof(m), __VA_ARGS__); snprintf(msg, cap, "flow offset %llu: %s", (unsigned long long)it.offset, m); } } while (0)
	while (!errs && pft_flow_decoder_next(d, &it, sizeof(it)) == 0) {
		if (lenient) {
			/* trace lost to overflows: only malformed or lost trace fails */
			if (it.kind == PFT_FLOW_EVENT &&
			    (it.type == PFT_EV_PACKET_ERROR || it.type == PFT_EV_UNSYNCED ||
			     it.type == PFT_EV_LOST || it.type == PFT_EV_INCONSISTENT ||
			     it.type == PFT_EV_NO_ADDRESS || it.type == PFT_EV_MEM_NACC))
				FAIL("event %s (reason %u)",
				     pft_flow_event_name((enum pft_flow_event)it.type), it.reason);
			continue;
		}
		if (it.kind == PFT_FLOW_RANGE) {
			for (uint32_t i = 0; i < it.ninsns && !errs; i++, k++) {
				if (k >= nexp || exp[k]->exc || exp[k]->addr != it.insns[i].addr)
					FAIL("insn 0x%llx, executed %s 0x%llx (item %u)",
					     (unsigned long long)it.insns[i].addr,
					     k < nexp && exp[k]->exc ? "exception" : "insn",
					     k < nexp ? (unsigned long long)exp[k]->addr : 0ull, k);
				else if ((it.flags & PFT_FLOW_F_CID) &&
					 ((it.context_id ^ exp[k]->cid) & cm[f->contextid_bytes]))
					FAIL("context ID 0x%x at 0x%llx, executed 0x%x", it.context_id,
					     (unsigned long long)exp[k]->addr, exp[k]->cid);
				else if ((it.flags & PFT_FLOW_F_VMID) && f->vmid && it.vmid != exp[k]->vmid)
					FAIL("VMID %u at 0x%llx, executed %u", it.vmid,
					     (unsigned long long)exp[k]->addr, exp[k]->vmid);
			}
			if (!errs && (it.flags & PFT_FLOW_F_CC) && f->cycle_accurate) {
				cum += it.cycles;
				if (k && cum != exp[k - 1]->cycle)
					FAIL("cycle %llu at 0x%llx, executed at %llu", (unsigned long long)cum,
					     (unsigned long long)exp[k - 1]->addr,
					     (unsigned long long)exp[k - 1]->cycle);
			}
			continue;
		}
		switch (it.type) {
		case PFT_EV_EXCEPTION:
			if (k >= nexp || exp[k]->exc != it.value || exp[k]->addr != it.addr)
				FAIL("exception %llu to 0x%llx, executed %s 0x%llx (item %u)",
				     (unsigned long long)it.value, (unsigned long long)it.addr,
				     k < nexp && exp[k]->exc ? "exception" : "insn",
				     k < nexp ? (unsigned long long)exp[k]->addr : 0ull, k);
			k++;
			if (!errs && (it.flags & PFT_FLOW_F_CC) && f->cycle_accurate) {
				cum += it.cycles;
				if (cum != exp[k - 1]->cycle)
					FAIL("exception cycle %llu, executed at %llu", (unsigned long long)cum,
					     (unsigned long long)exp[k - 1]->cycle);
			}
			break;
		case PFT_EV_TRACE_ON:
			if ((it.flags & PFT_FLOW_F_CC) && f->cycle_accurate)
				cum += it.cycles;
			break;
		case PFT_EV_TIMESTAMP:
			if ((it.flags & PFT_FLOW_F_CC) && f->cycle_accurate)
				cum += it.cycles;
			if (k && (f->minor >= 1 ? it.value != exp[k - 1]->ts : it.value < exp[k - 1]->ts))
				FAIL("timestamp 0x%llx after item %u, expected 0x%llx",
				     (unsigned long long)it.value, k - 1, (unsigned long long)exp[k - 1]->ts);
			break;
		case PFT_EV_EXCEPTION_RETURN:
		case PFT_EV_CONTEXT_ID:
		case PFT_EV_VMID:
		case PFT_EV_TRIGGER:
		case PFT_EV_SECURITY:
			break;
		default:
			FAIL("event %s (reason %u)", pft_flow_event_name((enum pft_flow_event)it.type),
			     it.reason);
			break;
		}
	}
#undef FAIL
	if (errs && getenv("PFT_PTM_DEBUG") && k > 1) {
		for (uint32_t j = k > 4 ? k - 4 : 0; j < k && j < nexp; j++) {
			const struct prog_ev *e = exp[j];
			const struct prog_region *r = NULL;
			for (int i = 0; i < 2; i++)
				if (e->addr >= g->r[i].base && e->addr < g->r[i].base + PROG_REGION)
					r = &g->r[i];
			const struct prog_insn *pi = r && !e->exc ? &r->insn[(e->addr - r->base) / 2] : NULL;
			fprintf(stderr, "  item %u: %s 0x%llx", j, e->exc ? "exc" : "insn",
				(unsigned long long)e->addr);
			if (pi)
				fprintf(stderr, " op 0x%08x size %u kind %u isa %u target 0x%llx", pi->opcode,
					pi->size, pi->kind, pi->isa, (unsigned long long)pi->target);
			fprintf(stderr, "\n");
		}
	}
	if (!errs && !lenient && k != nexp) {
		snprintf(msg, cap, "flow decoded %u items, executed and enabled %u", k, nexp);
		errs++;
	}
	pft_flow_decoder_free(d);
	pft_image_free(img);
	return errs;
}

static unsigned empty_cases, overflow_cases;
/* the program and its dry run, 2 MB each: reused from case to case (fresh
 * pages for every case cost more than the case under ASan) */
static struct prog progs[2];

static int run_case(uint64_t seed, unsigned ninsn, int verbose, int classify)
{
	uint64_t r = seed * 0xD1B54A32D192ED03ull + 7;
	struct pft_config cfg;
	struct pft_features f;
	struct prog_opts o;
	struct te_cfg t;
	struct prog *g = &progs[0];
	int fails = 0;

	int v11 = prog_random_config(&cfg, &r);
	if (check_rand(&r) % 4 == 0)
		cfg.etmidr &= ~(1u << 18); /* 32-bit Thumb traced as two halves */
	if (check_rand(&r) % 3 == 0)
		cfg.etmccer |= 1u << 24; /* DMB/DSB are waypoints */
	if (check_rand(&r) % 3 == 0)
		cfg.etmccer |= 1u << 25; /* timestamp on DMB/DSB */
	cfg.etmsyncfr = check_rand(&r) % 3 == 0 ? 0 : 0x40 + (uint32_t)(check_rand(&r) % 0x400);
	CHECK_EQ(pft_config_features(&cfg, &f), 0);

	prog_random_opts(&o, &r, v11);
	o.resets = check_rand(&r) % 4 == 0;
	o.prohibited = check_rand(&r) % 3 == 0;
	prog_init(g, seed, &o);
	g->dmb_wp = f.dmb_waypoint;

	/* one case in eight: a small, slow FIFO that overflows (4.8) */
	int ovf = check_rand(&r) % 8 == 0;
	struct pft_ptm_params par;
	pft_ptm_params_init(&par);
	if (ovf) {
		par.fifo_bytes = 24 + (uint32_t)(check_rand(&r) % 64);
		par.drain_bytes = 1;
		par.drain_cycles = 1 + (uint32_t)(check_rand(&r) % 3);
	}
	struct pft_ptm *ptm = pft_ptm_alloc(&cfg, &par);
	CHECK(ptm != NULL);
	if (ptm) {
		/* unimplemented features read as 0: decode with what the PTM has */
		pft_ptm_get_reg(ptm, PFT_PTM_ETMCR, &cfg.etmcr);
		pft_config_features(&cfg, &f);
	}
	if (!ptm) {
		prog_fini(g);
		return 1;
	}
	memset(&t, 0, sizeof(t));
	t.mode = (enum te_mode)(check_rand(&r) % TE_NR);
	{
		/* a dry run of the same program picks addresses it executes */
		struct prog *d = &progs[1];
		prog_init(d, seed, &o);
		d->dmb_wp = f.dmb_waypoint;
		prog_run(d, NULL, ninsn, v11, 0);
		uint64_t a[3] = { 0x1000, 0x2000, 0x3000 };
		for (int i = 0; i < 3 && d->nev; i++) {
			for (int tries = 0; tries < 16; tries++) {
				const struct prog_ev *e = &d->ev[check_rand(&r) % d->nev];
				if (!e->exc) {
					a[i] = e->addr;
					break;
				}
			}
		}
		t.lo = a[0] & ~3ull;
		t.hi = t.lo + 4 + (check_rand(&r) % 0x2000 & ~3ull);
		t.start = a[1] & ~1ull;
		t.stop = a[2] & ~1ull;
		prog_fini(d);
	}
	switch (t.mode) {
	case TE_ALL:
		break;
	case TE_INCLUDE:
		CHECK_EQ(pft_ptm_set_reg_by_name(ptm, "ETMACVR1", (uint32_t)t.lo), 0);
		CHECK_EQ(pft_ptm_set_reg_by_name(ptm, "ETMACVR2", (uint32_t)t.hi), 0);
		CHECK_EQ(pft_ptm_set_reg_by_name(ptm, "ETMTECR1", 0x00000001u), 0);
		break;
	case TE_EXCLUDE:
		CHECK_EQ(pft_ptm_set_reg(ptm, PFT_PTM_ETMACVR(1), (uint32_t)t.lo), 0);
		CHECK_EQ(pft_ptm_set_reg(ptm, PFT_PTM_ETMACVR(2), (uint32_t)t.hi), 0);
		CHECK_EQ(pft_ptm_set_reg(ptm, PFT_PTM_ETMTECR1, 0x01000001u), 0);
		break;
	default:
		CHECK_EQ(pft_ptm_set_reg(ptm, PFT_PTM_ETMACVR(1), (uint32_t)t.start), 0);
		CHECK_EQ(pft_ptm_set_reg(ptm, PFT_PTM_ETMACVR(2), (uint32_t)t.stop), 0);
		CHECK_EQ(pft_ptm_set_reg(ptm, PFT_PTM_ETMTSSCR, 0x00020001u), 0);
		CHECK_EQ(pft_ptm_set_reg(ptm, PFT_PTM_ETMTECR1, 0x03000000u), 0);
		break;
	}

	if (prog_run(g, ptm, ninsn, v11, classify) < 0) {
		fprintf(stderr, "seed %llu: program generator went astray\n", (unsigned long long)seed);
		fails++;
	}
	CHECK_EQ(g->fed_errors, 0);
	CHECK_EQ(pft_ptm_flush(ptm), 0);
	size_t cap = pft_ptm_pending(ptm) + 16, len;
	uint8_t *buf = malloc(cap);
	len = pft_ptm_read(ptm, buf, cap);

	if (getenv("PFT_PTM_DUMP")) {
		FILE *fp = fopen(getenv("PFT_PTM_DUMP"), "wb");
		if (fp) {
			fwrite(buf, 1, len, fp);
			fclose(fp);
		}
	}
	const struct prog_ev **exp = malloc((g->nev + 1) * sizeof(*exp));
	uint32_t nexp = expected(g, &t, !f.thumb32_single, exp);
	if (getenv("PFT_PTM_DEBUG_EV")) {
		unsigned lo = (unsigned)strtoul(getenv("PFT_PTM_DEBUG_EV"), NULL, 0);
		for (uint32_t i = 0; i < g->nev; i++) {
			const struct prog_ev *e = &g->ev[i];
			uint32_t j;
			for (j = 0; j < nexp && exp[j] != e; j++)
				;
			if (j + 6 < lo || j > lo + 3)
				continue;
			fprintf(stderr, "ev %u exp %d blk %u: %s 0x%llx prohib %u dropped %u\n", i,
				j < nexp ? (int)j : -1, e->blk, e->exc ? "exc" : "insn",
				(unsigned long long)e->addr, e->prohib, e->dropped);
		}
	}

	struct chk c;
	memset(&c, 0, sizeof(c));
	c.g = g;
	c.f = f;
	c.exp = exp;
	c.nexp = nexp;
	c.check_cc = f.cycle_accurate && !ovf;
	c.no_ts = ovf;
	pft_pkt_decode_buffer(&cfg, buf, len, chk_packet, &c);
	if (ovf) {
		struct pft_ptm_stats st;
		pft_ptm_get_stats(ptm, &st, sizeof(st));
		overflow_cases += st.overflows > 0;
	}
	if (!c.errors && ovf) {
		/* each run between non-periodic I-syncs is a contiguous run of the
		 * executed items, in order; what overflows lost is missing */
		uint32_t pos = 0, i = 0;
		while (i < c.nout && !c.errors) {
			uint32_t n = 0, j;
			while (i + n < c.nout && c.out[i + n].seg == c.out[i].seg)
				n++;
			for (j = pos; j + n <= nexp; j++) {
				uint32_t q = 0;
				while (q < n && exp[j + q]->addr == c.out[i + q].addr &&
				       exp[j + q]->exc == c.out[i + q].exc)
					q++;
				if (q == n)
					break;
			}
			if (j + n > nexp) {
				char m[160];
				snprintf(m, sizeof(m), "decoded run of %u items at 0x%llx is not in the "
					 "executed items after %u", n, (unsigned long long)c.out[i].addr,
					 pos);
				chk_fail(&c, NULL, m);
			}
			pos = j + n;
			i += n;
		}
	} else if (!c.errors) {
		uint32_t n = c.nout < nexp ? c.nout : nexp;
		static const uint32_t cm[5] = { 0, 0xFF, 0xFFFF, 0, 0xFFFFFFFFu };
		for (uint32_t i = 0; i < n && !c.errors; i++) {
			const struct chk_out *d = &c.out[i];
			const struct prog_ev *e = exp[i];
			char m[200];
			const char *what = NULL;
			if (d->exc != e->exc || d->addr != e->addr)
				what = "item";
			else if (!e->exc && d->isa != e->isa)
				what = "ISA";
			else if (!e->exc && d->ns != e->ns)
				what = "NS";
			else if (!e->exc && v11 && d->hyp != e->hyp)
				what = "Hyp";
			else if (!e->exc && ((d->cid ^ e->cid) & cm[f.contextid_bytes]))
				what = "context ID";
			else if (!e->exc && f.vmid && d->vmid != e->vmid)
				what = "VMID";
			if (what) {
				snprintf(m, sizeof(m), "%s %u: decoded %s 0x%llx, executed %s 0x%llx",
					 what, i, d->exc ? "exception" : "insn",
					 (unsigned long long)d->addr, e->exc ? "exception" : "insn",
					 (unsigned long long)e->addr);
				chk_fail(&c, NULL, m);
			}
		}
		if (!c.errors && c.nout != nexp) {
			char m[100];
			snprintf(m, sizeof(m), "decoded %u items, executed and enabled %u", c.nout, nexp);
			chk_fail(&c, NULL, m);
		}
	}
	if (c.errors) {
		fprintf(stderr,
			"seed %llu: ETMCR 0x%08X ETMIDR 0x%08X ETMCCER 0x%08X SYNCFR 0x%X te %d: %s\n",
			(unsigned long long)seed, cfg.etmcr, cfg.etmidr, cfg.etmccer, cfg.etmsyncfr,
			(int)t.mode, c.msg);
		fails++;
	} else if (verbose) {
		printf("seed %llu te %d: %u items, %zu bytes, %u isync (%u periodic) %u atoms %u branches %u exc %u wpu %u ts %u cid %u vmid %u eret\n",
		       (unsigned long long)seed, (int)t.mode, nexp, len, c.isyncs, c.periodic, c.atoms, c.branches,
		       c.excs, c.wpus, c.ts, c.cids, c.vmids, c.erets);
	}
	CHECK_EQ(c.errors, 0);
	{
		char fm[300];
		unsigned fe = flow_check(g, &cfg, &f, buf, len, exp, nexp, ovf, fm, sizeof(fm));
		if (fe) {
			fprintf(stderr,
				"seed %llu: ETMCR 0x%08X ETMIDR 0x%08X ETMCCER 0x%08X SYNCFR 0x%X te %d: %s\n",
				(unsigned long long)seed, cfg.etmcr, cfg.etmidr, cfg.etmccer,
				cfg.etmsyncfr, (int)t.mode, fm);
			fails++;
		}
		CHECK_EQ(fe, 0);
	}
	if (!nexp)
		empty_cases++;
	free(c.out);
	free(exp);
	free(buf);
	pft_ptm_free(ptm);
	prog_fini(g);
	return fails;
}

int main(void)
{
	uint64_t seed = check_seed(1);
	const char *one = getenv("PFT_PTM_CASE");
	if (one) {
		uint64_t s = strtoull(one, NULL, 0);
		run_case(s, 400 + (unsigned)(s % 1600), 1, getenv("PFT_PTM_CLASSIFY") != NULL);
		return check_report();
	}
	unsigned cases = 2000, failed = 0;
	for (unsigned i = 0; i < cases; i++) {
		uint64_t s = seed * 100003ull + i;
		check_case("PFT_PTM_CASE=%llu", (unsigned long long)s); /* reruns it alone */
		if (run_case(s, 400 + (unsigned)(s % 1600), i < 3, (int)(i % 4 == 3)))
			if (++failed > 5)
				break;
	}
	check_case(NULL);
	printf("%u cases, %u failed, %u traced nothing, %u overflowed\n", cases, failed, empty_cases,
	       overflow_cases);
	CHECK(overflow_cases > cases / 40);
	/* most cases must trace something, or the test proves little */
	CHECK(empty_cases < cases / 10);
	return check_report();
}
