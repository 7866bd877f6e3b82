/* SPDX-License-Identifier: BSD-3-Clause */
/* Names of the flow decoder's enums, for listings and JSON. */
#include "pft/flow.h"

const char *pft_flow_kind_name(enum pft_flow_kind k)
{
	switch (k) {
	case PFT_FLOW_RANGE: return "range";
	case PFT_FLOW_EVENT: return "event";
	default: return "?";
	}
}

const char *pft_flow_event_name(enum pft_flow_event ev)
{
	static const char *const names[PFT_EV_NR] = {
		[PFT_EV_NONE] = "none",
		[PFT_EV_TRACE_ON] = "trace_on",
		[PFT_EV_SYNC_MISMATCH] = "sync_mismatch",
		[PFT_EV_EXCEPTION] = "exception",
		[PFT_EV_EXCEPTION_RETURN] = "exception_return",
		[PFT_EV_CONTEXT_ID] = "context_id",
		[PFT_EV_VMID] = "vmid",
		[PFT_EV_TIMESTAMP] = "timestamp",
		[PFT_EV_TRIGGER] = "trigger",
		[PFT_EV_SECURITY] = "security",
		[PFT_EV_JAZELLE] = "jazelle",
		[PFT_EV_MEM_NACC] = "memory_not_readable",
		[PFT_EV_NO_ADDRESS] = "unknown_address",
		[PFT_EV_LOST] = "address_lost",
		[PFT_EV_INCONSISTENT] = "inconsistent",
		[PFT_EV_PACKET_ERROR] = "packet_error",
		[PFT_EV_UNSYNCED] = "unsynced",
	};

	return (unsigned)ev < PFT_EV_NR && names[ev] ? names[ev] : "?";
}

const char *pft_flow_lost_name(enum pft_flow_lost r)
{
	static const char *const names[PFT_LOST_NR] = {
		[PFT_LOST_NONE] = "none",
		[PFT_LOST_RSTACK_EMPTY] = "rstack_empty",
		[PFT_LOST_INDIRECT_ATOM] = "indirect_atom",
		[PFT_LOST_NO_TARGET] = "no_target",
		[PFT_LOST_WALK_LIMIT] = "walk_limit",
		[PFT_LOST_JAZELLE] = "jazelle",
	};

	return (unsigned)r < PFT_LOST_NR && names[r] ? names[r] : "?";
}

const char *pft_flow_inconsistent_name(enum pft_flow_inconsistent r)
{
	static const char *const names[PFT_INCONS_NR] = {
		[PFT_INCONS_NONE] = "none",
		[PFT_INCONS_WPU_BEHIND] = "wpu_behind",
		[PFT_INCONS_WPU_WAYPOINT] = "wpu_waypoint",
		[PFT_INCONS_WPU_ISA] = "wpu_isa",
		[PFT_INCONS_BRANCH_TARGET] = "branch_target",
	};

	return (unsigned)r < PFT_INCONS_NR && names[r] ? names[r] : "?";
}

const char *pft_range_end_name(enum pft_range_end e)
{
	static const char *const names[] = { "taken", "not_taken", "wpu", "more", "stopped" };

	return (unsigned)e < sizeof(names) / sizeof(names[0]) ? names[e] : "?";
}
