/* SPDX-License-Identifier: BSD-3-Clause */
/* pft coverage --format ranges | insns | autofdo: address-level output for
 * code without DWARF (a kernel dump, a stripped library) and for profiles.
 *   ranges   "START END ISA NINSNS COUNT [<symbol+0xOFF>]": maximal runs of
 *            adjacent instructions executed equally often, within one
 *            symbol (END exclusive)
 *   insns    "ADDR ISA COUNT TAKEN NOT_TAKEN [c]" per executed instruction
 *            (c: a conditional waypoint)
 *   autofdo  the text profile create_llvm_prof --profiler=text reads:
 *            ranges "BEGIN-END:COUNT" (END = address of the run's last
 *            instruction), no sampled addresses, taken branches
 *            "FROM->TO:COUNT"; hexadecimal, relative to the lowest PT_LOAD
 *            address of the program (the convention of autofdo 0.19). */
#include <inttypes.h>
#include <stdlib.h>

#include "cov_out.h"

struct run {
	uint64_t start, last, end, count, n;
	uint8_t isa;
};

/* Does a symbol start at addr?  Runs end there: a profile tool gives a
 * range to the function its first address is in. */
static int symbol_starts(const struct cov_ctx *c, uint64_t addr)
{
	struct pft_dbg_symbol s;

	return pft_dbg_symbol(c->dbg, addr, &s, sizeof(s)) == 0 && s.addr == addr;
}

/* Calls fn for every run. */
static long each_run(const struct cov_ctx *c, void (*fn)(void *, const struct run *), void *arg)
{
	long n = pft_cov_insn_count(c->cov), i, runs = 0;
	struct run r = { 0, 0, 0, 0, 0, 0 };

	for (i = 0; i < n; i++) {
		struct pft_cov_insn ci;

		pft_cov_insn_at(c->cov, (size_t)i, &ci, sizeof(ci));
		if (r.n && ci.addr == r.end && ci.isa == r.isa && ci.count == r.count &&
		    !symbol_starts(c, ci.addr)) {
			r.last = ci.addr;
			r.end = ci.addr + ci.size;
			r.n++;
			continue;
		}
		if (r.n) {
			fn(arg, &r);
			runs++;
		}
		r.start = r.last = ci.addr;
		r.end = ci.addr + ci.size;
		r.count = ci.count;
		r.isa = ci.isa;
		r.n = 1;
	}
	if (r.n) {
		fn(arg, &r);
		runs++;
	}
	return runs;
}

struct range_out {
	FILE *f;
	const struct cov_ctx *c;
};

static void put_range(void *arg, const struct run *r)
{
	struct range_out *o = arg;
	struct pft_dbg_symbol s;

	fprintf(o->f, "%08" PRIx64 " %08" PRIx64 " %s %" PRIu64 " %" PRIu64, r->start, r->end,
		pft_isa_name((enum pft_isa)r->isa), r->n, r->count);
	if (pft_dbg_symbol(o->c->dbg, r->start, &s, sizeof(s)) == 0)
		fprintf(o->f, " <%s+0x%" PRIx64 ">", s.name, r->start - s.addr);
	fputc('\n', o->f);
}

int cov_write_ranges(FILE *f, const struct cov_ctx *c)
{
	struct range_out o = { f, c };
	struct pft_cov_totals t;

	pft_cov_get_totals(c->cov, &t, sizeof(t));
	fprintf(f, "# pft coverage: %ld instructions at %ld addresses executed, %" PRIu64
		" inputs\n# start    end      isa ninsns count\n",
		(long)t.insns, pft_cov_insn_count(c->cov), t.inputs);
	each_run(c, put_range, &o);
	cov_write_gaps(f, c, "# ");
	return ferror(f) ? -1 : 0;
}

int cov_write_insns(FILE *f, const struct cov_ctx *c)
{
	long n = pft_cov_insn_count(c->cov), i;

	for (i = 0; i < n; i++) {
		struct pft_cov_insn ci;

		pft_cov_insn_at(c->cov, (size_t)i, &ci, sizeof(ci));
		fprintf(f, "%08" PRIx64 " %s %" PRIu64 " %" PRIu64 " %" PRIu64 "%s\n", ci.addr,
			pft_isa_name((enum pft_isa)ci.isa), ci.count, ci.taken, ci.not_taken,
			(ci.flags & PFT_COV_F_COND) ? " c" : "");
	}
	return ferror(f) ? -1 : 0;
}

static void count_run(void *arg, const struct run *r)
{
	(void)arg;
	(void)r;
}

static void put_afdo(void *arg, const struct run *r)
{
	struct range_out *o = arg;

	fprintf(o->f, "%" PRIx64 "-%" PRIx64 ":%" PRIu64 "\n", r->start - o->c->autofdo_base,
		r->last - o->c->autofdo_base, r->count);
}

int cov_write_autofdo(FILE *f, const struct cov_ctx *c)
{
	struct range_out o = { f, c };
	long n = each_run(c, count_run, NULL), i, ne = pft_cov_edge_count(c->cov);

	fprintf(f, "%ld\n", n);
	each_run(c, put_afdo, &o);
	fprintf(f, "0\n%ld\n", ne);
	for (i = 0; i < ne; i++) {
		struct pft_cov_edge e;

		pft_cov_edge_at(c->cov, (size_t)i, &e, sizeof(e));
		fprintf(f, "%" PRIx64 "->%" PRIx64 ":%" PRIu64 "\n", e.from - c->autofdo_base,
			e.to - c->autofdo_base, e.count);
	}
	return ferror(f) ? -1 : 0;
}

void cov_write_gaps(FILE *f, const struct cov_ctx *c, const char *prefix)
{
	size_t i, n = pft_cov_gap_count(c->cov);
	struct pft_cov_totals t;

	pft_cov_get_totals(c->cov, &t, sizeof(t));
	for (i = 0; i < n; i++) {
		struct pft_cov_gap g;
		const char *why = "";

		pft_cov_gap_at(c->cov, i, &g, sizeof(g));
		if (g.type == PFT_EV_LOST)
			why = pft_flow_lost_name((enum pft_flow_lost)g.reason);
		else if (g.type == PFT_EV_PACKET_ERROR)
			why = pft_pkt_error_name((enum pft_pkt_error)g.reason);
		fprintf(f, "%sgap @%" PRIu64 ": %s%s%s", prefix, g.offset,
			pft_flow_event_name((enum pft_flow_event)g.type), why[0] ? " " : "", why);
		if (g.addr)
			fprintf(f, " at %08" PRIx64, g.addr);
		fprintf(f, ", %" PRIu64 " bytes and %" PRIu64 " atoms not followed: up to %" PRIu64
			" instructions missing\n", g.bytes, g.atoms, g.max_insns);
	}
	fprintf(f, "%s%" PRIu64 " gaps: %" PRIu64 " trace bytes and %" PRIu64
		" atoms not followed, up to %" PRIu64 " instructions missing from the counts\n",
		prefix, t.gaps, t.gap_bytes, t.gap_atoms, t.gap_max_insns);
}
