/* SPDX-License-Identifier: BSD-3-Clause */
/* Every public enum has a *_name() function (doc/architecture.md, "The API
 * verb set"): each value of the enums named here has its own name, and an
 * unknown value gives "?". */
#include <string.h>

#include "check.h"
#include "pft/callstack.h"
#include "pft/debuginfo.h"
#include "pft/flow.h"
#include "pft/tfo.h"

static void distinct(const char *const *names, int n)
{
	for (int i = 0; i < n; i++) {
		CHECK(names[i] && strcmp(names[i], "?") != 0);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(names[i], names[j]) != 0);
	}
}

int main(void)
{
	const char *v[32];
	int n = 0;

	for (int e = 0; e < PFT_E_NR_ERRORS; e++)
		v[n++] = pft_error_code_name(-e);
	distinct(v, n);
	CHECK(!strcmp(pft_error_code_name(-PFT_E_INVAL), "inval"));
	CHECK(!strcmp(pft_error_code_name(-PFT_E_NR_ERRORS), "?"));

	n = 0;
	v[n++] = pft_flow_kind_name(PFT_FLOW_RANGE);
	v[n++] = pft_flow_kind_name(PFT_FLOW_EVENT);
	distinct(v, n);
	CHECK(!strcmp(pft_flow_kind_name((enum pft_flow_kind)0), "?"));

	n = 0;
	for (int k = PFT_TFO_KIND_DISABLED; k <= PFT_TFO_KIND_RESERVED; k++)
		v[n++] = pft_tfo_kind_name((enum pft_tfo_kind)k);
	distinct(v, n);
	n = 0;
	for (int k = PFT_TFO_ITEM_STATUS; k <= PFT_TFO_ITEM_ERROR; k++)
		v[n++] = pft_tfo_item_kind_name((enum pft_tfo_item_kind)k);
	distinct(v, n);
	CHECK(!strcmp(pft_tfo_item_kind_name((enum pft_tfo_item_kind)0), "?"));
	CHECK(strcmp(pft_tfo_err_name(0), "") != 0);

	n = 0;
	for (int k = PFT_DBG_MAP_NONE; k <= PFT_DBG_MAP_DATA; k++)
		v[n++] = pft_dbg_map_name((enum pft_dbg_map)k);
	distinct(v, n);

	n = 0;
	for (int k = PFT_CS_FRAME_CALL; k <= PFT_CS_FRAME_UNKNOWN; k++)
		v[n++] = pft_cs_frame_kind_name((enum pft_cs_frame_kind)k);
	distinct(v, n);
	return check_report();
}
