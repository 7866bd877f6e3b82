/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM hardware fidelity: TC2, trace ID 0x13 (Cortex-A15 PTM,
 * PFTv1.1, cycle-accurate, timestamps).  The execution that the capture
 * describes (as the flow decoder reconstructs it; test_flow_tc2 checks that
 * reconstruction row by row against ARM DS-5's decode) drives the model:
 * every instruction with its taken/not-taken outcome and cycle count, the
 * trace-off/trace-on points (TraceEnable driven through external input 1,
 * with one untraced waypoint in each gap carrying the I-sync cycle count),
 * exceptions, exception returns, timestamps.  The atoms, branch addresses,
 * waypoint updates, exceptions, exception returns and trace-on I-syncs the
 * model emits must equal the captured packets byte for byte.  Periodic
 * A-sync/I-sync and timestamps depend on implementation timing: they are
 * left out of the comparison and their placements are listed; a branch
 * packet whose compression base differs only because a periodic I-sync was
 * placed differently is compared by its fields and listed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/pft.h"
#include "tc2.h"

struct pk {
	struct pft_packet k;
};

struct plist {
	struct pft_packet *p;
	size_t n, cap;
};

static int collect(const struct pft_packet *k, void *arg)
{
	struct plist *l = arg;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->p = realloc(l->p, l->cap * sizeof(*l->p));
	}
	l->p[l->n++] = *k;
	return 0;
}

struct items {
	struct pft_flow_item *it;
	struct pft_insn **ins;
	size_t n, cap;
};

static void add_item(struct items *v, const struct pft_flow_item *it)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->it = realloc(v->it, v->cap * sizeof(*v->it));
		v->ins = realloc(v->ins, v->cap * sizeof(*v->ins));
	}
	v->it[v->n] = *it;
	v->ins[v->n] = NULL;
	if (it->kind == PFT_FLOW_RANGE && it->ninsns) {
		v->ins[v->n] = malloc(it->ninsns * sizeof(struct pft_insn));
		memcpy(v->ins[v->n], it->insns, it->ninsns * sizeof(struct pft_insn));
	}
	v->n++;
}

/* Is a packet one whose placement depends on implementation timing? */
static int timing_pkt(const struct pft_packet *k)
{
	return k->type == PFT_PKT_ASYNC || k->type == PFT_PKT_TIMESTAMP ||
	       (k->type == PFT_PKT_ISYNC && k->reason == PFT_ISYNC_PERIODIC) ||
	       k->type == PFT_PKT_IGNORE || k->type == PFT_PKT_UNSYNCED;
}

int main(void)
{
	size_t slen = 0;
	struct pft_config cfg;
	struct items v;
	memset(&v, 0, sizeof(v));

	uint8_t *s = tc2_stream(0x13, &slen);
	if (!s)
		return check_report();
	CHECK_EQ(slen, 4533);
	struct pft_image *img = pft_image_alloc();
	tc2_add_kernel(img);
	cfg = tc2_ptm_config();

	struct plist a, b;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	pft_pkt_decode_buffer(&cfg, s, (size_t)slen, collect, &a);

	/* the execution */
	struct pft_flow_decoder *d = pft_flow_decoder_alloc(&cfg, img);
	struct pft_flow_item it;
	pft_flow_decoder_feed(d, s, (size_t)slen);
	pft_flow_decoder_end(d);
	while (pft_flow_decoder_next(d, &it, sizeof(it)) == 0)
		add_item(&v, &it);
	pft_flow_decoder_free(d);

	/* timestamps: the value each waypoint had, from the captured ones
	 * (a timestamp is that of the last traced waypoint, 4.14) */
	uint64_t *ts_at = calloc(v.n + 1, sizeof(*ts_at));
	{
		uint64_t ts = 0;
		for (size_t i = v.n; i-- > 0;) {
			if (v.it[i].kind == PFT_FLOW_EVENT && v.it[i].type == PFT_EV_TIMESTAMP)
				ts = v.it[i].value;
			ts_at[i] = ts;
		}
		/* forward fill where no later timestamp exists */
		for (size_t i = 1; i < v.n; i++)
			if (!ts_at[i])
				ts_at[i] = ts_at[i - 1];
	}

	/* the model: TraceEnable = external input 1 */
	struct pft_ptm *ptm = pft_ptm_alloc(&cfg, NULL);
	CHECK(ptm != NULL);
	if (!ptm)
		return check_report();
	pft_ptm_set_reg(ptm, PFT_PTM_ETMSYNCFR, 0); /* periodic sync is timing: none */
	pft_ptm_set_reg(ptm, PFT_PTM_ETMTEEVR, PFT_PTM_EVENT(0, 0, PFT_PTM_RES_EXTIN(1)));
	uint64_t cum = 0;
	uint32_t cid = 0;
	uint64_t fake = 0xBF000000u; /* addresses for code the image does not hold */
	uint8_t isa = PFT_ISA_THUMB;
	int started = 0, fed_err = 0;
	pft_ptm_set_inputs(ptm, 1, NULL, 0);

	for (size_t i = 0; i < v.n; i++) {
		const struct pft_flow_item *x = &v.it[i];
		struct pft_ptm_insn in;
		if (x->kind == PFT_FLOW_RANGE) {
			uint64_t c0 = cum;
			if (x->flags & PFT_FLOW_F_CC)
				cum += x->cycles;
			if (x->flags & PFT_FLOW_F_CID)
				cid = x->context_id;
			isa = x->isa;
			for (uint32_t j = 0; j < x->ninsns; j++) {
				const struct pft_insn *pi = &v.ins[i][j];
				int last = j + 1 == x->ninsns;
				memset(&in, 0, sizeof(in));
				in.addr = pi->addr;
				in.size = pi->size;
				in.opcode = pi->opcode;
				in.isa = x->isa;
				in.next_isa = x->isa;
				in.next_addr = pi->addr + pi->size;
				in.context_id = cid;
				in.cycle = last ? cum : c0;
				in.flags = PFT_PTM_I_CLASSIFY;
				if (last && x->end_kind == PFT_RANGE_TAKEN && (x->flags & PFT_FLOW_F_NEXT)) {
					in.next_addr = x->next;
					in.next_isa = x->next_isa;
				}
				if (last && x->end_kind == PFT_RANGE_NOT_TAKEN)
					in.flags |= PFT_PTM_I_COND_FAILED;
				pft_ptm_timestamp(ptm, ts_at[i], 0);
				if (pft_ptm_insn(ptm, &in) < 0)
					fed_err++;
			}
			started = 1;
			continue;
		}
		switch (x->type) {
		case PFT_EV_TRACE_ON:
			if (!started) {
				/* the capture starts here: the model is enabled at it */
				cum += (x->flags & PFT_FLOW_F_CC) ? x->cycles : 0;
				break;
			}
			/* a gap: one untraced waypoint, whose cycle the I-sync
			 * counts, then trace on at the I-sync address */
			pft_ptm_set_inputs(ptm, 0, NULL, cum);
			if (x->flags & PFT_FLOW_F_CC)
				cum += x->cycles;
			memset(&in, 0, sizeof(in));
			in.addr = fake;
			in.size = 4;
			in.isa = PFT_ISA_ARM;
			in.wp_class = PFT_WP_INDIRECT;
			in.next_addr = x->addr;
			in.next_isa = x->isa;
			in.cycle = cum;
			in.context_id = cid;
			if (pft_ptm_insn(ptm, &in) < 0)
				fed_err++;
			pft_ptm_set_inputs(ptm, 1, NULL, cum);
			fake += 0x100;
			break;
		case PFT_EV_MEM_NACC:
		case PFT_EV_NO_ADDRESS:
			if (!(x->flags & PFT_FLOW_F_ATOM))
				break;
			/* an atom for code the image does not hold: a stand-in
			 * waypoint with the same outcome and cycle count */
			if (x->flags & PFT_FLOW_F_CC)
				cum += x->cycles;
			memset(&in, 0, sizeof(in));
			in.addr = x->type == PFT_EV_MEM_NACC ? x->addr : fake;
			in.isa = x->type == PFT_EV_MEM_NACC ? x->isa : isa;
			in.size = 4;
			in.next_isa = in.isa;
			in.wp_class = (x->flags & PFT_FLOW_F_BRANCH) ? PFT_WP_INDIRECT : PFT_WP_DIRECT;
			in.next_addr = fake + 0x10;
			if (!(x->flags & PFT_FLOW_F_TAKEN))
				in.flags |= PFT_PTM_I_COND_FAILED;
			in.cycle = cum;
			in.context_id = cid;
			if (x->flags & PFT_FLOW_F_BRANCH) {
				/* the target is the captured branch packet's */
				for (size_t k = 0; k < a.n; k++)
					if (a.p[k].offset == x->offset && a.p[k].type == PFT_PKT_BRANCH) {
						in.next_addr = a.p[k].address;
						in.next_isa = a.p[k].isa;
						break;
					}
			}
			in.addr &= in.isa == PFT_ISA_ARM ? ~3ull : ~1ull;
			pft_ptm_timestamp(ptm, ts_at[i], 0);
			if (pft_ptm_insn(ptm, &in) < 0)
				fed_err++;
			fake += 0x100;
			break;
		case PFT_EV_EXCEPTION: {
			struct pft_ptm_exception e;
			memset(&e, 0, sizeof(e));
			if (x->flags & PFT_FLOW_F_CC)
				cum += x->cycles;
			e.type = (uint16_t)x->value;
			e.vector = x->addr;
			e.isa = x->isa;
			e.cycle = cum;
			e.context_id = cid;
			e.flags = (uint8_t)(((x->flags & PFT_FLOW_F_NS) ? PFT_PTM_E_NS : 0) |
					    ((x->flags & PFT_FLOW_F_HYP) ? PFT_PTM_E_HYP : 0));
			if (pft_ptm_exception(ptm, &e) < 0)
				fed_err++;
			break;
		}
		case PFT_EV_CONTEXT_ID:
			cid = (uint32_t)x->value;
			break;
		default:
			break;
		}
	}
	CHECK_EQ(fed_err, 0);
	pft_ptm_flush(ptm);
	size_t olen = pft_ptm_pending(ptm);
	uint8_t *out = malloc(olen + 1);
	olen = pft_ptm_read(ptm, out, olen);

	/* compare */
	pft_pkt_decode_buffer(&cfg, out, olen, collect, &b);
	size_t ia = 0, ib = 0, same = 0, diff = 0, fields_only = 0, timing_a = 0, timing_b = 0;
	uint64_t base_a = 0, base_b = 0;
	/* start at the first instruction packet of each stream */
	while (ia < a.n && a.p[ia].type != PFT_PKT_ATOM && a.p[ia].type != PFT_PKT_BRANCH)
		ia++;
	while (ib < b.n && b.p[ib].type != PFT_PKT_ATOM && b.p[ib].type != PFT_PKT_BRANCH)
		ib++;
	base_a = base_b = 1; /* unknown: compare fields until both bases are known */
	for (;;) {
		while (ia < a.n && timing_pkt(&a.p[ia])) {
			if (a.p[ia].type == PFT_PKT_ISYNC) {
				base_a = a.p[ia].address;
				printf("capture: periodic I-sync at offset %llu\n",
				       (unsigned long long)a.p[ia].offset);
			}
			timing_a++;
			ia++;
		}
		while (ib < b.n && timing_pkt(&b.p[ib])) {
			if (b.p[ib].type == PFT_PKT_ISYNC)
				base_b = b.p[ib].address;
			timing_b++;
			ib++;
		}
		if (ia >= a.n || ib >= b.n)
			break;
		const struct pft_packet *pa = &a.p[ia], *pb = &b.p[ib];
		int eq = pa->type == pb->type && pa->size == pb->size &&
			 !memcmp(pa->bytes, pb->bytes, pa->nbytes);
		if (!eq && pa->type == pb->type && pa->type == PFT_PKT_BRANCH &&
		    (base_a != base_b) && pa->address == pb->address &&
		    pa->exception == pb->exception && pa->cycles == pb->cycles) {
			fields_only++;
			printf("offset %llu: branch 0x%llx compressed against a different base "
			       "(periodic I-sync placement): %u vs %u bytes\n",
			       (unsigned long long)pa->offset, (unsigned long long)pa->address,
			       pa->size, pb->size);
			eq = 1;
		}
		if (eq) {
			same++;
		} else {
			if (diff++ < 10)
				fprintf(stderr,
					"capture offset %llu %s (%u bytes) != model offset %llu %s (%u bytes)\n",
					(unsigned long long)pa->offset, pft_pkt_type_name(pa->type), pa->size,
					(unsigned long long)pb->offset, pft_pkt_type_name(pb->type), pb->size);
		}
		if (pa->type == PFT_PKT_ISYNC || pa->type == PFT_PKT_BRANCH ||
		    pa->type == PFT_PKT_WAYPOINT_UPDATE)
			base_a = pa->address;
		if (pb->type == PFT_PKT_ISYNC || pb->type == PFT_PKT_BRANCH ||
		    pb->type == PFT_PKT_WAYPOINT_UPDATE)
			base_b = pb->address;
		ia++;
		ib++;
	}
	/* what is left must be timing packets only */
	size_t rest = 0;
	for (; ia < a.n; ia++)
		rest += !timing_pkt(&a.p[ia]);
	for (; ib < b.n; ib++)
		rest += !timing_pkt(&b.p[ib]);
	printf("TC2 0x13: %zu packets equal byte for byte, %zu branch packets equal in their fields "
	       "only, %zu different, %zu unmatched; timing packets left out: %zu captured, %zu "
	       "modelled\n",
	       same, fields_only, diff, rest, timing_a, timing_b);
	CHECK_EQ(diff, 0);
	CHECK_EQ(rest, 0);
	CHECK(same > 1500);
	for (size_t i = 0; i < v.n; i++)
		free(v.ins[i]);
	free(v.it);
	free(v.ins);
	free(ts_at);
	free(a.p);
	free(b.p);
	free(out);
	pft_ptm_free(ptm);
	pft_image_free(img);
	free(s);
	return check_report();
}
