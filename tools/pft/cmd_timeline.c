/* SPDX-License-Identifier: BSD-3-Clause */
/* pft timeline: the call stacks of a trace over time as Chrome/Perfetto
 * trace-event JSON, written as the trace is decoded.  doc/profile.md. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "prof.h"

const char *const cmd_timeline_summary = "call stacks over time as Perfetto/Chrome trace JSON";

static void help(FILE *f)
{
	fprintf(f,
		"Usage: pft timeline [options] INPUT -o FILE.json\n"
		"\n"
		"Decode the trace, follow the call stack of every context (doc/profile.md),\n"
		"and write it as Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing):\n"
		"one track per context ID, a B/E slice per function call, exceptions and\n"
		"interrupts as slices of their own (category \"exception\") with the\n"
		"handler's calls inside, and every trace gap and decode error as an instant\n"
		"event (category \"gap\").  The file is written as the trace is decoded.\n"
		"\n"
		"The clock (otherData.clock in the file):\n"
		"  time    with --cpu-freq and cycle-accurate trace, or --ts-freq and timestamps\n"
		"  cycles  cycle-accurate trace without a frequency: 1 us in the file = 1 cycle\n"
		"  insns   otherwise: 1 us in the file = 1 instruction\n"
		"  --clock time|cycles|insns   choose one (time and cycles need the trace's support)\n"
		"\n"
		"  -o, --output FILE    the JSON file (- = standard output)\n"
		"  -h, --help           this text\n"
		"\n"
		PROF_OPTIONS_HELP
		"\n"
		INPUT_OPTIONS_HELP
		"\n"
		"Examples:\n"
		"  pft timeline rec --elf prog.elf -o trace.json     (open in ui.perfetto.dev)\n"
		"  pft timeline data/TC2 --id 0x13 --ts-freq 24000000 -o tc2.json\n"
		"\n"
		"Exit status: 0 success; 1 the trace has errors (they are on the timeline);\n"
		"2 usage or setup error.\n");
}

enum { OPT_CLOCK = PROF_OPT_OWN };
enum clock { CLK_AUTO = -1, CLK_TIME = 0, CLK_CYCLES, CLK_INSNS };
static const char *const clock_names[] = { "time", "cycles", "insns" };

struct tl {
	FILE *f;
	const struct prof_session *s;
	enum clock clk;
	int first;
	uint32_t cids[256];
	unsigned ncids;
	uint64_t last;          /* last ts written (clock units, or ns) */
	uint64_t events;
};

static uint64_t ts_of(const struct tl *t, const struct pft_cs_event *ev)
{
	switch (t->clk) {
	case CLK_TIME: return ev->time_ns;
	case CLK_CYCLES: return ev->cycles;
	default: return ev->index;
	}
}

static void put_ts(const struct tl *t, uint64_t v)
{
	if (t->clk == CLK_TIME)
		fprintf(t->f, "%" PRIu64 ".%03u", v / 1000, (unsigned)(v % 1000));
	else
		fprintf(t->f, "%" PRIu64, v);
}

static void begin(struct tl *t, const char *ph, uint32_t cid, uint64_t ts)
{
	unsigned i;

	for (i = 0; i < t->ncids && t->cids[i] != cid; i++)
		;
	if (i == t->ncids && t->ncids < 256) {
		t->cids[t->ncids++] = cid;
		fprintf(t->f, "%s\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":%u,"
			"\"args\":{\"name\":\"context 0x%x\"}}", t->first ? "" : ",", cid, cid);
		t->first = 0;
	}
	fprintf(t->f, "%s\n{\"ph\":\"%s\",\"pid\":1,\"tid\":%u,\"ts\":", t->first ? "" : ",", ph, cid);
	put_ts(t, ts);
	t->first = 0;
	t->events++;
}

static int on_event(void *ctx, const struct pft_cs_event *ev)
{
	struct tl *t = ctx;
	uint64_t ts = ts_of(t, ev);
	char nb[96], ab[96];

	if (ts > t->last)
		t->last = ts;
	switch (ev->kind) {
	case PFT_CS_CALL:
		begin(t, "B", ev->context_id, ts);
		if (ev->frame.kind == PFT_CS_FRAME_UNKNOWN) {
			fprintf(t->f, ",\"cat\":\"unknown\",\"name\":\"");
			prof_json_str(t->f, prof_addr_name(t->s, ev->frame.entry, nb, sizeof(nb)));
			fprintf(t->f, " (caller unknown)\"}");
		} else {
			uint64_t key = ev->frame.entry;

			prof_func_at(t->s, ev->frame.entry, &key);
			fprintf(t->f, ",\"cat\":\"%s\",\"name\":\"", (ev->flags & PFT_CS_F_TAIL) ? "tail_call" : "call");
			prof_json_str(t->f, prof_func_name(t->s, key, nb, sizeof(nb)));
			fprintf(t->f, "\",\"args\":{\"from\":\"");
			prof_json_str(t->f, prof_addr_name(t->s, ev->frame.site, ab, sizeof(ab)));
			fprintf(t->f, "\",\"insn\":%" PRIu64 "}}", ev->index);
		}
		break;
	case PFT_CS_EXC_ENTRY:
		begin(t, "B", ev->context_id, ts);
		fprintf(t->f, ",\"cat\":\"exception\",\"name\":\"exception %s\",\"args\":{\"return\":\"",
			pft_exception_name(ev->frame.exception));
		prof_json_str(t->f, prof_addr_name(t->s, ev->frame.ret, ab, sizeof(ab)));
		fprintf(t->f, "\",\"insn\":%" PRIu64 "}}", ev->index);
		break;
	case PFT_CS_RETURN:
	case PFT_CS_EXC_RETURN:
		begin(t, "E", ev->context_id, ts);
		fputc('}', t->f);
		break;
	case PFT_CS_GAP:
		begin(t, "i", ev->context_id, ts);
		fprintf(t->f, ",\"s\":\"t\",\"cat\":\"gap\",\"name\":\"gap: %s\",\"args\":{\"offset\":%"
			PRIu64 ",\"insn\":%" PRIu64 "}}",
			ev->reason ? pft_flow_event_name((enum pft_flow_event)ev->reason) : "stack_lost",
			ev->offset, ev->index);
		break;
	default:
		break;
	}
	return ferror(t->f) ? -PFT_E_IO : 0;
}

int cmd_timeline(int argc, char **argv)
{
	static const struct option own[] = {
		PROF_LONG_OPTIONS,
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct option all[64];
	struct prof_opts o;
	struct prof_session s;
	struct prof_hooks h;
	struct pft_features feat;
	struct tl t;
	const char *outpath = NULL, *inpath;
	int c, r, rc, clk = CLK_AUTO, ca, ts;

	prof_opts_init(&o);
	o.cs_flags = PFT_CS_CFG_NO_RUNS;
	input_merge_options(all, sizeof(all) / sizeof(all[0]), own);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", all, NULL)) != -1) {
		r = prof_parse_option(&o, c, optarg, "timeline");
		if (r < 0)
			return PFT_EXIT_USAGE;
		if (r > 0)
			continue;
		switch (c) {
		case OPT_CLOCK:
			for (clk = 0; clk < 3 && strcmp(optarg, clock_names[clk]); clk++)
				;
			if (clk == 3) {
				cli_error("timeline", "bad --clock '%s' (want time, cycles or insns)", optarg);
				return PFT_EXIT_USAGE;
			}
			break;
		case 'o': outpath = optarg; break;
		case 'h': help(stdout); return PFT_EXIT_OK;
		default:
			return cli_bad_option("timeline", c, argv, optind);
		}
	}
	inpath = cli_single_input("timeline", argc, argv, optind);
	if (!inpath)
		return PFT_EXIT_USAGE;
	if (!outpath) {
		cli_error("timeline", "give the output file with -o FILE.json (- for standard output)");
		return PFT_EXIT_USAGE;
	}
	memset(&t, 0, sizeof(t));
	rc = prof_open(&s, "timeline", inpath, &o);
	if (rc)
		goto out;
	pft_config_features(&s.in.config, &feat);
	ca = feat.cycle_accurate;
	ts = feat.timestamps;
	if (clk == CLK_AUTO)
		clk = (ca && o.cpu_hz) || (ts && o.ts_hz) ? CLK_TIME : ca ? CLK_CYCLES : CLK_INSNS;
	if ((clk == CLK_TIME && !((ca && o.cpu_hz) || (ts && o.ts_hz))) || (clk == CLK_CYCLES && !ca)) {
		cli_error("timeline", "--clock %s: the trace has no %s", clock_names[clk],
			  clk == CLK_CYCLES ? "cycle counts" :
			  "time (give --cpu-freq for cycle-accurate trace, --ts-freq for timestamps)");
		rc = PFT_EXIT_USAGE;
		goto out;
	}
	t.clk = (enum clock)clk;
	t.s = &s;
	t.first = 1;
	t.f = cli_open_output("timeline", outpath);
	if (!t.f) {
		rc = PFT_EXIT_USAGE;
		goto out;
	}
	fprintf(t.f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"creator\":\"pft timeline\","
		"\"input\":\"");
	prof_json_str(t.f, inpath);
	fprintf(t.f, "\",\"clock\":\"%s\",\"unit\":\"%s\"},\n\"traceEvents\":[", clock_names[clk],
		clk == CLK_TIME ? "1 us = 1 microsecond" :
		clk == CLK_CYCLES ? "1 us = 1 cycle" : "1 us = 1 instruction");
	memset(&h, 0, sizeof(h));
	h.event = on_event;
	h.ctx = &t;
	rc = prof_run(&s, &h);
	fprintf(t.f, "\n],\n\"pft\":{\"clock\":\"%s\",\"end\":", clock_names[clk]);
	put_ts(&t, t.last);
	fprintf(t.f, ",\"instructions\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"calls\":%" PRIu64
		",\"gaps\":%" PRIu64 "}}\n", s.cst.insns, s.cst.cycles, s.cst.calls + s.cst.tail_calls,
		s.cst.gaps);
	if (fflush(t.f) || ferror(t.f)) {
		cli_error("timeline", "error writing %s", outpath);
		rc = PFT_EXIT_USAGE;
	}
out:
	if (t.f && t.f != stdout)
		fclose(t.f);
	prof_close(&s);
	return rc;
}
