/* SPDX-License-Identifier: BSD-3-Clause */
/* pft profile: where the instructions (cycles, time) of a trace went, per
 * function, from the call stacks of pft_cs_*.  Formats: doc/profile.md. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "prof.h"
#include "sources_all.h"

const char *const cmd_profile_summary = "per-function profile of a trace (table, callgrind, flame graphs)";

static void help(FILE *f)
{
	fprintf(f,
		"Usage: pft profile [options] INPUT\n"
		"\n"
		"Decode the trace as pft decode does, follow the call stack of every context\n"
		"(calls, returns, tail calls, exceptions; rules in doc/profile.md), and write\n"
		"per function: calls, cost inclusive and exclusive, inclusive instructions\n"
		"per call (min/mean/max), and the part run in exception handlers; as a\n"
		"table sorted by exclusive cost, or in a profiler format.\n"
		"Functions come from the --elf symbols; without symbols a function is the\n"
		"address a call went to (unknown frames: the first address seen in them).\n"
		"\n"
		"Output:\n"
		"  --format F           table (default), callgrind (KCacheGrind,\n"
		"                       callgrind_annotate), folded (flame graphs: one line\n"
		"                       per stack), speedscope (speedscope JSON)\n"
		"  --weight W           insns (default), cycles (cycle-accurate trace) or time\n"
		"                       (needs --cpu-freq or --ts-freq): the cost the table,\n"
		"                       folded and speedscope formats use; callgrind carries\n"
		"                       instructions and cycles\n"
		"  -o, --output FILE    write to FILE instead of standard output\n"
		"  -h, --help           this text\n"
		"\n");
	fprintf(f,
		"Trace sources:\n"
		"  --id all             every PFT and ETMv3 source, one after the other, each\n"
		"                       with its own call stacks, into one profile (costs and\n"
		"                       calls summed); each source's part in the table's\n"
		"                       header, callgrind's desc: lines and speedscope's\n"
		"                       pft_sources.  The default without --id or --source\n"
		"                       when the input holds several (as pft decode).  Other\n"
		"                       sources are named once with their byte counts.\n"
		"\n"
		PROF_OPTIONS_HELP
		"\n"
		INPUT_OPTIONS_HELP
		"\n"
		"Examples:\n"
		"  pft profile rec --elf prog.elf\n"
		"  pft profile rec --elf prog.elf --format folded | flamegraph.pl > flame.svg\n"
		"  pft profile rec --elf prog.elf --format callgrind -o callgrind.out.1\n"
		"  pft profile data/TC2 --id 0x13 --format callgrind -o tc2.callgrind\n"
		"\n"
		"Exit status: 0 success; 1 the trace has errors (reported, and counted as\n"
		"gaps in the profile); 2 usage or setup error.\n");
}

enum { OPT_WEIGHT = PROF_OPT_OWN };

static int on_event(void *ctx, const struct pft_cs_event *ev)
{
	return prof_model_event(ctx, ev) ? -PFT_E_NOMEM : 0;
}

/* --id all: the sources one after the other into one model; the first
 * source's session is kept for the names (the symbols are the same for
 * every source: --elf, --symbols). */
struct prof_each {
	const char *path;
	const struct prof_opts *o;
	struct prof_session first, cur;
	int opened;                 /* first is open */
	struct prof_model *m;
};

static int profile_source(void *ctx, struct sources_all *sa, unsigned k)
{
	struct prof_each *e = ctx;
	struct prof_session *s = e->opened ? &e->cur : &e->first;
	struct prof_opts one = *e->o;
	struct prof_hooks h;
	int rc;

	one.io = sa->opts[k];
	rc = prof_open(s, "profile", e->path, &one);
	if (!rc && !e->m && !(e->m = prof_model_new(s, !(one.cs_flags & PFT_CS_CFG_NO_RUNS)))) {
		cli_error("profile", "out of memory");
		rc = PFT_EXIT_USAGE;
	}
	if (!rc) {
		prof_model_source(e->m, s, sa->ids[k], sa->names[k]);
		memset(&h, 0, sizeof(h));
		h.event = on_event;
		h.ctx = e->m;
		rc = prof_run(s, &h);
		sources_all_saw(sa, &s->in);
	}
	if (s == &e->first && !e->opened) {
		e->opened = 1; /* closed at the end */
		return rc;
	}
	prof_close(s);
	return rc;
}

/* Every source into *m (NULL after a failure): the exit code. */
static int profile_all(struct prof_each *e, struct prof_model **m)
{
	struct sources_all *sa = calloc(1, sizeof *sa);
	int rc;

	if (!sa) {
		cli_error("profile", "out of memory");
		return PFT_EXIT_USAGE;
	}
	rc = sources_all_each(sa, e->path, &e->o->io, "profile", profile_source, e);
	free(sa);
	if (e->m)
		prof_model_sources_done(e->m, &e->first);
	*m = e->m;
	if (!e->m && rc != PFT_EXIT_USAGE) /* no source opened */
		rc = PFT_EXIT_USAGE;
	return rc;
}

int cmd_profile(int argc, char **argv)
{
	static const struct option own[] = {
		PROF_LONG_OPTIONS,
		{ "weight", required_argument, NULL, OPT_WEIGHT },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const wnames[PROF_W_NR] = { "insns", "cycles", "time" };
	struct option all[64];
	struct prof_opts o;
	struct prof_session s;
	struct prof_hooks h;
	struct prof_model *m = NULL;
	struct prof_each e;
	enum prof_format fmt = PROF_TABLE;
	enum prof_weight w = PROF_W_INSNS;
	const char *outpath = NULL, *inpath;
	FILE *f = NULL;
	int c, r, rc;

	prof_opts_init(&o);
	input_merge_options(all, sizeof(all) / sizeof(all[0]), own);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", all, NULL)) != -1) {
		if (c == INPUT_OPT_FORMAT && optarg) {
			static const char *const fn[] = { "table", "callgrind", "folded", "speedscope" };
			int k, found = 0;

			for (k = 0; k < 4; k++)
				if (!strcmp(optarg, fn[k])) {
					fmt = (enum prof_format)k;
					found = 1;
				}
			if (found)
				continue;
		}
		r = prof_parse_option(&o, c, optarg, "profile");
		if (r < 0)
			return PFT_EXIT_USAGE;
		if (r > 0)
			continue;
		switch (c) {
		case OPT_WEIGHT:
			for (r = 0; r < PROF_W_NR && strcmp(optarg, wnames[r]); r++)
				;
			if (r == PROF_W_NR) {
				cli_error("profile", "bad --weight '%s' (want insns, cycles or time)", optarg);
				return PFT_EXIT_USAGE;
			}
			w = (enum prof_weight)r;
			break;
		case 'o': outpath = optarg; break;
		case 'h': help(stdout); return PFT_EXIT_OK;
		default:
			return cli_bad_option("profile", c, argv, optind);
		}
	}
	inpath = cli_single_input("profile", argc, argv, optind);
	if (!inpath)
		return PFT_EXIT_USAGE;
	/* RUN events only to split costs by symbol */
	for (r = 0; r < o.nimg && !o.img_elf[r]; r++)
		;
	if (r == o.nimg)
		o.cs_flags |= PFT_CS_CFG_NO_RUNS;
	memset(&s, 0, sizeof(s));
	memset(&e, 0, sizeof(e));
	if (sources_all_wanted(inpath, &o.io, o.all)) {
		e.path = inpath;
		e.o = &o;
		rc = profile_all(&e, &m);
		if (rc == PFT_EXIT_USAGE)
			goto out;
	} else {
		rc = prof_open(&s, "profile", inpath, &o);
		if (!rc && !(m = prof_model_new(&s, !(o.cs_flags & PFT_CS_CFG_NO_RUNS)))) {
			cli_error("profile", "out of memory");
			rc = PFT_EXIT_USAGE;
		}
		if (rc)
			goto out;
		memset(&h, 0, sizeof(h));
		h.event = on_event;
		h.ctx = m;
		rc = prof_run(&s, &h);
		if (rc == PFT_EXIT_USAGE)
			goto out;
	}
	if (!prof_model_has(m, w)) {
		cli_error("profile", "--weight %s: the trace has no %s", wnames[w],
			  w == PROF_W_CYCLES ? "cycle counts (not cycle-accurate)" :
			  "time (give --cpu-freq for cycle-accurate trace, --ts-freq for timestamps)");
		rc = PFT_EXIT_USAGE;
		goto out;
	}
	f = cli_open_output("profile", outpath);
	if (!f) {
		rc = PFT_EXIT_USAGE;
		goto out;
	}
	if (prof_write(m, f, fmt, w, inpath) || fflush(f)) {
		cli_write_error("profile", f, outpath);
		rc = PFT_EXIT_USAGE;
	}
out:
	if (f && f != stdout)
		fclose(f);
	prof_model_free(m);
	prof_close(&s);
	if (e.opened)
		prof_close(&e.first);
	return rc;
}
