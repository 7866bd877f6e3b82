/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the snapshot reader and writer. */
#ifndef PFT_SNAPSHOT_INT_H
#define PFT_SNAPSHOT_INT_H

#include <stddef.h>

/* dir + "/" + file (file alone when absolute); malloc'd, NULL if out of memory. */
char *snap_join(const char *dir, const char *file);

/* Where the ini files come from: files (io NULL), or a caller's loader
 * (the fuzz target feeds files from memory).  load returns 0 and a
 * malloc'd text, or -PFT_E_IO with msg filled in. */
struct pft_snapshot;
struct snap_io {
	int (*load)(void *ctx, const char *path, char **text, size_t *len, char *msg, size_t cap);
	void *ctx;
};
int snap_open_io(const char *dir, const struct snap_io *io, unsigned flags,
		 struct pft_snapshot **out, char *msg, size_t cap);

#endif
