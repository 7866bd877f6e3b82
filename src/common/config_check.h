/* SPDX-License-Identifier: BSD-3-Clause */
/* What the two register readers share, pft_config_check (PTM, config.c)
 * and pft_etm3_config_features (ETMv3): the caller's struct pft_config of
 * any version taken in, a rejection with its message, and the trace ID
 * rule, which is the same for both trace sources. */
#ifndef PFT_COMMON_CONFIG_CHECK_H
#define PFT_COMMON_CONFIG_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pft/common.h"

/* msg cleared, *f zeroed (fsize bytes), the caller's user copied into
 * *copy with the defaults for what an older struct lacks.  0, or
 * -PFT_E_INVAL (with a message where user is not initialised). */
static inline int pft_cfg_take(struct pft_config *copy, const struct pft_config *user, void *f,
			       size_t fsize, char *msg, size_t cap)
{
	if (msg && cap)
		msg[0] = '\0';
	if (!user || !f)
		return -PFT_E_INVAL;
	memset(f, 0, fsize);
	if (pft_config_copy(copy, user) < 0) {
		if (msg)
			snprintf(msg, cap, "struct pft_config not initialised (size %zu)", user->size);
		return -PFT_E_INVAL;
	}
	return 0;
}

static inline int pft_cfg_reject(char *msg, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The configuration is rejected: the message into msg (if any), and
 * -PFT_E_BAD_CONFIG. */
static inline int pft_cfg_reject(char *msg, size_t cap, const char *fmt, ...)
{
	va_list ap;

	if (msg) {
		va_start(ap, fmt);
		vsnprintf(msg, cap, fmt, ap);
		va_end(ap);
	}
	return -PFT_E_BAD_CONFIG;
}

/* Trace IDs 0x00 and 0x70-0x7F are reserved (CoreSight). */
static inline int pft_cfg_check_trace_id(const struct pft_config *cfg, unsigned id, char *msg,
					 size_t cap)
{
	if (id == 0 || id >= 0x70)
		return pft_cfg_reject(msg, cap,
				      "ETMTRACEIDR 0x%08X: trace ID 0x%02X is reserved (valid IDs are 0x01-0x6F)",
				      (unsigned)cfg->etmtraceidr, id);
	return 0;
}

#endif
