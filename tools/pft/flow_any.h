/* SPDX-License-Identifier: BSD-3-Clause */
/* The instruction flow of either protocol (flow_any.c): a PFT source goes
 * through the PFT flow decoder (pft/flow.h), an ETMv3 source through the
 * ETMv3 packet decoder and flow (pft/etm3.h, pft/etm3flow.h).  Both give
 * struct pft_flow_item, so every command reads either through the verbs of
 * pft_flow_decoder_*. */
#ifndef PFT_TOOLS_FLOW_ANY_H
#define PFT_TOOLS_FLOW_ANY_H

#include <stddef.h>
#include <stdint.h>

#include "pft/flow.h"

struct pft_image;
struct flow_any;

/* ETMv3 when cfg's ETMIDR says so (input_is_etm3), else PFT with the
 * I-sync resync rule isync_resync.  NULL if out of memory. */
struct flow_any *flow_any_alloc(const struct pft_config *cfg, struct pft_image *img,
				int isync_resync);
void flow_any_free(struct flow_any *fa);
int flow_any_is_etm3(const struct flow_any *fa);
/* As pft_flow_decoder_feed / _end / _next / _resync. */
int flow_any_feed(struct flow_any *fa, const uint8_t *buf, size_t len);
int flow_any_end(struct flow_any *fa);
int flow_any_next(struct flow_any *fa, struct pft_flow_item *it);
void flow_any_resync(struct flow_any *fa);
/* Every item the decoder can give now, taken and dropped (the totals,
 * flow_any_get_stats, count them): flow_any_next's last status. */
int flow_any_skip(struct flow_any *fa);
/* Totals so far (for ETMv3: no block cache, its counts stay 0). */
void flow_any_get_stats(const struct flow_any *fa, struct pft_flow_stats *st);

#endif
