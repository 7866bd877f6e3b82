/* SPDX-License-Identifier: BSD-3-Clause */
/* Frame alignment evidence for the deformatter (deformat.c): which trace IDs
 * are in use, whether a frame is plausible at the current alignment, and
 * which of the 16 byte shifts of a lookahead window looks most like real
 * frames.  Pure functions over bytes; no decoder state. */
#ifndef PFT_FRAME_REALIGN_H
#define PFT_FRAME_REALIGN_H
#include <stddef.h>
#include <stdint.h>

/* Frames whose IDs are learnt before an unknown ID counts as evidence. */
#define REALIGN_LEARN_FRAMES 8

struct realign_ids {
	uint32_t known[4];  /* bit per trace ID 0x00-0x7F */
	unsigned learnt;    /* plausible frames seen */
};

/* Evidence against a frame at this alignment: 0 when every ID slot names an
 * ID in use (or any valid ID while still learning), more for each reserved
 * or unknown ID. */
unsigned realign_frame_doubt(const struct realign_ids *ids, const uint8_t *f);

/* Take the valid IDs of a frame believed to be aligned into the known set. */
void realign_learn(struct realign_ids *ids, const uint8_t *f);

/* Best shift (0-15) of win[0..n): the shift whose whole frames hold the
 * fewest reserved and unknown IDs and the most A-sync patterns (five or more
 * 0x00 then 0x80 in one ID's de-formatted bytes).  The current alignment
 * (shift 0) is kept unless another shift beats it clearly.  win[0..16) is
 * the frame that raised the doubt: it is not weighed. */
unsigned realign_best_shift(const struct realign_ids *ids, const uint8_t *win, size_t n);

#endif
