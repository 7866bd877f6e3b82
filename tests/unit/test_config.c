/* SPDX-License-Identifier: BSD-3-Clause */
/* Feature derivation from raw registers, against the register bit tables of
 * the spec (§3.16.1 ETMCR, §3.16.28 ETMIDR, §3.16.29 ETMCCER) and the real
 * snapshots.  Bits are written as numbers here, not with the PFT_ETM*
 * names, so that a wrong name fails. */
#include <string.h>

#include "check.h"
#include "pft/common.h"

/* The register bit names of pft/common.h against the bit numbers of the
 * spec's tables (written out here, not derived from the names). */
static void check_bit_names(void)
{
	CHECK_EQ(PFT_ETMCR_POWER_DOWN, 1u << 0);
	CHECK_EQ(PFT_ETMCR_BRANCH_BROADCAST, 1u << 8);
	CHECK_EQ(PFT_ETMCR_PROGRAMMING, 1u << 10);
	CHECK_EQ(PFT_ETMCR_CYCLE_ACCURATE, 1u << 12);
	CHECK_EQ(PFT_ETMCR_CONTEXTID_SIZE_MASK << PFT_ETMCR_CONTEXTID_SIZE_SHIFT, 0xC000u);
	CHECK_EQ(PFT_ETMCR_TIMESTAMP, 1u << 28);
	CHECK_EQ(PFT_ETMCR_RETURN_STACK, 1u << 29);
	CHECK_EQ(PFT_ETMCR_VMID, 1u << 30);
	/* SBZP: 31, 23:16, 13, 11, 6:1 */
	CHECK_EQ(PFT_ETMCR_RESERVED, (1u << 31) | 0x00FF0000u | (1u << 13) | (1u << 11) | 0x7Eu);
	CHECK_EQ(PFT_ETMCCR_ADDR_PAIRS_MASK, 0xFu);
	CHECK_EQ(PFT_ETMCCR_COUNTERS_MASK << PFT_ETMCCR_COUNTERS_SHIFT, 0xE000u);
	CHECK_EQ(PFT_ETMCCR_SEQUENCER, 1u << 16);
	CHECK_EQ(PFT_ETMCCR_EXT_OUTPUTS_MASK << PFT_ETMCCR_EXT_OUTPUTS_SHIFT, 0x700000u);
	CHECK_EQ(PFT_ETMCCR_CID_CMPS_MASK << PFT_ETMCCR_CID_CMPS_SHIFT, 0x3000000u);
	CHECK_EQ(PFT_ETMCCER_TIMESTAMP, 1u << 22);
	CHECK_EQ(PFT_ETMCCER_RETURN_STACK, 1u << 23);
	CHECK_EQ(PFT_ETMCCER_DMB_WAYPOINT, 1u << 24);
	CHECK_EQ(PFT_ETMCCER_TS_ON_DMB, 1u << 25);
	CHECK_EQ(PFT_ETMCCER_VIRTUALIZATION, 1u << 26);
	CHECK_EQ(PFT_ETMCCER_REDUCED_COUNTER, 1u << 27);
	CHECK_EQ(PFT_ETMCCER_TS_BINARY, 1u << 28);
	CHECK_EQ(PFT_ETMCCER_TS_64BIT, 1u << 29);
	CHECK_EQ(PFT_ETMIDR_MINOR_MASK << PFT_ETMIDR_MINOR_SHIFT, 0xF0u);
	CHECK_EQ(PFT_ETMIDR_MAJOR_MASK << PFT_ETMIDR_MAJOR_SHIFT, 0xF00u);
	CHECK_EQ(PFT_ETMIDR_THUMB32_SINGLE, 1u << 18);
	CHECK_EQ(PFT_ETMIDR_SECURITY_EXT, 1u << 19);
	CHECK_EQ(PFT_ETMTRACEIDR_MASK, 0x7Fu);
}

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
	check_bit_names();
	return check_report();
}
