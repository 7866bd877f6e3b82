/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the snapshot reader and writer. */
#ifndef PFT_SNAPSHOT_INT_H
#define PFT_SNAPSHOT_INT_H

/* dir + "/" + file (file alone when absolute); malloc'd, NULL if out of memory. */
char *snap_join(const char *dir, const char *file);

#endif
