/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: run a program (or replay an execution log), trace it with the
 * software PTM, and write the trace as a DS-5/OpenCSD snapshot folder plus,
 * optionally, the executed-instruction log. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "pft/record.h"
#include "record_etm3.h"
#include "record_ptm.h"

const char *const cmd_record_summary =
	"run a program (or replay an execution log) through the software PTM or ETMv3";

static const char *const cmd = "record";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: pft record [options] PROGRAM.elf -o DIR\n"
"       pft record [options] --qemu-log LOG --elf PROGRAM -o DIR\n"
"       pft record [options] --import LOG --elf PROGRAM -o DIR\n\n"
"Run a bare-metal ARMv7-A program under the Unicorn emulator (or replay the\n"
"instructions a simulator logged), trace every executed instruction with the\n"
"software PTM (or the software ETMv3), and write a DS-5/OpenCSD snapshot folder\n"
"that pft decode and OpenCSD's trc_pkt_lister read.  See doc/record.md.\n\n"
"Execution:\n"
"  --until SYMBOL|ADDR   stop before this instruction\n"
"  --max-insns N         stop after N instructions (emulation default 100000000;\n"
"                        0 = no limit)\n"
"  --irq-every N         inject an IRQ every N instructions\n"
"  --irq-at N,N,...      inject IRQs before these instruction indexes\n"
"  --irq-random MEAN     inject IRQs at random intervals (mean MEAN)\n"
"  --seed S              seed of --irq-random (default 1)\n"
"  --qemu-log LOG        replay a qemu-arm -singlestep -d exec,nochain log\n"
"  --import LOG          replay a plain executed-instruction log\n"
"                        (a log is checked line by line: an execution that\n"
"                        cannot happen is refused, naming the line)\n"
"  --elf FILE[@BASE]     program (and shared objects) holding the code of a log;\n"
"                        repeatable; @BASE adds BASE to its addresses (a shared\n"
"                        object or PIE loaded at BASE)\n"
"Timing:\n"
"  --cycles SPEC         cycle model: N per instruction, or class=N,... with\n"
"                        classes other, branch, load, store, mul, failed, exception\n"
"  --cpu-freq HZ         processor clock (default 100000000)\n"
"  --ts-freq HZ          timestamp clock (default = --cpu-freq)\n"
"Output:\n"
"  -o, --output DIR      snapshot folder to write (a new or empty folder)\n"
"  --force               write into DIR even if it holds files (they may be\n"
"                        replaced)\n"
"  --log FILE            executed-instruction log ('%%08x A32|T32' per line; -: stdout)\n"
"  --log-exceptions      with --log: also '! TYPE PREF_RETURN ISA [untraced]' before\n"
"                        each exception\n"
"                        (the plain log format --import reads)\n"
"  --protocol ptm|etm3   trace unit: the PTM (default), or an ETMv3.5 (device\n"
"                        type ETM3.5, ETMIDR 0x410CF250, ETMCCER 0x344008F2,\n"
"                        ETMSYNCFR 0x400 unless given; takes --etmXX, --cycle-accurate,\n"
"                        --timestamps, --contextid-bytes, --branch-broadcast,\n"
"                        --sync-freq, --id, --format; a data abort cancels the\n"
"                        instruction it aborted)\n"
"  --data-trace address|value|both\n"
"                        --protocol etm3: ETMCR[3:2], a normal data packet for\n"
"                        each load and store the emulator makes (doc/etm3.md)\n"
"  --data-log FILE       --protocol etm3, emulation: the data transfers, one a\n"
"                        line: 'INDEX INSN_ADDR R|W SIZE ADDRESS VALUE' (INDEX:\n"
"                        the instruction's, from 0; the rest hex; -: stdout)\n"
"  -q, --quiet           no summary on stderr\n"
"  -h, --help            this help\n");
	fputs(RECORD_PTM_OPTIONS_HELP, f);
	fputs("PTM configuration (default: a PFTv1.1 PTM as on Cortex-A15, ETMCR=0, trace ID\n"
	      "0x10; raw values first, then the named flags):\n"
	      "  --etmcr V  --etmccr V  --etmccer V  --etmidr V  --etmtraceidr V  --etmsyncfr V\n"
	      "  --cycle-accurate      ETMCR[12]: cycle counts in the packets\n"
	      "  --timestamps          ETMCR[28]: timestamp packets\n"
	      "  --contextid-bytes N   ETMCR[15:14]: context ID size 0, 1, 2 or 4\n"
	      "  --vmid                ETMCR[30]: VMID packets (PFTv1.1)\n"
	      "  --return-stack        ETMCR[29]: return stack\n"
	      "  --branch-broadcast    ETMCR[8]: every branch as a branch packet\n"
	      "  --pft-version V       1.0 or 1.1 (sets ETMIDR[7:4])\n"
	      "  --id ID               the trace ID (ETMTRACEIDR) of the output\n"
	      "  --format raw|frames   trace buffer layout: the PTM's bytes, or CoreSight\n"
	      "                        16-byte frames with the trace ID (default)\n", f);
}

enum {
	O_UNTIL = 256, O_MAX, O_IRQ_EVERY, O_IRQ_AT, O_IRQ_RANDOM, O_SEED, O_QEMU, O_IMPORT,
	O_ELF, O_CYCLES, O_CPU_FREQ, O_TS_FREQ, O_LOG, O_LOG_EXC, O_FORCE, O_PROTOCOL,
	O_DATA_TRACE, O_DATA_LOG,
};

static const struct option base_long[] = {
	{ "until", required_argument, NULL, O_UNTIL },
	{ "max-insns", required_argument, NULL, O_MAX },
	{ "irq-every", required_argument, NULL, O_IRQ_EVERY },
	{ "irq-at", required_argument, NULL, O_IRQ_AT },
	{ "irq-random", required_argument, NULL, O_IRQ_RANDOM },
	{ "seed", required_argument, NULL, O_SEED },
	{ "qemu-log", required_argument, NULL, O_QEMU },
	{ "import", required_argument, NULL, O_IMPORT },
	{ "elf", required_argument, NULL, O_ELF },
	{ "cycles", required_argument, NULL, O_CYCLES },
	{ "cpu-freq", required_argument, NULL, O_CPU_FREQ },
	{ "ts-freq", required_argument, NULL, O_TS_FREQ },
	{ "log", required_argument, NULL, O_LOG },
	{ "log-exceptions", no_argument, NULL, O_LOG_EXC },
	{ "force", no_argument, NULL, O_FORCE },
	{ "protocol", required_argument, NULL, O_PROTOCOL },
	{ "data-trace", required_argument, NULL, O_DATA_TRACE },
	{ "data-log", required_argument, NULL, O_DATA_LOG },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

#define MAX_ELFS 16
#define MAX_IRQ_AT 4096

/* The executed-instruction log (--log): the plain log format's lines on a
 * FILE, exception lines with --log-exceptions; err keeps errno of the first
 * failed write. */
struct log_writer {
	FILE *f;
	int exceptions;
	int err;
};

struct record {
	struct pft_rec_emu_opts emu;
	struct log_writer lw;
	uint64_t irq_at[MAX_IRQ_AT];
	const char *until;
	const char *qemu_log, *import_log, *log_path, *out_dir;
	const char *elf_paths[MAX_ELFS];
	char elf_buf[MAX_ELFS][1024];
	uint64_t elf_bias[MAX_ELFS];
	unsigned nelf;
	struct pft_rec_cycles cycles;
	uint64_t cpu_freq, ts_freq;
	int quiet, log_exceptions, max_given, force;
	int etm3;                  /* --protocol etm3 */
	unsigned data_bits;        /* --data-trace: ETMCR[3:2] */
	const char *data_log;      /* --data-log */
	struct record_ptm_opts ptm;
};

/* -o DIR: a folder that does not exist yet or holds nothing (an existing
 * snapshot is not overwritten without --force).  0 after a message. */
static int empty_or_new_dir(const char *dir)
{
	struct stat sb;
	DIR *d;
	struct dirent *e;
	int empty = 1;

	if (stat(dir, &sb) != 0)
		return 1;
	if (!S_ISDIR(sb.st_mode)) {
		cli_error(cmd, "-o '%s': not a folder", dir);
		return 0;
	}
	d = opendir(dir);
	if (!d) {
		cli_error(cmd, "-o '%s': %s", dir, strerror(errno));
		return 0;
	}
	while (empty && (e = readdir(d)) != NULL)
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	if (!empty)
		cli_error(cmd, "-o '%s' is not empty: not overwritten (--force writes into it)", dir);
	return empty;
}

static int parse_irq_at(struct record *r, const char *s)
{
	char buf[32];

	while (*s) {
		const char *c = strchr(s, ',');
		size_t n = c ? (size_t)(c - s) : strlen(s);
		uint64_t v;

		if (n == 0 || n >= sizeof(buf) || r->emu.n_irq_at >= MAX_IRQ_AT)
			return -1;
		memcpy(buf, s, n);
		buf[n] = 0;
		if (pft_rec_parse_u64(buf, &v) ||
		    (r->emu.n_irq_at && v <= r->irq_at[r->emu.n_irq_at - 1]))
			return -1;
		r->irq_at[r->emu.n_irq_at++] = v;
		s += n;
		if (*s == ',')
			s++;
	}
	return 0;
}

/* The long name of option c (argv[optind - 1] is its value when the value
 * came as a separate argument). */
static const char *opt_name(const struct option *o, int c)
{
	for (; o->name; o++)
		if (o->val == c)
			return o->name;
	return "?";
}

static int parse_args(struct record *r, int argc, char **argv)
{
	struct option own[64], longopts[128];
	size_t nb = sizeof(base_long) / sizeof(base_long[0]) - 1, i;
	int c;

	memcpy(own, base_long, nb * sizeof(struct option));
	for (i = 0; record_ptm_long_options[i].name; i++)
		own[nb + i] = record_ptm_long_options[i];
	memset(&own[nb + i], 0, sizeof(struct option));
	if (!input_merge_options(longopts, sizeof(longopts) / sizeof(longopts[0]), own)) {
		cli_error(cmd, "internal: option table too small");
		return -1;
	}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
		uint64_t v = 0;
		int prc;

		switch (c) {
		case 'o': r->out_dir = optarg; break;
		case 'q': r->quiet = 1; break;
		case 'h': usage(stdout); return 1;
		case O_UNTIL: r->until = optarg; break;
		case O_MAX:
			if (pft_rec_parse_u64(optarg, &r->emu.max_insns))
				goto bad;
			r->max_given = 1;
			break;
		case O_IRQ_EVERY:
			if (pft_rec_parse_u64(optarg, &r->emu.irq_every) || !r->emu.irq_every)
				goto bad;
			break;
		case O_IRQ_AT:
			if (parse_irq_at(r, optarg))
				goto bad;
			break;
		case O_IRQ_RANDOM:
			if (pft_rec_parse_u64(optarg, &r->emu.irq_random) || !r->emu.irq_random ||
			    r->emu.irq_random > (1ull << 40))
				goto bad;
			break;
		case O_SEED:
			if (pft_rec_parse_u64(optarg, &r->emu.seed))
				goto bad;
			break;
		case O_QEMU: r->qemu_log = optarg; break;
		case O_IMPORT: r->import_log = optarg; break;
		case O_ELF:
			if (r->nelf >= MAX_ELFS) {
				cli_error(cmd, "at most %d --elf files", MAX_ELFS);
				return -1;
			}
			{
				/* FILE@BASE: loaded at BASE plus its own addresses */
				const char *at = strrchr(optarg, '@');
				size_t n = at ? (size_t)(at - optarg) : strlen(optarg);

				r->elf_bias[r->nelf] = 0;
				if (at && (pft_rec_parse_u64(at + 1, &r->elf_bias[r->nelf]) || n == 0 ||
				           r->elf_bias[r->nelf] > 0xffffffffu))
					goto bad;
				if (n >= sizeof(r->elf_buf[0])) {
					cli_error(cmd, "--elf: path too long");
					return -1;
				}
				memcpy(r->elf_buf[r->nelf], optarg, n);
				r->elf_buf[r->nelf][n] = 0;
				r->elf_paths[r->nelf] = r->elf_buf[r->nelf];
				r->nelf++;
			}
			break;
		case O_CYCLES:
			if (pft_rec_cycles_parse(&r->cycles, optarg))
				goto bad;
			break;
		case O_CPU_FREQ:
			if (pft_rec_parse_u64(optarg, &r->cpu_freq) || !r->cpu_freq)
				goto bad;
			break;
		case O_TS_FREQ:
			if (pft_rec_parse_u64(optarg, &r->ts_freq) || !r->ts_freq)
				goto bad;
			break;
		case O_LOG: r->log_path = optarg; break;
		case O_LOG_EXC: r->log_exceptions = 1; break;
		case O_FORCE: r->force = 1; break;
		case O_PROTOCOL:
			if (!strcmp(optarg, "etm3"))
				r->etm3 = 1;
			else if (!strcmp(optarg, "ptm"))
				r->etm3 = 0;
			else
				goto bad;
			break;
		case O_DATA_TRACE:
			if (!strcmp(optarg, "address"))
				r->data_bits = 0x8;
			else if (!strcmp(optarg, "value"))
				r->data_bits = 0x4;
			else if (!strcmp(optarg, "both"))
				r->data_bits = 0xc;
			else
				goto bad;
			break;
		case O_DATA_LOG: r->data_log = optarg; break;
		case '?':
			cli_error(cmd, "unknown or incomplete option '%s' (see --help)",
			          argv[optind - 1]);
			return -1;
		default:
			prc = record_ptm_option(&r->ptm, c, optarg, cmd);
			if (prc > 0)
				break;
			if (prc == 0)
				cli_error(cmd, "unknown option (see --help)");
			return -1;
		}
		(void)v;
		continue;
bad:
		cli_error(cmd, "bad value '%s' for --%s", optarg ? optarg : "", opt_name(longopts, c));
		return -1;
	}
	if (r->qemu_log && r->import_log) {
		cli_error(cmd, "--qemu-log and --import exclude each other");
		return -1;
	}
	if (r->qemu_log || r->import_log) {
		if (optind != argc) {
			cli_error(cmd, "a log replay takes its program with --elf, not as an argument");
			return -1;
		}
		if (!r->nelf) {
			cli_error(cmd, "replaying a log needs --elf PROGRAM for the code bytes");
			return -1;
		}
		if (r->emu.irq_every || r->emu.n_irq_at || r->emu.irq_random || r->until) {
			cli_error(cmd, "--irq-* and --until apply to emulated runs only");
			return -1;
		}
	} else {
		if (optind + 1 != argc) {
			cli_error(cmd, "expected one PROGRAM.elf (see --help)");
			return -1;
		}
		if (r->nelf) {
			cli_error(cmd, "--elf goes with --qemu-log/--import; give the program as argument");
			return -1;
		}
		r->elf_paths[r->nelf++] = argv[optind];
	}
	if (!r->out_dir && !r->log_path) {
		cli_error(cmd, "nothing to write: give -o DIR and/or --log FILE");
		return -1;
	}
	if ((r->data_bits || r->data_log) && (!r->etm3 || !r->out_dir)) {
		cli_error(cmd, "--data-trace and --data-log go with --protocol etm3 and -o DIR");
		return -1;
	}
	if ((r->data_bits || r->data_log) && (r->qemu_log || r->import_log)) {
		cli_error(cmd, "--data-trace and --data-log need the emulator: a log has no data "
		          "transfers");
		return -1;
	}
	if (r->out_dir && !r->force && !empty_or_new_dir(r->out_dir))
		return -1;
	{
		const char *ins[MAX_ELFS + 1];
		unsigned k;

		for (k = 0; k < r->nelf; k++)
			ins[k] = r->elf_paths[k];
		ins[r->nelf] = r->qemu_log ? r->qemu_log : r->import_log;
		if (cli_output_is_input(cmd, r->log_path, ins, r->nelf + 1))
			return -1;
	}
	if (!r->ts_freq)
		r->ts_freq = r->cpu_freq;
	/* a program that never stops must not run for ever */
	if (!r->max_given && !r->qemu_log && !r->import_log)
		r->emu.max_insns = 100000000;
	return 0;
}


static int log_put(struct log_writer *w, const char *line)
{
	if (fprintf(w->f, "%s\n", line) >= 0)
		return 0;
	if (!w->err)
		w->err = errno ? errno : EIO;
	return -PFT_E_IO;
}

static int log_insn(void *ctx, const struct pft_rec_full *f)
{
	struct log_writer *w = ctx;
	char line[64];

	pft_rec_log_insn_line(line, sizeof line, f->in.addr, (enum pft_isa)f->in.isa);
	return log_put(w, line);
}

static int log_exc(void *ctx, const struct pft_rec_exc *x, uint64_t cycle)
{
	struct log_writer *w = ctx;
	char line[64];

	(void)cycle;
	if (!w->exceptions)
		return 0;
	pft_rec_log_exc_line(line, sizeof line, x);
	return log_put(w, line);
}

static int log_end(void *ctx, uint64_t cycle)
{
	struct log_writer *w = ctx;

	(void)cycle;
	errno = 0;
	if (fflush(w->f) != 0 || ferror(w->f)) {
		if (!w->err)
			w->err = errno ? errno : EIO;
		return -PFT_E_IO;
	}
	return 0;
}

/* A failed run: the --log file's write error if that was it (exit 2),
 * else what the source said (exit 1).  The exit code. */
static int run_failed(const struct record *r, const char *path, const char *msg, int rc)
{
	if (r->lw.err) {
		cli_error(cmd, "%s: %s", strcmp(r->log_path, "-") ? r->log_path : "standard output",
		          strerror(r->lw.err));
		return PFT_EXIT_USAGE;
	}
	if (path)
		cli_error(cmd, "%s: %s", path, msg && msg[0] ? msg : pft_errstr(rc));
	else
		cli_error(cmd, "%s", msg && msg[0] ? msg : pft_errstr(rc));
	return rc == -PFT_E_UNSUPPORTED ? PFT_EXIT_USAGE : PFT_EXIT_DATA;
}

static void summary(const struct record *r, const struct pft_rec_pipe *p,
                    const struct pft_rec_emu_stats *es, const struct pft_rec_src_stats *ss,
                    const struct record_ptm *rp, const struct record_etm3 *re)
{
	if (r->quiet)
		return;
	fprintf(stderr, "pft record: %llu instructions, %llu exceptions, %llu cycles",
	        (unsigned long long)p->insns, (unsigned long long)p->exceptions,
	        (unsigned long long)p->cycle);
	if (es)
		fprintf(stderr, "; stopped: %s at 0x%08llx with r0=0x%08x; %llu IT instructions "
		        "re-inserted", es->stop_reason, (unsigned long long)es->stop_addr, es->r0,
		        (unsigned long long)es->it_reinserted);
	if (ss)
		fprintf(stderr, "; %llu log lines, %llu system calls, %llu signals",
		        (unsigned long long)ss->lines, (unsigned long long)ss->syscalls,
		        (unsigned long long)ss->signals);
	fputc('\n', stderr);
	if (rp)
		record_ptm_summary(rp, stderr);
	if (re)
		record_etm3_summary(re, stderr);
}

/* --elf files loaded and moved to their bases (*n of them, also on
 * failure), --until resolved.  PFT_EXIT_OK or PFT_EXIT_USAGE. */
static int load_programs(struct record *r, struct pft_rec_elf *elfs, const struct pft_rec_elf **elfp,
                         unsigned *n)
{
	char msg[512];
	unsigned i;

	for (i = 0; i < r->nelf; i++) {
		if (pft_rec_elf_load(&elfs[i], r->elf_paths[i], msg, sizeof(msg)) < 0) {
			cli_error(cmd, "%s", msg);
			return PFT_EXIT_USAGE;
		}
		pft_rec_elf_rebase(&elfs[i], r->elf_bias[i]);
		elfp[i] = &elfs[i];
		(*n)++;
	}
	if (r->until) {
		if (pft_rec_parse_u64(r->until, &r->emu.until) &&
		    pft_rec_elf_symbol(&elfs[0], r->until, &r->emu.until)) {
			cli_error(cmd, "--until: no symbol '%s' in %s", r->until, r->elf_paths[0]);
			return PFT_EXIT_USAGE;
		}
		r->emu.have_until = 1;
	}
	return PFT_EXIT_OK;
}

/* --qemu-log / --import through the pipeline.  PFT_EXIT_OK or the exit
 * code (message printed). */
static int replay(const struct record *r, const struct pft_rec_elf *const *elfp, unsigned n,
                  struct pft_rec_pipe *pipe, struct pft_rec_src_stats *ss)
{
	const char *path = r->qemu_log ? r->qemu_log : r->import_log;
	struct pft_rec_sink sink;
	char msg[512] = "";
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int rc;

	if (!in) {
		cli_error(cmd, "cannot open '%s': %s", path, strerror(errno));
		return PFT_EXIT_USAGE;
	}
	pft_rec_pipe_sink(pipe, &sink);
	rc = r->qemu_log ? pft_rec_qemu_run(in, elfp, n, r->emu.max_insns, &sink, ss, msg, sizeof(msg))
	                 : pft_rec_plain_run(in, elfp, n, r->emu.max_insns, &sink, ss, msg, sizeof(msg));
	if (in != stdin)
		fclose(in);
	if (rc < 0) {
		int x = run_failed(r, path, msg, rc);

		return r->lw.err ? x : PFT_EXIT_DATA; /* a log that cannot be replayed */
	}
	rc = pft_rec_pipe_end(pipe, 0, PFT_ISA_ARM, 0);
	if (rc < 0)
		return run_failed(r, NULL, NULL, rc);
	return PFT_EXIT_OK;
}

/* The first --elf under the emulator through the pipeline.  PFT_EXIT_OK
 * or the exit code (message printed). */
static int emulate(const struct record *r, const struct pft_rec_elf *elf, struct pft_rec_pipe *pipe,
                   struct pft_rec_emu_stats *es)
{
	struct pft_rec_sink sink;
	char msg[512] = "";
	int rc;

	pft_rec_pipe_sink(pipe, &sink);
	rc = pft_rec_emu_run(elf, &r->emu, &sink, es, msg, sizeof(msg));
	if (rc < 0)
		return run_failed(r, NULL, msg, rc);
	if (es->exc_in_it)
		fprintf(stderr, "pft record: warning: %llu exceptions taken inside IT "
		        "blocks (ITSTATE not saved)\n", (unsigned long long)es->exc_in_it);
	rc = pft_rec_pipe_end(pipe, es->stop_addr, (enum pft_isa)es->stop_isa,
	                      strcmp(es->stop_reason, "end") != 0);
	if (rc < 0)
		return run_failed(r, NULL, NULL, rc);
	return PFT_EXIT_OK;
}

/* Options with their defaults; NULL with *exit_code set when the command
 * ends here (--help, a bad option). */
static struct record *parse_record(int argc, char **argv, int *exit_code)
{
	struct record *r = calloc(1, sizeof(*r));
	int rc;

	if (!r) {
		cli_error(cmd, "out of memory");
		*exit_code = PFT_EXIT_USAGE;
		return NULL;
	}
	pft_rec_cycles_default(&r->cycles);
	r->cpu_freq = 100000000;
	r->emu.seed = 1;
	r->emu.irq_at = r->irq_at;
	record_ptm_opts_init(&r->ptm);
	rc = parse_args(r, argc, argv);
	if (rc) {
		free(r);
		*exit_code = rc > 0 ? PFT_EXIT_OK : PFT_EXIT_USAGE;
		return NULL;
	}
	return r;
}

int cmd_record(int argc, char **argv)
{
	struct record *r;
	struct pft_rec_elf elfs[MAX_ELFS];
	const struct pft_rec_elf *elfp[MAX_ELFS];
	struct pft_rec_pipe pipe;
	struct pft_rec_emu_stats es;
	struct pft_rec_src_stats ss;
	struct record_ptm *rp = NULL;
	struct record_etm3 *re = NULL;
	struct pft_rec_consumer cons, logc = { log_insn, log_exc, log_end, NULL };
	char msg[512] = "";
	unsigned i, nloaded = 0;
	int exit_code, replaying;

	r = parse_record(argc, argv, &exit_code);
	if (!r)
		return exit_code;
	replaying = r->qemu_log || r->import_log;
	exit_code = load_programs(r, elfs, elfp, &nloaded);
	if (!exit_code && r->log_path && !(r->lw.f = cli_open_output(cmd, r->log_path)))
		exit_code = PFT_EXIT_USAGE;
	if (!exit_code && r->out_dir && r->etm3) {
		exit_code = record_etm3_open(&re, &r->ptm, r->cpu_freq, r->ts_freq, r->data_bits,
		                             r->data_log, cmd);
		if (!exit_code)
			record_etm3_consumer(re, &cons);
		if (!exit_code && record_etm3_wants_accesses(re)) {
			if (replaying) {
				cli_error(cmd, "data trace (ETMCR[3:2]) needs the emulator: a log has "
				          "no data transfers");
				exit_code = PFT_EXIT_USAGE;
			}
			r->emu.accesses = 1;
		}
	} else if (!exit_code && r->out_dir) {
		exit_code = record_ptm_open(&rp, &r->ptm, r->cpu_freq, r->ts_freq, cmd);
		if (!exit_code)
			record_ptm_consumer(rp, &cons);
	}
	if (exit_code)
		goto out;
	r->lw.exceptions = r->log_exceptions;
	logc.ctx = &r->lw;
	pft_rec_pipe_init(&pipe, &r->cycles, r->lw.f ? &logc : NULL, rp || re ? &cons : NULL);
	exit_code = replaying ? replay(r, elfp, nloaded, &pipe, &ss) : emulate(r, &elfs[0], &pipe, &es);
	if (!exit_code && rp && record_ptm_write(rp, r->out_dir, elfp, nloaded, msg, sizeof(msg)) < 0) {
		cli_error(cmd, "%s", msg);
		exit_code = PFT_EXIT_USAGE;
	}
	if (!exit_code && re && record_etm3_write(re, r->out_dir, elfp, nloaded, msg, sizeof(msg)) < 0) {
		cli_error(cmd, "%s", msg);
		exit_code = PFT_EXIT_USAGE;
	}
	if (!exit_code && re)
		exit_code = record_etm3_close_log(re, cmd);
	if (!exit_code)
		summary(r, &pipe, replaying ? NULL : &es, replaying ? &ss : NULL, rp, re);
out:
	record_ptm_free(rp);
	record_etm3_free(re);
	if (r->lw.f && r->lw.f != stdout && fclose(r->lw.f) != 0 && exit_code == PFT_EXIT_OK) {
		cli_error(cmd, "%s: %s", r->log_path, strerror(errno));
		exit_code = PFT_EXIT_USAGE;
	}
	for (i = 0; i < nloaded; i++)
		pft_rec_elf_free(&elfs[i]);
	free(r);
	return exit_code;
}
