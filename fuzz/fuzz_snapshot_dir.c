/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: snapshot folders on disk.  The input is cut at
 * "\n@@\n" into snapshot.ini, trace.ini, device1.ini, device2.ini, a trace
 * buffer (buf.bin) and a memory dump (mem.bin), written into a fresh
 * temporary folder; the folder is opened with pft_snapshot_open, every
 * source and device queried, and the dumps of every device loaded into a
 * program image (as decode does) and read.  Paths in the ini files may
 * name anything: only the folder's own files are there to be read.  Every
 * failure must come with a message. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pft/image.h"
#include "pft/snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "snapshot.ini", "trace.ini", "device1.ini",
				     "device2.ini", "buf.bin", "mem.bin" };
#define NFILES (sizeof names / sizeof names[0])

static void load_dumps(const struct pft_snapshot *sn, const char *device)
{
	struct pft_image *img = pft_image_alloc();
	size_t j;

	if (!img)
		return;
	for (j = 0; j < pft_snapshot_dump_count(sn, device) && j < 64; j++) {
		struct pft_snapshot_dump dp;
		uint8_t b[16];

		if (pft_snapshot_dump(sn, device, j, &dp) != 0)
			abort();
		if (pft_image_add_file(img, dp.path, dp.address, dp.offset, dp.length) > 0)
			(void)pft_image_read(img, dp.address, b, sizeof b);
	}
	pft_image_free(img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/pft_fuzz_snap_XXXXXX", path[64], msg[512];
	struct pft_snapshot *sn = NULL;
	size_t pos = 0, i, k;
	int r;

	if (!mkdtemp(dir))
		return 0;
	for (k = 0; k < NFILES; k++) {
		size_t len = size - pos;
		FILE *f;

		for (i = pos; i + 4 <= size; i++)
			if (!memcmp(data + i, "\n@@\n", 4)) {
				len = i - pos;
				break;
			}
		snprintf(path, sizeof path, "%s/%s", dir, names[k]);
		f = fopen(path, "wb");
		if (f) {
			fwrite(data + pos, 1, len, f);
			fclose(f);
		}
		pos = pos + len + 4 <= size ? pos + len + 4 : size;
	}
	msg[0] = '\0';
	r = pft_snapshot_open(dir, &sn, msg, sizeof msg);
	if (r == 0) {
		size_t ns = pft_snapshot_source_count(sn), nd = pft_snapshot_device_count(sn);

		for (i = 0; i < ns; i++) {
			struct pft_snapshot_source s;
			uint64_t v;

			if (pft_snapshot_source(sn, i, &s) != 0)
				abort();
			pft_config_check(&s.config, msg, sizeof msg);
			pft_snapshot_find_trace_id(sn, s.trace_id);
			pft_snapshot_reg(sn, s.name, "ETMCR", &v);
		}
		for (i = 0; i < nd && i < 16; i++) {
			struct pft_snapshot_device d;

			if (pft_snapshot_device(sn, i, &d) != 0)
				abort();
			load_dumps(sn, d.name);
		}
		pft_snapshot_close(sn);
	} else if (r != -PFT_E_NOMEM && !msg[0]) {
		abort(); /* every failure must say why */
	}
	for (k = 0; k < NFILES; k++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[k]);
		unlink(path);
	}
	rmdir(dir);
	return 0;
}
