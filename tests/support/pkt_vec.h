/* SPDX-License-Identifier: BSD-3-Clause */
/* Packet test vectors: tests/vectors/packet/<name>.txt hold real packets
 * from four hardware captures and synthetic ones, each with the fields
 * OpenCSD's trc_pkt_lister lists for the same bytes (atom order also
 * checked against ARM DS-5).  Layouts: doc/packets.md.  A vector is
 * decoded after an A-sync and its prefix packets (which set the address
 * base or the timestamp); the last packet must be exactly its bytes, with
 * the expected fields.  The decoder, encoder, error and stream tests all
 * run over them.
 *
 * File syntax (one directive per line, '#' starts a comment):
 *   case NAME
 *   config etmcr=X [etmccer=X] [etmidr=X]   (others as pft_config_init)
 *   prefix HEX ...        packets before the vector ('|' between packets
 *                         is only for the reader); may repeat
 *   bytes HEX ...         the packet under test
 *   encoded HEX ...       what the encoder writes for it, where that differs
 *                         from bytes (an undefined bit the decoder ignores)
 *   expect TYPE [addr=X] [isa=A32|T32|T32EE|JAZ] [exc=N|NAME] [ns=0|1]
 *          [hyp=0|1] [cc=N] [atoms=E|N...] [ts=X] [cid=X] [reason=NAME]
 *          [vmid=X]
 *   end
 * TYPE: async isync atom branch waypoint_update trigger context_id vmid
 * timestamp exception_return ignore.  reason: periodic trace_on overflow
 * debug_exit.  exc: a number or debug_halt smc hyp async_data_abort
 * thumbee_check reset undefined svc prefetch_abort data_abort generic irq
 * fiq.  A field not given is not checked, except that an I-sync without cc=
 * must carry no cycle count.  Numbers are C literals (0x.. for hex). */
#ifndef PFT_TEST_PKT_VEC_H
#define PFT_TEST_PKT_VEC_H

#include <stddef.h>
#include <stdint.h>

#include "pft/packet.h"

#define PKT_VEC_NA (-1) /* a field the vector does not check */
#define PKT_VEC_MAX_PREFIX 64
#define PKT_VEC_MAX_BYTES 32
#define PKT_VEC_MIN 54 /* vectors in tests/vectors/packet today: fewer is a failure */

struct pkt_vec {
	char name[128];
	char where[256];      /* FILE:LINE of its `case` line */
	struct pft_config cfg;
	uint8_t prefix[PKT_VEC_MAX_PREFIX];
	size_t nprefix;
	uint8_t bytes[PKT_VEC_MAX_BYTES];
	size_t nbytes;
	uint8_t encoded[PKT_VEC_MAX_BYTES]; /* = bytes without an `encoded` line */
	size_t nencoded;
	/* the expected last packet; PKT_VEC_NA where not checked */
	int type;
	int64_t address, cycles, timestamp, context_id;
	int isa, exception, ns, hyp, reason, vmid;
	char atoms[32];       /* "" where not checked */
};

/* Reads every *.txt of tests/vectors/packet (under $PFT_SOURCE, else this
 * checkout) in name order, or the given files (nfiles > 0); returns the
 * vectors (free with free()) and their count in *n.  A line that cannot be
 * parsed is a failed check naming FILE:LINE; fewer than PKT_VEC_MIN vectors
 * in the folder (at least one from files) is a failed check too, so that a
 * lost file cannot pass unnoticed. */
struct pkt_vec *pkt_vec_load(char **files, int nfiles, size_t *n);

/* A-sync, the prefix, then the vector's bytes (or its encoded bytes) into
 * buf; returns the length, 0 if cap is too small. */
size_t pkt_vec_stream(const struct pkt_vec *v, int encoded, uint8_t *buf, size_t cap);

#endif
