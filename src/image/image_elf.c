/* SPDX-License-Identifier: BSD-3-Clause */
/* ELF files (libelf), read in one place: header, PT_LOAD segments and the
 * symbol table (pft_elf_*); and the program image's pft_image_add_elf on
 * top of them.  The record part loads its programs through pft_elf too. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image/image_int.h"

struct pft_elf {
	int fd;
	Elf *e;
	const uint8_t *raw;
	size_t raw_len;
	struct pft_elf_info info;
	struct pft_elf_segment *seg;
	size_t nseg;
	Elf_Data *syms;         /* the symbol table, or NULL */
	size_t nsym, strtab;
};

static int load_segments(struct pft_elf *elf)
{
	size_t phnum, i;

	if (elf_getphdrnum(elf->e, &phnum) != 0)
		return -PFT_E_FORMAT;
	elf->seg = calloc(phnum ? phnum : 1, sizeof(*elf->seg));
	if (!elf->seg)
		return -PFT_E_NOMEM;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		struct pft_elf_segment *s;

		if (!gelf_getphdr(elf->e, (int)i, &ph))
			return -PFT_E_FORMAT;
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_offset > elf->raw_len || ph.p_filesz > elf->raw_len - ph.p_offset)
			return -PFT_E_FORMAT;
		s = &elf->seg[elf->nseg++];
		s->index = (unsigned)i;
		s->vaddr = ph.p_vaddr;
		s->filesz = ph.p_filesz;
		s->memsz = ph.p_memsz;
		s->flags = ph.p_flags;
		s->data = elf->raw + ph.p_offset;
	}
	return 0;
}

static void find_symtab(struct pft_elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf->e, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		elf->syms = elf_getdata(scn, NULL);
		if (elf->syms) {
			elf->nsym = sh.sh_size / sh.sh_entsize;
			elf->strtab = sh.sh_link;
		}
		return;
	}
}

int pft_elf_open(struct pft_elf **out, const char *path)
{
	struct pft_elf *elf;
	GElf_Ehdr eh;
	struct stat sb;
	int r;

	if (!out || !path)
		return -PFT_E_INVAL;
	*out = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -PFT_E_INTERNAL;
	elf = calloc(1, sizeof(*elf));
	if (!elf)
		return -PFT_E_NOMEM;
	elf->fd = open(path, O_RDONLY);
	if (elf->fd < 0) {
		free(elf);
		return -PFT_E_IO;
	}
	if (fstat(elf->fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		r = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL; /* no ELF file can be read there */
		pft_elf_close(elf);
		errno = r;
		return -PFT_E_IO;
	}
	elf->e = elf_begin(elf->fd, ELF_C_READ_MMAP, NULL);
	r = -PFT_E_FORMAT;
	if (!elf->e || elf_kind(elf->e) != ELF_K_ELF || !gelf_getehdr(elf->e, &eh) ||
	    !(elf->raw = (const uint8_t *)elf_rawfile(elf->e, &elf->raw_len)))
		goto fail;
	/* a program header table cut off by the end of the file (libelf then
	   reports no segments at all) */
	if (eh.e_phnum && (eh.e_phoff > elf->raw_len ||
			   (uint64_t)eh.e_phnum * eh.e_phentsize > elf->raw_len - eh.e_phoff))
		goto fail;
	elf->info.entry = eh.e_entry;
	elf->info.machine = eh.e_machine;
	elf->info.is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	elf->info.big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	if ((r = load_segments(elf)))
		goto fail;
	find_symtab(elf);
	*out = elf;
	return 0;
fail:
	pft_elf_close(elf);
	return r;
}

void pft_elf_close(struct pft_elf *elf)
{
	if (!elf)
		return;
	if (elf->e)
		elf_end(elf->e);
	if (elf->fd >= 0)
		close(elf->fd);
	free(elf->seg);
	free(elf);
}

int pft_elf_get_info(const struct pft_elf *elf, struct pft_elf_info *out)
{
	if (!elf || !out)
		return -PFT_E_INVAL;
	*out = elf->info;
	return 0;
}

size_t pft_elf_segment_count(const struct pft_elf *elf)
{
	return elf ? elf->nseg : 0;
}

int pft_elf_segment(const struct pft_elf *elf, size_t i, struct pft_elf_segment *out)
{
	if (!elf || !out || i >= elf->nseg)
		return -PFT_E_INVAL;
	*out = elf->seg[i];
	return 0;
}

size_t pft_elf_symbol_count(const struct pft_elf *elf)
{
	return elf ? elf->nsym : 0;
}

int pft_elf_symbol(const struct pft_elf *elf, size_t i, struct pft_elf_symbol *out)
{
	GElf_Sym s;
	const char *name;

	if (!elf || !out || i >= elf->nsym)
		return -PFT_E_INVAL;
	if (!gelf_getsym(elf->syms, (int)i, &s))
		return -PFT_E_FORMAT;
	name = elf_strptr(elf->e, elf->strtab, s.st_name);
	out->addr = s.st_value;
	out->size = s.st_size;
	out->name = name ? name : "";
	out->type = (uint8_t)GELF_ST_TYPE(s.st_info);
	return 0;
}

int pft_image_add_elf(struct pft_image *img, const char *path, uint64_t load_offset)
{
	struct pft_elf *elf;
	struct pft_elf_segment s;
	const char *base;
	size_t i;
	int count = 0, err;

	if (!img || !path)
		return -PFT_E_INVAL;
	if ((err = pft_elf_open(&elf, path)))
		return err;
	base = strrchr(path, '/');
	for (i = 0; i < elf->nseg; i++) {
		uint8_t *data;
		char desc[64];

		s = elf->seg[i];
		if (!s.filesz)
			continue;
		data = malloc(s.filesz);
		if (!data) {
			err = -PFT_E_NOMEM;
			break;
		}
		memcpy(data, s.data, s.filesz);
		snprintf(desc, sizeof(desc), "%s:segment %u", base ? base + 1 : path, s.index);
		err = pft_image_add_region(img, s.vaddr + load_offset, data, s.filesz, data, desc);
		if (err)
			break;
		count++;
	}
	pft_elf_close(elf);
	return err ? err : count;
}
