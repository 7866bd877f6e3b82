/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the debug information layer (ELF symbols, mapping
 * symbols, DWARF line tables, subprograms and inline scopes through libdw).
 * The input is loaded as an ELF image from memory; on success every query
 * runs over the addresses the tables name, and a failure must come with a
 * message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft/debuginfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/* libdw's dwarf_getscopes leaks its scope array when the second walk over a
 * malformed scope tree fails after the first found the address (the array
 * is only handed out on success): not ours to free (elfutils 0.188,
 * getscopes.c).  Every other leak still fails the run. */
const char *__lsan_default_suppressions(void)
{
	return "leak:dwarf_getscopes\nleak:libdw.so\n";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pft_dbg *d = pft_dbg_alloc();
	char msg[256] = "";
	struct pft_dbg_frame fr[8];
	size_t i;
	int r;

	if (!d || !size) {
		pft_dbg_free(d);
		return 0;
	}
	r = pft_dbg_add_elf_mem(d, data, size, 0x1000, msg, sizeof(msg));
	if (r < 0) {
		if (!msg[0])
			abort(); /* a failure without a reason */
		pft_dbg_free(d);
		return 0;
	}
	for (i = 0; i < pft_dbg_line_count(d) && i < 4096; i++) {
		struct pft_dbg_line l, l2;

		if (pft_dbg_line_at(d, i, &l, sizeof(l)) != 0 || l.line == 0 || !l.file)
			abort();
		if (pft_dbg_line(d, l.addr, &l2, sizeof(l2)) != 0)
			abort();
		pft_dbg_inline_chain(d, l.addr, fr, 8);
	}
	for (i = 0; i < pft_dbg_func_count(d) && i < 4096; i++) {
		struct pft_dbg_func f;

		if (pft_dbg_func_at(d, i, &f, sizeof(f)) != 0 || !f.name)
			abort();
		pft_dbg_inline_chain(d, f.addr, fr, 8);
	}
	for (i = 0; i < pft_dbg_symbol_count(d) && i < 4096; i++) {
		struct pft_dbg_symbol s;

		if (pft_dbg_symbol_at(d, i, &s, sizeof(s)) != 0 || !s.name)
			abort();
		pft_dbg_symbol(d, s.addr, &s, sizeof(s));
		pft_dbg_mapping(d, s.addr);
	}
	pft_dbg_free(d);
	return 0;
}
