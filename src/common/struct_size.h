/* SPDX-License-Identifier: BSD-3-Clause */
/* Structs that can grow (doc/architecture.md, "The API verb set"): a caller
 * passes the size of its copy of a struct, which may be older (shorter) or
 * newer (longer) than the library's.  The smaller size is copied and the
 * rest is zeroed (out) or keeps the library's defaults (in). */
#ifndef PFT_COMMON_STRUCT_SIZE_H
#define PFT_COMMON_STRUCT_SIZE_H

#include <stddef.h>
#include <string.h>

/* Library struct src (src_size bytes) out to the caller's dst (dst_size). */
static inline void pft_copy_out(void *dst, size_t dst_size, const void *src, size_t src_size)
{
	if (dst_size <= src_size) {
		memcpy(dst, src, dst_size);
	} else {
		memcpy(dst, src, src_size);
		memset((char *)dst + src_size, 0, dst_size - src_size);
	}
}

/* The caller's src (src_size bytes) into the library's dst (dst_size),
 * which holds the defaults: bytes beyond the caller's struct keep them. */
static inline void pft_copy_in(void *dst, size_t dst_size, const void *src, size_t src_size)
{
	memcpy(dst, src, src_size < dst_size ? src_size : dst_size);
}

#endif
