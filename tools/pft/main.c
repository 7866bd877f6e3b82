/* SPDX-License-Identifier: BSD-3-Clause */
/* pft: subcommand dispatch, --help and --version. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "pft/common.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *const *summary;
};

static const struct command commands[] = {
#define PFT_CMD(n) { #n, cmd_##n, &cmd_##n##_summary },
#include "pft_cmds.inc"
#undef PFT_CMD
};

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pft%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

FILE *cli_open_output(const char *cmd, const char *path)
{
	FILE *f;

	if (!path || strcmp(path, "-") == 0)
		return stdout;
	f = fopen(path, "w");
	if (!f)
		cli_error(cmd, "cannot write '%s': %s", path, strerror(errno));
	return f;
}

static const char *out_name(const char *path)
{
	return path && strcmp(path, "-") ? path : "standard output";
}

void cli_write_error(const char *cmd, FILE *f, const char *path)
{
	int e = errno; /* the failed call's, when it was the last one */

	if (f) {
		errno = 0;
		if (fflush(f) != 0 && errno)
			e = errno;
	}
	cli_error(cmd, "%s: %s", out_name(path), e ? strerror(e) : "write error");
}

int cli_output_done(const char *cmd, FILE *f, const char *path)
{
	int e;

	errno = 0;
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	e = errno;
	cli_error(cmd, "%s: %s", out_name(path), e ? strerror(e) : "write error");
	return PFT_EXIT_USAGE;
}

int cli_bad_option(const char *cmd, int c, char **argv, int optind_now)
{
	if (c == ':')
		cli_error(cmd, "option '%s' needs a value", argv[optind_now - 1]);
	else
		cli_error(cmd, "unknown option '%s' (see 'pft %s --help')", argv[optind_now - 1], cmd);
	return PFT_EXIT_USAGE;
}

int cli_output_is_input(const char *cmd, const char *out, const char *const *inputs, size_t n)
{
	struct stat so, si;
	size_t i;

	if (!out || !strcmp(out, "-") || stat(out, &so) != 0)
		return 0; /* stdout, or a new file */
	for (i = 0; i < n; i++)
		if (inputs[i] && strcmp(inputs[i], "-") && stat(inputs[i], &si) == 0 &&
		    si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
			cli_error(cmd, "output '%s' is the input '%s': not overwritten", out, inputs[i]);
			return 1;
		}
	return 0;
}

const char *cli_single_input(const char *cmd, int argc, char **argv, int optind_now)
{
	if (optind_now >= argc) {
		cli_error(cmd, "no input given (a snapshot folder, a capture file or -; see 'pft %s --help')",
			  cmd);
		return NULL;
	}
	if (optind_now + 1 < argc) {
		cli_error(cmd, "one input only; unexpected '%s'", argv[optind_now + 1]);
		return NULL;
	}
	return argv[optind_now];
}

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"Usage: pft <command> [options]\n"
		"       pft --version | --help\n\n"
		"ARM CoreSight Program Flow Trace (PTM): decode, generate and inspect trace.\n\n"
		"Commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, *commands[i].summary);
	fprintf(out, "\nRun 'pft <command> --help' for the options of a command.\n\n"
		"Exit status, the same in every command: 0 success; 1 the input had errors\n"
		"the command reports (malformed packets or frames, trace that never\n"
		"synchronises, an impossible execution log); 2 usage or setup error (bad\n"
		"option, missing or unreadable file, bad registers, an output that is an\n"
		"input, a failed write).\n");
}

/* What went to standard output must have been written (--help or a
 * listing to a full disk is an error): rc, or PFT_EXIT_USAGE after a
 * message. */
static int stdout_done(int rc)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		/* a command that failed with a setup error has said why */
		if (rc != PFT_EXIT_USAGE)
			cli_error(NULL, "cannot write standard output: %s",
			          errno ? strerror(errno) : "write error");
		return PFT_EXIT_USAGE;
	}
	return rc;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return PFT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return stdout_done(PFT_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("pft %s (libpft %s)\n", PFT_VERSION_STRING, pft_version());
		return stdout_done(PFT_EXIT_OK);
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return stdout_done(commands[i].run(argc - 1, argv + 1));
	cli_error(NULL, "unknown command '%s' (see 'pft --help')", argv[1]);
	return PFT_EXIT_USAGE;
}
