/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the snapshot reader.  The input is cut at "\n@@\n"
 * into snapshot.ini, trace.ini, a.ini and b.ini, which the reader loads from
 * memory (any other file name is missing); the snapshot is then queried.
 * The ini parser also runs on the whole input.  Every failure must come
 * with a message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft/snapshot.h"
#include "snapshot/ini.h"
#include "snapshot/snapshot_int.h"

struct files {
	const char *name[4];
	const uint8_t *data[4];
	size_t len[4];
};

static int load(void *ctx, const char *path, char **text, size_t *len, char *msg, size_t cap)
{
	const struct files *f = ctx;
	const char *base = strrchr(path, '/');
	int k;

	base = base ? base + 1 : path;
	for (k = 0; k < 4; k++)
		if (!strcmp(base, f->name[k])) {
			*text = malloc(f->len[k] + 1);
			if (!*text)
				return -PFT_E_NOMEM;
			memcpy(*text, f->data[k], f->len[k]);
			*len = f->len[k];
			return 0;
		}
	snprintf(msg, cap, "cannot open %s: no such file", path);
	return -PFT_E_IO;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct files f = { { "snapshot.ini", "trace.ini", "a.ini", "b.ini" }, { 0 }, { 0 } };
	struct snap_io io = { load, &f };
	struct ini_file ini;
	struct pft_snapshot *sn = NULL;
	char msg[512];
	size_t pos = 0, i;
	int k, r;

	if (ini_parse(&ini, "fuzz.ini", (const char *)data, size, msg, sizeof msg) == 0)
		ini_free(&ini);
	for (k = 0; k < 4; k++) {
		const uint8_t *end = NULL;

		for (i = pos; i + 4 <= size; i++)
			if (!memcmp(data + i, "\n@@\n", 4)) {
				end = data + i;
				break;
			}
		f.data[k] = data + pos;
		f.len[k] = end ? (size_t)(end - (data + pos)) : size - pos;
		pos = end ? pos + f.len[k] + 4 : size;
	}
	msg[0] = '\0';
	r = snap_open_io("fuzzdir", &io, 0, &sn, msg, sizeof msg);
	if (r == 0) {
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
	} else if (r != -PFT_E_NOMEM && !msg[0]) {
		abort(); /* every failure must say why */
	}
	return 0;
}
