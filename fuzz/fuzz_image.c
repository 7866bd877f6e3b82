/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: image files as the commands load them.  The input is
 * written to a temporary file and read back through the one ELF reader
 * (pft_elf_open: header, segments, symbols), pft_image_add_elf, the symbol
 * and DWARF loader from the path (pft_dbg_add_elf) and pft_image_add_file
 * with an offset and a length taken from the first bytes; every mapped
 * byte is then read.  A failure must come with a reason (an error code, and
 * the debug information loader's message). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pft/debuginfo.h"
#include "pft/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read every byte of every region (the mapping must hold what it claims). */
static void read_all(const struct pft_image *img)
{
	uint8_t buf[256];
	size_t i;

	for (i = 0; i < pft_image_region_count(img); i++) {
		uint64_t a, n, off;

		if (pft_image_region(img, i, &a, &n, NULL) != 0)
			abort();
		for (off = 0; off < n && off < (1u << 20); off += sizeof buf)
			if (pft_image_read(img, a + off, buf, sizeof buf) <= 0)
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/pft_fuzz_image_XXXXXX", msg[256];
	struct pft_elf *elf;
	struct pft_image *img;
	struct pft_dbg *dbg;
	uint64_t offset = 0, length = 0;
	FILE *f;
	int fd, r;
	size_t i;

	fd = mkstemp(path);
	if (fd < 0)
		return 0;
	f = fdopen(fd, "wb");
	if (!f || fwrite(data, 1, size, f) != size) {
		if (f)
			fclose(f);
		unlink(path);
		return 0;
	}
	fclose(f);

	if (pft_elf_open(&elf, path) == 0) {
		struct pft_elf_info info;
		struct pft_elf_segment s;
		struct pft_elf_symbol sym;

		if (pft_elf_get_info(elf, &info) != 0)
			abort();
		for (i = 0; i < pft_elf_segment_count(elf); i++) {
			if (pft_elf_segment(elf, i, &s) != 0)
				abort();
			if (s.filesz && (s.data[0] | s.data[s.filesz - 1]) == 0x100)
				abort(); /* touch the first and last byte */
		}
		for (i = 0; i < pft_elf_symbol_count(elf) && i < 4096; i++)
			if (pft_elf_symbol(elf, i, &sym) == 0 && strlen(sym.name) == SIZE_MAX)
				abort();
		pft_elf_close(elf);
	}
	img = pft_image_alloc();
	if (img) {
		r = pft_image_add_elf(img, path, 0x1000);
		if (r == -PFT_E_INTERNAL)
			abort();
		read_all(img);
		if (size >= 8) {
			offset = data[0] % (size + 1);
			length = data[1] % 64;
		}
		r = pft_image_add_file(img, path, 0x80000000u, offset, length);
		if (r == 0 || r == -PFT_E_INTERNAL || r == -PFT_E_INVAL)
			abort(); /* > 0 bytes, or a file-level reason */
		read_all(img);
		pft_image_free(img);
	}
	dbg = pft_dbg_alloc();
	if (dbg) {
		msg[0] = '\0';
		r = pft_dbg_add_elf(dbg, path, 0, msg, sizeof msg);
		if (r < 0 && r != -PFT_E_NOMEM && !msg[0])
			abort();
		pft_dbg_free(dbg);
	}
	unlink(path);
	return 0;
}
