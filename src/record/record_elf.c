/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: the program ELF: loadable segments (the code the emulator
 * runs and the snapshot dumps) and symbols (--until, reports). */
#define _POSIX_C_SOURCE 200809L /* pread */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pft/record.h"

static char *dupstr(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

static int load_symbols(struct pft_rec_elf *elf, Elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		elf->sym = calloc(n ? n : 1, sizeof(*elf->sym));
		if (!elf->sym)
			return -PFT_E_NOMEM;
		for (i = 0; i < n; i++) {
			GElf_Sym s;
			const char *name;
			int t;

			if (!gelf_getsym(d, (int)i, &s))
				continue;
			t = GELF_ST_TYPE(s.st_info);
			if (t != STT_FUNC && t != STT_NOTYPE && t != STT_OBJECT)
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (!name || !*name || name[0] == '$')
				continue;
			elf->sym[elf->nsym].addr = s.st_value;
			elf->sym[elf->nsym].size = s.st_size;
			elf->sym[elf->nsym].name = dupstr(name);
			if (!elf->sym[elf->nsym].name)
				return -PFT_E_NOMEM;
			elf->nsym++;
		}
		break;
	}
	return 0;
}

int pft_rec_elf_load(struct pft_rec_elf *elf, const char *path, char *msg, size_t cap)
{
	int fd, rc = 0;
	Elf *e = NULL;
	GElf_Ehdr eh;
	size_t i, nph;

	memset(elf, 0, sizeof(*elf));
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(msg, cap, "libelf initialisation failed");
		return -PFT_E_INTERNAL;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(msg, cap, "cannot open '%s': %s", path, strerror(errno));
		return -PFT_E_IO;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		snprintf(msg, cap, "'%s' is not an ELF file", path);
		rc = -PFT_E_FORMAT;
		goto out;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_machine != EM_ARM ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB) {
		snprintf(msg, cap, "'%s' is not a little-endian 32-bit ARM ELF", path);
		rc = -PFT_E_FORMAT;
		goto out;
	}
	if (elf_getphdrnum(e, &nph) != 0) {
		snprintf(msg, cap, "'%s': no program headers", path);
		rc = -PFT_E_FORMAT;
		goto out;
	}
	elf->entry = eh.e_entry;
	elf->seg = calloc(nph ? nph : 1, sizeof(*elf->seg));
	if (!elf->seg) {
		rc = -PFT_E_NOMEM;
		goto out;
	}
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;
		struct pft_rec_segment *s;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !ph.p_memsz)
			continue;
		if (ph.p_filesz > ph.p_memsz || ph.p_memsz > (1u << 30)) {
			snprintf(msg, cap, "'%s': bad PT_LOAD segment %zu", path, i);
			rc = -PFT_E_FORMAT;
			goto out;
		}
		s = &elf->seg[elf->nseg];
		s->vaddr = ph.p_vaddr;
		s->filesz = ph.p_filesz;
		s->memsz = ph.p_memsz;
		s->flags = ph.p_flags;
		s->data = calloc(1, ph.p_memsz);
		if (!s->data) {
			rc = -PFT_E_NOMEM;
			goto out;
		}
		elf->nseg++;
		if (ph.p_filesz &&
		    pread(fd, s->data, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz) {
			snprintf(msg, cap, "'%s': truncated segment %zu", path, i);
			rc = -PFT_E_FORMAT;
			goto out;
		}
	}
	if (!elf->nseg) {
		snprintf(msg, cap, "'%s' has no loadable segment", path);
		rc = -PFT_E_FORMAT;
		goto out;
	}
	rc = load_symbols(elf, e);
	if (rc == 0) {
		elf->path = dupstr(path);
		if (!elf->path)
			rc = -PFT_E_NOMEM;
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	if (rc)
		pft_rec_elf_free(elf);
	return rc;
}

void pft_rec_elf_free(struct pft_rec_elf *elf)
{
	unsigned i;

	for (i = 0; i < elf->nseg; i++)
		free(elf->seg[i].data);
	for (i = 0; i < elf->nsym; i++)
		free(elf->sym[i].name);
	free(elf->seg);
	free(elf->sym);
	free(elf->path);
	memset(elf, 0, sizeof(*elf));
}

void pft_rec_elf_rebase(struct pft_rec_elf *elf, uint64_t bias)
{
	unsigned i;

	if (!bias)
		return;
	elf->entry += bias;
	for (i = 0; i < elf->nseg; i++)
		elf->seg[i].vaddr += bias;
	for (i = 0; i < elf->nsym; i++)
		elf->sym[i].addr += bias;
}

int pft_rec_elf_symbol(const struct pft_rec_elf *elf, const char *name, uint64_t *addr)
{
	unsigned i;

	for (i = 0; i < elf->nsym; i++)
		if (!strcmp(elf->sym[i].name, name)) {
			*addr = elf->sym[i].addr;
			return 0;
		}
	return -PFT_E_NOTFOUND;
}

unsigned pft_rec_elf_read(const struct pft_rec_elf *elf, uint64_t addr, uint8_t *buf, unsigned cap)
{
	unsigned i;

	for (i = 0; i < elf->nseg; i++) {
		const struct pft_rec_segment *s = &elf->seg[i];
		uint64_t n;

		if (addr < s->vaddr || addr >= s->vaddr + s->filesz)
			continue;
		n = s->vaddr + s->filesz - addr;
		if (n > cap)
			n = cap;
		memcpy(buf, s->data + (addr - s->vaddr), (size_t)n);
		return (unsigned)n;
	}
	return 0;
}
