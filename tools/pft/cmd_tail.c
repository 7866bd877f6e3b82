/* SPDX-License-Identifier: BSD-3-Clause */
/* pft tail: post-mortem of a trace: the last instructions before its end
 * (or before a given instruction), the call stack there, the last exception
 * and context, and how it got there; with --id all, that of every source,
 * in the order their traces end.  doc/profile.md. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "prof.h"
#include "sources_all.h"

const char *const cmd_tail_summary = "post-mortem: last instructions, call stack and how the trace got there";

static void help(FILE *f)
{
	fprintf(f,
		"Usage: pft tail [options] INPUT\n"
		"\n"
		"What a trace shows last, for the commonest question (what ran before the\n"
		"hang or the crash), typically from an ETB dump taken after the fact:\n"
		"  - the last N instructions before the end of the trace (or before\n"
		"    instruction --before INDEX), with symbol+offset and disassembly;\n"
		"  - the call stack there, innermost first (frames the trace never saw\n"
		"    begin are marked: caller unknown);\n"
		"  - the last exception, context ID and trace gap;\n"
		"  - a paragraph saying how it got there.\n"
		"A buffer that wrapped (an ETB that kept recording) starts mid-packet: the\n"
		"skipped bytes are reported and decoding starts at the first sync.\n"
		"\n"
		"  -n, --lines N        instructions to list (default 32)\n"
		"  --before INDEX       stop before instruction INDEX (as pft decode numbers them)\n"
		"  -o, --output FILE    write to FILE instead of standard output\n"
		"  -h, --help           this text\n"
		"\n");
	fprintf(f,
		"Trace sources:\n"
		"  --id all             every PFT and ETMv3 source (what each core ran last):\n"
		"                       one report per source, each under a '## source 0x10\n"
		"                       ETM_0' line and as --id ID alone gives it (--lines and\n"
		"                       --before apply to each); ordered by the last timestamp\n"
		"                       of each when all have one (the trace that ends last\n"
		"                       comes last), else in the input's order.  The default\n"
		"                       without --id or --source when the input holds several\n"
		"                       (as pft decode).  Other sources are named once.\n"
		"\n"
		PROF_OPTIONS_HELP
		"\n"
		INPUT_OPTIONS_HELP
		"\n"
		"Examples:\n"
		"  pft tail rec --elf prog.elf\n"
		"  pft tail data/TC2 --id 0x13 -n 20\n"
		"\n"
		"Exit status: 0 success; 1 the trace has errors (reported); 2 usage or setup\n"
		"error.\n");
}

enum { OPT_BEFORE = PROF_OPT_OWN };

struct tail_insn {
	struct pft_insn in;
	uint64_t index;
	uint8_t isa;
};

struct tail {
	const struct prof_session *s;
	struct tail_insn *ring;
	uint64_t n, cap;          /* instructions seen, ring size */
	uint64_t before;          /* stop before this index (UINT64_MAX: none) */
	int stopped;
	/* last things seen */
	struct pft_cs_event exc, exc_ret, call, ret, gap;
	int have_exc, have_exc_ret, have_call, have_ret, have_gap;
	uint64_t gaps, skipped_start, unsynced_first_off;
	uint32_t cid;
	int have_cid;
	uint64_t last_ts;         /* the last timestamp seen (have_ts) */
	int have_ts;
	/* the stack at the end, innermost last */
	struct pft_cs_frame *st;
	uint32_t depth;
};

static int on_item(void *ctx, const struct pft_flow_item *it)
{
	struct tail *t = ctx;
	uint32_t i;

	if (it->kind == PFT_FLOW_EVENT) {
		if (it->type == PFT_EV_UNSYNCED && t->n == 0 && t->skipped_start == 0) {
			t->skipped_start = it->value;
			t->unsynced_first_off = it->offset;
		}
		if (it->flags & PFT_FLOW_F_CID) {
			t->cid = it->context_id;
			t->have_cid = 1;
		}
		if (it->type == PFT_EV_CONTEXT_ID) {
			t->cid = (uint32_t)it->value;
			t->have_cid = 1;
		}
		if (it->type == PFT_EV_TIMESTAMP) {
			t->last_ts = it->value;
			t->have_ts = 1;
		}
		return 0;
	}
	for (i = 0; i < it->ninsns; i++) {
		struct tail_insn *r;

		if (it->index + i >= t->before) {
			t->stopped = 1;
			return PROF_STOP;
		}
		r = &t->ring[t->n % t->cap];
		r->in = it->insns[i];
		r->index = it->index + i;
		r->isa = it->isa;
		t->n++;
	}
	if (it->index + it->ninsns >= t->before) {
		t->stopped = 1;
		return PROF_STOP;
	}
	return 0;
}

static int on_event(void *ctx, const struct pft_cs_event *ev)
{
	struct tail *t = ctx;

	switch (ev->kind) {
	case PFT_CS_EXC_ENTRY: t->exc = *ev; t->have_exc = 1; break;
	case PFT_CS_EXC_RETURN:
		if (ev->reason != PFT_CS_HOW_END && ev->reason != PFT_CS_HOW_GAP) {
			t->exc_ret = *ev;
			t->have_exc_ret = 1;
		}
		break;
	case PFT_CS_CALL:
		if (ev->frame.kind == PFT_CS_FRAME_CALL) {
			t->call = *ev;
			t->have_call = 1;
		}
		break;
	case PFT_CS_RETURN:
		if (ev->reason == PFT_CS_HOW_MATCHED) {
			t->ret = *ev;
			t->have_ret = 1;
		}
		break;
	case PFT_CS_GAP: t->gap = *ev; t->have_gap = 1; t->gaps++; break;
	default: break;
	}
	return 0;
}

static void before_end(void *ctx, const struct pft_cs_tracker *cs)
{
	struct tail *t = ctx;
	uint32_t i, d = pft_cs_tracker_depth(cs);

	t->st = calloc(d ? d : 1, sizeof(*t->st));
	if (!t->st)
		return;
	for (i = 0; i < d; i++)
		pft_cs_tracker_frame(cs, i, &t->st[i], sizeof(t->st[i]));
	t->depth = d;
}

static const char *fname(const struct tail *t, const struct pft_cs_frame *f, char *b, size_t cap)
{
	uint64_t key = f->entry;

	if (f->kind == PFT_CS_FRAME_EXCEPTION) {
		snprintf(b, cap, "[exception %s]", pft_exception_name(f->exception));
		return b;
	}
	if (f->kind == PFT_CS_FRAME_UNKNOWN)
		return prof_addr_name(t->s, f->entry, b, cap);
	prof_func_at(t->s, f->entry, &key);
	return prof_func_name(t->s, key, b, cap);
}

static void report(struct tail *t, FILE *f, const struct prof_session *s)
{
	struct decode_disasm *dis = decode_disasm_open();
	uint64_t first = t->n > t->cap ? t->n - t->cap : 0, k;
	char b1[128], b2[128], b3[128];
	uint32_t i;

	fprintf(f, "# pft tail: last %" PRIu64 " of %" PRIu64 " instructions%s (trace ID 0x%02X)\n",
		t->n - first, t->n, t->stopped ? " before the --before point" : "", s->in.trace_id);
	for (k = first; k < t->n; k++) {
		const struct tail_insn *r = &t->ring[k % t->cap];

		fprintf(f, "%10" PRIu64 "  %08" PRIx64 "  %-4s  %-28s  %s", r->index, r->in.addr,
			pft_isa_name((enum pft_isa)r->isa),
			dis ? decode_disasm(dis, &r->in, (enum pft_isa)r->isa, b1, sizeof(b1)) : "",
			prof_addr_name(s, r->in.addr, b2, sizeof(b2)));
		{
			const char *ln = prof_line_name(s, r->in.addr, b3, sizeof(b3));

			fprintf(f, "%s%s\n", ln[0] ? "  " : "", ln);
		}
	}
	fprintf(f, "\n# call stack at the end, innermost first\n");
	if (!t->depth)
		fprintf(f, "  (empty: nothing known)\n");
	for (i = t->depth; i-- > 0;) {
		const struct pft_cs_frame *fr = &t->st[i];

		fprintf(f, "  #%-3u %-28s", t->depth - 1 - i, fname(t, fr, b1, sizeof(b1)));
		if (fr->kind == PFT_CS_FRAME_EXCEPTION)
			fprintf(f, " entered at instruction %" PRIu64 ", vector 0x%08" PRIx64
				", returns to %s\n", fr->index, fr->entry,
				prof_addr_name(s, fr->ret, b2, sizeof(b2)));
		else if (fr->kind == PFT_CS_FRAME_UNKNOWN)
			fprintf(f, " caller unknown (the trace never saw the call)\n");
		else
			fprintf(f, " called at instruction %" PRIu64 " from %s%s\n", fr->index,
				prof_addr_name(s, fr->site, b2, sizeof(b2)),
				fr->ret ? "" : " (tail call from the exception entry)");
	}
	fprintf(f, "\n");
	if (t->have_exc)
		fprintf(f, "# last exception: %s (%u) at instruction %" PRIu64 ", vector 0x%08" PRIx64
			", preferred return %s\n", pft_exception_name(t->exc.frame.exception),
			t->exc.frame.exception, t->exc.index, t->exc.frame.entry,
			prof_addr_name(s, t->exc.frame.ret, b1, sizeof(b1)));
	else
		fprintf(f, "# last exception: none traced\n");
	if (t->have_cid)
		fprintf(f, "# context ID: 0x%08x\n", t->cid);
	else
		fprintf(f, "# context ID: not traced\n");
	if (t->have_gap)
		fprintf(f, "# trace gaps: %" PRIu64 ", the last at instruction %" PRIu64
			" (stream offset %" PRIu64 ": %s)\n", t->gaps, t->gap.index, t->gap.offset,
			t->gap.reason ? pft_flow_event_name((enum pft_flow_event)t->gap.reason) :
			"a return matched no frame");
	else
		fprintf(f, "# trace gaps: none\n");

	/* how it got here */
	fprintf(f, "\nHow it got here: ");
	if (t->skipped_start)
		fprintf(f, "The capture starts mid-stream (%" PRIu64 " bytes before the first "
			"synchronisation were skipped, as when an ETB buffer wraps). ", t->skipped_start);
	if (!t->n) {
		fprintf(f, "No instruction could be decoded.\n");
		decode_disasm_close(dis);
		return;
	}
	{
		const struct tail_insn *last = &t->ring[(t->n - 1) % t->cap];

		fprintf(f, "The trace %s at %s (instruction %" PRIu64 ")",
			t->stopped ? "stops, as asked," : "ends", prof_addr_name(s, last->in.addr, b1, sizeof(b1)),
			last->index);
	}
	if (t->depth) {
		int in_exc = 0;

		fprintf(f, ", in %s", fname(t, &t->st[t->depth - 1], b1, sizeof(b1)));
		for (i = t->depth - 1; i-- > 0;) {
			if (t->st[i].kind == PFT_CS_FRAME_EXCEPTION && !in_exc)
				in_exc = 1;
			fprintf(f, "%s %s", i == t->depth - 2 ? ", reached from" : " <-",
				fname(t, &t->st[i], b2, sizeof(b2)));
		}
		if (t->st[0].kind == PFT_CS_FRAME_UNKNOWN)
			fprintf(f, " (whose caller the trace never saw)");
		fprintf(f, ".");
		for (i = t->depth; i-- > 0;)
			if (t->st[i].kind == PFT_CS_FRAME_EXCEPTION) {
				fprintf(f, " It is inside the handler of a%s %s exception taken at "
					"instruction %" PRIu64 ", which interrupted %s; it had not returned.",
					pft_exception_name(t->st[i].exception)[0] == 'i' ||
					pft_exception_name(t->st[i].exception)[0] == 'u' ? "n" : "",
					pft_exception_name(t->st[i].exception), t->st[i].index,
					prof_addr_name(s, t->st[i].ret, b3, sizeof(b3)));
				break;
			}
	} else {
		fprintf(f, "; its call stack is unknown.");
	}
	{
		int open_exc = 0;        /* is the last exception still on the stack? */

		for (i = 0; i < t->depth; i++)
			if (t->st[i].kind == PFT_CS_FRAME_EXCEPTION && t->st[i].index == t->exc.index)
				open_exc = 1;
		if (t->have_exc && !open_exc)
			fprintf(f, " The last exception was %s at instruction %" PRIu64 "%s.",
				pft_exception_name(t->exc.frame.exception), t->exc.index,
				t->have_exc_ret && t->exc_ret.index >= t->exc.index ? ", and it returned" : "");
	}
	if (t->have_call)
		fprintf(f, " The last call was to %s from %s at instruction %" PRIu64 ".",
			fname(t, &t->call.frame, b1, sizeof(b1)),
			prof_addr_name(s, t->call.frame.site, b2, sizeof(b2)), t->call.index);
	if (t->have_ret)
		fprintf(f, " The last return was from %s at instruction %" PRIu64 ".",
			fname(t, &t->ret.frame, b1, sizeof(b1)), t->ret.index);
	if (t->have_gap)
		fprintf(f, " The stack before instruction %" PRIu64 " is unknown (trace gap: %s).",
			t->gap.index, t->gap.reason ?
			pft_flow_event_name((enum pft_flow_event)t->gap.reason) : "a return matched no frame");
	fprintf(f, "\n");
	decode_disasm_close(dis);
}

/* Decode one source into t (its ring allocated), through the open session
 * s: the exit code (PFT_EXIT_USAGE: stop). */
static int tail_run(struct tail *t, struct prof_session *s, const char *inpath,
		    const struct prof_opts *o)
{
	struct prof_hooks h;
	int rc = prof_open(s, "tail", inpath, o);

	if (rc)
		return rc;
	if (!t->ring) {
		cli_error("tail", "out of memory");
		return PFT_EXIT_USAGE;
	}
	t->s = s;
	memset(&h, 0, sizeof(h));
	h.item = on_item;
	h.event = on_event;
	h.before_end = before_end;
	h.ctx = t;
	return prof_run(s, &h);
}

/* --id all: each source's report, kept until all are read. */
struct tail_block {
	char *text;
	size_t len;
	uint64_t last_ts;
	int have_ts;
	unsigned trace_id;
	char name[64];
};

struct tail_each {
	const char *inpath;
	const struct prof_opts *o;
	uint64_t cap, before;
	struct tail_block b[SOURCES_ALL_MAX];
	unsigned n;
};

static int tail_source(void *ctx, struct sources_all *sa, unsigned k)
{
	struct tail_each *e = ctx;
	struct tail_block *b = &e->b[e->n];
	struct prof_opts one = *e->o;
	struct prof_session s;
	struct tail t;
	FILE *m;
	int rc;

	memset(&t, 0, sizeof(t));
	t.cap = e->cap;
	t.before = e->before;
	t.ring = calloc(t.cap, sizeof(*t.ring));
	one.io = sa->opts[k];
	rc = tail_run(&t, &s, e->inpath, &one);
	if (rc != PFT_EXIT_USAGE) {
		sources_all_saw(sa, &s.in);
		m = open_memstream(&b->text, &b->len);
		if (m) {
			report(&t, m, &s);
			if (fclose(m))
				m = NULL;
		}
		if (!m) {
			cli_error("tail", "out of memory");
			rc = PFT_EXIT_USAGE;
		}
		b->last_ts = t.last_ts;
		b->have_ts = t.have_ts;
		b->trace_id = s.in.trace_id;
		snprintf(b->name, sizeof(b->name), "%s", sa->names[k]);
		e->n++;
	}
	free(t.ring);
	free(t.st);
	prof_close(&s);
	return rc;
}

/* The reports, in the order the traces end when every source has a
 * timestamp (a stable sort: ties keep the input's order). */
static void tail_write(struct tail_each *e, FILE *f)
{
	unsigned i, j, all_ts = e->n > 0;
	struct tail_block tmp;

	for (i = 0; i < e->n; i++)
		all_ts &= (unsigned)e->b[i].have_ts;
	for (i = 1; all_ts && i < e->n; i++)
		for (j = i; j > 0 && e->b[j - 1].last_ts > e->b[j].last_ts; j--) {
			tmp = e->b[j];
			e->b[j] = e->b[j - 1];
			e->b[j - 1] = tmp;
		}
	fprintf(f, "# pft tail --id all: %u source%s, %s\n", e->n, e->n == 1 ? "" : "s",
		all_ts ? "in the order their traces end (by the last timestamp of each; the "
			 "last ends last)" : "in the input's order (not every source has timestamps: "
			 "the order they ended in is not known)");
	for (i = 0; i < e->n; i++) {
		fprintf(f, "\n## source 0x%02X%s%s", e->b[i].trace_id, *e->b[i].name ? " " : "",
			e->b[i].name);
		if (e->b[i].have_ts)
			fprintf(f, ": last timestamp %" PRIu64, e->b[i].last_ts);
		fprintf(f, "\n");
		fwrite(e->b[i].text, 1, e->b[i].len, f);
	}
}

int cmd_tail(int argc, char **argv)
{
	static const struct option own[] = {
		PROF_LONG_OPTIONS,
		{ "lines", required_argument, NULL, 'n' },
		{ "before", required_argument, NULL, OPT_BEFORE },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct option all[64];
	struct prof_opts o;
	struct prof_session s;
	struct tail t;
	struct tail_each *e;
	const char *outpath = NULL, *inpath;
	FILE *f = NULL;
	char *end;
	int c, r, rc;

	memset(&t, 0, sizeof(t));
	t.cap = 32;
	t.before = UINT64_MAX;
	prof_opts_init(&o);
	o.cs_flags = PFT_CS_CFG_NO_RUNS;
	input_merge_options(all, sizeof(all) / sizeof(all[0]), own);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:n:h", all, NULL)) != -1) {
		r = prof_parse_option(&o, c, optarg, "tail");
		if (r < 0)
			return PFT_EXIT_USAGE;
		if (r > 0)
			continue;
		switch (c) {
		case 'n':
		case OPT_BEFORE:
			errno = 0;
			{
				unsigned long long v = strtoull(optarg, &end, 0);

				if (errno || end == optarg || *end || (c == 'n' && (v == 0 || v > 1000000))) {
					cli_error("tail", "bad %s '%s'", c == 'n' ? "--lines" : "--before", optarg);
					return PFT_EXIT_USAGE;
				}
				if (c == 'n')
					t.cap = v;
				else
					t.before = v;
			}
			break;
		case 'o': outpath = optarg; break;
		case 'h': help(stdout); return PFT_EXIT_OK;
		default:
			return cli_bad_option("tail", c, argv, optind);
		}
	}
	inpath = cli_single_input("tail", argc, argv, optind);
	if (!inpath)
		return PFT_EXIT_USAGE;
	memset(&s, 0, sizeof(s));
	if (sources_all_wanted(inpath, &o.io, o.all)) {
		struct sources_all *sa = calloc(1, sizeof(*sa));
		unsigned i;

		if (!(e = calloc(1, sizeof(*e))) || !sa) {
			cli_error("tail", "out of memory");
			free(sa);
			rc = PFT_EXIT_USAGE;
			goto out;
		}
		e->inpath = inpath;
		e->o = &o;
		e->cap = t.cap;
		e->before = t.before;
		rc = sources_all_each(sa, inpath, &o.io, "tail", tail_source, e);
		free(sa);
		if (rc != PFT_EXIT_USAGE && (f = cli_open_output("tail", outpath)) != NULL)
			tail_write(e, f);
		else
			rc = PFT_EXIT_USAGE;
		for (i = 0; i < e->n; i++)
			free(e->b[i].text);
		free(e);
		if (f && cli_output_done("tail", f, outpath))
			rc = PFT_EXIT_USAGE;
		if (f && f != stdout)
			fclose(f);
		return rc;
	}
	t.ring = calloc(t.cap, sizeof(*t.ring));
	rc = tail_run(&t, &s, inpath, &o);
	if (rc == PFT_EXIT_USAGE)
		goto out;
	f = cli_open_output("tail", outpath);
	if (!f) {
		rc = PFT_EXIT_USAGE;
		goto out;
	}
	report(&t, f, &s);
	if (cli_output_done("tail", f, outpath))
		rc = PFT_EXIT_USAGE;
out:
	if (f && f != stdout)
		fclose(f);
	free(t.ring);
	free(t.st);
	prof_close(&s);
	return rc;
}
