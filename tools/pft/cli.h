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

/* Open an output file; "-" or NULL is stdout.  NULL on failure (message printed). */
FILE *cli_open_output(const char *cmd, const char *path);

#endif
