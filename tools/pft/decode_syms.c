/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode: symbols of an ELF file (libelf), for symbol+offset. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode.h"

struct sym {
	uint64_t addr;
	uint64_t size;
	char *name;
};

struct decode_syms {
	struct sym *v;
	size_t n;
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* prefer the sized symbol, then a stable order by name */
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

void decode_syms_free(struct decode_syms *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	free(s);
}

struct decode_syms *decode_syms_load(const char *path, uint64_t offset, char *err, size_t cap)
{
	struct decode_syms *s;
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t capv = 0;
	int fd, arm;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, cap, "libelf initialisation failed");
		return NULL;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, cap, "cannot open '%s'", path);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!s || !elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		snprintf(err, cap, "'%s' is not an ELF file", path);
		goto fail;
	}
	arm = eh.e_machine == EM_ARM;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t i, count;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		count = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < count; i++) {
			GElf_Sym sym;
			const char *name;
			int type;

			if (!gelf_getsym(data, (int)i, &sym))
				continue;
			type = GELF_ST_TYPE(sym.st_info);
			if ((type != STT_FUNC && type != STT_NOTYPE && type != STT_OBJECT) ||
			    sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			/* skip empty names and the ARM mapping symbols $a/$t/$d */
			if (!name || !name[0] || name[0] == '$')
				continue;
			if (s->n == capv) {
				size_t nc = capv ? capv * 2 : 256;
				struct sym *nv = realloc(s->v, nc * sizeof(*nv));

				if (!nv)
					goto nomem;
				s->v = nv;
				capv = nc;
			}
			s->v[s->n].addr = (arm && type == STT_FUNC ? sym.st_value & ~1ull : sym.st_value) + offset;
			s->v[s->n].size = sym.st_size;
			s->v[s->n].name = strdup(name);
			if (!s->v[s->n].name)
				goto nomem;
			s->n++;
		}
	}
	qsort(s->v, s->n, sizeof(*s->v), sym_cmp);
	elf_end(elf);
	close(fd);
	return s;
nomem:
	snprintf(err, cap, "out of memory reading symbols of '%s'", path);
fail:
	if (elf)
		elf_end(elf);
	close(fd);
	decode_syms_free(s);
	return NULL;
}

size_t decode_syms_count(const struct decode_syms *s)
{
	return s ? s->n : 0;
}

const char *decode_syms_lookup(const struct decode_syms *s, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi;
	const struct sym *best;

	if (!s || !s->n)
		return NULL;
	hi = s->n;
	while (lo < hi) { /* first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	/* among the symbols at the highest address <= addr, the first (sized) one */
	best = &s->v[lo - 1];
	while (best > s->v && (best - 1)->addr == best->addr)
		best--;
	if (best->size && addr - best->addr >= best->size)
		return NULL;
	*off = addr - best->addr;
	return best->name;
}
