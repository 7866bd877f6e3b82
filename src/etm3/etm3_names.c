/* SPDX-License-Identifier: BSD-3-Clause */
/* Names of ETMv3 packet types and decoder errors (doc/etm3.md). */
#include "pft/etm3.h"

const char *pft_etm3_pkt_type_name(enum pft_etm3_pkt_type type)
{
	static const char *const names[PFT_ETM3_NR_TYPES] = {
		[PFT_ETM3_NONE] = "none",
		[PFT_ETM3_ASYNC] = "async",
		[PFT_ETM3_ISYNC] = "isync",
		[PFT_ETM3_PHDR] = "phdr",
		[PFT_ETM3_BRANCH] = "branch",
		[PFT_ETM3_CYCLE_COUNT] = "cycle_count",
		[PFT_ETM3_TRIGGER] = "trigger",
		[PFT_ETM3_CONTEXT_ID] = "context_id",
		[PFT_ETM3_VMID] = "vmid",
		[PFT_ETM3_TIMESTAMP] = "timestamp",
		[PFT_ETM3_EXCEPTION_RETURN] = "exception_return",
		[PFT_ETM3_EXCEPTION_ENTRY] = "exception_entry",
		[PFT_ETM3_IGNORE] = "ignore",
		[PFT_ETM3_DATA] = "data",
		[PFT_ETM3_OOO_DATA] = "ooo_data",
		[PFT_ETM3_OOO_PLACEHOLDER] = "ooo_placeholder",
		[PFT_ETM3_VALUE_NOT_TRACED] = "value_not_traced",
		[PFT_ETM3_DATA_SUPPRESSED] = "data_suppressed",
		[PFT_ETM3_STORE_FAILED] = "store_failed",
		[PFT_ETM3_UNSYNCED] = "unsynced",
		[PFT_ETM3_ERROR] = "error",
	};
	if ((unsigned)type >= PFT_ETM3_NR_TYPES)
		return "?";
	return names[type];
}

const char *pft_etm3_error_name(enum pft_etm3_error err)
{
	static const char *const names[PFT_E3ERR_NR] = {
		[PFT_E3ERR_NONE] = "none",
		[PFT_E3ERR_RESERVED_HEADER] = "reserved_header",
		[PFT_E3ERR_TRUNCATED] = "truncated",
		[PFT_E3ERR_BAD_ASYNC] = "bad_async",
		[PFT_E3ERR_BAD_ADDRESS] = "bad_address",
		[PFT_E3ERR_BAD_EXCEPTION] = "bad_exception",
		[PFT_E3ERR_BAD_FIELD] = "bad_field",
		[PFT_E3ERR_NO_DATA_TRACE] = "no_data_trace",
		[PFT_E3ERR_NO_CONTEXT_ID] = "no_context_id",
	};
	if ((unsigned)err >= PFT_E3ERR_NR)
		return "?";
	return names[err];
}
