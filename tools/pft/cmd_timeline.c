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

struct numc {
	uint64_t v;
	unsigned len;
	char d[48];
};

struct tl {
	FILE *f;
	const struct prof_session *s;
	enum clock clk;
	int first;
	uint32_t cids[256];
	unsigned ncids;
	uint64_t last;          /* last ts written (clock units, or ns) */
	uint64_t events;
	/* the output goes through this buffer: events are many, and printf
	   would cost more than the decode */
	char buf[1 << 16];
	size_t n;
	int err;
	struct numc ts, insn;   /* the last ts and insn written, formatted */
	uint32_t tidcid;        /* the last tid written, formatted */
	char tidd[24];
	size_t tidlen;
};

static void out_flush(struct tl *t)
{
	if (t->n && fwrite(t->buf, 1, t->n, t->f) != t->n)
		t->err = 1;
	t->n = 0;
}

static void out_mem_slow(struct tl *t, const char *p, size_t k)
{
	out_flush(t);
	if (k > sizeof(t->buf)) {
		if (fwrite(p, 1, k, t->f) != k)
			t->err = 1;
		return;
	}
	memcpy(t->buf, p, k);
	t->n = k;
}

/* inline: most calls copy a literal of known size */
static inline void out_mem(struct tl *t, const char *p, size_t k)
{
	if (t->n + k > sizeof(t->buf)) {
		out_mem_slow(t, p, k);
		return;
	}
	memcpy(t->buf + t->n, p, k);
	t->n += k;
}

static void out_str(struct tl *t, const char *p)
{
	out_mem(t, p, strlen(p));
}

/* a string literal */
#define OUT_LIT(t, lit) out_mem((t), (lit), sizeof(lit) - 1)

/* room for k more bytes in the buffer (k small) */
static inline char *out_room(struct tl *t, size_t k)
{
	if (t->n + k > sizeof(t->buf))
		out_flush(t);
	return t->buf + t->n;
}

static const char digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static unsigned ndigits64(uint64_t v)
{
	unsigned k = 1;

	while (v >= 10000) {
		v /= 10000;
		k += 4;
	}
	return k + (v >= 10) + (v >= 100) + (v >= 1000);
}

static unsigned ndigits32(uint32_t w)
{
	unsigned k = 1;

	while (w >= 10000) {
		w /= 10000;
		k += 4;
	}
	return k + (w >= 10) + (w >= 100) + (w >= 1000);
}

/* Decimal digits of v at d (at most 20), two digits a step, in 32 bits
   when the value fits; returns their number. */
static size_t fmt_u64(char *d, uint64_t v)
{
	char *e;
	uint32_t w;
	size_t k;

	if (v > 0xffffffffu) {
		char tmp[24];
		int i = 24;

		while (v > 0xffffffffu) {
			unsigned r = (unsigned)(v % 100);

			v /= 100;
			tmp[--i] = digits2[2 * r + 1];
			tmp[--i] = digits2[2 * r];
		}
		k = fmt_u64(d, v);
		memcpy(d + k, tmp + i, (size_t)(24 - i));
		return k + (size_t)(24 - i);
	}
	w = (uint32_t)v;
	k = ndigits32(w);
	e = d + k;
	while (w >= 100) {
		unsigned r = w % 100;

		w /= 100;
		*--e = digits2[2 * r + 1];
		*--e = digits2[2 * r];
	}
	if (w >= 10) {
		*--e = digits2[2 * w + 1];
		*--e = digits2[2 * w];
	} else {
		*--e = (char)('0' + w);
	}
	return k;
}

/* A number kept formatted, right-aligned in d[0..24) (d[24..48) is slack,
   so that a fixed 24-byte copy can write it): the clock and the
   instruction index only grow, mostly by a little, and a small step is a
   decimal addition to the digits already there. */
static void numc_set(struct numc *c, uint64_t v)
{
	uint64_t add;
	int i;

	if (c->len && v >= c->v && v - c->v < 1000000) {
		add = v - c->v;
		c->v = v;
		for (i = 23; add; i--) {
			unsigned dg;

			if (i < 24 - (int)c->len) {
				c->d[i] = '0';
				c->len++;
			}
			dg = (unsigned)(c->d[i] - '0') + (unsigned)(add % 10);
			add /= 10;
			if (dg >= 10) {
				dg -= 10;
				add++;
			}
			c->d[i] = (char)('0' + dg);
		}
		return;
	}
	c->v = v;
	c->len = (unsigned)fmt_u64(c->d + 24 - ndigits64(v), v);
}

static void out_num(struct tl *t, struct numc *c, uint64_t v)
{
	char *o;

	if (v != c->v || !c->len)
		numc_set(c, v);
	o = out_room(t, 24);
	memcpy(o, c->d + 24 - c->len, 24);   /* a fixed size: no call */
	t->n += c->len;
}

static void out_u64(struct tl *t, uint64_t v)
{
	char *o = out_room(t, 20);

	t->n += fmt_u64(o, v);
}

/* 0x and at least 8 hex digits, as prof_addr_name writes addresses */
static void out_hex(struct tl *t, uint64_t v)
{
	static const char hx[] = "0123456789abcdef";
	char d[24], *o;
	int i = 24, k;

	if (v <= 0xffffffffu) {
		o = out_room(t, 10);
		o[0] = '0';
		o[1] = 'x';
		for (k = 8; k >= 2; k -= 2) {
			unsigned byte = (unsigned)v & 0xffu;

			o[k] = hx[byte >> 4];
			o[k + 1] = hx[byte & 15];
			v >>= 8;
		}
		t->n += 10;
		return;
	}
	do {
		d[--i] = hx[v & 15];
		v >>= 4;
	} while (v);
	d[--i] = 'x';
	d[--i] = '0';
	k = 24 - i;
	o = out_room(t, (size_t)k);
	memcpy(o, d + i, (size_t)k);
	t->n += (size_t)k;
}

/* a JSON string body */
static void out_json(struct tl *t, const char *p)
{
	char one[8];
	size_t k;

	for (k = 0; p[k] && p[k] != '"' && p[k] != '\\' && (unsigned char)p[k] >= 0x20; k++)
		;
	out_mem(t, p, k);             /* the plain part, usually all */
	for (p += k; *p; p++) {
		unsigned char ch = (unsigned char)*p;

		if (ch == '"' || ch == '\\') {
			one[0] = '\\';
			one[1] = (char)ch;
			one[2] = '\0';
		} else if (ch < 0x20) {
			snprintf(one, sizeof(one), "\\u%04x", ch);
		} else {
			one[0] = (char)ch;
			one[1] = '\0';
		}
		out_str(t, one);
	}
}

/* symbol+offset, or 0x%08x without symbols */
static void out_addr(struct tl *t, uint64_t addr)
{
	char b[160];

	if (t->s->dbg)
		out_json(t, prof_addr_name(t->s, addr, b, sizeof(b)));
	else
		out_hex(t, addr);
}

static uint64_t ts_of(const struct tl *t, const struct pft_cs_event *ev)
{
	switch (t->clk) {
	case CLK_TIME: return ev->time_ns;
	case CLK_CYCLES: return ev->cycles;
	default: return ev->index;
	}
}

static void put_ts(struct tl *t, uint64_t v)
{
	if (t->clk == CLK_TIME) {
		unsigned ms = (unsigned)(v % 1000);
		char *o;

		out_num(t, &t->ts, v / 1000);
		o = out_room(t, 4);
		o[0] = '.';
		o[1] = (char)('0' + ms / 100);
		o[2] = (char)('0' + ms / 10 % 10);
		o[3] = (char)('0' + ms % 10);
		t->n += 4;
	} else {
		out_num(t, &t->ts, v);
	}
}

static void begin(struct tl *t, const char *ph, uint32_t cid, uint64_t ts)
{
	unsigned i;

	if (t->ncids && t->cids[t->ncids - 1] == cid)
		i = t->ncids - 1;
	else
		for (i = 0; i < t->ncids && t->cids[i] != cid; i++)
			;
	if (i == t->ncids && t->ncids < 256) {
		t->cids[t->ncids++] = cid;
		out_str(t, t->first ? "\n" : ",\n");
		OUT_LIT(t, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":");
		out_u64(t, cid);
		OUT_LIT(t, ",\"args\":{\"name\":\"context ");
		out_hex(t, cid);
		OUT_LIT(t, "\"}}");
		t->first = 0;
	}
	if (t->first)
		OUT_LIT(t, "\n{\"ph\":\"");
	else
		OUT_LIT(t, ",\n{\"ph\":\"");
	out_mem(t, ph, 1);
	OUT_LIT(t, "\",\"pid\":1,\"tid\":");
	if (cid != t->tidcid || !t->tidlen) {
		t->tidcid = cid;
		t->tidlen = fmt_u64(t->tidd, cid);
	}
	out_mem(t, t->tidd, t->tidlen);
	OUT_LIT(t, ",\"ts\":");
	put_ts(t, ts);
	t->first = 0;
	t->events++;
}

static int on_event(void *ctx, const struct pft_cs_event *ev)
{
	struct tl *t = ctx;
	uint64_t ts = ts_of(t, ev);
	char nb[96];

	if (ts > t->last)
		t->last = ts;
	switch (ev->kind) {
	case PFT_CS_CALL:
		begin(t, "B", ev->context_id, ts);
		if (ev->frame.kind == PFT_CS_FRAME_UNKNOWN) {
			OUT_LIT(t, ",\"cat\":\"unknown\",\"name\":\"");
			out_addr(t, ev->frame.entry);
			OUT_LIT(t, " (caller unknown)\"}");
		} else {
			uint64_t key = ev->frame.entry;

			out_str(t, (ev->flags & PFT_CS_F_TAIL) ? ",\"cat\":\"tail_call\",\"name\":\"" :
				",\"cat\":\"call\",\"name\":\"");
			if (t->s->dbg) {
				prof_func_at(t->s, ev->frame.entry, &key);
				out_json(t, prof_func_name(t->s, key, nb, sizeof(nb)));
			} else {
				out_hex(t, key);
			}
			OUT_LIT(t, "\",\"args\":{\"from\":\"");
			out_addr(t, ev->frame.site);
			OUT_LIT(t, "\",\"insn\":");
			out_num(t, &t->insn, ev->index);
			OUT_LIT(t, "}}");
		}
		break;
	case PFT_CS_EXC_ENTRY:
		begin(t, "B", ev->context_id, ts);
		OUT_LIT(t, ",\"cat\":\"exception\",\"name\":\"exception ");
		out_str(t, pft_exception_name(ev->frame.exception));
		OUT_LIT(t, "\",\"args\":{\"return\":\"");
		out_addr(t, ev->frame.ret);
		OUT_LIT(t, "\",\"insn\":");
		out_num(t, &t->insn, ev->index);
		OUT_LIT(t, "}}");
		break;
	case PFT_CS_RETURN:
	case PFT_CS_EXC_RETURN:
		begin(t, "E", ev->context_id, ts);
		OUT_LIT(t, "}");
		break;
	case PFT_CS_GAP:
		begin(t, "i", ev->context_id, ts);
		OUT_LIT(t, ",\"s\":\"t\",\"cat\":\"gap\",\"name\":\"gap: ");
		out_str(t, ev->reason ? pft_flow_event_name((enum pft_flow_event)ev->reason) : "stack_lost");
		OUT_LIT(t, "\",\"args\":{\"offset\":");
		out_u64(t, ev->offset);
		OUT_LIT(t, ",\"insn\":");
		out_num(t, &t->insn, ev->index);
		OUT_LIT(t, "}}");
		break;
	default:
		break;
	}
	return t->err ? -PFT_E_IO : 0;
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
	static struct tl t; /* 64 KiB buffer: not on the stack */
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
	OUT_LIT(&t, "\n],\n\"pft\":{\"clock\":\"");
	out_str(&t, clock_names[clk]);
	OUT_LIT(&t, "\",\"end\":");
	put_ts(&t, t.last);
	out_flush(&t);
	fprintf(t.f, ",\"instructions\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"calls\":%" PRIu64
		",\"gaps\":%" PRIu64 "}}\n", s.cst.insns, s.cst.cycles, s.cst.calls + s.cst.tail_calls,
		s.cst.gaps);
	if (fflush(t.f) || ferror(t.f) || t.err) {
		cli_write_error("timeline", t.f, outpath);
		rc = PFT_EXIT_USAGE;
	}
out:
	if (t.f && t.f != stdout)
		fclose(t.f);
	prof_close(&s);
	return rc;
}
