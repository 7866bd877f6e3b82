/* SPDX-License-Identifier: BSD-3-Clause */
/* Record part: the program ELF (read with pft_elf, pft/image.h): loadable
 * segments (the code the emulator runs and the snapshot dumps) and symbols
 * (--until, reports). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft/image.h"

#include "pft/record.h"

static char *dupstr(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

static int load_symbols(struct pft_rec_elf *elf, const struct pft_elf *e)
{
	size_t i, n = pft_elf_symbol_count(e);

	elf->sym = calloc(n ? n : 1, sizeof(*elf->sym));
	if (!elf->sym)
		return -PFT_E_NOMEM;
	for (i = 0; i < n; i++) {
		struct pft_elf_symbol s;

		if (pft_elf_symbol(e, i, &s) < 0)
			continue;
		if (s.type != 2 /* FUNC */ && s.type != 0 /* NOTYPE */ && s.type != 1 /* OBJECT */)
			continue;
		if (!*s.name || s.name[0] == '$')
			continue;
		elf->sym[elf->nsym].addr = s.addr;
		elf->sym[elf->nsym].size = s.size;
		elf->sym[elf->nsym].name = dupstr(s.name);
		if (!elf->sym[elf->nsym].name)
			return -PFT_E_NOMEM;
		elf->nsym++;
	}
	return 0;
}

static int load_segments(struct pft_rec_elf *elf, const struct pft_elf *e, const char *path,
                         char *msg, size_t cap)
{
	size_t i, n = pft_elf_segment_count(e);

	elf->seg = calloc(n ? n : 1, sizeof(*elf->seg));
	if (!elf->seg)
		return -PFT_E_NOMEM;
	for (i = 0; i < n; i++) {
		struct pft_elf_segment ps;
		struct pft_rec_segment *s;

		if (pft_elf_segment(e, i, &ps) < 0 || !ps.memsz)
			continue;
		if (ps.filesz > ps.memsz || ps.memsz > (1u << 30)) {
			snprintf(msg, cap, "'%s': bad PT_LOAD segment %u", path, ps.index);
			return -PFT_E_FORMAT;
		}
		s = &elf->seg[elf->nseg];
		s->vaddr = ps.vaddr;
		s->filesz = ps.filesz;
		s->memsz = ps.memsz;
		s->flags = ps.flags;
		s->data = calloc(1, ps.memsz);
		if (!s->data)
			return -PFT_E_NOMEM;
		memcpy(s->data, ps.data, ps.filesz);
		elf->nseg++;
	}
	if (!elf->nseg) {
		snprintf(msg, cap, "'%s' has no loadable segment", path);
		return -PFT_E_FORMAT;
	}
	return 0;
}

int pft_rec_elf_load(struct pft_rec_elf *elf, const char *path, char *msg, size_t cap)
{
	struct pft_elf *e;
	struct pft_elf_info info;
	int rc;

	memset(elf, 0, sizeof(*elf));
	rc = pft_elf_open(&e, path);
	if (rc == -PFT_E_IO) {
		snprintf(msg, cap, "cannot open '%s': %s", path, strerror(errno));
		return rc;
	}
	if (rc == -PFT_E_FORMAT) {
		snprintf(msg, cap, "'%s' is not an ELF file (or a segment lies beyond its end)", path);
		return rc;
	}
	if (rc < 0) {
		snprintf(msg, cap, "'%s': %s", path, pft_errstr(rc));
		return rc;
	}
	pft_elf_get_info(e, &info);
	if (info.is64 || info.machine != 40 /* EM_ARM */ || info.big_endian) {
		snprintf(msg, cap, "'%s' is not a little-endian 32-bit ARM ELF", path);
		rc = -PFT_E_FORMAT;
		goto out;
	}
	elf->entry = info.entry;
	rc = load_segments(elf, e, path, msg, cap);
	if (rc == 0)
		rc = load_symbols(elf, e);
	if (rc == 0 && !(elf->path = dupstr(path)))
		rc = -PFT_E_NOMEM;
out:
	pft_elf_close(e);
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
