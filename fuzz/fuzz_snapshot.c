/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the snapshot reader.  The input is cut at "\n@@\n"
 * into snapshot.ini, trace.ini, a.ini and b.ini, written into a private
 * folder, opened and queried.  The ini parser is also run on the whole
 * input directly. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pft/snapshot.h"
#include "snapshot/ini.h"

static char dir[64];

static void cleanup(void)
{
	static const char *const names[4] = { "snapshot.ini", "trace.ini", "a.ini", "b.ini" };
	char p[128];
	int k;

	for (k = 0; k < 4; k++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[k]);
		remove(p);
	}
	rmdir(dir);
}

static void put(const char *name, const uint8_t *d, size_t n)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", dir, name);
	f = fopen(p, "wb");
	if (!f)
		return;
	if (n)
		fwrite(d, 1, n, f);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[4] = { "snapshot.ini", "trace.ini", "a.ini", "b.ini" };
	struct ini_file ini;
	struct pft_snapshot *sn = NULL;
	char msg[512];
	size_t pos = 0, i;
	int k;

	if (!dir[0]) {
		strcpy(dir, "/tmp/pft_fuzz_snapXXXXXX");
		if (!mkdtemp(dir))
			abort();
		atexit(cleanup);
	}
	if (ini_parse(&ini, "fuzz.ini", (const char *)data, size, msg, sizeof msg) == 0)
		ini_free(&ini);

	for (k = 0; k < 4; k++) {
		const uint8_t *end = NULL;
		size_t n;

		for (i = pos; i + 4 <= size; i++)
			if (!memcmp(data + i, "\n@@\n", 4)) {
				end = data + i;
				break;
			}
		n = end ? (size_t)(end - (data + pos)) : size - pos;
		put(names[k], data + pos, n);
		pos = end ? pos + n + 4 : size;
	}
	if (pft_snapshot_open(dir, &sn, msg, sizeof msg) == 0) {
		size_t ns = pft_snapshot_source_count(sn), nd = pft_snapshot_device_count(sn);
		for (i = 0; i < ns; i++) {
			struct pft_snapshot_source s;
			uint64_t v;
			if (pft_snapshot_source(sn, i, &s) != 0)
				abort();
			pft_config_check(&s.config, msg, sizeof msg);
			pft_snapshot_buffer_format(s.buffer_format);
			pft_snapshot_find_trace_id(sn, s.trace_id);
			pft_snapshot_reg(sn, s.name, "ETMCR", &v);
			pft_snapshot_reg(sn, s.name, "0x080", &v);
		}
		for (i = 0; i < nd; i++) {
			struct pft_snapshot_device d;
			struct pft_snapshot_dump dp;
			size_t j;
			if (pft_snapshot_device(sn, i, &d) != 0)
				abort();
			for (j = 0; j < pft_snapshot_dump_count(sn, d.name); j++)
				if (pft_snapshot_dump(sn, d.name, j, &dp) != 0)
					abort();
		}
		pft_snapshot_close(sn);
	} else if (!msg[0]) {
		abort(); /* every failure must say why */
	}
	return 0;
}
