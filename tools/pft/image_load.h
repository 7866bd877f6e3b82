/* SPDX-License-Identifier: BSD-3-Clause */
/* The program image of the commands that decode (decode, coverage, profile):
 * snapshot [dump] sections, --image and --elf files loaded with one message
 * naming the file for every failure (what the system said, not an ELF file,
 * not 32-bit ARM, nothing loadable, beyond the 32-bit address space). */
#ifndef PFT_IMAGE_LOAD_H
#define PFT_IMAGE_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "pft/image.h"
#include "pft/snapshot.h"

/* An image argument FILE[@ADDR]: FILE copied to path (cap bytes), ADDR
 * (any strtoull base, 0 if absent) to *addr.  0, or -1 for an empty or
 * too long FILE or a bad ADDR (the caller names the option). */
int image_arg_split(const char *arg, char *path, size_t cap, uint64_t *addr);
/* Every [dump] of the snapshot's core.  PFT_EXIT_OK or PFT_EXIT_USAGE
 * (message printed). */
int image_load_dumps(struct pft_image *img, const char *cmd,
		     const struct pft_snapshot *snap, const char *core);
/* A raw binary (--image FILE@ADDR). */
int image_load_raw(struct pft_image *img, const char *cmd, const char *path, uint64_t addr);
/* The loadable segments of a 32-bit ARM ELF file plus offset (--elf FILE@OFFSET). */
int image_load_elf(struct pft_image *img, const char *cmd, const char *path, uint64_t offset);

#endif
