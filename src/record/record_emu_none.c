/* SPDX-License-Identifier: BSD-3-Clause */
/* The Unicorn execution source in a build without Unicorn: an error that
 * says which package and which other sources there are. */
#include <stdio.h>
#include <string.h>

#include "pft/record.h"

int pft_rec_emu_run(const struct pft_rec_elf *elf, const struct pft_rec_emu_opts *o,
                const struct pft_rec_sink *sink, struct pft_rec_emu_stats *st, char *msg, size_t cap)
{
	(void)elf;
	(void)o;
	(void)sink;
	memset(st, 0, sizeof(*st));
	snprintf(msg, cap, "this pft was built without Unicorn (libunicorn-dev): "
	         "record from a log with --qemu-log or --import instead");
	return -PFT_E_UNSUPPORTED;
}
