/* SPDX-License-Identifier: BSD-3-Clause */
/* Program image: the loadable segments of an ELF file (libelf). */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/image_int.h"

int pft_image_add_elf(struct pft_image *img, const char *path, uint64_t load_offset)
{
	Elf *elf;
	GElf_Ehdr ehdr;
	size_t phnum, i, fsize;
	const char *raw;
	int fd, count = 0, err = 0;

	if (!img || !path)
		return -PFT_E_INVAL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -PFT_E_INTERNAL;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -PFT_E_IO;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr) ||
	    elf_getphdrnum(elf, &phnum) != 0) {
		err = -PFT_E_FORMAT;
		goto out;
	}
	raw = elf_rawfile(elf, &fsize);
	if (!raw) {
		err = -PFT_E_FORMAT;
		goto out;
	}
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		uint8_t *data;
		char desc[64];
		const char *base;

		if (!gelf_getphdr(elf, (int)i, &ph)) {
			err = -PFT_E_FORMAT;
			goto out;
		}
		if (ph.p_type != PT_LOAD || ph.p_filesz == 0)
			continue;
		if (ph.p_offset > fsize || ph.p_filesz > fsize - ph.p_offset) {
			err = -PFT_E_FORMAT;
			goto out;
		}
		data = malloc(ph.p_filesz);
		if (!data) {
			err = -PFT_E_NOMEM;
			goto out;
		}
		memcpy(data, raw + ph.p_offset, ph.p_filesz);
		base = strrchr(path, '/');
		snprintf(desc, sizeof(desc), "%s:segment %zu", base ? base + 1 : path, i);
		err = pft_image_add_region(img, ph.p_vaddr + load_offset, data,
					   ph.p_filesz, data, desc);
		if (err)
			goto out;
		count++;
	}
	err = count;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}
