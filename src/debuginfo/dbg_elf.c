/* SPDX-License-Identifier: BSD-3-Clause */
/* Debug information: ELF symbol tables (libelf).  Arm specifics: bit 0 of a
 * function symbol's value marks Thumb code and is cleared; the mapping
 * symbols $a/$t/$d go to their own table instead of the symbol table. */
#include <gelf.h>
#include <stdio.h>
#include <string.h>

#include "debuginfo/dbg_int.h"

static int add_symtab(struct pft_dbg *d, uint32_t image, Elf_Scn *scn, const GElf_Shdr *sh,
		      int arm)
{
	struct dbg_image *im = &d->images[image];
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, count;

	if (!data || !sh->sh_entsize)
		return 0;
	count = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < count; i++) {
		GElf_Sym sym;
		const char *name;
		int type, err;
		enum pft_dbg_map mk;
		struct dbg_sym s;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS ||
		    (type != STT_FUNC && type != STT_NOTYPE && type != STT_OBJECT &&
		     type != STT_GNU_IFUNC))
			continue;
		name = elf_strptr(im->elf, sh->sh_link, sym.st_name);
		if (!name || !name[0])
			continue;
		mk = arm ? dbg_map_kind(name) : PFT_DBG_MAP_NONE;
		if (mk != PFT_DBG_MAP_NONE) {
			err = dbg_add_map(d, (sym.st_value & ~1ull) + im->offset, image, mk);
			if (err < 0)
				return err;
			continue;
		}
		if (name[0] == '$') /* other tool-private symbols ($x, $v ...) */
			continue;
		memset(&s, 0, sizeof(s));
		s.name = name;
		s.size = sym.st_size;
		s.image = image;
		s.is_func = type == STT_FUNC || type == STT_GNU_IFUNC;
		s.isa = PFT_ISA_UNKNOWN;
		s.addr = sym.st_value;
		if (arm && s.is_func) {
			s.isa = (s.addr & 1) ? PFT_ISA_THUMB : PFT_ISA_ARM;
			s.addr &= ~1ull;
		}
		s.addr += im->offset;
		err = dbg_add_sym(d, &s);
		if (err < 0)
			return err;
	}
	return 0;
}

int dbg_elf_symbols(struct pft_dbg *d, uint32_t image, char *msg, size_t cap)
{
	Elf *elf = d->images[image].elf;
	Elf_Scn *scn = NULL, *dynsym = NULL;
	GElf_Shdr sh, dynsh;
	GElf_Ehdr eh;
	int arm, seen = 0, err;

	if (!gelf_getehdr(elf, &eh)) {
		snprintf(msg, cap, "no ELF header: %s", elf_errmsg(-1));
		return -PFT_E_FORMAT;
	}
	arm = eh.e_machine == EM_ARM;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_DYNSYM) {
			dynsym = scn;
			dynsh = sh;
		}
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		seen = 1;
		err = add_symtab(d, image, scn, &sh, arm);
		if (err < 0)
			return err;
	}
	/* a stripped shared library still names its exported functions */
	if (!seen && dynsym)
		return add_symtab(d, image, dynsym, &dynsh, arm);
	return 0;
}
