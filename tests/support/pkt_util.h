/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the packet-layer tests: configurations, hex strings,
 * whole-buffer decoding and printing of packets. */
#ifndef PFT_TEST_PKT_UTIL_H
#define PFT_TEST_PKT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pft/packet.h"

/* Register values of the captures the packet vectors come from. */
#define CCER_A15 0x34C01AC2u /* v1.1, 64-bit binary timestamps */
#define IDR_V11 0x411CF312u
#define IDR_V10 0x411CF301u
#define CCER_V10 0x000008EAu

/* The named configurations of the packet vectors (tests/vectors/packet/
 * 00_configs.txt) as ETMCR, ETMCCER, ETMIDR argument lists for pkt_cfg(). */
#define C_RSTK 0x20000400u, CCER_A15, IDR_V11 /* rstk / cov: v1.1, return stack */
#define C_TC2 0x10001000u, CCER_A15, IDR_V11  /* TC2: v1.1, CA + TS, 64-bit binary */
#define C_SNOW 0x10001000u, CCER_V10, IDR_V10 /* Snowball: v1.0, CA + TS, Gray */
#define C_S4 0x00000000u, CCER_A15, IDR_V11   /* plain v1.1 */

/* A configuration with these three registers, the rest as pft_config_init. */
struct pft_config pkt_cfg(uint32_t etmcr, uint32_t etmccer, uint32_t etmidr);

/* The configuration classes the random-stream tests run through: v1.0,
 * and v1.1 with VMID tracing; cycle accuracy on or off; each context ID
 * size; in v1.1 each timestamp encoding (CCER bit 28 binary, bit 29 64
 * bits).  pkt_cfg_class(k) is class k, k < PKT_CFG_CLASSES. */
#define PKT_CFG_CLASSES (2 * 4 + 2 * 4 * 4)
struct pft_config pkt_cfg_class(unsigned k);

/* "08 54 05 00" -> bytes ('|' separates packets and is skipped); returns
 * the count. */
size_t pkt_hex(const char *s, uint8_t *out, size_t cap);

/* Decode a whole buffer (one chunk) into out[]; returns the item count, -1
 * if more than max items came out or the byte accounting fails, a large
 * negative number if an item's offset does not follow the previous one. */
int pkt_decode_all(const struct pft_config *c, const uint8_t *buf, size_t len,
		   struct pft_packet *out, int max);

/* One line with every field of p. */
void pkt_print(FILE *f, const struct pft_packet *p);

/* Atoms as a string of E/N, oldest first, into buf (32 bytes). */
const char *pkt_atoms(const struct pft_packet *p, char *buf);

#endif
