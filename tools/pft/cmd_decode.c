/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode: the instruction flow of one PTM trace source, reconstructed
 * against a program image (spec appendix B).  Formats: doc/decode.md. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "decode.h"
#include "decode_all.h"
#include "decode_pipe.h"
#include "flow_any.h"
#include "image_load.h"
#include "input.h"
#include "input_probe.h"
#include "jobs_opt.h"
#include "sources_all.h"
#include "task_pool.h"
#include "par_run.h"

const char *const cmd_decode_summary = "decode the executed instructions of a trace";

static void help(FILE *f)
{
	fprintf(f,
		"Usage: pft decode [options] INPUT\n"
		"\n"
		"Reconstruct every executed instruction of one PTM trace source against the\n"
		"program image: one line per instruction (index, address, instruction set,\n"
		"opcode, disassembly, taken/fail for waypoints, cycle count, symbol, file:line), with\n"
		"events (trace on, exceptions, context changes, timestamps, code not in the\n"
		"image, atoms that could not be followed, packet errors) in line.\n"
		"\n"
		"INPUT is a DS-5/OpenCSD snapshot folder (registers, buffer, trace ID and the\n"
		"core's memory dumps come from its ini files), a capture file, or - for\n"
		"standard input.\n"
		"The input is read as a stream, in 1 MiB chunks, and the output written as\n"
		"it comes: memory stays bounded whatever the input size.  From a pipe, what\n"
		"needs the whole capture (a trace ID without data, several IDs without --id)\n"
		"is reported at the end.\n"
		"\n"
		"Program image (several may be given; later ones win where they overlap):\n"
		"  --image FILE[@ADDR]  a raw binary loaded at ADDR (default 0)\n"
		"  --elf FILE[@OFFSET]  the loadable segments of an ELF file (plus OFFSET), and\n"
		"                       its symbols and DWARF lines for symbol+offset file:line\n"
		"  --no-dumps           do not load the snapshot's [dump] sections\n"
		"\n"
		"Output:\n"
		"  (default)            one line per instruction, events in line ('-- ' lines)\n"
		"  --ranges             one line per range of instructions\n"
		"  --json               JSON Lines: instruction (or, with --ranges, range) and\n"
		"                       event objects\n"
		"  --format addrs       the bare executed-instruction log, '%%08x ISA' per line\n"
		"                       (ISA: A32, T32, T32EE), as pft record --log writes it\n"
		"  --format text|ranges|json  the same as the options above\n"
		"  --stats              decode everything, print only totals\n"
		"  --no-disasm          leave out the disassembly\n"
		JOBS_OPTIONS_HELP("1 MiB with --stats, else 128 KiB")
		"  -o, --output FILE    write to FILE instead of standard output (- = stdout)\n"
		"  -h, --help           this text\n"
		"\n");
	fputs("Every source at once:\n"
		"  --id all             every PFT and ETMv3 source of a snapshot (every PFT\n"
		"                       trace ID of a capture file) in one listing, one decoder\n"
		"                       per trace ID; each line starts with its source ('0x13\n"
		"                       PTM_0 ', JSON \"trace_id\" and \"source\" first); ordered by\n"
		"                       timestamp when every source has them, else by capture\n"
		"                       position.  The default without --id or --source when the\n"
		"                       input holds several such sources.  Not from stdin.\n"
		"\n", f);
	fprintf(f,
		"--format also takes the capture layouts raw, frames and tpiu (see below).\n"
		"\n"
		INPUT_OPTIONS_HELP
		"\n"
		"Examples:\n"
		"  pft decode data/TC2 --id 0x13\n"
		"  pft decode data/TC2 --id 0x10            (a Cortex-A7 ETMv3.5 source)\n"
		"  pft decode data/TC2 --id all --json      (all four cores, in time order)\n"
		"  pft decode data/trace_cov_a15 --ranges\n"
		"  pft decode ptm.bin --etmcr 0x20000000 --elf prog.elf --format addrs\n"
		"  pft decode cstrace.bin --format frames --id 0x13 --cycle-accurate \\\n"
		"      --image kernel.bin@0xC0008000 --json\n"
		"\n"
		"Exit status: 0 success; 1 the trace has errors (malformed packets or frames,\n"
		"trace that disagrees with the image, an empty input); 2 usage or setup\n"
		"error (bad option, missing file, bad registers).\n");
}

enum { OPT_IMAGE = 0x2000, OPT_ELF, OPT_NO_DUMPS, OPT_NO_DISASM, OPT_RANGES, OPT_JSON,
       OPT_STATS };

#define MAX_FILES 64

struct image_arg {
	const char *path;
	uint64_t addr;
	int elf;
};

static int load_image(struct pft_image *img, const struct image_arg *a, int na,
		      const struct input *in, int dumps, struct pft_dbg *dbg)
{
	int i, r;
	char err[256];

	if (dumps && in->snap && in->core_name &&
	    image_load_dumps(img, "decode", in->snap, in->core_name))
		return PFT_EXIT_USAGE;
	for (i = 0; i < na; i++) {
		if (a[i].elf) {
			if (image_load_elf(img, "decode", a[i].path, a[i].addr))
				return PFT_EXIT_USAGE;
			r = pft_dbg_add_elf(dbg, a[i].path, a[i].addr, err, sizeof(err));
			if (r < 0) {
				cli_error("decode", "--elf '%s': %s", a[i].path, err);
				return PFT_EXIT_USAGE;
			}
		} else if (image_load_raw(img, "decode", a[i].path, a[i].addr)) {
			return PFT_EXIT_USAGE;
		}
	}
	return PFT_EXIT_OK;
}

struct decode_args {
	struct input_opts io;
	struct image_arg imgs[MAX_FILES];
	char paths[MAX_FILES][1024];
	int nimg, dumps, disasm, all;
	struct jobs_opts jobs; /* --jobs, --segment-size */
	enum decode_format fmt;
	const char *outpath, *inpath;
};

/* --format names both output formats and capture layouts: 1 if arg was an
 * output format (flags set), 0 if not. */
static int output_format(const char *arg, int *addrs, int *json, int *ranges, int *stats)
{
	if (!strcmp(arg, "addrs"))
		*addrs = 1;
	else if (!strcmp(arg, "json"))
		*json = 1;
	else if (!strcmp(arg, "ranges"))
		*ranges = 1;
	else if (!strcmp(arg, "stats"))
		*stats = 1;
	else if (strcmp(arg, "text"))
		return 0;
	return 1;
}

static int add_image_arg(struct decode_args *a, int c, const char *arg)
{
	if (a->nimg == MAX_FILES) {
		cli_error("decode", "too many --image/--elf files (at most %d)", MAX_FILES);
		return PFT_EXIT_USAGE;
	}
	if (image_arg_split(arg, a->paths[a->nimg], sizeof(a->paths[a->nimg]), &a->imgs[a->nimg].addr)) {
		cli_error("decode", "bad %s '%s' (want FILE or FILE@ADDRESS)",
			  c == OPT_ELF ? "--elf" : "--image", arg);
		return PFT_EXIT_USAGE;
	}
	a->imgs[a->nimg].path = a->paths[a->nimg];
	a->imgs[a->nimg].elf = c == OPT_ELF;
	a->nimg++;
	return PFT_EXIT_OK;
}

/* The command line -> *a.  -1 to go on, else the exit code (--help: 0). */
static int parse_args(int argc, char **argv, struct decode_args *a)
{
	static const struct option own[] = {
		{ "image", required_argument, NULL, OPT_IMAGE },
		{ "elf", required_argument, NULL, OPT_ELF },
		{ "no-dumps", no_argument, NULL, OPT_NO_DUMPS },
		{ "no-disasm", no_argument, NULL, OPT_NO_DISASM },
		{ "ranges", no_argument, NULL, OPT_RANGES },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "stats", no_argument, NULL, OPT_STATS },
		JOBS_LONG_OPTIONS,
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct option all[64];
	int c, r, ranges = 0, json = 0, stats = 0, addrs = 0;

	input_opts_init(&a->io);
	input_merge_options(all, sizeof(all) / sizeof(all[0]), own);
	a->dumps = a->disasm = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", all, NULL)) != -1) {
		if (c == INPUT_OPT_FORMAT && optarg &&
		    output_format(optarg, &addrs, &json, &ranges, &stats))
			continue;
		if (c == INPUT_OPT_ID && optarg && !strcmp(optarg, "all")) {
			a->all = 1;
			continue;
		}
		r = input_parse_option(&a->io, c, optarg, "decode");
		if (!r)
			r = jobs_parse_option(&a->jobs, c, optarg, "decode");
		if (r < 0)
			return PFT_EXIT_USAGE;
		if (r > 0)
			continue;
		switch (c) {
		case OPT_IMAGE:
		case OPT_ELF:
			if (add_image_arg(a, c, optarg))
				return PFT_EXIT_USAGE;
			break;
		case OPT_NO_DUMPS: a->dumps = 0; break;
		case OPT_NO_DISASM: a->disasm = 0; break;
		case OPT_RANGES: ranges = 1; break;
		case OPT_JSON: json = 1; break;
		case OPT_STATS: stats = 1; break;
		case 'o': a->outpath = optarg; break;
		case 'h': help(stdout); return PFT_EXIT_OK;
		default:
			return cli_bad_option("decode", c, argv, optind);
		}
	}
	a->inpath = cli_single_input("decode", argc, argv, optind);
	if (!a->inpath)
		return PFT_EXIT_USAGE;
	if (addrs + stats + (json || ranges) > 1) {
		cli_error("decode", "choose one of --format addrs, --stats and the listings");
		return PFT_EXIT_USAGE;
	}
	a->fmt = stats ? DECODE_STATS : addrs ? DECODE_ADDRS :
		 json ? (ranges ? DECODE_JSON_RANGES : DECODE_JSON) :
		 ranges ? DECODE_RANGES : DECODE_TEXT;
	return -1;
}

/* Hand every item the decoder has to the output: -PFT_E_AGAIN, -PFT_E_EOS,
 * -PFT_E_IO (output failed) or the decoder's error. */
static int drain_items(struct flow_any *dec, struct decode_out *out)
{
	struct pft_flow_item it;
	int err;

	if (!out) /* --stats: the decoder's totals are the output */
		return flow_any_skip(dec);
	while ((err = flow_any_next(dec, &it)) == 0)
		if (decode_out_item(out, &it))
			return -PFT_E_IO;
	return err;
}

/* Input bytes -> flow decoder -> output (the packet decoder inside reports
 * a skipped run as one item however the input is chunked); out NULL for
 * --stats (the items are only counted, by the decoder).  Returns the
 * decoder's last status (-PFT_E_EOS when all went through); *rc gets an
 * exit code for a read error. */
static int decode_stream(struct input *in, struct flow_any *dec, struct decode_out *out,
			 int *rc)
{
	const uint8_t *buf = NULL;
	size_t len = 0;
	int k, err = 0;

	while ((k = input_read(in, &buf, &len)) > 0) {
		if (in->gap) {
			flow_any_resync(dec);
			if ((err = drain_items(dec, out)) != -PFT_E_AGAIN)
				break;
		}
		err = flow_any_feed(dec, buf, len);
		if (!err)
			err = drain_items(dec, out);
		if (err != -PFT_E_AGAIN)
			break;
		err = 0;
	}
	if (k < 0) {
		*rc = in->exit_code;
		return err;
	}
	if (!err)
		err = flow_any_end(dec);
	if (!err)
		err = drain_items(dec, out);
	if (err != -PFT_E_IO && err != -PFT_E_EOS) {
		/* the decoder stopped: what is left of the input is still read
		   for the end-of-stream checks */
		while ((k = input_read(in, &buf, &len)) > 0)
			;
		if (k < 0)
			*rc = in->exit_code;
	}
	return err;
}

/* What went wrong in the trace, as messages: the exit code. */
static int report(const struct input *in, const struct pft_flow_stats *stp, int etm3, int err)
{
	struct pft_flow_stats st = *stp;
	uint64_t problems;
	int rc = PFT_EXIT_OK;
	const char *proto = etm3 ? " (ETMv3)" : "";

	if (err != -PFT_E_EOS) {
		cli_error("decode", "flow decoder stopped: %s", pft_errstr(err));
		rc = PFT_EXIT_DATA;
	}
	if (in->frame_errors) {
		cli_error("decode", "%s: %s%s", in->buffer_path ? in->buffer_path : in->path,
			  in->frame_error_msg, in->frame_errors > 1 ? " (and more frame errors)" : "");
		rc = PFT_EXIT_DATA;
	}
	problems = st.events[PFT_EV_PACKET_ERROR] + st.events[PFT_EV_INCONSISTENT] +
		   st.events[PFT_EV_SYNC_MISMATCH];
	if (problems) {
		cli_error("decode", "trace ID 0x%02X%s: %" PRIu64 " malformed packet(s), %" PRIu64
			  " disagreement(s) with the image, %" PRIu64 " periodic I-sync mismatch(es)",
			  in->trace_id, proto, st.events[PFT_EV_PACKET_ERROR], st.events[PFT_EV_INCONSISTENT],
			  st.events[PFT_EV_SYNC_MISMATCH]);
		rc = PFT_EXIT_DATA;
		if (!etm3)
			input_probe_hint(in, st.events[PFT_EV_PACKET_ERROR], "decode");
	}
	if (in->delivered == 0) {
		cli_error("decode", "no trace data for trace ID 0x%02X", in->trace_id);
		rc = PFT_EXIT_DATA;
	} else if (st.events[PFT_EV_TRACE_ON] == 0) {
		cli_error("decode", "trace ID 0x%02X%s: no instruction synchronisation (I-sync) in %" PRIu64 " "
			  "bytes%s: nothing could be decoded", in->trace_id, proto, in->delivered,
			  st.packets ? "" : " (not even an A-sync)");
		rc = PFT_EXIT_DATA;
	}
	return rc;
}

/* The program image and its debug information: snapshot dumps, --image,
 * --elf.  PFT_EXIT_OK or the exit code (message printed). */
static int open_image(const struct decode_args *a, const struct input *in, struct pft_image **img,
		      struct pft_dbg **dbg)
{
	int rc;

	*img = pft_image_alloc();
	*dbg = pft_dbg_alloc();
	if (!*img || !*dbg) {
		cli_error("decode", "out of memory");
		return PFT_EXIT_USAGE;
	}
	rc = load_image(*img, a->imgs, a->nimg, in, a->dumps, *dbg);
	if (!rc && pft_image_region_count(*img) == 0)
		cli_error("decode", "warning: the program image is empty (give --image or --elf): "
			  "no instruction can be followed");
	return rc;
}

/* The output file and its writer; NULL after a message. */
static struct decode_out *open_out(const struct decode_args *a, struct pft_dbg *dbg, FILE **f)
{
	struct decode_out *out;

	*f = cli_open_output("decode", a->outpath);
	if (!*f)
		return NULL;
	out = decode_out_open(*f, a->fmt, a->disasm,
			      pft_dbg_symbol_count(dbg) || pft_dbg_has_lines(dbg) ? dbg : NULL);
	if (!out)
		cli_error("decode", "out of memory");
	return out;
}

static int put_item(void *arg, const void *it)
{
	return decode_pipe_item(arg, it) ? 1 : 0;
}

/* --jobs N (par_run.h), a PFT or ETMv3 source: the same items on N threads,
 * a listing formatted on N threads too (decode_pipe.h).  As decode_stream;
 * *st gets the totals. */
static int decode_jobs(const struct decode_args *a, struct input *in, struct pft_image *img,
		       struct decode_out *out, struct pft_flow_stats *st, int *rc)
{
	struct par_run r;
	struct decode_pipe *dp = NULL;
	int err;

	memset(&r, 0, sizeof r);
	r.jobs = a->jobs.jobs;
	r.kind = PFT_PAR_FLOW;
	r.keep = a->fmt != DECODE_STATS;
	/* 0: par_run.h's default, larger when only the totals are kept */
	r.segment = a->jobs.segment ? a->jobs.segment : r.keep ? PAR_RUN_SEGMENT_ITEMS : 0;
	r.keep_insns = a->fmt == DECODE_TEXT || a->fmt == DECODE_JSON || a->fmt == DECODE_ADDRS;
	if (r.keep) {
		dp = decode_pipe_open(out, r.jobs, DECODE_PIPE_ITEMS(r.segment));
		if (!dp)
			return -PFT_E_NOMEM;
		r.item = put_item;
		r.arg = dp;
	}
	err = par_run_stream(in, &in->config, img, in->isync_resync, &r);
	if (dp && decode_pipe_end(dp) && err != 1)
		err = -PFT_E_IO;
	decode_pipe_close(dp);
	if (err == 1)
		*rc = in->exit_code;
	if (!r.par || pft_par_get_stats(r.par, st, sizeof *st))
		memset(st, 0, sizeof *st);
	pft_par_free(r.par);
	return err;
}

/* The end of a source's decode: what needs the whole capture (an absent
 * trace ID in a pipe), the totals written, the checks.  The exit code. */
static int decode_end(const struct decode_args *a, struct input *in, struct decode_out *out,
		      const struct pft_flow_stats *st, int etm3, int err, int rc)
{
	if (!rc)
		rc = input_finish(in, "decode");
	if (!rc && (decode_out_finish(out, st) || err == -PFT_E_IO)) {
		cli_write_error("decode", NULL, a->outpath);
		rc = PFT_EXIT_USAGE;
	}
	if (!rc)
		rc = report(in, st, etm3, err);
	return rc;
}

/* A PFT or ETMv3 source: its flow over the stream, then the end checks. */
static int decode_flow(const struct decode_args *a, struct input *in, struct pft_image *img,
		       struct decode_out *out)
{
	struct flow_any *dec = flow_any_alloc(&in->config, img, in->isync_resync);
	struct pft_flow_stats st;
	int rc = PFT_EXIT_OK, err;

	if (!dec) {
		cli_error("decode", "cannot create the flow decoder (out of memory)");
		return PFT_EXIT_USAGE;
	}
	if (a->jobs.jobs > 1) {
		err = decode_jobs(a, in, img, out, &st, &rc);
	} else {
		err = decode_stream(in, dec, a->fmt == DECODE_STATS ? NULL : out, &rc);
		flow_any_get_stats(dec, &st);
	}
	rc = decode_end(a, in, out, &st, flow_any_is_etm3(dec), err, rc);
	flow_any_free(dec);
	return rc;
}

static int all_image(void *ctx, const struct input *in, struct pft_image **img,
		     struct pft_dbg **dbg)
{
	return open_image(ctx, in, img, dbg);
}

static int all_report(void *ctx, const struct input *in, const struct flow_any *dec, int err)
{
	struct pft_flow_stats st;

	(void)ctx;
	flow_any_get_stats(dec, &st);
	return report(in, &st, flow_any_is_etm3(dec), err);
}

/* --id all --stats: one source of the run. */
struct stats_src {
	struct input in;
	struct pft_image *img;
	struct pft_dbg *dbg;
	struct decode_out *out;
	struct flow_any *dec;
	struct pft_flow_stats st; /* its totals, once read */
	int err, rc;
};

/* Read and decode source i to its end (a task_pool task). */
static void stats_task(void *ctx, unsigned i)
{
	struct stats_src *s = (struct stats_src *)ctx + i;

	s->err = decode_stream(&s->in, s->dec, NULL, &s->rc);
	flow_any_get_stats(s->dec, &s->st);
}

/* Open source i (input, image, decoder, writer): PFT_EXIT_OK or the exit
 * code after a message. */
static int stats_open(const struct decode_args *a, const struct sources_all *sa, unsigned i,
		      FILE *f, struct stats_src *s)
{
	int k = input_open(&s->in, a->inpath, &sa->opts[i], 0, "decode");

	if (!k)
		k = open_image(a, &s->in, &s->img, &s->dbg);
	if (k)
		return k;
	s->dec = flow_any_alloc(&s->in.config, s->img, s->in.isync_resync);
	s->out = decode_out_open(f, DECODE_STATS, 0, NULL);
	if (!s->dec || !s->out) {
		cli_error("decode", "out of memory");
		return PFT_EXIT_USAGE;
	}
	decode_out_set_source(s->out, s->in.trace_id, sa->names[i]);
	return PFT_EXIT_OK;
}

/* --id all --stats: the totals of each source, in the merged run's order
 * and words, without the merge (the items have no order to keep): every
 * source read on its own, up to --jobs of them at a time on their own
 * threads; the totals and checks then written in source order, as the
 * merged run writes them.  The exit code: the worst source's. */
static int decode_all_stats(const struct decode_args *a, const char *const *imgs)
{
	struct sources_all *sa;
	struct stats_src *s;
	void *tab;
	const char *ins[MAX_FILES + 1] = { a->inpath };
	FILE *f;
	unsigned i, n = 0;
	int rc, k;

	for (k = 0; k < a->nimg; k++)
		ins[1 + k] = imgs[k];
	rc = sources_all_begin(&sa, &tab, sizeof *s, a->inpath, &a->io, ins,
			       (size_t)a->nimg + 1, a->outpath, "decode", &f);
	s = tab;
	for (i = 0; !rc && i < sa->n; i++) {
		n++;
		rc = stats_open(a, sa, i, f, &s[i]);
	}
	if (!rc) {
		if (n == 1 && a->jobs.jobs > 1) /* one source: its segments on the threads */
			s[0].err = decode_jobs(a, &s[0].in, s[0].img, NULL, &s[0].st, &s[0].rc);
		else
			task_pool_run(n, a->jobs.jobs, stats_task, s);
		for (i = 0; i < n; i++) {
			k = decode_end(a, &s[i].in, s[i].out, &s[i].st, flow_any_is_etm3(s[i].dec),
				       s[i].err, s[i].rc);
			if (k > rc)
				rc = k;
		}
		if (*sources_all_skipped(sa, n ? &s[n - 1].in : NULL))
			cli_error("decode", "skipped (neither PFT nor ETMv3, or no data): %s",
				  sa->skipped);
	}
	for (i = 0; i < n; i++) {
		decode_out_close(s[i].out);
		flow_any_free(s[i].dec);
		pft_dbg_free(s[i].dbg);
		pft_image_free(s[i].img);
		input_close(&s[i].in);
	}
	if (f && f != stdout)
		fclose(f);
	free(s);
	free(sa);
	return rc;
}

/* --id all, or no ID given and several PFT/ETMv3 sources (decode_all.h). */
static int decode_all(const struct decode_args *a)
{
	struct decode_all_params p;
	const char *imgs[MAX_FILES];
	int i;

	for (i = 0; i < a->nimg; i++)
		imgs[i] = a->imgs[i].path;
	if (a->fmt == DECODE_STATS)
		return decode_all_stats(a, imgs);
	memset(&p, 0, sizeof p);
	p.path = a->inpath;
	p.io = &a->io;
	p.fmt = a->fmt;
	p.disasm = a->disasm;
	p.outpath = a->outpath;
	p.images = imgs;
	p.nimages = (size_t)a->nimg;
	p.ctx = (void *)a;
	p.open_image = all_image;
	p.report = all_report;
	return decode_all_run(&p);
}

int cmd_decode(int argc, char **argv)
{
	struct decode_args a;
	struct input in;
	struct pft_image *img = NULL;
	struct pft_dbg *dbg = NULL;
	struct decode_out *out = NULL;
	FILE *f = NULL;
	int rc;

	memset(&a, 0, sizeof(a));
	memset(&in, 0, sizeof(in));
	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	a.jobs.jobs = jobs_count(&a.jobs);
	a.io.allow_etm3 = 1;
	if (a.all || sources_all_default(a.inpath, &a.io, 1))
		return decode_all(&a);
	rc = input_open(&in, a.inpath, &a.io, 0, "decode");
	if (rc)
		return rc;
	{
		const char *ins[MAX_FILES + 2] = { in.path, in.buffer_path };
		int i;

		for (i = 0; i < a.nimg; i++)
			ins[2 + i] = a.imgs[i].path;
		if (cli_output_is_input("decode", a.outpath, ins, (size_t)a.nimg + 2))
			rc = PFT_EXIT_USAGE;
	}
	if (!rc)
		rc = open_image(&a, &in, &img, &dbg);
	if (!rc && !(out = open_out(&a, dbg, &f)))
		rc = PFT_EXIT_USAGE;
	if (!rc)
		rc = decode_flow(&a, &in, img, out);
	decode_out_close(out);
	if (f && f != stdout)
		fclose(f);
	pft_dbg_free(dbg);
	pft_image_free(img);
	input_close(&in);
	return rc;
}
