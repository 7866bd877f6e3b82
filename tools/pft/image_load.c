/* SPDX-License-Identifier: BSD-3-Clause */
/* Loading the program image files of a command, with the messages
 * (image_load.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "image_load.h"

#define ADDR_END 0x100000000ull /* PFT traces a 32-bit address space */

int image_arg_split(const char *arg, char *path, size_t cap, uint64_t *addr)
{
	const char *at = strrchr(arg, '@');
	size_t n = at ? (size_t)(at - arg) : strlen(arg);
	char *end;

	if (n == 0 || n >= cap)
		return -1;
	memcpy(path, arg, n);
	path[n] = '\0';
	*addr = 0;
	if (at) {
		errno = 0;
		*addr = strtoull(at + 1, &end, 0);
		if (errno || end == at + 1 || *end)
			return -1;
	}
	return 0;
}

/* Why a load failed: what the system said for an I/O error. */
static const char *why(int r)
{
	return r == -PFT_E_IO ? strerror(errno) : pft_errstr(r);
}

/* The regions from index `from` on must lie below 4 GiB. */
static int check_fit(const struct pft_image *img, size_t from, const char *cmd,
		     const char *what, const char *path)
{
	size_t i;

	for (i = from; i < pft_image_region_count(img); i++) {
		uint64_t a, n;

		if (pft_image_region(img, i, &a, &n, NULL) == 0 && (a >= ADDR_END || n > ADDR_END - a)) {
			cli_error(cmd, "%s '%s': 0x%" PRIx64 " bytes at 0x%" PRIx64
				  " do not fit the 32-bit address space", what, path, n, a);
			return PFT_EXIT_USAGE;
		}
	}
	return PFT_EXIT_OK;
}

int image_load_dumps(struct pft_image *img, const char *cmd,
		     const struct pft_snapshot *snap, const char *core)
{
	size_t k, n = pft_snapshot_dump_count(snap, core);

	for (k = 0; k < n; k++) {
		struct pft_snapshot_dump dm;
		size_t before = pft_image_region_count(img);
		int r;

		if (pft_snapshot_dump(snap, core, k, &dm) != 0)
			continue;
		r = pft_image_add_file(img, dm.path, dm.address, dm.offset, dm.length);
		if (r < 0) {
			cli_error(cmd, "snapshot dump '%s' at 0x%" PRIx64 ": %s", dm.path,
				  dm.address, r == -PFT_E_FORMAT ?
				  "offset or length beyond the end of the file" : why(r));
			return PFT_EXIT_USAGE;
		}
		if (check_fit(img, before, cmd, "snapshot dump", dm.path))
			return PFT_EXIT_USAGE;
	}
	return PFT_EXIT_OK;
}

int image_load_raw(struct pft_image *img, const char *cmd, const char *path, uint64_t addr)
{
	size_t before = pft_image_region_count(img);
	int r;

	if (addr >= ADDR_END) {
		cli_error(cmd, "--image '%s': address 0x%" PRIx64 " is beyond the 32-bit address space",
			  path, addr);
		return PFT_EXIT_USAGE;
	}
	r = pft_image_add_file(img, path, addr, 0, 0);
	if (r < 0) {
		cli_error(cmd, "--image '%s': %s", path, r == -PFT_E_FORMAT ? "empty file" : why(r));
		return PFT_EXIT_USAGE;
	}
	return check_fit(img, before, cmd, "--image", path);
}

int image_load_elf(struct pft_image *img, const char *cmd, const char *path, uint64_t offset)
{
	struct pft_elf *elf;
	struct pft_elf_info info;
	size_t before = pft_image_region_count(img);
	int r;

	if (offset >= ADDR_END) {
		cli_error(cmd, "--elf '%s': offset 0x%" PRIx64 " is beyond the 32-bit address space",
			  path, offset);
		return PFT_EXIT_USAGE;
	}
	r = pft_elf_open(&elf, path);
	if (r < 0) {
		cli_error(cmd, "--elf '%s': %s", path, r == -PFT_E_FORMAT ?
			  "not an ELF file, or a truncated one" : why(r));
		return PFT_EXIT_USAGE;
	}
	pft_elf_get_info(elf, &info);
	pft_elf_close(elf);
	if (info.is64 || info.machine != 40 /* EM_ARM */) {
		cli_error(cmd, "--elf '%s': not a 32-bit ARM program (ELF%d, e_machine %u)", path,
			  info.is64 ? 64 : 32, info.machine);
		return PFT_EXIT_USAGE;
	}
	r = pft_image_add_elf(img, path, offset);
	if (r < 0) {
		cli_error(cmd, "--elf '%s': %s", path, why(r));
		return PFT_EXIT_USAGE;
	}
	if (r == 0) {
		cli_error(cmd, "--elf '%s': no loadable segment with bytes in the file", path);
		return PFT_EXIT_USAGE;
	}
	return check_fit(img, before, cmd, "--elf", path);
}
