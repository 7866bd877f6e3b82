/* SPDX-License-Identifier: BSD-3-Clause */
/* ETM/PTM registers as snapshot device inis write them: the one table of
 * register names and numbers (spec Table 3-16, numbers from pft/common.h),
 * the key syntax "NAME", "NAME(0xNUM)", "NAME(id:0xNUM,size:32)", and the
 * reading of [regs] sections.  Used by the snapshot reader (snapshot.c) and
 * by the software PTM (pft_ptm_load_ini_regs); calls nothing above ini.c. */
#ifndef PFT_SNAPSHOT_SNAP_REGS_H
#define PFT_SNAPSHOT_SNAP_REGS_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot/ini.h"

/* Canonical name of a register number (Table 3-16), or NULL. */
const char *snap_reg_name(unsigned regno);
/* Register number of a name or alias (no case; len bytes of name), or -1. */
int snap_reg_number(const char *name, size_t len);

/* One key=value of a [regs] section. */
struct snap_reg {
	const char *name;   /* the key before any "(...)", trimmed */
	long number;        /* the key's number (0xNUM or id:0xNUM), -1 if none */
	int regno;          /* the ETM/PTM register it names (see below), -1 if none */
	unsigned line;
	uint64_t value;
};

/* The register a key names.  The name decides when the table knows it
 * (aliases too); otherwise a name starting "ETM" with a number in a used
 * slot of the table is that register; anything else (core registers
 * R0..R15, CPSR ...) names none: -1. */
int snap_reg_resolve(const char *name, long number);

/* Every key of every [regs] section of ini (section names without case),
 * in file order, into a malloc'd array (*out, *n; *out may be NULL when
 * *n is 0).  Keys are split in place.  Values follow ini_number().
 * 0; -PFT_E_FORMAT with msg "FILE:LINE: ..." for a malformed key or value;
 * -PFT_E_NOMEM.  *sections receives the number of [regs] sections. */
int snap_regs_read(struct ini_file *ini, struct snap_reg **out, size_t *n, size_t *sections,
		   char *msg, size_t cap);

#endif
