/* SPDX-License-Identifier: BSD-3-Clause */
/* pft command-line tool: shared declarations.  Every subcommand lives in
 * cmd_<name>.c and defines
 *     int cmd_<name>(int argc, char **argv);     (argv[0] is the name)
 *     const char *cmd_<name>_summary;            (one line for `pft --help`)
 * The build generates the command table from the file names. */
#ifndef PFT_CLI_H
#define PFT_CLI_H

#include <stdio.h>

#define PFT_CMD(name)                                 \
	int cmd_##name(int argc, char **argv);        \
	extern const char *const cmd_##name##_summary;
#include "pft_cmds.inc"
#undef PFT_CMD

/* Exit codes: 0 success, 1 the input had errors or differences the command
 * reports, 2 usage or setup error (bad option, missing file, bad registers). */
enum { PFT_EXIT_OK = 0, PFT_EXIT_DATA = 1, PFT_EXIT_USAGE = 2 };

/* Print "pft <cmd>: message" on stderr (printf style). */
void cli_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The getopt_long error cases of a command: ':' (missing value) and '?'
 * (unknown option).  Prints the message; returns PFT_EXIT_USAGE. */
int cli_bad_option(const char *cmd, int c, char **argv, int optind_now);

/* The one positional input of dump/decode (a snapshot folder, a capture
 * file or -): returns it, or NULL after printing why (none, or several). */
const char *cli_single_input(const char *cmd, int argc, char **argv, int optind_now);

/* Open an output file; "-" or NULL is stdout.  NULL on failure (message printed). */
FILE *cli_open_output(const char *cmd, const char *path);

/* A write to the output f (path; NULL or "-": standard output) failed:
 * print "pft CMD: PATH: reason" (errno's reason: that of flushing f again
 * when f is given and that fails, else errno as it is, else "write
 * error"). */
void cli_write_error(const char *cmd, FILE *f, const char *path);

/* Flush the output f and check that everything was written: 0, or
 * PFT_EXIT_USAGE after "pft CMD: PATH: reason".  Does not close f. */
int cli_output_done(const char *cmd, FILE *f, const char *path);

/* 1 (message printed) if the output path names the same file (device and
 * inode) as one of the inputs (a NULL-terminated list; NULL entries
 * skipped up to n), so that nothing is opened for writing over it; else 0. */
int cli_output_is_input(const char *cmd, const char *out, const char *const *inputs, size_t n);

#endif
