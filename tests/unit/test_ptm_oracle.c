/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM against an independent decoder: random programs traced by
 * the PTM are written as snapshot folders (memory dumps, registers, the
 * trace buffer raw or in CoreSight frames) and decoded by OpenCSD's
 * trc_pkt_lister -decode_only; its instruction ranges and exceptions must
 * be the executed ones.  Only configurations OpenCSD 1.3.3 decodes as the
 * spec says: no NS/Hyp change on a normal branch (OpenCSD takes exception
 * bytes with exception 0 for an exception, doc/packets.md A5) and no ERET
 * (not a waypoint for it).
 * Exit 77 (skipped) when trc_pkt_lister is not installed. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptm_prog.h"
#include "pft/frame.h"
#include "pft/snapshot.h"

struct item {
	uint64_t addr;
	unsigned exc;
};

static const struct prog_insn *insn_at(const struct prog *g, uint64_t a, unsigned isa)
{
	for (int i = 0; i < 2; i++) {
		const struct prog_region *r = &g->r[i];
		if (r->isa == isa && a >= r->base && a < r->base + PROG_REGION &&
		    r->state[(a - r->base) / 2] == 1)
			return &r->insn[(a - r->base) / 2];
	}
	return NULL;
}

/* Parse trc_pkt_lister's output into items.  Returns the count, or -1
 * with msg set. */
static long parse_lister(FILE *fp, const struct prog *g, struct item *out, size_t cap, char *msg,
			 size_t mcap)
{
	char line[1024];
	size_t n = 0;
	while (fgets(line, sizeof(line), fp)) {
		char *p;
		if ((p = strstr(line, "OCSD_GEN_TRC_ELEM_INSTR_RANGE(exec range="))) {
			unsigned long long s, e;
			unsigned num;
			char isa[8] = "";
			if (sscanf(p, "OCSD_GEN_TRC_ELEM_INSTR_RANGE(exec range=0x%llx:[0x%llx] num_i(%u)",
				   &s, &e, &num) != 3) {
				snprintf(msg, mcap, "unparsed: %.200s", line);
				return -1;
			}
			char *q = strstr(p, "(ISA=");
			if (q)
				sscanf(q, "(ISA=%7[A-Z0-9]", isa);
			unsigned is = !strcmp(isa, "A32") ? PFT_ISA_ARM : PFT_ISA_THUMB;
			unsigned cnt = 0;
			for (uint64_t a = s; a < e; cnt++) {
				const struct prog_insn *in = insn_at(g, a, is);
				if (!in || n == cap) {
					const struct prog_insn *f0 = insn_at(g, s, is);
					snprintf(msg, mcap,
						 "range 0x%llx-0x%llx: no instruction at 0x%llx (first: op 0x%08x kind %u)",
						 s, e, (unsigned long long)a, f0 ? f0->opcode : 0,
						 f0 ? f0->kind : 99);
					return -1;
				}
				out[n].addr = a;
				out[n++].exc = 0;
				a += in->size;
			}
			if (cnt != num) {
				snprintf(msg, mcap, "range 0x%llx-0x%llx: %u instructions, OpenCSD says %u", s,
					 e, cnt, num);
				return -1;
			}
		} else if ((p = strstr(line, "OCSD_GEN_TRC_ELEM_EXCEPTION("))) {
			unsigned num = 0;
			char *q = strstr(p, "excep num (0x");
			if (!q || sscanf(q, "excep num (0x%x", &num) != 1 || n == cap) {
				snprintf(msg, mcap, "unparsed: %.200s", line);
				return -1;
			}
			out[n].addr = 0;
			out[n++].exc = num;
		} else if (strstr(line, "ADDR_NACC") || strstr(line, "OCSD_ERR") ||
			   strstr(line, "ERROR")) {
			snprintf(msg, mcap, "OpenCSD: %.200s", line);
			return -1;
		}
	}
	return (long)n;
}

static int run_case(uint64_t seed, const char *dir, int verbose)
{
	uint64_t r = seed * 0x9E3779B97F4A7C15ull + 3;
	struct pft_config cfg;
	struct pft_features f;
	struct prog_opts o;
	struct prog *g = calloc(1, sizeof(*g));
	int fail = 0;

	pft_config_init(&cfg);
	int v11 = check_rand(&r) % 3 != 0;
	cfg.etmcr = prog_random_etmcr(&r, v11);
	if (!v11) {
		cfg.etmidr = 0x411CF301u;
		cfg.etmccer = 0x000008EAu | (1u << 22);
	}
	cfg.etmtraceidr = 0x10 + (uint32_t)(check_rand(&r) % 0x20);
	cfg.etmsyncfr = 0x100;
	pft_config_features(&cfg, &f);

	memset(&o, 0, sizeof(o));
	o.thumb_vectors = check_rand(&r) & 1;
	o.cid_changes = 1;
	o.vmid_changes = 1;
	o.exceptions = 20;
	o.debug = 2;
	o.resets = 1;
	o.no_eret = 1;
	prog_init(g, seed, &o);
	g->dmb_wp = f.dmb_waypoint;
	struct pft_ptm *ptm = pft_ptm_alloc(&cfg, NULL);
	CHECK(ptm != NULL);
	if (ptm) {
		/* unimplemented features read as 0: decode with what the PTM has */
		pft_ptm_get_reg(ptm, PFT_PTM_ETMCR, &cfg.etmcr);
		pft_config_features(&cfg, &f);
	}
	if (!ptm || prog_run(g, ptm, 1500, v11, 1) < 0) {
		fprintf(stderr, "seed %llu: setup failed\n", (unsigned long long)seed);
		pft_ptm_free(ptm);
		prog_fini(g);
		free(g);
		return 1;
	}
	pft_ptm_flush(ptm);
	int framed = check_rand(&r) & 1;
	size_t cap = 2 * pft_ptm_pending(ptm) + 64;
	uint8_t *buf = malloc(cap);
	size_t len;
	if (framed)
		len = (size_t)pft_ptm_read_frames(ptm, buf, cap, 1);
	else
		len = pft_ptm_read(ptm, buf, cap);

	struct pft_snapshot_mem mem[2];
	for (int i = 0; i < 2; i++) {
		mem[i].address = g->r[i].base;
		mem[i].data = g->r[i].mem;
		mem[i].len = PROG_REGION;
	}
	struct pft_snapshot_spec sp;
	pft_snapshot_spec_init(&sp);
	sp.core_name = "cpu_0";
	sp.core_type = "Cortex-A15";
	sp.source_name = "PTM_0";
	sp.config = cfg;
	sp.mem = mem;
	sp.n_mem = 2;
	sp.trace = buf;
	sp.trace_len = len;
	sp.trace_format = framed ? PFT_FRAME_CORESIGHT : PFT_FRAME_RAW;
	char msg[512] = "";
	if (pft_snapshot_write(dir, &sp, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "seed %llu: snapshot: %s\n", (unsigned long long)seed, msg);
		fail = 1;
	}

	/* the executed, traced items (everything is traced here) */
	size_t nexp = 0, icap = g->nev + 1;
	struct item *exp = malloc(icap * sizeof(*exp)), *got = malloc(4 * icap * sizeof(*got));
	/* the instructions after the last waypoint are not traced yet */
	uint32_t last = g->nblk ? g->blk[g->nblk - 1].first + g->blk[g->nblk - 1].n : 0;
	for (uint32_t i = 0; i < last; i++) {
		if (g->ev[i].dropped)
			continue;
		exp[nexp].addr = g->ev[i].exc ? 0 : g->ev[i].addr;
		exp[nexp++].exc = g->ev[i].exc;
	}
	long ngot = -1;
	if (!fail) {
		char cmd[1024];
		snprintf(cmd, sizeof(cmd), "trc_pkt_lister -ss_dir '%s' -decode_only -logstdout 2>&1",
			 dir);
		FILE *fp = popen(cmd, "r");
		if (fp) {
			ngot = parse_lister(fp, g, got, 4 * icap, msg, sizeof(msg));
			pclose(fp);
		}
		if (ngot < 0)
			fail = 1;
	}
	if (!fail) {
		size_t n = (size_t)ngot < nexp ? (size_t)ngot : nexp;
		for (size_t i = 0; i < n && !fail; i++)
			if (got[i].addr != exp[i].addr || got[i].exc != exp[i].exc) {
				snprintf(msg, sizeof(msg),
					 "item %zu: OpenCSD %s 0x%llx, executed %s 0x%llx", i,
					 got[i].exc ? "exception" : "insn",
					 (unsigned long long)(got[i].exc ? got[i].exc : got[i].addr),
					 exp[i].exc ? "exception" : "insn",
					 (unsigned long long)(exp[i].exc ? exp[i].exc : exp[i].addr));
				fail = 1;
			}
		if (!fail && (size_t)ngot != nexp) {
			snprintf(msg, sizeof(msg), "OpenCSD gave %ld items, executed %zu", ngot, nexp);
			fail = 1;
		}
	}
	if (fail)
		fprintf(stderr, "seed %llu (ETMCR 0x%08X ETMIDR 0x%08X %s): %s\n",
			(unsigned long long)seed, cfg.etmcr, cfg.etmidr, framed ? "frames" : "raw", msg);
	else if (verbose)
		printf("seed %llu: ETMCR 0x%08X %s, %zu bytes, %zu items agree\n",
		       (unsigned long long)seed, cfg.etmcr, framed ? "frames" : "raw", len, nexp);
	CHECK_EQ(fail, 0);
	free(exp);
	free(got);
	free(buf);
	pft_ptm_free(ptm);
	prog_fini(g);
	free(g);
	return fail;
}

int main(void)
{
	if (system("command -v trc_pkt_lister >/dev/null 2>&1") != 0) {
		printf("trc_pkt_lister not installed: skipped\n");
		return 77;
	}
	const char *build = getenv("PFT_BUILD");
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s/ptm_oracle_snapshot", build ? build : ".");
	uint64_t seed = check_seed(7);
	unsigned cases = 40, failed = 0;
	const char *one = getenv("PFT_PTM_CASE");
	if (one)
		return run_case(strtoull(one, NULL, 0), dir, 1) ? 1 : check_report();
	for (unsigned i = 0; i < cases; i++) {
		check_case("seed %llu", (unsigned long long)(seed * 1000003ull + i));
		failed += (unsigned)run_case(seed * 1000003ull + i, dir, i < 3);
	}
	check_case(NULL);
	printf("%u cases, %u disagree with OpenCSD\n", cases, failed);
	return check_report();
}
