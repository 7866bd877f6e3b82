/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature derivation from raw registers, against the register tables of
 * PFT_PACKET_LAYOUTS.md section 1 and the real snapshots. */
#include <string.h>

#include "check.h"
#include "pft/common.h"

int main(void)
{
	struct pft_config c;
	struct pft_features f;
	char msg[200];

	pft_config_init(&c);
	CHECK_EQ(pft_config_features(&c, &f), 0);
	CHECK_EQ(f.minor, 1);
	CHECK_EQ(f.ts_bits, 64);
	CHECK_EQ(f.ts_gray, 0);

	/* TC2 PTM_0: CA + timestamps, 64-bit binary timestamps. */
	c.etmcr = 0x10001000;
	c.etmtraceidr = 0x13;
	CHECK_EQ(pft_config_features(&c, &f), 0);
	CHECK_EQ(f.cycle_accurate, 1);
	CHECK_EQ(f.timestamps, 1);
	CHECK_EQ(f.contextid_bytes, 0);
	CHECK_EQ(f.trace_id, 0x13);

	/* Snowball: PFTv1.0 forces 48-bit Gray whatever ETMCCER says. */
	c.etmidr = 0x411CF301;
	c.etmccer = 0x34C01AC2;
	CHECK_EQ(pft_config_features(&c, &f), 0);
	CHECK_EQ(f.minor, 0);
	CHECK_EQ(f.ts_bits, 48);
	CHECK_EQ(f.ts_gray, 1);
	CHECK_EQ(f.vmid, 0);

	/* Context ID sizes. */
	pft_config_init(&c);
	for (unsigned i = 0; i < 4; i++) {
		static const uint8_t want[4] = { 0, 1, 2, 4 };
		c.etmcr = i << 14;
		CHECK_EQ(pft_config_features(&c, &f), 0);
		CHECK_EQ(f.contextid_bytes, want[i]);
	}

	/* Nonsense: an ETMv3.5 ID, a reserved trace ID, RS + BB, reserved bits. */
	pft_config_init(&c);
	c.etmidr = 0x410CF250;
	CHECK_EQ(pft_config_check(&c, msg, sizeof msg), -PFT_E_BAD_CONFIG);
	CHECK(strstr(msg, "ETMv3") != NULL);
	pft_config_init(&c);
	c.etmtraceidr = 0x7F;
	CHECK_EQ(pft_config_check(&c, msg, sizeof msg), -PFT_E_BAD_CONFIG);
	pft_config_init(&c);
	c.etmcr = (1u << 29) | (1u << 8);
	CHECK_EQ(pft_config_check(&c, msg, sizeof msg), -PFT_E_BAD_CONFIG);
	pft_config_init(&c);
	c.etmcr = 0x80000000u;
	CHECK_EQ(pft_config_check(&c, msg, sizeof msg), -PFT_E_BAD_CONFIG);
	CHECK_EQ(pft_config_features(NULL, &f), -PFT_E_INVAL);

	CHECK(strcmp(pft_errstr(-PFT_E_NOMEM), "out of memory") == 0);
	CHECK(strcmp(pft_errstr(12345), "unknown error") == 0);
	CHECK(strcmp(pft_isa_name(PFT_ISA_THUMB), "T32") == 0);
	return check_report();
}
