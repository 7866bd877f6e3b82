/* SPDX-License-Identifier: BSD-3-Clause */
/* Frame alignment evidence (realign.h).
 *
 * A capture that lost or gained bytes shifts every later frame.  An odd
 * shift puts data bytes into the ID slots: IDs appear that no source uses,
 * and reserved ones.  An even shift keeps the ID slots but takes a data byte
 * for the auxiliary byte, so the low bits of half the data bytes go wrong;
 * the A-sync patterns every trace protocol repeats (five or more zero bytes
 * then 0x80) are then broken.  Both kinds of evidence are weighed here. */
#include "realign.h"

#include "pft/frame.h"

#define W_RESERVED 8  /* an ID 0x70-0x7F other than the trigger/flush IDs */
#define W_UNKNOWN 3   /* a valid ID no source has used so far */
#define W_ASYNC 6     /* an A-sync pattern in a de-formatted stream */
#define W_KEEP 4      /* a shift must beat the current alignment by more than
                         this: a new ID seen once at the window's edge is no
                         evidence, one A-sync more is */

static int known(const struct realign_ids *ids, uint8_t id)
{
	return (ids->known[id >> 5] >> (id & 31)) & 1;
}

static unsigned id_doubt(const struct realign_ids *ids, uint8_t id)
{
	if (id >= 0x70)
		return id == 0x7B || id == 0x7D ? W_UNKNOWN : W_RESERVED;
	if (id == PFT_FRAME_ID_NULL || ids->learnt < REALIGN_LEARN_FRAMES || known(ids, id))
		return 0;
	return W_UNKNOWN;
}

unsigned realign_frame_doubt(const struct realign_ids *ids, const uint8_t *f)
{
	unsigned s, doubt = 0;

	for (s = 0; s < PFT_FRAME_SIZE - 1; s += 2)
		if (f[s] & 1)
			doubt += id_doubt(ids, (uint8_t)(f[s] >> 1));
	return doubt;
}

void realign_learn(struct realign_ids *ids, const uint8_t *f)
{
	unsigned s;

	for (s = 0; s < PFT_FRAME_SIZE - 1; s += 2) {
		uint8_t id = (uint8_t)(f[s] >> 1);

		if ((f[s] & 1) && id < 0x70)
			ids->known[id >> 5] |= 1u << (id & 31);
	}
	if (ids->learnt < REALIGN_LEARN_FRAMES)
		ids->learnt++;
}

/* Zero-run counters per ID while scoring one shift. */
struct scan {
	uint8_t zeros[129];
	unsigned asyncs;
};

static void scan_byte(struct scan *sc, uint8_t id, uint8_t b)
{
	unsigned slot = id < 128 ? id : 128;

	if (b == 0x00) {
		if (sc->zeros[slot] < 255)
			sc->zeros[slot]++;
		return;
	}
	if (b == 0x80 && sc->zeros[slot] >= 5)
		sc->asyncs++;
	sc->zeros[slot] = 0;
}

/* A-sync patterns in one frame's data, following the ID changes. */
static uint8_t scan_frame(struct scan *sc, const uint8_t *f, uint8_t id)
{
	unsigned i;

	for (i = 0; i < 8; i++) {
		unsigned s = 2 * i;
		unsigned bit = (f[15] >> i) & 1;

		if (!(f[s] & 1)) {
			scan_byte(sc, id, (uint8_t)((f[s] & 0xFE) | bit));
			if (s != 14)
				scan_byte(sc, id, f[s + 1]);
			continue;
		}
		if (s == 14)
			return (uint8_t)(f[s] >> 1);
		if (bit)
			scan_byte(sc, id, f[s + 1]);
		id = (uint8_t)(f[s] >> 1);
		if (!bit)
			scan_byte(sc, id, f[s + 1]);
	}
	return id;
}

/* Doubt of a window: each reserved ID slot, and each distinct unknown ID
 * once (a source that starts mid-capture repeats one new ID; a shifted
 * window shows many). */
static long window_doubt(const struct realign_ids *ids, const uint8_t *win, unsigned frames)
{
	struct realign_ids seen = *ids;
	long doubt = 0;
	unsigned j, s;

	seen.learnt = REALIGN_LEARN_FRAMES;
	for (j = 0; j < frames; j++) {
		const uint8_t *f = win + (size_t)j * PFT_FRAME_SIZE;

		for (s = 0; s < PFT_FRAME_SIZE - 1; s += 2) {
			uint8_t id = (uint8_t)(f[s] >> 1);

			if (!(f[s] & 1))
				continue;
			if (id >= 0x70) {
				doubt += id_doubt(&seen, id);
			} else if (id != PFT_FRAME_ID_NULL && !known(&seen, id)) {
				doubt += W_UNKNOWN;
				seen.known[id >> 5] |= 1u << (id & 31);
			}
		}
	}
	return doubt;
}

static long shift_score(const struct realign_ids *ids, const uint8_t *win, unsigned frames,
			uint8_t cur_id)
{
	struct scan sc = { { 0 }, 0 };
	unsigned j;

	for (j = 0; j < frames; j++)
		cur_id = scan_frame(&sc, win + (size_t)j * PFT_FRAME_SIZE, cur_id);
	return (long)sc.asyncs * W_ASYNC - window_doubt(ids, win, frames);
}

unsigned realign_best_shift(const struct realign_ids *ids, const uint8_t *win, size_t n,
			    uint8_t cur_id)
{
	unsigned frames, k, best = 0;
	long best_score = 0;

	if (n < 2 * PFT_FRAME_SIZE - 1)
		return 0;
	/* the same number of whole frames for every shift */
	frames = (unsigned)((n - (PFT_FRAME_SIZE - 1)) / PFT_FRAME_SIZE);
	for (k = 0; k < PFT_FRAME_SIZE; k++) {
		long score = shift_score(ids, win + k, frames, k ? PFT_FRAME_ID_UNKNOWN : cur_id);

		if (k == 0 || score > best_score + (best ? 0 : W_KEEP)) {
			best = k;
			best_score = score;
		}
	}
	return best;
}
