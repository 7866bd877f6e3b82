/* SPDX-License-Identifier: BSD-3-Clause */
/* pft timeline: the call stacks of a trace over time as Chrome/Perfetto
 * trace-event JSON, written as the trace is decoded.  doc/profile.md. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "prof.h"
#include "sources_all.h"

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
		"  --id all             every PFT and ETMv3 source: a track group (pid) per\n"
		"                       source, named \"0x13 PTM_0\", its events written in\n"
		"                       pft decode --id all's order (by timestamp when all\n"
		"                       have them, else capture position; one thread); the\n"
		"                       clock of the first.  The default without --id or\n"
		"                       --source when the input holds several (as decode).\n"
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
		"  pft timeline data/TC2 --id all --ts-freq 24000000 -o cores.json\n"
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

/* The contexts of a track group whose thread names are written. */
struct tl_tracks {
	uint32_t cids[256];
	unsigned ncids;
};

struct tl {
	FILE *f;
	const struct prof_session *s;
	enum clock clk;
	int first;
	struct tl_tracks *tr;   /* the current group's (one, or a source's) */
	struct tl_tracks one;
	unsigned pid;           /* 1, or with --id all one per source */
	uint64_t last;          /* last ts written (clock units, or ns) */
	uint64_t events;
	/* the output goes through this buffer: events are many, and printf
	   would cost more than the decode */
	char buf[1 << 16];
	size_t n;
	int err;
	struct numc ts, insn;   /* the last ts and insn written, formatted */
	uint32_t tidcid;        /* the last pid and tid written: ","pid":P,"tid":T */
	unsigned tidpid;
	char tidd[64];
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
	if (c->len && v >= c->v && v - c->v < 1000000) {
		uint32_t add = (uint32_t)(v - c->v);
		int i = 23;

		c->v = v;
		while (add) {                   /* two digits a step */
			unsigned x;

			while (i - 1 < 24 - (int)c->len)
				c->d[24 - ++c->len] = '0';
			x = (unsigned)(c->d[i - 1] - '0') * 10 + (unsigned)(c->d[i] - '0') + add % 100;
			add /= 100;
			if (x >= 100) {
				x -= 100;
				add++;
			}
			c->d[i - 1] = digits2[2 * x];
			c->d[i] = digits2[2 * x + 1];
			i -= 2;
		}
		while (c->len > 1 && c->d[24 - c->len] == '0')
			c->len--;
		return;
	}
	c->v = v;
	c->len = (unsigned)fmt_u64(c->d + 24 - ndigits64(v), v);
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

static uint64_t ts_of(const struct tl *t, const struct pft_cs_event *ev)
{
	switch (t->clk) {
	case CLK_TIME: return ev->time_ns;
	case CLK_CYCLES: return ev->cycles;
	default: return ev->index;
	}
}

/* ---- one event: written through a pointer into room reserved at its
   start (EV_ROOM bytes: everything but names, which go through out_json) */

#define EV_ROOM 512
#define W_LIT(o, lit) (memcpy((o), (lit), sizeof(lit) - 1), (o) + sizeof(lit) - 1)

static inline char *w_num(char *o, struct numc *c, uint64_t v)
{
	if (v != c->v || !c->len)
		numc_set(c, v);
	memcpy(o, c->d + 24 - c->len, 24);   /* a fixed size: no call */
	return o + c->len;
}

static const char hex2[513] =
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

static inline char *w_hex(char *o, uint64_t v)
{
	static const char hx[] = "0123456789abcdef";

	if (v > 0xffffffffu) {
		char d[24];
		int i = 24;

		do {
			d[--i] = hx[v & 15];
			v >>= 4;
		} while (v);
		memcpy(o, "0x", 2);
		memcpy(o + 2, d + i, (size_t)(24 - i));
		return o + 2 + (24 - i);
	}
	o[0] = '0';
	o[1] = 'x';
	memcpy(o + 2, hex2 + 2 * ((v >> 24) & 0xffu), 2);
	memcpy(o + 4, hex2 + 2 * ((v >> 16) & 0xffu), 2);
	memcpy(o + 6, hex2 + 2 * ((v >> 8) & 0xffu), 2);
	memcpy(o + 8, hex2 + 2 * (v & 0xffu), 2);
	return o + 10;
}

static char *w_ts(struct tl *t, char *o, uint64_t v)
{
	if (t->clk == CLK_TIME) {
		unsigned ms = (unsigned)(v % 1000);

		o = w_num(o, &t->ts, v / 1000);
		o[0] = '.';
		o[1] = (char)('0' + ms / 100);
		o[2] = (char)('0' + ms / 10 % 10);
		o[3] = (char)('0' + ms % 10);
		return o + 4;
	}
	return w_num(o, &t->ts, v);
}

/* a short name of the library's (an exception's, a flow event's): no
   character to escape */
static inline char *w_word(char *o, const char *w)
{
	size_t k = strlen(w);

	if (k > 64)
		k = 64;
	memcpy(o, w, k);
	return o + k;
}

/* a name of any length: through the checked writer */
static char *w_name(struct tl *t, char *o, const char *name)
{
	t->n = (size_t)(o - t->buf);
	out_json(t, name);
	return out_room(t, EV_ROOM);
}

/* symbol+offset, or 0x%08x without symbols */
static inline char *w_addr(struct tl *t, char *o, uint64_t addr)
{
	static const char hx[] = "0123456789abcdef";
	uint64_t start, off;
	const char *name;
	char d[20];
	int i = 20;

	if (!t->s->dbg || !prof_sym_at(t->s, addr, &start, &name))
		return w_hex(o, addr);                /* as prof_addr_name */
	o = w_name(t, o, name);
	if (addr == start)
		return o;
	off = addr - start;
	do {
		d[--i] = hx[off & 15];
		off >>= 4;
	} while (off);
	o = W_LIT(o, "+0x");
	memcpy(o, d + i, (size_t)(20 - i));
	return o + (20 - i);
}

/* the thread name of a context seen for the first time */
static void thread_name(struct tl *t, uint32_t cid)
{
	unsigned i;

	struct tl_tracks *tr = t->tr;

	if (tr->ncids && tr->cids[tr->ncids - 1] == cid)
		return;
	for (i = 0; i < tr->ncids && tr->cids[i] != cid; i++)
		;
	if (i < tr->ncids || tr->ncids == 256)
		return;
	tr->cids[tr->ncids++] = cid;
	out_str(t, t->first ? "\n" : ",\n");
	OUT_LIT(t, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":");
	out_u64(t, t->pid);
	OUT_LIT(t, ",\"tid\":");
	out_u64(t, cid);
	OUT_LIT(t, ",\"args\":{\"name\":\"context ");
	out_hex(t, cid);
	OUT_LIT(t, "\"}}");
	t->first = 0;
}

/* the common start of an event: {"ph":"X","pid":P,"tid":N,"ts":T */
static char *begin(struct tl *t, char ph, uint32_t cid, uint64_t ts)
{
	char *o;

	thread_name(t, cid);
	o = out_room(t, EV_ROOM);
	if (t->first)
		o = W_LIT(o, "\n{\"ph\":\"");
	else
		o = W_LIT(o, ",\n{\"ph\":\"");
	*o++ = ph;
	if (cid != t->tidcid || t->pid != t->tidpid || !t->tidlen) {
		char *e = W_LIT(t->tidd, "\",\"pid\":");

		e += fmt_u64(e, t->pid);
		e = W_LIT(e, ",\"tid\":");
		e += fmt_u64(e, cid);
		t->tidcid = cid;
		t->tidpid = t->pid;
		t->tidlen = (size_t)(e - t->tidd);
	}
	memcpy(o, t->tidd, sizeof(t->tidd));  /* a fixed size: no call */
	o += t->tidlen;
	o = W_LIT(o, ",\"ts\":");
	o = w_ts(t, o, ts);
	t->first = 0;
	t->events++;
	return o;
}

static int on_event(void *ctx, const struct pft_cs_event *ev)
{
	struct tl *t = ctx;
	uint64_t ts = ts_of(t, ev);
	char nb[96], *o;
	const char *nm;

	if (ts > t->last)
		t->last = ts;
	switch (ev->kind) {
	case PFT_CS_CALL:
		o = begin(t, 'B', ev->context_id, ts);
		if (ev->frame.kind == PFT_CS_FRAME_UNKNOWN) {
			o = W_LIT(o, ",\"cat\":\"unknown\",\"name\":\"");
			o = w_addr(t, o, ev->frame.entry);
			o = W_LIT(o, " (caller unknown)\"}");
		} else {
			uint64_t key = ev->frame.entry;

			if (ev->flags & PFT_CS_F_TAIL)
				o = W_LIT(o, ",\"cat\":\"tail_call\",\"name\":\"");
			else
				o = W_LIT(o, ",\"cat\":\"call\",\"name\":\"");
			if (t->s->dbg) {
				prof_func_at(t->s, ev->frame.entry, &key);
				o = w_name(t, o, prof_func_name(t->s, key, nb, sizeof(nb)));
			} else {
				o = w_hex(o, key);
			}
			o = W_LIT(o, "\",\"args\":{\"from\":\"");
			o = w_addr(t, o, ev->frame.site);
			o = W_LIT(o, "\",\"insn\":");
			o = w_num(o, &t->insn, ev->index);
			o = W_LIT(o, "}}");
		}
		break;
	case PFT_CS_EXC_ENTRY:
		o = begin(t, 'B', ev->context_id, ts);
		o = W_LIT(o, ",\"cat\":\"exception\",\"name\":\"exception ");
		nm = pft_exception_name(ev->frame.exception);
		o = w_word(o, nm);
		o = W_LIT(o, "\",\"args\":{\"return\":\"");
		o = w_addr(t, o, ev->frame.ret);
		o = W_LIT(o, "\",\"insn\":");
		o = w_num(o, &t->insn, ev->index);
		o = W_LIT(o, "}}");
		break;
	case PFT_CS_RETURN:
	case PFT_CS_EXC_RETURN:
		o = begin(t, 'E', ev->context_id, ts);
		*o++ = '}';
		break;
	case PFT_CS_GAP:
		o = begin(t, 'i', ev->context_id, ts);
		o = W_LIT(o, ",\"s\":\"t\",\"cat\":\"gap\",\"name\":\"gap: ");
		nm = ev->reason ? pft_flow_event_name((enum pft_flow_event)ev->reason) : "stack_lost";
		o = w_word(o, nm);
		o = W_LIT(o, "\",\"args\":{\"offset\":");
		o += fmt_u64(o, ev->offset);
		o = W_LIT(o, ",\"insn\":");
		o = w_num(o, &t->insn, ev->index);
		o = W_LIT(o, "}}");
		break;
	default:
		return t->err ? -PFT_E_IO : 0;
	}
	t->n = (size_t)(o - t->buf);
	return t->err ? -PFT_E_IO : 0;
}

/* --id all: a source's events in the merged order, its track group. */
struct tl_src {
	struct tl *t;
	const struct prof_session *s;
	unsigned pid;
	struct tl_tracks tr;
};

static int on_source_event(void *ctx, const struct pft_cs_event *ev)
{
	struct tl_src *src = ctx;
	struct tl *t = src->t;

	t->s = src->s;
	t->pid = src->pid;
	t->tr = &src->tr;
	return on_event(t, ev);
}

/* The clock of the file: from a source's trace and the options; CLK_AUTO
 * after a message when the trace cannot give the one asked for. */
static int choose_clock(const struct prof_session *s, const struct prof_opts *o, int clk)
{
	struct pft_features feat;
	int ca, ts;

	pft_config_features(&s->in.config, &feat);
	ca = feat.cycle_accurate;
	ts = feat.timestamps;
	if (clk == CLK_AUTO)
		clk = (ca && o->cpu_hz) || (ts && o->ts_hz) ? CLK_TIME : ca ? CLK_CYCLES : CLK_INSNS;
	if ((clk == CLK_TIME && !((ca && o->cpu_hz) || (ts && o->ts_hz))) || (clk == CLK_CYCLES && !ca)) {
		cli_error("timeline", "--clock %s: the trace%s%s has no %s", clock_names[clk],
			  s->in.source_name ? " of " : "", s->in.source_name ? s->in.source_name : "",
			  clk == CLK_CYCLES ? "cycle counts" :
			  "time (give --cpu-freq for cycle-accurate trace, --ts-freq for timestamps)");
		return CLK_AUTO;
	}
	return clk;
}

/* "0x13 PTM_0": the process (track group) of one source with --id all. */
static void name_process(struct tl *t, const struct input *in)
{
	char b[96];

	snprintf(b, sizeof b, "0x%02X%s%s", in->trace_id, in->source_name ? " " : "",
		 in->source_name ? in->source_name : "");
	out_str(t, t->first ? "\n" : ",\n");
	OUT_LIT(t, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":");
	out_u64(t, t->pid);
	OUT_LIT(t, ",\"args\":{\"name\":\"");
	out_json(t, b);
	OUT_LIT(t, "\"}}");
	t->first = 0;
}

/* The file's header, once the clock is known. */
static void header(struct tl *t, const char *inpath)
{
	fprintf(t->f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"creator\":\"pft timeline\","
		"\"input\":\"");
	prof_json_str(t->f, inpath);
	fprintf(t->f, "\",\"clock\":\"%s\",\"unit\":\"%s\"},\n\"traceEvents\":[", clock_names[t->clk],
		t->clk == CLK_TIME ? "1 us = 1 microsecond" :
		t->clk == CLK_CYCLES ? "1 us = 1 cycle" : "1 us = 1 instruction");
}

struct tl_totals {
	uint64_t insns, cycles, calls, gaps;
};

/* --id all: every source open at once, a track group (pid) each named
 * "0x13 PTM_0", their events written in the merged order of pft decode
 * --id all (prof_run_merged: by time, or by capture position), on the
 * clock of the first.  The exit code. */
static int every_source(struct tl *t, struct sources_all *sa, const char *inpath,
			const char *outpath, const struct prof_opts *o, int clk, struct tl_totals *tot)
{
	struct prof_session *s[SOURCES_ALL_MAX];
	struct tl_src *src = NULL;
	struct prof_hooks h[SOURCES_ALL_MAX];
	struct prof_opts one = *o;
	struct input_opts io = o->io;
	unsigned k, n = 0;
	int rc;

	io.allow_etm3 = 1;
	rc = sources_all_find(sa, inpath, &io, 1, "timeline");
	if (!rc && !(src = calloc(sa->n, sizeof(*src)))) {
		cli_error("timeline", "out of memory");
		rc = PFT_EXIT_USAGE;
	}
	for (k = 0; !rc && k < sa->n; k++) {
		if (!(s[k] = calloc(1, sizeof(*s[k])))) {
			cli_error("timeline", "out of memory");
			rc = PFT_EXIT_USAGE;
			break;
		}
		n++;
		one.io = sa->opts[k];
		one.capture_offsets = 1;
		rc = prof_open(s[k], "timeline", inpath, &one);
		if (!rc && (clk = choose_clock(s[k], o, clk)) == CLK_AUTO)
			rc = PFT_EXIT_USAGE;
	}
	if (!rc) {
		t->clk = (enum clock)clk;
		t->f = cli_open_output("timeline", outpath);
		if (t->f)
			header(t, inpath);
		else
			rc = PFT_EXIT_USAGE;
	}
	for (k = 0; !rc && k < n; k++) {
		src[k].t = t;
		src[k].s = s[k];
		src[k].pid = k + 1;
		t->pid = k + 1;
		name_process(t, &s[k]->in);
		memset(&h[k], 0, sizeof(h[k]));
		h[k].event = on_source_event;
		h[k].ctx = &src[k];
	}
	if (!rc)
		rc = prof_run_merged(s, h, n, inpath, sa->opts);
	for (k = 0; k < n; k++) {
		if (rc != PFT_EXIT_USAGE) {
			tot->insns += s[k]->cst.insns;
			tot->cycles += s[k]->cst.cycles;
			tot->calls += s[k]->cst.calls + s[k]->cst.tail_calls;
			tot->gaps += s[k]->cst.gaps;
		}
		if (k == 0 && rc != PFT_EXIT_USAGE)
			sources_all_saw(sa, &s[k]->in);
		prof_close(s[k]);
		free(s[k]);
	}
	t->s = NULL;
	t->tr = &t->one;
	free(src);
	return rc;
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
	struct sources_all *sa = NULL;
	static struct tl t; /* 64 KiB buffer: not on the stack */
	const char *outpath = NULL, *inpath;
	struct tl_totals tot;
	int c, r, rc = PFT_EXIT_OK, clk = CLK_AUTO;

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
	memset(&tot, 0, sizeof(tot));
	memset(&t, 0, sizeof(t));
	memset(&s, 0, sizeof(s));
	t.first = 1;
	t.tr = &t.one;
	if (sources_all_wanted(inpath, &o.io, o.all)) {
		sa = calloc(1, sizeof *sa);
		if (!sa) {
			cli_error("timeline", "out of memory");
			return PFT_EXIT_USAGE;
		}
		rc = every_source(&t, sa, inpath, outpath, &o, clk, &tot);
	} else {
		r = prof_open(&s, "timeline", inpath, &o);
		if (!r && (clk = choose_clock(&s, &o, clk)) == CLK_AUTO)
			r = PFT_EXIT_USAGE;
		if (!r) {
			t.clk = (enum clock)clk;
			t.f = cli_open_output("timeline", outpath);
			if (t.f)
				header(&t, inpath);
			else
				r = PFT_EXIT_USAGE;
		}
		if (!r) {
			t.s = &s;
			t.pid = 1;
			memset(&h, 0, sizeof(h));
			h.event = on_event;
			h.ctx = &t;
			r = prof_run(&s, &h);
			tot.insns += s.cst.insns;
			tot.cycles += s.cst.cycles;
			tot.calls += s.cst.calls + s.cst.tail_calls;
			tot.gaps += s.cst.gaps;
		}
		rc = r;
		prof_close(&s);
		t.s = NULL;
	}
	if (t.f) {
		OUT_LIT(&t, "\n],\n\"pft\":{\"clock\":\"");
		out_str(&t, clock_names[t.clk]);
		OUT_LIT(&t, "\",\"end\":");
		{
			char *e = w_ts(&t, out_room(&t, EV_ROOM), t.last);

			t.n = (size_t)(e - t.buf);
		}
		out_flush(&t);
		fprintf(t.f, ",\"instructions\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"calls\":%" PRIu64
			",\"gaps\":%" PRIu64 "}}\n", tot.insns, tot.cycles, tot.calls, tot.gaps);
		if (fflush(t.f) || ferror(t.f) || t.err) {
			cli_write_error("timeline", t.f, outpath);
			rc = PFT_EXIT_USAGE;
		}
	}
	if (sa && rc != PFT_EXIT_USAGE && *sources_all_skipped(sa, NULL))
		cli_error("timeline", "skipped (neither PFT nor ETMv3, or no data): %s", sa->skipped);
	if (t.f && t.f != stdout)
		fclose(t.f);
	free(sa);
	return rc;
}
