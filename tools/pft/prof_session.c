/* SPDX-License-Identifier: BSD-3-Clause */
/* pft profile / timeline / tail: the session shared by the three commands:
 * options, input, program image and symbols (as pft decode), the flow
 * decoder and the call-stack tracker, and the decode loop. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "flow_any.h"
#include "flow_merge.h"
#include "flow_run.h"
#include "image_load.h"
#include "prof.h"
#include "sources_all.h"

/* The last symbol ranges looked up (pft_dbg_symbol_range: every address
   of [lo, hi) has the same symbol), and the last readable stretch of the
   image: most lookups fall in the function of one of the last few. */
#define FC_N 4
struct prof_fcache {
	struct {
		uint64_t lo, hi, addr, size;
		const char *name;
		int found;
	} e[FC_N];
	unsigned next;
	uint64_t rlo, rhi;
};

void prof_opts_init(struct prof_opts *o)
{
	memset(o, 0, sizeof(*o));
	input_opts_init(&o->io);
	o->dumps = 1;
}

static int parse_u64(const char *arg, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(arg, &end, 0);
	return errno || end == arg || *end ? -1 : 0;
}

int prof_parse_option(struct prof_opts *o, int c, const char *arg, const char *cmd)
{
	int r;

	if (c == INPUT_OPT_ID && arg && !strcmp(arg, "all")) {
		o->all = 1;
		return 1;
	}
	r = input_parse_option(&o->io, c, arg, cmd);

	if (!r)
		r = jobs_parse_option(&o->jobs, c, arg, cmd);
	if (r)
		return r < 0 ? -1 : 1;
	switch (c) {
	case PROF_OPT_IMAGE:
	case PROF_OPT_ELF:
	case PROF_OPT_SYMBOLS:
		if (o->nimg == PROF_MAX_FILES) {
			cli_error(cmd, "too many --image/--elf files (at most %d)", PROF_MAX_FILES);
			return -1;
		}
		if (image_arg_split(arg, o->paths[o->nimg], sizeof(o->paths[0]),
				    &o->img_addr[o->nimg])) {
			cli_error(cmd, "bad %s '%s' (want FILE or FILE@ADDRESS)",
				  c == PROF_OPT_ELF ? "--elf" : c == PROF_OPT_SYMBOLS ? "--symbols" : "--image",
				  arg);
			return -1;
		}
		o->img_path[o->nimg] = o->paths[o->nimg];
		o->img_elf[o->nimg] = c == PROF_OPT_ELF ? 1 : c == PROF_OPT_SYMBOLS ? 2 : 0;
		o->nimg++;
		return 1;
	case PROF_OPT_NO_DUMPS:
		o->dumps = 0;
		return 1;
	case PROF_OPT_CPU_FREQ:
	case PROF_OPT_TS_FREQ:
		if (parse_u64(arg, c == PROF_OPT_CPU_FREQ ? &o->cpu_hz : &o->ts_hz) ||
		    !(c == PROF_OPT_CPU_FREQ ? o->cpu_hz : o->ts_hz)) {
			cli_error(cmd, "bad %s '%s' (want a frequency in Hz)",
				  c == PROF_OPT_CPU_FREQ ? "--cpu-freq" : "--ts-freq", arg);
			return -1;
		}
		return 1;
	default:
		return 0;
	}
}

static int load_image(struct prof_session *s, const struct prof_opts *o)
{
	int i, r;
	char err[256];

	if (o->dumps && s->in.snap && s->in.core_name &&
	    image_load_dumps(s->img, s->cmd, s->in.snap, s->in.core_name))
		return PFT_EXIT_USAGE;
	for (i = 0; i < o->nimg; i++) {
		if (o->img_elf[i] == 2) {
			err[0] = '\0';
			r = pft_dbg_add_symbol_map(s->dbg, o->img_path[i], o->img_addr[i], err, sizeof(err));
			if (r < 0) {
				cli_error(s->cmd, "--symbols '%s': %s%s%s", o->img_path[i], pft_errstr(r),
					  err[0] ? ": " : "", err);
				return PFT_EXIT_USAGE;
			}
		} else if (o->img_elf[i]) {
			if (image_load_elf(s->img, s->cmd, o->img_path[i], o->img_addr[i]))
				return PFT_EXIT_USAGE;
			err[0] = '\0';
			r = pft_dbg_add_elf(s->dbg, o->img_path[i], o->img_addr[i], err, sizeof(err));
			if (r < 0) {
				cli_error(s->cmd, "--elf '%s': %s%s%s", o->img_path[i], pft_errstr(r),
					  err[0] ? ": " : "", err);
				return PFT_EXIT_USAGE;
			}
		} else {
			if (image_load_raw(s->img, s->cmd, o->img_path[i], o->img_addr[i]))
				return PFT_EXIT_USAGE;
		}
	}
	return PFT_EXIT_OK;
}

/* Functions for the tracker's tail calls and non-local jumps: the symbols
 * of --elf / --symbols. */
static int func_of(void *ctx, uint64_t addr, uint64_t *start, uint64_t *end)
{
	const struct prof_session *s = ctx;
	uint64_t key;

	if (!prof_func_at(s, addr, &key))
		return 0;
	*start = key;
	*end = addr + 1;
	return 1;
}

int prof_open(struct prof_session *s, const char *cmd, const char *inpath, const struct prof_opts *o)
{
	struct pft_cs_config cc;
	struct input_opts io = o->io;
	int r;

	memset(s, 0, sizeof(*s));
	s->cmd = cmd;
	s->jobs = jobs_count_one(&o->jobs);
	s->segment = o->jobs.segment;
	io.allow_etm3 = 1; /* an ETMv3 source gives the same flow items */
	r = input_open(&s->in, inpath, &io, o->capture_offsets, cmd);
	if (r)
		return r;
	s->img = pft_image_alloc();
	s->dbg = pft_dbg_alloc();
	if (!s->img || !s->dbg) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	r = load_image(s, o);
	if (r)
		return r;
	if (!pft_dbg_symbol_count(s->dbg)) {
		pft_dbg_free(s->dbg);
		s->dbg = NULL;
	}
	s->fc = calloc(1, sizeof(*s->fc));
	if (!s->fc) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	if (pft_image_region_count(s->img) == 0)
		cli_error(cmd, "warning: the program image is empty (give --image or --elf): "
			  "no instruction can be followed");
	s->dec = flow_any_alloc(&s->in.config, s->img, s->in.isync_resync);
	pft_cs_config_init(&cc);
	cc.cpu_hz = o->cpu_hz;
	cc.ts_hz = o->ts_hz;
	cc.flags = o->cs_flags;
	if (s->dbg) {
		cc.func_of = func_of;
		cc.func_ctx = s;
	}
	s->cs = pft_cs_tracker_alloc(&cc);
	if (!s->dec || !s->cs) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	return PFT_EXIT_OK;
}

static int drain_events(struct prof_session *s, const struct prof_hooks *h)
{
	const struct pft_cs_event *ev;
	size_t n, i;
	int r = pft_cs_tracker_take(s->cs, &ev, &n, sizeof(*ev));

	if (r < 0)
		return r;
	if (h->event)
		for (i = 0; i < n; i++)
			if ((r = h->event(h->ctx, &ev[i])) != 0)
				return r;
	return 0;
}

struct pass {
	struct prof_session *s;
	const struct prof_hooks *h;
	uint64_t events[PFT_EV_NR]; /* the event items seen, by type */
};

/* One flow item (flow_run.h, on this thread in stream order whatever
 * --jobs): the item hook, the tracker, its events.  0, PROF_STOP, a hook's
 * status or a negative error. */
static int put_item(void *arg, const struct pft_flow_item *it)
{
	struct pass *p = arg;
	int r;

	if (it->kind == PFT_FLOW_EVENT)
		p->events[it->type < PFT_EV_NR ? it->type : 0]++;
	if (p->h->item && (r = p->h->item(p->h->ctx, it)) != 0)
		return r;
	r = pft_cs_tracker_put(p->s->cs, it, sizeof(*it));
	if (r < 0)
		return r;
	return drain_events(p->s, p->h);
}

/* After the items: the tracker's last events, the end checks.  stop: the
 * hooks' stop status (0, PROF_STOP, or a status to return); st: the
 * decoder's totals.  The exit code. */
static int end_run(struct prof_session *s, const struct prof_hooks *h, const struct pass *p,
		   int r, const struct pft_flow_stats *st)
{
	int rc;
	uint64_t problems;

	if (r < 0 && r != PROF_STOP) {
		cli_error(s->cmd, "%s", pft_errstr(r));
		return PFT_EXIT_USAGE;
	}
	if (r > 0 && r != PROF_STOP)
		return r;
	pft_cs_tracker_flush(s->cs);
	r = drain_events(s, h);
	if (r > 0 && r != PROF_STOP)
		return r;
	if (h->before_end)
		h->before_end(h->ctx, s->cs);
	pft_cs_tracker_end(s->cs);
	r = drain_events(s, h);
	if (r > 0 && r != PROF_STOP)
		return r;
	rc = input_finish(&s->in, s->cmd);
	if (rc)
		return rc;
	/* the events of the items the commands saw: a run stopped early
	   (tail --before) counts up to there, however far the decoder, or its
	   threads, had gone */
	s->fst = *st;
	memcpy(s->fst.events, p->events, sizeof(s->fst.events));
	pft_cs_tracker_get_stats(s->cs, &s->cst, sizeof(s->cst));
	if (s->in.frame_errors) {
		cli_error(s->cmd, "%s: %s%s", s->in.buffer_path ? s->in.buffer_path : s->in.path,
			  s->in.frame_error_msg, s->in.frame_errors > 1 ? " (and more frame errors)" : "");
		rc = PFT_EXIT_DATA;
	}
	problems = s->fst.events[PFT_EV_PACKET_ERROR] + s->fst.events[PFT_EV_INCONSISTENT] +
		   s->fst.events[PFT_EV_SYNC_MISMATCH];
	if (problems) {
		cli_error(s->cmd, "trace ID 0x%02X: %" PRIu64 " malformed packet(s), %" PRIu64
			  " disagreement(s) with the image, %" PRIu64 " periodic I-sync mismatch(es)",
			  s->in.trace_id, s->fst.events[PFT_EV_PACKET_ERROR],
			  s->fst.events[PFT_EV_INCONSISTENT], s->fst.events[PFT_EV_SYNC_MISMATCH]);
		rc = PFT_EXIT_DATA;
	}
	if (s->in.delivered == 0) {
		cli_error(s->cmd, "no trace data for trace ID 0x%02X", s->in.trace_id);
		rc = PFT_EXIT_DATA;
	} else if (s->fst.events[PFT_EV_TRACE_ON] == 0) {
		cli_error(s->cmd, "trace ID 0x%02X: no instruction synchronisation (I-sync): "
			  "nothing could be decoded", s->in.trace_id);
		rc = PFT_EXIT_DATA;
	}
	return rc;
}

int prof_run(struct prof_session *s, const struct prof_hooks *h)
{
	struct flow_run fr;
	struct pass p;
	int k, r;

	memset(&p, 0, sizeof(p));
	p.s = s;
	p.h = h;
	memset(&fr, 0, sizeof(fr));
	fr.jobs = s->jobs;
	fr.segment = s->segment;
	fr.item = put_item;
	fr.arg = &p;
	k = flow_run(&s->in, s->dec, s->img, &fr);
	if (k == 1)
		return s->in.exit_code;
	r = fr.stop;
	if (!r && k == -PFT_E_NOMEM)
		r = k;
	return end_run(s, h, &p, r, &fr.st);
}

int prof_run_merged(struct prof_session *const *s, const struct prof_hooks *h, unsigned n,
		    const char *path, const struct input_opts *opts)
{
	struct flow_merge_src ms[SOURCES_ALL_MAX];
	struct pass p[SOURCES_ALL_MAX];
	struct pft_flow_stats st;
	const struct pft_flow_item *it;
	struct flow_merge *m = NULL;
	unsigned i, k;
	int r = 0, rc, worst = PFT_EXIT_OK, err;

	if (!n || n > SOURCES_ALL_MAX)
		return PFT_EXIT_USAGE;
	for (i = 0; i < n; i++) {
		ms[i].in = &s[i]->in;
		ms[i].dec = s[i]->dec;
		ms[i].opts = &opts[i];
		memset(&p[i], 0, sizeof(p[i]));
		p[i].s = s[i];
		p[i].h = &h[i];
	}
	rc = flow_merge_open(&m, path, ms, n, s[0]->cmd);
	/* a stop (a hook's status, PROF_STOP) ends every source's run */
	while (!rc && !r && flow_merge_next(m, -1, &k, &it) == 1) {
		r = put_item(&p[k], it);
		flow_merge_release(m, k);
	}
	if (r && r != PROF_STOP) { /* an error: said once */
		flow_merge_close(m);
		return end_run(s[0], &h[0], &p[0], r, &st);
	}
	for (i = 0; !rc && i < n; i++) {
		int one = flow_merge_finish(m, i, &err);

		flow_any_get_stats(s[i]->dec, &st);
		if (!one)
			one = end_run(s[i], &h[i], &p[i], r, &st);
		flow_merge_warn(m, i);
		if (one > worst)
			worst = one;
	}
	flow_merge_close(m);
	return rc ? rc : worst;
}

void prof_close(struct prof_session *s)
{
	free(s->fc);
	pft_cs_tracker_free(s->cs);
	flow_any_free(s->dec);
	pft_dbg_free(s->dbg);
	pft_image_free(s->img);
	input_close(&s->in);
}

/* ---- names ---- */

/* The cache entry of the symbol holding addr (as pft_dbg_symbol), or -1. */
static int fc_find(const struct prof_session *s, uint64_t addr)
{
	struct prof_fcache *fc = s->fc;
	unsigned i;

	if (!s->dbg || !fc)
		return -1;
	for (i = 0; i < FC_N; i++)
		if (addr - fc->e[i].lo < fc->e[i].hi - fc->e[i].lo)
			break;
	if (i == FC_N) {
		struct pft_dbg_symbol sym;
		uint64_t lo, hi;

		i = fc->next;
		fc->next = (fc->next + 1) % FC_N;
		fc->e[i].found = pft_dbg_symbol_range(s->dbg, addr, &sym, sizeof(sym), &lo, &hi) == 0;
		fc->e[i].lo = lo;
		fc->e[i].hi = hi;
		fc->e[i].addr = sym.addr;
		fc->e[i].size = sym.size;
		fc->e[i].name = sym.name;
	}
	return fc->e[i].found ? (int)i : -1;
}

int prof_func_at(const struct prof_session *s, uint64_t addr, uint64_t *key)
{
	struct prof_fcache *fc = s->fc;
	int i = fc_find(s, addr);

	if (i < 0)
		return 0;
	/* an unsized symbol below an address outside the image (a call to
	   unmapped memory) does not hold it */
	if (!(fc->e[i].size && addr - fc->e[i].addr < fc->e[i].size) &&
	    !(addr - fc->rlo < fc->rhi - fc->rlo)) {
		uint8_t b[256];
		int n = pft_image_read(s->img, addr, b, sizeof(b));

		if (n <= 0)
			return 0;
		fc->rlo = addr;
		fc->rhi = addr + (uint64_t)n;
	}
	*key = fc->e[i].addr;
	return 1;
}

int prof_sym_at(const struct prof_session *s, uint64_t addr, uint64_t *start, const char **name)
{
	int i = fc_find(s, addr);

	if (i < 0)
		return 0;
	*start = s->fc->e[i].addr;
	*name = s->fc->e[i].name;
	return 1;
}

const char *prof_func_name(const struct prof_session *s, uint64_t key, char *buf, size_t cap)
{
	struct pft_dbg_symbol sym;

	if (key == PROF_KEY_NONE)
		return "[no frame]";
	if (key & PROF_KEY_PSEUDO) {
		snprintf(buf, cap, "[exception %s]", pft_exception_name((unsigned)(key & 0xFFFF)));
		return buf;
	}
	if (s->dbg && pft_dbg_symbol(s->dbg, key, &sym, sizeof(sym)) == 0 && sym.addr == key)
		return sym.name;
	snprintf(buf, cap, "0x%08" PRIx64, key);
	return buf;
}

const char *prof_addr_name(const struct prof_session *s, uint64_t addr, char *buf, size_t cap)
{
	uint64_t start;
	const char *name;

	if (!prof_sym_at(s, addr, &start, &name))
		snprintf(buf, cap, "0x%08" PRIx64, addr);
	else if (addr != start)
		snprintf(buf, cap, "%s+0x%" PRIx64, name, addr - start);
	else
		snprintf(buf, cap, "%s", name);
	return buf;
}

const char *prof_line_name(const struct prof_session *s, uint64_t addr, char *buf, size_t cap)
{
	struct pft_dbg_line ln;
	const char *base;

	if (!s->dbg || pft_dbg_line(s->dbg, addr, &ln, sizeof(ln)) != 0)
		return "";
	base = strrchr(ln.file, '/');
	snprintf(buf, cap, "%s:%u", base ? base + 1 : ln.file, ln.line);
	return buf;
}

void prof_json_str(FILE *f, const char *p)
{
	for (; *p; p++) {
		unsigned char ch = (unsigned char)*p;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
}
