/* SPDX-License-Identifier: BSD-3-Clause */
/* The ELF reader (pft_elf_*, pft/image.h) on the pft executable itself,
 * against the program headers read by hand from the file (Elf64 layout,
 * independent of libelf), and its symbol table (main is a function); the
 * image's ELF loader maps exactly the PT_LOAD segments with file bytes;
 * errors for a missing file and for a file that is not ELF. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/image.h"

static uint64_t rd(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

int main(void)
{
	const char *bin = getenv("PFT_BIN");
	struct pft_elf *elf;
	struct pft_elf_info info;
	struct pft_elf_segment s;
	struct pft_elf_symbol sym;
	struct pft_image *img;
	uint8_t *file;
	size_t len, i, nload = 0, nfile = 0, k = 0;
	int found_main = 0;

	if (!bin || !(file = check_read_file(bin, &len)) || len < 64 || file[4] != 2 /* ELF64 */) {
		printf("no 64-bit pft executable in $PFT_BIN: skipped\n");
		return 77;
	}
	CHECK_EQ(pft_elf_open(&elf, bin), 0);
	CHECK_EQ(pft_elf_get_info(elf, &info), 0);
	CHECK_EQ(info.is64, 1);
	CHECK_EQ(info.entry, rd(file + 24, 8));
	CHECK_EQ(info.machine, rd(file + 18, 2));
	/* program headers by hand */
	for (i = 0; i < rd(file + 56, 2); i++) {
		const uint8_t *ph = file + rd(file + 32, 8) + i * rd(file + 54, 2);

		if (rd(ph, 4) != 1 /* PT_LOAD */)
			continue;
		nload++;
		nfile += rd(ph + 32, 8) != 0;
		CHECK_EQ(pft_elf_segment(elf, k, &s), 0);
		CHECK_EQ(s.index, i);
		CHECK_EQ(s.vaddr, rd(ph + 16, 8));
		CHECK_EQ(s.filesz, rd(ph + 32, 8));
		CHECK_EQ(s.memsz, rd(ph + 40, 8));
		CHECK_EQ(s.flags, rd(ph + 4, 4));
		CHECK(s.filesz == 0 || !memcmp(s.data, file + rd(ph + 8, 8), (size_t)s.filesz));
		k++;
	}
	CHECK_EQ(pft_elf_segment_count(elf), nload);
	CHECK(nload > 0);
	for (i = 0; i < pft_elf_symbol_count(elf); i++)
		if (pft_elf_symbol(elf, i, &sym) == 0 && !strcmp(sym.name, "main"))
			found_main = sym.type == 2 /* STT_FUNC */ && sym.addr != 0;
	CHECK(found_main);
	pft_elf_close(elf);

	img = pft_image_alloc();
	CHECK_EQ(pft_image_add_elf(img, bin, 0), (long long)nfile);
	CHECK_EQ(pft_image_region_count(img), nfile);
	pft_image_free(img);

	CHECK_EQ(pft_elf_open(&elf, "/nonexistent/prog.elf"), -PFT_E_IO);
	{
		char path[1024];

		check_data_path(path, sizeof path, "TC2/cstrace.bin");
		CHECK_EQ(pft_elf_open(&elf, path), -PFT_E_FORMAT);
	}
	printf("pft_elf: %zu PT_LOAD segments (%zu with file bytes), main found\n", nload, nfile);
	free(file);
	return check_report();
}
