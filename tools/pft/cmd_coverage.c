/* SPDX-License-Identifier: BSD-3-Clause */
/* pft coverage: which code ran and which way each branch went, from one or
 * many traces (merged), as an lcov tracefile, an annotated listing, address
 * ranges or an AutoFDO profile.  doc/coverage.md. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "image_load.h"
#include "cov_out.h"
#include "sources_all.h"
#include "task_pool.h"

const char *const cmd_coverage_summary = "line, branch and address coverage; AutoFDO profiles";

static void help(FILE *f)
{
	fprintf(f,
		"Usage: pft coverage [options] INPUT... [--elf FILE[@OFFSET] | --image FILE@ADDR ...]\n"
		"\n"
		"Decode every INPUT (snapshot folder, capture file, or - for standard input)\n"
		"against the program image, add up how often each instruction executed and\n"
		"how often each conditional waypoint was taken (E atom) or not (N atom), and\n"
		"write line, function and branch coverage.  Several inputs are merged (their\n"
		"counts add up).  Trace gaps (unsynced bytes, malformed packets, code not in\n"
		"the image, lost address) are reported with how many instructions they\n"
		"could hide; nothing that was not decoded is counted.\n"
		"\n"
		"Program image and debug information (as pft decode):\n"
		"  --elf FILE[@OFFSET]  an ELF file's segments, symbols and DWARF line tables,\n"
		"                       its addresses moved by OFFSET; repeatable\n"
		"  --image FILE[@ADDR]  a raw binary at ADDR; repeatable\n"
		"  --symbols FILE[@OFFSET]  a symbol map (nm or System.map text) for a raw binary\n"
		"  --no-dumps           do not load the snapshots' [dump] sections\n"
		"\n"
		"Output:\n"
		"  --format lcov        lcov tracefile (default): TN SF FN FNDA FNF FNH BRDA BRF\n"
		"                       BRH DA LF LH; for genhtml --branch-coverage\n"
		"  --format listing     source lines with counts and branch outcomes (gcov -b\n"
		"                       style); executed instructions without DWARF\n"
		"  --format ranges      runs of adjacent instructions with equal counts, for code\n"
		"                       without DWARF (START END ISA NINSNS COUNT <symbol>)\n"
		"  --format insns       one line per executed instruction: ADDR ISA COUNT TAKEN\n"
		"                       NOT_TAKEN [c]\n"
		"  --format autofdo     AutoFDO text profile for create_llvm_prof --profiler=text\n"
		"                       (addresses relative to the first --elf's lowest segment)\n"
		"  --disasm             listing: instructions even when DWARF lines exist\n"
		"  --test-name NAME     lcov TN: value\n"
		"  -o, --output FILE    write to FILE (default standard output)\n"
		"  -q, --quiet          no summary on standard error\n"
		"  -h, --help           this text\n"
		"\n");
	fputs("Trace sources:\n"
	      "  --id all             every PFT and ETMv3 source of each INPUT, one after the\n"
	      "                       other, their counts summed (a program's coverage\n"
	      "                       across cores); the default without --id or --source\n"
	      "                       when an input holds several (as pft decode).  Other\n"
	      "                       sources are named once with their byte counts.\n"
	      "\n"
	      "Threads (as pft decode; the counting itself runs on one):\n"
	      JOBS_OPTIONS_HELP_DEFAULT("128 KiB", "1",
						"                       (--id all: N sources at once, one thread\n"
						"                       each; default there: the machine's cores)\n")
	      "\n"
	      "--format also takes the capture layouts raw, frames and tpiu.\n"
	      "\n", f);
	fprintf(f,
		INPUT_OPTIONS_HELP
		"\n"
		"Examples:\n"
		"  pft coverage snap1 snap2 --elf prog.elf -o prog.info && genhtml --branch-coverage prog.info -o html\n"
		"  pft coverage snap --elf prog.elf --format listing\n"
		"  pft coverage data/TC2 --id 0x13 --format ranges --symbols System.map\n"
		"  pft coverage snap --elf prog.elf --format autofdo -o prog.afdo\n"
		"      create_llvm_prof --profiler=text --profile=prog.afdo --binary=prog.elf --out=prog.prof\n"
		"\n"
		"Exit status: 0 success; 1 an input had errors (malformed packets or frames,\n"
		"disagreement with the image, nothing decodable); 2 usage or setup error.\n");
}

enum { OPT_IMAGE = 0x2000, OPT_ELF, OPT_SYMBOLS, OPT_NO_DUMPS, OPT_DISASM, OPT_TEST_NAME };
enum { FMT_LCOV, FMT_LISTING, FMT_RANGES, FMT_INSNS, FMT_AUTOFDO };

#define MAX_FILES 64

static int out_format(const char *s)
{
	static const char *const names[] = { "lcov", "listing", "ranges", "insns", "autofdo" };
	int i;

	for (i = 0; i < 5; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* Debug information of every --elf and --symbols; the image of every --elf
 * and --image (for code that never ran) and the AutoFDO base. */
static int load_static(const struct cov_image_arg *a, int na, struct pft_dbg *dbg,
		       struct pft_image *img, uint64_t *base)
{
	char msg[256];
	int i, r, first_elf = 1;

	for (i = 0; i < na; i++) {
		size_t before = pft_image_region_count(img), k;

		if (a[i].kind == COV_ARG_SYMBOLS) {
			r = pft_dbg_add_symbol_map(dbg, a[i].path, a[i].addr, msg, sizeof(msg));
		} else if (a[i].kind == COV_ARG_IMAGE) {
			if (image_load_raw(img, "coverage", a[i].path, a[i].addr))
				return PFT_EXIT_USAGE;
			r = 0;
		} else {
			if (image_load_elf(img, "coverage", a[i].path, a[i].addr))
				return PFT_EXIT_USAGE;
			r = pft_dbg_add_elf(dbg, a[i].path, a[i].addr, msg, sizeof(msg));
			if (r >= 0 && first_elf) {
				first_elf = 0;
				*base = UINT64_MAX;
				for (k = before; k < pft_image_region_count(img); k++) {
					uint64_t ra, rs;

					if (pft_image_region(img, k, &ra, &rs, NULL) == 0 && ra < *base)
						*base = ra;
				}
				if (*base == UINT64_MAX)
					*base = 0;
			}
		}
		if (r < 0) {
			cli_error("coverage", "'%s': %s", a[i].path, msg);
			return PFT_EXIT_USAGE;
		}
	}
	return PFT_EXIT_OK;
}

/* What every source's run adds to (--id all, sources_all_each). */
struct cov_each {
	const char *path;
	const struct jobs_opts *jobs;
	const struct cov_image_arg *a;
	int na, dumps;
	struct pft_cov *total;
	unsigned nsrc;                /* sources counted */
};

/* One trace (a source, or an input of one source) counted on its own, then
 * added to the total: an exit code. */
static int count_one(struct cov_each *e, const struct input_opts *io, struct sources_all *sa)
{
	struct pft_cov *one = pft_cov_alloc();
	int r;

	if (!one) {
		cli_error("coverage", "out of memory");
		return PFT_EXIT_USAGE;
	}
	r = cov_trace_source(e->path, io, e->jobs, e->a, e->na, e->dumps, one, sa);
	if ((r == PFT_EXIT_OK || r == PFT_EXIT_DATA) && pft_cov_merge(e->total, one) < 0) {
		cli_error("coverage", "out of memory");
		r = PFT_EXIT_USAGE;
	}
	if (r == PFT_EXIT_OK || r == PFT_EXIT_DATA)
		e->nsrc++;
	pft_cov_free(one);
	return r;
}

static int count_source(void *ctx, struct sources_all *sa, unsigned k)
{
	return count_one(ctx, &sa->opts[k], sa);
}

/* --id all on several threads: one of the sources, counted on its own. */
struct cov_task {
	struct cov_src src;
	struct pft_cov *one;
};

static void count_task(void *ctx, unsigned i)
{
	cov_src_run(&((struct cov_task *)ctx)[i].src);
}

/* --id all with jobs > 1: every source counted into its own table, up to
 * jobs of them at a time on their own threads (one each), then, in source
 * order, its checks and its table added to the total: the counts and
 * messages of sources_all_each's one after the other.  An exit code. */
static int count_parallel(struct cov_each *e, const struct input_opts *io, struct sources_all *sa,
			  unsigned jobs)
{
	struct input_opts o = *io;
	struct cov_task *t;
	unsigned k, n = 0;
	int rc, r;

	o.allow_etm3 = 1;
	rc = sources_all_find(sa, e->path, &o, 1, "coverage");
	if (rc == PFT_EXIT_USAGE)
		return rc;
	t = calloc(sa->n + 1, sizeof *t);
	if (!t) {
		cli_error("coverage", "out of memory");
		return PFT_EXIT_USAGE;
	}
	for (k = 0; k < sa->n && rc != PFT_EXIT_USAGE; k++, n++) {
		if (!(t[k].one = pft_cov_alloc())) {
			cli_error("coverage", "out of memory");
			rc = PFT_EXIT_USAGE;
		} else if (cov_src_open(&t[k].src, e->path, &sa->opts[k], e->a, e->na, e->dumps,
					t[k].one) == PFT_EXIT_USAGE) {
			rc = PFT_EXIT_USAGE;
		}
	}
	if (rc != PFT_EXIT_USAGE)
		task_pool_run(n, jobs, count_task, t);
	for (k = 0; k < n && rc != PFT_EXIT_USAGE; k++) {
		r = cov_src_end(&t[k].src, sa);
		if ((r == PFT_EXIT_OK || r == PFT_EXIT_DATA) && pft_cov_merge(e->total, t[k].one) < 0) {
			cli_error("coverage", "out of memory");
			r = PFT_EXIT_USAGE;
		}
		if (r == PFT_EXIT_OK || r == PFT_EXIT_DATA)
			e->nsrc++;
		if (r > rc)
			rc = r;
	}
	for (k = 0; k < n; k++) {
		cov_src_close(&t[k].src);
		pft_cov_free(t[k].one);
	}
	free(t);
	if (rc != PFT_EXIT_USAGE && *sources_all_skipped(sa, NULL))
		cli_error("coverage", "skipped (neither PFT nor ETMv3, or no data): %s", sa->skipped);
	return rc;
}

/* One input: its one source, or (--id all, or several sources and no ID
 * given: sources_all.h's rule) every PFT and ETMv3 source, their counts
 * summed: one after the other, or several at a time on --jobs threads
 * (default: the machine's cores; each source then on one thread).  An
 * exit code. */
static int count_input(struct cov_each *e, const struct input_opts *io, int all)
{
	struct sources_all *sa;
	int r;

	if (!sources_all_wanted(e->path, io, all))
		return count_one(e, io, NULL);
	sa = calloc(1, sizeof *sa);
	if (!sa) {
		cli_error("coverage", "out of memory");
		return PFT_EXIT_USAGE;
	}
	if (jobs_count(e->jobs) > 1)
		r = count_parallel(e, io, sa, jobs_count(e->jobs));
	else
		r = sources_all_each(sa, e->path, io, "coverage", count_source, e);
	free(sa);
	return r;
}

static void summary(const struct cov_ctx *c, int ninputs, unsigned nsrc)
{
	struct pft_cov_totals t;
	struct cov_files fs;
	uint64_t lf = 0, lh = 0, bf = 0, bh = 0;
	size_t i;
	uint32_t k;

	pft_cov_get_totals(c->cov, &t, sizeof(t));
	fprintf(stderr, "pft coverage: %d input(s)", ninputs);
	if (nsrc != (unsigned)ninputs)
		fprintf(stderr, " (%u sources)", nsrc);
	fprintf(stderr, ", %" PRIu64 " instructions executed at %ld addresses", t.insns,
		pft_cov_insn_count(c->cov));
	if (pft_dbg_has_lines(c->dbg) && cov_lines_build(c, &fs) == 0) {
		for (i = 0; i < fs.n; i++)
			for (k = 1; k < fs.f[i].nlines; k++) {
				const struct cov_line *ln = &fs.f[i].lines[k];
				uint32_t b;

				lf += ln->code;
				lh += ln->code && ln->count;
				for (b = 0; b < ln->nbr; b++) {
					bf += 2;
					bh += (fs.f[i].br[ln->br + b].taken > 0) +
					      (fs.f[i].br[ln->br + b].not_taken > 0);
				}
			}
		cov_lines_free(&fs);
		fprintf(stderr, "; lines %" PRIu64 "/%" PRIu64 ", branches %" PRIu64 "/%" PRIu64, lh,
			lf, bh, bf);
	}
	fputc('\n', stderr);
	if (t.gaps)
		cov_write_gaps(stderr, c, "pft coverage: ");
}

int cmd_coverage(int argc, char **argv)
{
	static const struct option own[] = {
		{ "image", required_argument, NULL, OPT_IMAGE },
		{ "elf", required_argument, NULL, OPT_ELF },
		{ "symbols", required_argument, NULL, OPT_SYMBOLS },
		{ "no-dumps", no_argument, NULL, OPT_NO_DUMPS },
		{ "disasm", no_argument, NULL, OPT_DISASM },
		{ "test-name", required_argument, NULL, OPT_TEST_NAME },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		JOBS_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct option all[64];
	struct input_opts io;
	struct jobs_opts jobs;
	struct cov_image_arg args[MAX_FILES];
	char paths[MAX_FILES][1024];
	struct pft_dbg *dbg = NULL;
	struct pft_image *img = NULL;
	struct pft_cov *total = NULL;
	struct cov_ctx ctx;
	const char *outpath = NULL, *test_name = NULL;
	FILE *f = NULL;
	int c, r, i, na = 0, dumps = 1, disasm = 0, quiet = 0, fmt = FMT_LCOV, rc = PFT_EXIT_OK;
	int werr = 0, every = 0;
	uint64_t base = 0;
	struct cov_each each;

	input_opts_init(&io);
	memset(&jobs, 0, sizeof(jobs));
	input_merge_options(all, sizeof(all) / sizeof(all[0]), own);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:qh", all, NULL)) != -1) {
		if (c == INPUT_OPT_FORMAT && optarg && out_format(optarg) >= 0) {
			fmt = out_format(optarg);
			continue;
		}
		if (c == INPUT_OPT_ID && optarg && !strcmp(optarg, "all")) {
			every = 1;
			continue;
		}
		r = input_parse_option(&io, c, optarg, "coverage");
		if (!r)
			r = jobs_parse_option(&jobs, c, optarg, "coverage");
		if (r < 0)
			return PFT_EXIT_USAGE;
		if (r > 0)
			continue;
		switch (c) {
		case OPT_IMAGE:
		case OPT_ELF:
		case OPT_SYMBOLS:
			if (na == MAX_FILES) {
				cli_error("coverage", "too many --elf/--image/--symbols (at most %d)",
					  MAX_FILES);
				return PFT_EXIT_USAGE;
			}
			if (image_arg_split(optarg, paths[na], sizeof(paths[na]), &args[na].addr)) {
				cli_error("coverage", "bad '%s' (want FILE or FILE@ADDRESS)", optarg);
				return PFT_EXIT_USAGE;
			}
			args[na].path = paths[na];
			args[na].kind = c == OPT_ELF ? COV_ARG_ELF :
					c == OPT_IMAGE ? COV_ARG_IMAGE : COV_ARG_SYMBOLS;
			na++;
			break;
		case OPT_NO_DUMPS: dumps = 0; break;
		case OPT_DISASM: disasm = 1; break;
		case OPT_TEST_NAME: test_name = optarg; break;
		case 'o': outpath = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': help(stdout); return PFT_EXIT_OK;
		default:
			return cli_bad_option("coverage", c, argv, optind);
		}
	}
	if (optind >= argc) {
		cli_error("coverage", "no input given (snapshot folders, capture files or -; see "
			  "'pft coverage --help')");
		return PFT_EXIT_USAGE;
	}
	if (fmt == FMT_AUTOFDO) {
		for (i = 0; i < na && args[i].kind != COV_ARG_ELF; i++)
			;
		if (i == na) {
			cli_error("coverage", "--format autofdo needs the program as --elf");
			return PFT_EXIT_USAGE;
		}
	}
	dbg = pft_dbg_alloc();
	img = pft_image_alloc();
	total = pft_cov_alloc();
	if (!dbg || !img || !total) {
		cli_error("coverage", "out of memory");
		rc = PFT_EXIT_USAGE;
		goto out;
	}
	rc = load_static(args, na, dbg, img, &base);
	if (rc)
		goto out;
	if (fmt == FMT_LCOV && !pft_dbg_has_lines(dbg))
		cli_error("coverage", "warning: no DWARF line information (give --elf of a program "
			  "built with -g): the lcov output is empty; see --format ranges");
	memset(&each, 0, sizeof(each));
	each.jobs = &jobs;
	each.a = args;
	each.na = na;
	each.dumps = dumps;
	each.total = total;
	for (i = optind; i < argc; i++) {
		each.path = argv[i];
		r = count_input(&each, &io, every);
		if (r == PFT_EXIT_USAGE) {
			rc = r;
			goto out;
		}
		if (r)
			rc = r;
	}
	if (pft_cov_insn_count(total) < 0) {
		cli_error("coverage", "out of memory");
		rc = PFT_EXIT_USAGE;
		goto out;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.cov = total;
	ctx.dbg = dbg;
	ctx.img = img;
	ctx.test_name = test_name;
	ctx.autofdo_base = base;
	f = cli_open_output("coverage", outpath);
	if (!f) {
		rc = PFT_EXIT_USAGE;
		goto out;
	}
	switch (fmt) {
	case FMT_LCOV: werr = cov_write_lcov(f, &ctx); break;
	case FMT_LISTING: werr = cov_write_listing(f, &ctx, disasm); break;
	case FMT_RANGES: werr = cov_write_ranges(f, &ctx); break;
	case FMT_INSNS: werr = cov_write_insns(f, &ctx); break;
	default: werr = cov_write_autofdo(f, &ctx); break;
	}
	if (fflush(f) || werr) {
		cli_write_error("coverage", f, outpath);
		rc = PFT_EXIT_USAGE;
		goto out;
	}
	if (!quiet)
		summary(&ctx, argc - optind, each.nsrc);
out:
	if (f && f != stdout)
		fclose(f);
	pft_cov_free(total);
	pft_image_free(img);
	pft_dbg_free(dbg);
	return rc;
}
