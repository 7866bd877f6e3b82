/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode: output formats.  Every format is line-oriented and stable;
 * doc/decode.md documents them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

struct decode_out {
	FILE *f;
	enum decode_format fmt;
	int disasm;
	struct decode_disasm *dis;
	const struct pft_dbg *dbg;
	/* --ranges: the run being merged */
	int pending;
	struct pft_flow_item run;
	uint64_t run_ninsns;
	/* --id all: what starts every line ("" when one source) */
	char ptext[80], pjson[112];
};

struct decode_out *decode_out_open(FILE *f, enum decode_format fmt, int disasm,
				   const struct pft_dbg *dbg)
{
	struct decode_out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->f = f;
	o->fmt = fmt;
	o->dbg = dbg;
	o->disasm = disasm && (fmt == DECODE_TEXT || fmt == DECODE_JSON);
	if (o->disasm) {
		o->dis = decode_disasm_open();
		if (!o->dis) {
			free(o);
			return NULL;
		}
	}
	return o;
}

struct decode_out *decode_out_like(const struct decode_out *o, FILE *f)
{
	struct decode_out *c = decode_out_open(f, o->fmt, o->disasm, o->dbg);

	if (c) {
		memcpy(c->ptext, o->ptext, sizeof c->ptext);
		memcpy(c->pjson, o->pjson, sizeof c->pjson);
	}
	return c;
}

void decode_out_get_it(const struct decode_out *o, struct decode_it *st)
{
	if (o->dis)
		decode_disasm_get_it(o->dis, st);
	else
		st->n = 0;
}

void decode_out_set_it(struct decode_out *o, const struct decode_it *st)
{
	if (o->dis)
		decode_disasm_set_it(o->dis, st);
}

FILE *decode_out_file(const struct decode_out *o)
{
	return o->f;
}

void decode_out_set_source(struct decode_out *o, unsigned trace_id, const char *name)
{
	size_t i, n;

	if (name && *name) {
		snprintf(o->ptext, sizeof o->ptext, "0x%02X %s ", trace_id, name);
		n = (size_t)snprintf(o->pjson, sizeof o->pjson, "\"trace_id\":%u,\"source\":\"", trace_id);
		for (i = 0; name[i] && n + 4 < sizeof o->pjson; i++) /* snapshot names: no quotes */
			if ((unsigned char)name[i] >= 0x20 && name[i] != '"' && name[i] != '\\')
				o->pjson[n++] = name[i];
		snprintf(o->pjson + n, sizeof o->pjson - n, "\",");
	} else {
		snprintf(o->ptext, sizeof o->ptext, "0x%02X ", trace_id);
		snprintf(o->pjson, sizeof o->pjson, "\"trace_id\":%u,", trace_id);
	}
}

/* The start of a line: the source (--id all), then for JSON the brace. */
static void line_text(struct decode_out *o)
{
	fputs(o->ptext, o->f);
}

static void line_json(struct decode_out *o)
{
	fputc('{', o->f);
	fputs(o->pjson, o->f);
}

void decode_out_close(struct decode_out *o)
{
	if (!o)
		return;
	decode_disasm_close(o->dis);
	free(o);
}

static const char *isa_name(unsigned isa)
{
	return pft_isa_name((enum pft_isa)isa);
}

/* JSON string body (quotes and backslashes escaped, control bytes dropped) */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

/* ---- events: one list of fields for both text and JSON ---- */

enum fkind { F_HEX, F_DEC, F_STR, F_BOOL };
struct field {
	const char *key;
	enum fkind kind;
	uint64_t v;
	const char *s;
};

#define ADD(k, t, val, str)                                         \
	do {                                                        \
		fl[n].key = (k);                                    \
		fl[n].kind = (t);                                   \
		fl[n].v = (val);                                    \
		fl[n].s = (str);                                    \
		n++;                                                \
	} while (0)

static size_t event_fields(const struct pft_flow_item *it, struct field *fl)
{
	size_t n = 0;
	int addr = (it->flags & PFT_FLOW_F_ADDR) != 0;
	int atom = (it->flags & PFT_FLOW_F_ATOM) != 0;

	ADD("offset", F_DEC, it->offset, NULL);
	ADD("index", F_DEC, it->index, NULL);
	switch (it->type) {
	case PFT_EV_TRACE_ON:
	case PFT_EV_SYNC_MISMATCH:
		ADD("reason", F_STR, 0, pft_isync_reason_name((enum pft_isync_reason)it->reason));
		break;
	case PFT_EV_EXCEPTION:
		ADD("exception", F_DEC, it->value, NULL);
		ADD("name", F_STR, 0, pft_exception_name((unsigned)it->value));
		break;
	case PFT_EV_CONTEXT_ID:
		ADD("context_id", F_HEX, it->value, NULL);
		break;
	case PFT_EV_VMID:
		ADD("vmid", F_HEX, it->value, NULL);
		break;
	case PFT_EV_TIMESTAMP:
		ADD("timestamp", F_DEC, it->value, NULL);
		if (it->flags & PFT_FLOW_F_TS_R)
			ADD("clock_change", F_BOOL, 1, NULL);
		break;
	case PFT_EV_LOST:
		ADD("reason", F_STR, 0, pft_flow_lost_name((enum pft_flow_lost)it->reason));
		break;
	case PFT_EV_INCONSISTENT:
		ADD("reason", F_STR, 0,
		    pft_flow_inconsistent_name((enum pft_flow_inconsistent)it->reason));
		break;
	case PFT_EV_PACKET_ERROR:
		ADD("reason", F_STR, 0, (it->flags & PFT_FLOW_F_ETM3) ?
		    pft_etm3_error_name((enum pft_etm3_error)it->reason) :
		    pft_pkt_error_name((enum pft_pkt_error)it->reason));
		ADD("size", F_DEC, it->value, NULL);
		break;
	case PFT_EV_UNSYNCED:
		ADD("size", F_DEC, it->value, NULL);
		break;
	default:
		break;
	}
	if (addr) {
		ADD("addr", F_HEX, it->addr, NULL);
		ADD("isa", F_STR, 0, isa_name(it->isa));
	}
	if (it->type == PFT_EV_TRACE_ON || it->type == PFT_EV_EXCEPTION ||
	    it->type == PFT_EV_SECURITY || it->type == PFT_EV_SYNC_MISMATCH) {
		ADD("ns", F_BOOL, (it->flags & PFT_FLOW_F_NS) != 0, NULL);
		ADD("hyp", F_BOOL, (it->flags & PFT_FLOW_F_HYP) != 0, NULL);
	}
	if (it->type == PFT_EV_TRACE_ON && (it->flags & PFT_FLOW_F_CID))
		ADD("context_id", F_HEX, it->context_id, NULL);
	if (it->flags & PFT_FLOW_F_NEXT) {
		const char *k = it->type == PFT_EV_EXCEPTION ? "return" : "expected";

		ADD(k, F_HEX, it->next, NULL);
		ADD(it->type == PFT_EV_EXCEPTION ? "return_isa" : "expected_isa", F_STR, 0,
		    isa_name(it->next_isa));
	}
	if (atom) {
		int taken = (it->flags & PFT_FLOW_F_TAKEN) != 0;

		ADD("atom", F_STR, 0, taken ? "E" : "N");
		ADD("taken", F_BOOL, taken, NULL);
		ADD("cond_failed", F_BOOL, !taken, NULL);
		if (it->flags & PFT_FLOW_F_BRANCH)
			ADD("branch_packet", F_BOOL, 1, NULL);
	}
	if (it->flags & PFT_FLOW_F_WPU)
		ADD("waypoint_update", F_BOOL, 1, NULL);
	if (it->flags & PFT_FLOW_F_CC)
		ADD("cycles", F_DEC, it->cycles, NULL);
	return n;
}

static void put_event(struct decode_out *o, const struct pft_flow_item *it)
{
	struct field fl[24];
	size_t i, n = event_fields(it, fl);
	const char *name = pft_flow_event_name((enum pft_flow_event)it->type);

	if (o->fmt == DECODE_JSON || o->fmt == DECODE_JSON_RANGES) {
		line_json(o);
		fprintf(o->f, "\"event\":\"%s\"", name);
		for (i = 0; i < n; i++) {
			fprintf(o->f, ",\"%s\":", fl[i].key);
			switch (fl[i].kind) {
			case F_HEX:
				fprintf(o->f, "\"0x%" PRIx64 "\"", fl[i].v);
				break;
			case F_DEC:
				fprintf(o->f, "%" PRIu64, fl[i].v);
				break;
			case F_STR:
				json_str(o->f, fl[i].s);
				break;
			case F_BOOL:
				fputs(fl[i].v ? "true" : "false", o->f);
				break;
			}
		}
		fputs("}\n", o->f);
		return;
	}
	line_text(o);
	fprintf(o->f, "-- %s", name);
	for (i = 2; i < n; i++) { /* offset and index go last in text */
		switch (fl[i].kind) {
		case F_HEX:
			fprintf(o->f, " %s=%" PRIx64, fl[i].key, fl[i].v);
			break;
		case F_DEC:
			fprintf(o->f, " %s=%" PRIu64, fl[i].key, fl[i].v);
			break;
		case F_STR:
			fprintf(o->f, " %s=%s", fl[i].key, fl[i].s);
			break;
		case F_BOOL:
			fprintf(o->f, " %s=%s", fl[i].key, fl[i].v ? "yes" : "no");
			break;
		}
	}
	fprintf(o->f, " @%" PRIu64 "\n", it->offset);
}

/* ---- instructions ---- */

static void opcode_str(const struct pft_insn *in, char *buf, size_t cap)
{
	if (in->size == 2)
		snprintf(buf, cap, "%04x", (unsigned)(in->opcode & 0xFFFF));
	else
		snprintf(buf, cap, "%08x", (unsigned)in->opcode);
}

static void put_insns(struct decode_out *o, const struct pft_flow_item *it)
{
	uint32_t i;
	char dis[160], opc[16];

	for (i = 0; i < it->ninsns; i++) {
		const struct pft_insn *in = &it->insns[i];
		int last = i + 1 == it->ninsns && it->end_kind != PFT_RANGE_MORE &&
			   it->end_kind != PFT_RANGE_STOPPED;
		int wp = last && (it->end_kind == PFT_RANGE_TAKEN ||
				  it->end_kind == PFT_RANGE_NOT_TAKEN);
		/* cycles: each instruction's where the trace gives them (ETMv3),
		 * else the last one's */
		int cc = (it->flags & PFT_FLOW_F_CC) && (last || it->insn_cycles);
		uint32_t cyc = it->insn_cycles ? it->insn_cycles[i] : it->cycles;
		const char *sym = NULL;
		uint64_t off = 0;
		struct pft_dbg_symbol ds;
		struct pft_dbg_line dl;
		int tail, haveline = 0;

		if (o->fmt == DECODE_ADDRS) {
			line_text(o);
			fprintf(o->f, "%08" PRIx64 " %s\n", in->addr, isa_name(it->isa));
			continue;
		}
		opcode_str(in, opc, sizeof(opc));
		if (o->disasm)
			decode_disasm(o->dis, in, (enum pft_isa)it->isa, dis, sizeof(dis));
		if (o->dbg) {
			if (pft_dbg_symbol(o->dbg, in->addr, &ds, sizeof(ds)) == 0) {
				sym = ds.name;
				off = in->addr - ds.addr;
			}
			haveline = pft_dbg_line(o->dbg, in->addr, &dl, sizeof(dl)) == 0;
		}
		if (o->fmt == DECODE_JSON) {
			line_json(o);
			fprintf(o->f, "\"index\":%" PRIu64 ",\"addr\":\"0x%" PRIx64
				"\",\"isa\":\"%s\",\"opcode\":\"0x%s\",\"size\":%u",
				it->index + i, in->addr, isa_name(it->isa), opc, in->size);
			if (o->disasm) {
				fputs(",\"disasm\":", o->f);
				json_str(o->f, dis);
			}
			if (wp)
				fprintf(o->f, ",\"waypoint\":true,\"taken\":%s,\"cond_failed\":%s",
					it->end_kind == PFT_RANGE_TAKEN ? "true" : "false",
					it->end_kind == PFT_RANGE_NOT_TAKEN ? "true" : "false");
			if (last && it->end_kind == PFT_RANGE_WPU)
				fputs(",\"waypoint_update\":true", o->f);
			if (cc)
				fprintf(o->f, ",\"cycles\":%u", cyc);
			if (sym) {
				fputs(",\"sym\":", o->f);
				json_str(o->f, sym);
				fprintf(o->f, ",\"sym_offset\":%" PRIu64, off);
			}
			if (haveline) {
				fputs(",\"file\":", o->f);
				json_str(o->f, dl.file);
				fprintf(o->f, ",\"line\":%u", dl.line);
			}
			fputs("}\n", o->f);
			continue;
		}
		line_text(o);
		fprintf(o->f, "%8" PRIu64 "  %08" PRIx64 "  %-5s %-8s", it->index + i, in->addr,
			isa_name(it->isa), opc);
		tail = wp || (last && it->end_kind == PFT_RANGE_WPU) || cc || sym || haveline;
		if (o->disasm)
			fprintf(o->f, tail ? "  %-36s" : "  %s", dis);
		if (wp)
			fputs(it->end_kind == PFT_RANGE_TAKEN ? "  taken" : "  fail ", o->f);
		else if (last && it->end_kind == PFT_RANGE_WPU)
			fputs("  wpu  ", o->f);
		else if (tail)
			fputs("       ", o->f);
		if (cc)
			fprintf(o->f, "  cyc=%u", cyc);
		if (sym)
			fprintf(o->f, "  <%s+0x%" PRIx64 ">", sym, off);
		if (haveline) {
			const char *b = strrchr(dl.file, '/');

			fprintf(o->f, "  %s:%u", b ? b + 1 : dl.file, dl.line);
		}
		fputc('\n', o->f);
	}
}

/* ---- ranges ---- */

static void flush_run(struct decode_out *o)
{
	const struct pft_flow_item *r = &o->run;

	if (!o->pending)
		return;
	o->pending = 0;
	if (o->fmt == DECODE_JSON_RANGES) {
		line_json(o);
		fprintf(o->f, "\"range\":true,\"index\":%" PRIu64 ",\"start\":\"0x%" PRIx64
			"\",\"end\":\"0x%" PRIx64 "\",\"isa\":\"%s\",\"ninsns\":%" PRIu64
			",\"last\":\"%s\"",
			r->index, r->addr, r->end, isa_name(r->isa), o->run_ninsns,
			pft_range_end_name((enum pft_range_end)r->end_kind));
		if (r->end_kind == PFT_RANGE_TAKEN || r->end_kind == PFT_RANGE_NOT_TAKEN)
			fprintf(o->f, ",\"taken\":%s,\"cond_failed\":%s",
				r->end_kind == PFT_RANGE_TAKEN ? "true" : "false",
				r->end_kind == PFT_RANGE_NOT_TAKEN ? "true" : "false");
		if (r->flags & PFT_FLOW_F_CC)
			fprintf(o->f, ",\"cycles\":%u", r->cycles);
		if (r->flags & PFT_FLOW_F_NEXT)
			fprintf(o->f, ",\"next\":\"0x%" PRIx64 "\",\"next_isa\":\"%s\"", r->next,
				isa_name(r->next_isa));
		fputs("}\n", o->f);
		return;
	}
	line_text(o);
	fprintf(o->f, "%08" PRIx64 " %08" PRIx64 " %-5s %5" PRIu64 " %-9s", r->addr, r->end,
		isa_name(r->isa), o->run_ninsns,
		pft_range_end_name((enum pft_range_end)r->end_kind));
	if (r->flags & PFT_FLOW_F_CC)
		fprintf(o->f, " cyc=%u", r->cycles);
	if (r->flags & PFT_FLOW_F_NEXT)
		fprintf(o->f, " next=%08" PRIx64 " %s", r->next, isa_name(r->next_isa));
	fputc('\n', o->f);
}

static void put_range(struct decode_out *o, const struct pft_flow_item *it)
{
	if (o->pending && (o->run.end != it->addr || o->run.isa != it->isa))
		flush_run(o);
	if (!o->pending) {
		o->run = *it;
		o->run.insns = NULL;
		o->run.insn_cycles = NULL;
		o->run_ninsns = it->ninsns;
		o->pending = 1;
	} else {
		uint64_t start = o->run.addr, index = o->run.index;
		/* cycles given per instruction (ETMv3) add up over the run */
		uint32_t before = (o->run.flags & PFT_FLOW_F_CC) ? o->run.cycles : 0;

		o->run = *it;
		o->run.insns = NULL;
		o->run.insn_cycles = NULL;
		if (it->insn_cycles)
			o->run.cycles += before;
		o->run.addr = start;
		o->run.index = index;
		o->run_ninsns += it->ninsns;
	}
	if (it->end_kind != PFT_RANGE_MORE)
		flush_run(o);
}

/* put_range holds a run back only after a range that goes on (MORE); an
 * event or any other range ends it (flush_run).  The other formats hold
 * nothing from one item to the next. */
int decode_out_cut_after(const struct decode_out *o, const struct pft_flow_item *it)
{
	return (o->fmt != DECODE_RANGES && o->fmt != DECODE_JSON_RANGES) ||
	       it->kind != PFT_FLOW_RANGE || it->end_kind != PFT_RANGE_MORE;
}

int decode_out_item(struct decode_out *o, const struct pft_flow_item *it)
{
	switch (o->fmt) {
	case DECODE_STATS:
		return 0;
	case DECODE_ADDRS:
		if (it->kind == PFT_FLOW_RANGE)
			put_insns(o, it);
		break;
	case DECODE_RANGES:
	case DECODE_JSON_RANGES:
		if (it->kind == PFT_FLOW_RANGE) {
			put_range(o, it);
		} else {
			flush_run(o);
			put_event(o, it);
		}
		break;
	default:
		if (it->kind == PFT_FLOW_RANGE)
			put_insns(o, it);
		else
			put_event(o, it);
		break;
	}
	return ferror(o->f) ? -1 : 0;
}

int decode_out_finish(struct decode_out *o, const struct pft_flow_stats *stp)
{
	struct pft_flow_stats st;
	unsigned i;

	flush_run(o);
	if (o->fmt == DECODE_STATS && stp) {
		st = *stp;
		line_text(o);
		fprintf(o->f, "bytes         %" PRIu64 "\n", st.bytes);
		line_text(o);
		fprintf(o->f, "packets       %" PRIu64 "\n", st.packets);
		line_text(o);
		fprintf(o->f, "instructions  %" PRIu64 "\n", st.insns);
		line_text(o);
		fprintf(o->f, "ranges        %" PRIu64 "\n", st.ranges);
		line_text(o);
		fprintf(o->f, "events:\n");
		for (i = 1; i < PFT_EV_NR; i++)
			if (st.events[i]) {
				line_text(o);
				fprintf(o->f, "  %-20s %" PRIu64 "\n",
					pft_flow_event_name((enum pft_flow_event)i), st.events[i]);
			}
	}
	fflush(o->f);
	return ferror(o->f) ? -1 : 0;
}
