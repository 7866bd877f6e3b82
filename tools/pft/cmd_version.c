/* SPDX-License-Identifier: BSD-3-Clause */
/* pft version: print the tool and library versions. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "pft/common.h"

const char *const cmd_version_summary = "print the version of pft and libpft";

int cmd_version(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("Usage: pft version\n\nPrint the version of pft and of libpft.\n");
		return PFT_EXIT_OK;
	}
	if (argc > 1) {
		cli_error("version", "unexpected argument '%s'", argv[1]);
		return PFT_EXIT_USAGE;
	}
	printf("pft %s (libpft %s)\n", PFT_VERSION_STRING, pft_version());
	return PFT_EXIT_OK;
}
