/* SPDX-License-Identifier: BSD-3-Clause */
/* The program image of the commands that decode (decode, coverage, profile):
 * snapshot [dump] sections, --image and --elf files loaded with one message
 * naming the file for every failure (what the system said, not an ELF file,
 * not 32-bit ARM, nothing loadable, beyond the 32-bit address space). */
#ifndef PFT_IMAGE_LOAD_H
#define PFT_IMAGE_LOAD_H

#include <stdint.h>

#include "pft/image.h"
#include "pft/snapshot.h"

/* Every [dump] of the snapshot's core.  PFT_EXIT_OK or PFT_EXIT_USAGE
 * (message printed). */
int image_load_dumps(struct pft_image *img, const char *cmd,
		     const struct pft_snapshot *snap, const char *core);
/* A raw binary (--image FILE@ADDR). */
int image_load_raw(struct pft_image *img, const char *cmd, const char *path, uint64_t addr);
/* The loadable segments of a 32-bit ARM ELF file plus offset (--elf FILE@OFFSET). */
int image_load_elf(struct pft_image *img, const char *cmd, const char *path, uint64_t offset);

#endif
