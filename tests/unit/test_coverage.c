/* SPDX-License-Identifier: BSD-3-Clause */
/* Coverage counts from hand-made flow items: per-address counts, branch
 * outcomes from E/N atoms, conditional waypoints (condition field, Thumb IT
 * block, ever not taken), taken edges, gaps and what they could hide,
 * merging (A + B = the counts of A then B), and a range seen again with a
 * different length (rejected).  The real-trace checks (emulator logs, gcov,
 * DS-5's TC2 decode) are script tests: tests/coverage.cmake. */
#include <string.h>

#include "check.h"
#include "pft/pft.h"

static struct pft_flow_item range(uint64_t addr, const struct pft_insn *in, uint32_t n,
				  enum pft_isa isa, enum pft_range_end end)
{
	struct pft_flow_item it;

	memset(&it, 0, sizeof(it));
	it.kind = PFT_FLOW_RANGE;
	it.addr = addr;
	it.end = in[n - 1].addr + in[n - 1].size;
	it.insns = in;
	it.ninsns = n;
	it.isa = (uint8_t)isa;
	it.end_kind = (uint8_t)end;
	return it;
}

static struct pft_flow_item event(enum pft_flow_event type, uint64_t value, uint32_t flags)
{
	struct pft_flow_item it;

	memset(&it, 0, sizeof(it));
	it.kind = PFT_FLOW_EVENT;
	it.type = (uint16_t)type;
	it.value = value;
	it.flags = flags;
	it.offset = 100;
	return it;
}

/* A32: 0x1000 mov, 0x1004 cmp, 0x1008 bne 0x1000 (conditional direct);
 * 0x2000 mov, 0x2004 bl (unconditional). */
static const struct pft_insn arm_loop[] = {
	{ 0x1000, 0xe3a00000, 4, PFT_WP_NONE, 0 },
	{ 0x1004, 0xe3500000, 4, PFT_WP_NONE, 0 },
	{ 0x1008, 0x1afffffc, 4, PFT_WP_DIRECT, PFT_INSN_F_COND },
};
static const struct pft_insn arm_call[] = {
	{ 0x2000, 0xe3a00000, 4, PFT_WP_NONE, 0 },
	{ 0x2004, 0xeb000000, 4, PFT_WP_DIRECT, PFT_INSN_F_LINK },
};
/* T32: it eq; bxeq lr (a waypoint conditional only through the IT block) */
static const struct pft_insn thumb_it[] = {
	{ 0x3000, 0xbf08, 2, PFT_WP_NONE, PFT_INSN_F_IT },
	{ 0x3002, 0x4770, 2, PFT_WP_INDIRECT, 0 },
};
/* T32: bx lr alone, always taken: not conditional */
static const struct pft_insn thumb_ret[] = {
	{ 0x4000, 0x4770, 2, PFT_WP_INDIRECT, 0 },
};

static void feed(struct pft_cov *c)
{
	struct pft_flow_item it;
	int i;

	it = event(PFT_EV_TRACE_ON, 0, 0);
	CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	for (i = 0; i < 3; i++) { /* loop taken 3 times, then falls through */
		it = range(0x1000, arm_loop, 3, PFT_ISA_ARM, PFT_RANGE_TAKEN);
		CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	}
	it = range(0x1000, arm_loop, 3, PFT_ISA_ARM, PFT_RANGE_NOT_TAKEN);
	CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	it = range(0x2000, arm_call, 2, PFT_ISA_ARM, PFT_RANGE_TAKEN);
	CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	it = range(0x3000, thumb_it, 2, PFT_ISA_THUMB, PFT_RANGE_TAKEN);
	CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	it = range(0x4000, thumb_ret, 1, PFT_ISA_THUMB, PFT_RANGE_TAKEN);
	CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	/* an exception between: no edge from 0x4000 */
	it = event(PFT_EV_EXCEPTION, 2, 0);
	CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	it = range(0x2000, arm_call, 2, PFT_ISA_ARM, PFT_RANGE_MORE);
	CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	/* gaps: 10 unsynced bytes; address lost, then 3 atoms without address */
	it = event(PFT_EV_UNSYNCED, 10, 0);
	CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	it = event(PFT_EV_LOST, 0, 0);
	it.reason = PFT_LOST_RSTACK_EMPTY;
	CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	for (i = 0; i < 3; i++) {
		it = event(PFT_EV_NO_ADDRESS, 0, PFT_FLOW_F_ATOM | PFT_FLOW_F_TAKEN);
		CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	}
	it = event(PFT_EV_TRACE_ON, 0, 0);
	CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
	it = event(PFT_EV_NO_ADDRESS, 0, PFT_FLOW_F_ATOM);
	CHECK_EQ(pft_cov_put(c, &it, sizeof it), 0);
}

static struct pft_cov_insn at(struct pft_cov *c, uint64_t addr)
{
	struct pft_cov_insn ci;
	long i = pft_cov_insn_find(c, addr);

	memset(&ci, 0, sizeof(ci));
	CHECK(i >= 0);
	if (i >= 0)
		CHECK_EQ(pft_cov_insn_at(c, (size_t)i, &ci, sizeof(ci)), 0);
	return ci;
}

static void check_counts(struct pft_cov *c, uint64_t k)
{
	struct pft_cov_insn ci;
	struct pft_cov_edge e;
	struct pft_cov_totals t;
	long n = pft_cov_insn_count(c), i;

	CHECK_EQ(n, 3 + 2 + 2 + 1);
	for (i = 1; i < n; i++) { /* address order */
		struct pft_cov_insn a, b;

		pft_cov_insn_at(c, (size_t)i - 1, &a, sizeof(a));
		pft_cov_insn_at(c, (size_t)i, &b, sizeof(b));
		CHECK(a.addr < b.addr);
	}
	ci = at(c, 0x1004);
	CHECK_EQ(ci.count, 4 * k);
	CHECK_EQ(ci.flags, 0);
	ci = at(c, 0x1008);
	CHECK_EQ(ci.count, 4 * k);
	CHECK_EQ(ci.taken, 3 * k);
	CHECK_EQ(ci.not_taken, 1 * k);
	CHECK_EQ(ci.flags, PFT_COV_F_WAYPOINT | PFT_COV_F_COND);
	ci = at(c, 0x2004);
	CHECK_EQ(ci.count, 2 * k);
	CHECK_EQ(ci.taken, 1 * k); /* the second run stopped before its waypoint */
	CHECK_EQ(ci.flags, PFT_COV_F_WAYPOINT | PFT_COV_F_LINK);
	ci = at(c, 0x3002);
	CHECK_EQ(ci.flags, PFT_COV_F_WAYPOINT | PFT_COV_F_COND | PFT_COV_F_INDIRECT);
	CHECK_EQ(ci.isa, PFT_ISA_THUMB);
	CHECK_EQ(ci.size, 2);
	ci = at(c, 0x4000);
	CHECK_EQ(ci.flags, PFT_COV_F_WAYPOINT | PFT_COV_F_INDIRECT);
	CHECK_EQ(pft_cov_insn_find(c, 0x100C), -PFT_E_NOTFOUND);
	/* edges: 0x1008->0x1000 twice (the third taken run is followed by the
	 * not-taken run at 0x1000 too: three), 0x2004->0x3000, 0x3002->0x4000 */
	CHECK_EQ(pft_cov_edge_count(c), 3);
	CHECK_EQ(pft_cov_edge_at(c, 0, &e, sizeof(e)), 0);
	CHECK(e.from == 0x1008 && e.to == 0x1000 && e.count == 3 * k);
	CHECK_EQ(pft_cov_edge_at(c, 1, &e, sizeof(e)), 0);
	CHECK(e.from == 0x2004 && e.to == 0x3000 && e.count == k);
	CHECK_EQ(pft_cov_edge_at(c, 2, &e, sizeof(e)), 0);
	CHECK(e.from == 0x3002 && e.to == 0x4000 && e.to_isa == PFT_ISA_THUMB);
	CHECK_EQ(pft_cov_edge_at(c, 3, &e, sizeof(e)), -PFT_E_INVAL);
	CHECK_EQ(pft_cov_get_totals(c, &t, sizeof(t)), 0);
	CHECK_EQ(t.insns, (12 + 4 + 2 + 1) * k);
	CHECK_EQ(t.inputs, k);
	CHECK_EQ(t.gaps, 3 * k);
	CHECK_EQ(t.gap_bytes, 10 * k);
	CHECK_EQ(t.gap_atoms, 4 * k);
	CHECK_EQ(t.waypoints_taken, 6 * k);
	CHECK_EQ(t.waypoints_not_taken, k);
}

static void check_gaps(struct pft_cov *c)
{
	struct pft_cov_gap g;

	CHECK_EQ(pft_cov_gap_count(c), 3);
	CHECK_EQ(pft_cov_gap_at(c, 0, &g, sizeof(g)), 0);
	CHECK(g.type == PFT_EV_UNSYNCED && g.bytes == 10 && g.atoms == 0);
	CHECK_EQ(g.max_insns, 10ull * 5 * PFT_COV_MAX_RUN);
	CHECK_EQ(pft_cov_gap_at(c, 1, &g, sizeof(g)), 0);
	CHECK(g.type == PFT_EV_LOST && g.reason == PFT_LOST_RSTACK_EMPTY && g.atoms == 3);
	CHECK_EQ(g.max_insns, 3ull * PFT_COV_MAX_RUN);
	CHECK_EQ(pft_cov_gap_at(c, 2, &g, sizeof(g)), 0);
	CHECK(g.type == PFT_EV_NO_ADDRESS && g.atoms == 1);
	CHECK_EQ(pft_cov_gap_at(c, 3, &g, sizeof(g)), -PFT_E_INVAL);
}

int main(void)
{
	struct pft_cov *a = pft_cov_alloc(), *b = pft_cov_alloc(), *ab = pft_cov_alloc();
	struct pft_flow_item it;
	struct pft_insn bad[2];

	feed(a);
	check_counts(a, 1);
	check_gaps(a);
	/* merging: a + b == one object fed twice, counts doubled */
	feed(b);
	CHECK_EQ(pft_cov_merge(ab, a), 0);
	CHECK_EQ(pft_cov_merge(ab, b), 0);
	/* ab had no input of its own: its inputs are a's and b's */
	{
		struct pft_cov_totals t;

		pft_cov_get_totals(ab, &t, sizeof(t));
		CHECK_EQ(t.inputs, 2);
	}
	CHECK_EQ(pft_cov_merge(a, b), 0);
	check_counts(a, 2);
	CHECK_EQ(pft_cov_merge(a, a), -PFT_E_INVAL);
	/* after more input the table is rebuilt */
	it = range(0x4000, thumb_ret, 1, PFT_ISA_THUMB, PFT_RANGE_TAKEN);
	CHECK_EQ(pft_cov_put(a, &it, sizeof it), 0);
	CHECK_EQ(pft_cov_insn_count(a), 8);
	CHECK_EQ(at(a, 0x4000).count, 3);
	/* the same start, end and ISA with another instruction count */
	memcpy(bad, arm_call, sizeof(bad));
	it = range(0x2000, bad, 2, PFT_ISA_ARM, PFT_RANGE_TAKEN);
	it.ninsns = 1;
	it.end = 0x2008;
	CHECK_EQ(pft_cov_put(a, &it, sizeof it), -PFT_E_INVAL);
	CHECK_EQ(pft_cov_put(NULL, &it, sizeof it), -PFT_E_INVAL);
	CHECK_EQ(pft_cov_insn_count(NULL), -PFT_E_INVAL);
	pft_cov_free(a);
	pft_cov_free(b);
	pft_cov_free(ab);
	return check_report();
}
