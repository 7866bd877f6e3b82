/* SPDX-License-Identifier: BSD-3-Clause */
/* Names of packet types, decoder errors, I-sync reasons and exceptions, as
 * used in listings and JSON (doc/packets.md). */
#include "pft/packet.h"

const char *pft_pkt_type_name(enum pft_pkt_type type)
{
	static const char *const names[PFT_PKT_NR_TYPES] = {
		[PFT_PKT_NONE] = "none",
		[PFT_PKT_ASYNC] = "async",
		[PFT_PKT_ISYNC] = "isync",
		[PFT_PKT_ATOM] = "atom",
		[PFT_PKT_BRANCH] = "branch",
		[PFT_PKT_WAYPOINT_UPDATE] = "waypoint_update",
		[PFT_PKT_TRIGGER] = "trigger",
		[PFT_PKT_CONTEXT_ID] = "context_id",
		[PFT_PKT_VMID] = "vmid",
		[PFT_PKT_TIMESTAMP] = "timestamp",
		[PFT_PKT_EXCEPTION_RETURN] = "exception_return",
		[PFT_PKT_IGNORE] = "ignore",
		[PFT_PKT_UNSYNCED] = "unsynced",
		[PFT_PKT_ERROR] = "error",
	};
	if ((unsigned)type >= PFT_PKT_NR_TYPES)
		return "?";
	return names[type];
}

const char *pft_pkt_error_name(enum pft_pkt_error err)
{
	static const char *const names[PFT_PERR_NR] = {
		[PFT_PERR_NONE] = "none",
		[PFT_PERR_RESERVED_HEADER] = "reserved_header",
		[PFT_PERR_TRUNCATED] = "truncated",
		[PFT_PERR_BAD_ASYNC] = "bad_async",
		[PFT_PERR_BAD_ADDRESS] = "bad_address",
		[PFT_PERR_NO_CONTEXT_ID] = "no_context_id",
		[PFT_PERR_NO_VMID] = "no_vmid",
	};
	if ((unsigned)err >= PFT_PERR_NR)
		return "?";
	return names[err];
}

const char *pft_isync_reason_name(enum pft_isync_reason r)
{
	static const char *const names[4] = { "periodic", "trace_on", "overflow", "debug_exit" };
	if ((unsigned)r >= 4)
		return "?";
	return names[r];
}

const char *pft_exception_name(unsigned code)
{
	static const char *const names[16] = {
		"none", "debug_halt", "smc", "hyp",
		"async_data_abort", "thumbee_check", "exception_6", "exception_7",
		"reset", "undefined", "svc", "prefetch_abort",
		"data_abort", "generic", "irq", "fiq",
	};
	if (code >= 16)
		return "other";
	return names[code];
}
