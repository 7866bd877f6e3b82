/* SPDX-License-Identifier: BSD-3-Clause */
/* Every real and synthetic packet example of PFT_PACKET_LAYOUTS.md, with the
 * decode the document gives for it (itself checked there against OpenCSD's
 * trc_pkt_lister and ARM DS-5).  Each vector is decoded after an A-sync and
 * the `prefix` packets (which set the address base or the timestamp); the
 * last packet must be exactly `bytes`.  Fields set to NA are not checked. */
#ifndef PFT_TEST_PKT_VECTORS_H
#define PFT_TEST_PKT_VECTORS_H

#include <stdint.h>

#include "pft/packet.h"

#define NA (-1)

/* Configurations (section 0 and Appendix A). */
#define C_RSTK 0x20000400u, 0x34C01AC2u, 0x411CF312u /* rstk / cov: v1.1, return stack */
#define C_TC2 0x10001000u, 0x34C01AC2u, 0x411CF312u  /* TC2: v1.1, CA + TS, 64-bit binary */
#define C_SNOW 0x10001000u, 0x000008EAu, 0x411CF301u /* Snowball: v1.0, CA + TS, Gray */
#define C_S1 0x4000C000u, 0x34C01AC2u, 0x411CF312u   /* CID 4, VMID */
#define C_S2 0x50005000u, 0x34C01AC2u, 0x411CF312u   /* CA, CID 1, TS, VMID */
#define C_S4 0x00000000u, 0x34C01AC2u, 0x411CF312u

struct pkt_vec {
	const char *where;
	uint32_t cr, ccer, idr;
	const char *prefix;
	const char *bytes;
	int type;
	int64_t address;
	int isa;
	int exception;
	int ns;
	int hyp;
	int64_t cycles;
	const char *atoms;
	int64_t timestamp;
	int64_t context_id;
	int reason;
	int vmid;
};

#define ISYNC_ARM_C0 "08 00 00 00 c0 01"     /* periodic, ARM 0xC0000000 */
#define ISYNC_THUMB_C0 "08 01 00 00 c0 01"   /* periodic, Thumb 0xC0000000 */

static const struct pkt_vec pkt_vectors[] = {
	/* section 3: A-sync */
	{ "rstk 0 A-sync", C_RSTK, "", "00 00 00 00 00 80", PFT_PKT_ASYNC,
	  NA, NA, NA, NA, NA, NA, NULL, NA, NA, NA, NA },
	{ "long A-sync", C_RSTK, "", "00 00 00 00 00 00 00 00 80", PFT_PKT_ASYNC,
	  NA, NA, NA, NA, NA, NA, NULL, NA, NA, NA, NA },

	/* section 4: I-sync */
	{ "rstk 6 I-sync", C_RSTK, "", "08 54 05 00 80 61", PFT_PKT_ISYNC,
	  0x80000554, PFT_ISA_ARM, NA, 0, 0, NA, NULL, NA, NA, PFT_ISYNC_DEBUG_EXIT, NA },
	{ "TC2 s127 I-sync periodic (no cc though CA)", C_TC2, "", "08 83 8d 01 c0 01",
	  PFT_PKT_ISYNC, 0xC0018D82, PFT_ISA_THUMB, NA, 0, 0, NA, NULL, NA, NA,
	  PFT_ISYNC_PERIODIC, NA },
	{ "TC2 s149 I-sync cc 51", C_TC2, "", "08 df 8d 01 c0 21 cc 03", PFT_PKT_ISYNC,
	  0xC0018DDE, PFT_ISA_THUMB, NA, 0, 0, 51, NULL, NA, NA, PFT_ISYNC_TRACE_ON, NA },
	{ "TC2 s2574 I-sync cc 3701", C_TC2, "", "08 3d 92 03 c0 21 d4 e7 01", PFT_PKT_ISYNC,
	  0xC003923C, PFT_ISA_THUMB, NA, 0, 0, 3701, NULL, NA, NA, PFT_ISYNC_TRACE_ON, NA },
	{ "Snowball s2007 I-sync NS", C_SNOW, "", "08 20 0a 02 c0 09", PFT_PKT_ISYNC,
	  0xC0020A20, PFT_ISA_ARM, NA, 1, 0, NA, NULL, NA, NA, PFT_ISYNC_PERIODIC, NA },
	{ "Snowball s2037 I-sync cc 77", C_SNOW, "", "08 00 fd 00 c0 29 f4 04", PFT_PKT_ISYNC,
	  0xC000FD00, PFT_ISA_ARM, NA, 1, 0, 77, NULL, NA, NA, PFT_ISYNC_TRACE_ON, NA },
	{ "S1 I-sync CID 4", 0x0000C000u, 0x34C01AC2u, 0x411CF312u, "",
	  "08 01 20 00 80 49 78 56 34 12", PFT_PKT_ISYNC, 0x80002000, PFT_ISA_THUMB, NA, 1, 0,
	  NA, NULL, NA, 0x12345678, PFT_ISYNC_OVERFLOW, NA },
	{ "I-sync CA CID 1 Hyp (cc before CID)", 0x00005000u, 0x34C01AC2u, 0x411CF312u, "",
	  "08 01 10 00 c0 23 c4 08 5a", PFT_PKT_ISYNC, 0xC0001000, PFT_ISA_THUMB, NA, 0, 1, 129,
	  NULL, NA, 0x5A, PFT_ISYNC_TRACE_ON, NA },

	/* section 5: cycle count overflow (in a CA atom: header 0xFC = N? no: F=0) */
	{ "cc overflow in a CA atom", C_TC2, "", "fc ff ff ff 7f", PFT_PKT_ATOM,
	  NA, NA, NA, NA, NA, 0xFFFFFFFFll, "E", NA, NA, NA, NA },

	/* section 6.1: atoms without CA (rstk; order checked against DS-5) */
	{ "rstk 12 atom", C_RSTK, "", "84", PFT_PKT_ATOM, NA, NA, NA, NA, NA, NA, "E", NA, NA, NA, NA },
	{ "rstk 51 atom", C_RSTK, "", "88", PFT_PKT_ATOM, NA, NA, NA, NA, NA, NA, "EE", NA, NA, NA, NA },
	{ "rstk 38 atom", C_RSTK, "", "94", PFT_PKT_ATOM, NA, NA, NA, NA, NA, NA, "ENE", NA, NA, NA, NA },
	{ "rstk 30 atom", C_RSTK, "", "bc", PFT_PKT_ATOM, NA, NA, NA, NA, NA, NA, "NNNE", NA, NA, NA, NA },
	{ "rstk 29 atom", C_RSTK, "", "f0", PFT_PKT_ATOM, NA, NA, NA, NA, NA, NA, "NNEEE", NA, NA, NA, NA },
	/* section 6.2: CA atoms (TC2) */
	{ "TC2 s144 CA atom", C_TC2, "", "e8 20", PFT_PKT_ATOM, NA, NA, NA, NA, NA, 522, "E", NA, NA, NA, NA },
	{ "TC2 s146 CA atom", C_TC2, "", "de 01", PFT_PKT_ATOM, NA, NA, NA, NA, NA, 23, "N", NA, NA, NA, NA },
	{ "TC2 s148 CA atom", C_TC2, "", "bc", PFT_PKT_ATOM, NA, NA, NA, NA, NA, 15, "E", NA, NA, NA, NA },
	{ "CA atom 0x80: E, 0 cycles", C_TC2, "", "80", PFT_PKT_ATOM, NA, NA, NA, NA, NA, 0, "E", NA, NA, NA, NA },
	{ "CA atom 0x82: N, 0 cycles", C_TC2, "", "82", PFT_PKT_ATOM, NA, NA, NA, NA, NA, 0, "N", NA, NA, NA, NA },

	/* section 7.6: branch addresses */
	{ "rstk 31 branch ARM 1", C_RSTK, "08 04 05 00 80 61", "2f", PFT_PKT_BRANCH,
	  0x8000055C, PFT_ISA_ARM, 0, NA, NA, NA, NULL, NA, NA, NA, NA },
	{ "rstk 25 branch ARM 2", C_RSTK, "08 a0 1b 00 80 61", "ad 05", PFT_PKT_BRANCH,
	  0x80000558, PFT_ISA_ARM, 0, NA, NA, NA, NULL, NA, NA, NA, NA },
	{ "Snowball s2024 branch ARM 3", C_SNOW, "08 20 0a 02 c0 09", "f9 8e 02 30",
	  PFT_PKT_BRANCH, 0xC0010EF0, PFT_ISA_ARM, 0, 1, NA, 12, NULL, NA, NA, NA, NA },
	{ "Snowball s1260 branch ARM 4", C_SNOW, ISYNC_ARM_C0, "e1 fd b6 01 40 01",
	  PFT_PKT_BRANCH, 0xC05B7DC0, PFT_ISA_ARM, 0, NA, NA, 16, NULL, NA, NA, NA, NA },
	{ "TC2 s2658 branch ARM 5", C_TC2, ISYNC_THUMB_C0, "8f ea de db 0d 74 18",
	  PFT_PKT_BRANCH, 0xB6EF6A1C, PFT_ISA_ARM, 0, NA, NA, 397, NULL, NA, NA, NA, NA },
	{ "TC2 s990 branch Thumb 1", C_TC2, "08 81 83 00 c0 01", "5b 08", PFT_PKT_BRANCH,
	  0xC00083DA, PFT_ISA_THUMB, 0, NA, NA, 2, NULL, NA, NA, NA, NA },
	{ "TC2 s187 branch Thumb 2", C_TC2, "08 af 8d 01 c0 01", "a3 0b 68 17", PFT_PKT_BRANCH,
	  0xC00185A2, PFT_ISA_THUMB, 0, NA, NA, 378, NULL, NA, NA, NA, NA },
	{ "TC2 s212 branch Thumb 3", C_TC2, ISYNC_THUMB_C0, "a9 8d 15 78 08", PFT_PKT_BRANCH,
	  0xC00546A8, PFT_ISA_THUMB, 0, NA, NA, 142, NULL, NA, NA, NA, NA },
	{ "TC2 s191 branch Thumb 4", C_TC2, ISYNC_THUMB_C0, "bb b6 bd 01 04", PFT_PKT_BRANCH,
	  0xC02F5B3A, PFT_ISA_THUMB, 0, NA, NA, 1, NULL, NA, NA, NA, NA },
	{ "rstk 33 branch Thumb 5 (ISA change)", C_RSTK, "08 5c 05 00 80 61",
	  "fd 9e 80 80 18", PFT_PKT_BRANCH, 0x80000F7C, PFT_ISA_THUMB, 0, NA, NA, NA, NULL, NA,
	  NA, NA, NA },
	{ "Snowball s1047 branch Thumb 5", C_SNOW, ISYNC_ARM_C0, "b7 b0 8f b2 1b 78 01",
	  PFT_PKT_BRANCH, 0xB643D836, PFT_ISA_THUMB, 0, NA, NA, 30, NULL, NA, NA, NA, NA },
	{ "rstk 13 branch debug halt", C_RSTK, "08 54 05 00 80 61", "81 80 80 80 48 02",
	  PFT_PKT_BRANCH, 0, PFT_ISA_ARM, PFT_EXC_DEBUG_HALT, 0, NA, NA, NULL, NA, NA, NA, NA },
	{ "Snowball s2030 branch IRQ", C_SNOW, "08 20 0a 02 c0 09", "8d 80 fe ff 4f 1d 3c",
	  PFT_PKT_BRANCH, 0xFFFF0018, PFT_ISA_ARM, PFT_EXC_IRQ, 1, NA, 15, NULL, NA, NA, NA, NA },
	{ "synthetic Thumb 4 + E0 + E1, exception 0x49", C_S4, ISYNC_THUMB_C0,
	  "93 c0 c2 40 93 44", PFT_PKT_BRANCH, NA, PFT_ISA_THUMB, 0x49, 1, 0, NA, NULL, NA, NA,
	  NA, NA },
	{ "synthetic Hyp entry, cc overflow", C_TC2, ISYNC_ARM_C0,
	  "81 80 80 80 48 87 20 7c ff ff ff 7f", PFT_PKT_BRANCH, 0, PFT_ISA_ARM, PFT_EXC_HYP, 1,
	  1, 0xFFFFFFFFll, NULL, NA, NA, NA, NA },
	{ "synthetic ARM 2 + E0 IRQ, AltIS ignored", C_TC2, ISYNC_ARM_C0, "95 41 5c 04",
	  PFT_PKT_BRANCH, NA, PFT_ISA_ARM, PFT_EXC_IRQ, 0, NA, 1, NULL, NA, NA, NA, NA },
	{ "synthetic Jazelle 0", C_S4, ISYNC_ARM_C0, "81 80 80 80 20", PFT_PKT_BRANCH,
	  0, PFT_ISA_JAZELLE, 0, NA, NA, NA, NULL, NA, NA, NA, NA },
	{ "synthetic A5: E0 with exception 0 (return to NS)", C_S4, ISYNC_ARM_C0,
	  "95 41 01", PFT_PKT_BRANCH, NA, PFT_ISA_ARM, 0, 1, NA, NA, NULL, NA, NA, NA, NA },

	/* section 8: waypoint update */
	{ "Snowball s2028 WPU", C_SNOW, "08 20 0a 02 c0 09 | f9 8e 02 30", "72 79",
	  PFT_PKT_WAYPOINT_UPDATE, 0xC0010EF0, PFT_ISA_ARM, NA, NA, NA, NA, NULL, NA, NA, NA,
	  NA },
	{ "synthetic WPU ThumbEE info byte", C_S4, ISYNC_ARM_C0, "72 85 80 80 80 58 40",
	  PFT_PKT_WAYPOINT_UPDATE, 0x80000004, PFT_ISA_THUMBEE, NA, NA, NA, NA, NULL, NA, NA,
	  NA, NA },

	/* section 9: one-byte packets */
	{ "trigger", C_S4, "", "0c", PFT_PKT_TRIGGER, NA, NA, NA, NA, NA, NA, NULL, NA, NA, NA, NA },
	{ "ignore", C_S4, "", "66", PFT_PKT_IGNORE, NA, NA, NA, NA, NA, NA, NULL, NA, NA, NA, NA },
	{ "TC2 s1509 ERET", C_TC2, "", "76", PFT_PKT_EXCEPTION_RETURN, NA, NA, NA, NA, NA, NA,
	  NULL, NA, NA, NA, NA },

	/* sections 10, 11 */
	{ "context ID, 4 bytes", C_S1, "", "6e ef be ad de", PFT_PKT_CONTEXT_ID, NA, NA, NA, NA,
	  NA, NA, NULL, NA, 0xDEADBEEF, NA, NA },
	{ "VMID", C_S1, "", "3c 2a", PFT_PKT_VMID, NA, NA, NA, NA, NA, NA, NULL, NA, NA, NA, 0x2A },

	/* section 12: timestamps */
	{ "TC2 s133 64-bit T-sync", C_TC2, "", "42 cc 97 c6 ce af 90 80 80 00 00",
	  PFT_PKT_TIMESTAMP, NA, NA, NA, NA, NA, 0, NULL, 0x82F9D18BCCll, NA, NA, NA },
	{ "TC2 s1510 compressed", C_TC2, "42 cc 97 c6 ce af 90 80 80 00 00", "42 80 1d 00",
	  PFT_PKT_TIMESTAMP, NA, NA, NA, NA, NA, 0, NULL, 0x82F9D18E80ll, NA, NA, NA },
	{ "Snowball s994 Gray T-sync", C_SNOW, "", "42 e7 f0 ae c8 8e 8b 00 0c",
	  PFT_PKT_TIMESTAMP, NA, NA, NA, NA, NA, 3, NULL, 0x6F4E0D2FBAll, NA, NA, NA },
	{ "Snowball s2013 3 cc bytes", C_SNOW, "", "42 e4 ee a0 c8 8e 8b 00 54 aa 36",
	  PFT_PKT_TIMESTAMP, NA, NA, NA, NA, NA, 111269, NULL, NA, NA, NA, NA },
	{ "Snowball s2597 Gray merge", C_SNOW, "42 e4 ee a0 c8 8e 8b 00 54 aa 36",
	  "42 90 93 bb 49 04", PFT_PKT_TIMESTAMP, NA, NA, NA, NA, NA, 1, NULL, 0x6F4E348EE0ll,
	  NA, NA, NA },
	{ "Snowball s2605 Gray merge, 1 byte", C_SNOW,
	  "42 e4 ee a0 c8 8e 8b 00 54 aa 36 | 42 90 93 bb 49 04", "42 04 04",
	  PFT_PKT_TIMESTAMP, NA, NA, NA, NA, NA, 1, NULL, 0x6F4E348EF8ll, NA, NA, NA },
	{ "synthetic 64-bit, 9th byte all data", C_S2, "", "42 81 82 83 84 85 86 87 88 ff 00",
	  PFT_PKT_TIMESTAMP, NA, NA, NA, NA, NA, 0, NULL, (int64_t)0xFF101C305080C101ull, NA,
	  NA, NA },
	{ "synthetic R=1", C_S2, "", "46 05 00", PFT_PKT_TIMESTAMP, NA, NA, NA, NA, NA, 0, NULL,
	  0x05, NA, NA, NA },
};

#endif
