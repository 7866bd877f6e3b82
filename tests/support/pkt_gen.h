/* SPDX-License-Identifier: BSD-3-Clause */
/* Random PFT streams for the packet-layer tests that compare two ways of
 * decoding (batch, count): packets of every type written by the encoder,
 * with junk bytes now and then. */
#ifndef PFT_TEST_PKT_GEN_H
#define PFT_TEST_PKT_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "pft/packet.h"

/* A stream of random packets written by the encoder (so nearly all of it is
 * well-formed), with a few bytes of junk now and then (errors and resyncs),
 * each followed by an A-sync and an I-sync; at most len bytes into out.
 * Returns the length written. */
size_t pkt_gen_stream(const struct pft_config *c, uint64_t *rng, uint8_t *out, size_t len);

#endif
