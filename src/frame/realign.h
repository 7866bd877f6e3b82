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
/* Doubt of one frame at the current alignment. */
#define REALIGN_W_RESERVED 8  /* an ID 0x70-0x7F other than the trigger/flush
                                 IDs, or an ID in slot 14 with auxiliary bit 7 set */
#define REALIGN_W_UNKNOWN 3   /* a valid ID no source has used so far */

/* The low bit of a trace byte is far from random given its other seven
 * bits (packet headers fix it; 0x00 and 0x80 runs keep it clear): about 0.2
 * nats of uncertainty instead of 0.69 on TC2's PTM and ETM streams.  A shift
 * by an even number of bytes takes the low bits of the even slots' data from
 * a data byte instead of the auxiliary byte, and breaks that link.  The odd
 * slots hold whole data bytes at the true alignment and at every even shift
 * of it: the link is learnt from them, per byte value and per trace ID (each
 * protocol has its own), from frames of data only. */
#define REALIGN_LSB_MIN 32      /* bytes of a context before its low bit counts */
#define REALIGN_LSB_MIN_WINDOW 12 /* the same in a search's window */
#define REALIGN_LSB_MIN_FRAMES 16 /* frames of a window (at the capture's end) below
                                    which the low bits are not weighed */
#define REALIGN_LSB_FORGET (1u << 13) /* bytes counted before the counts are halved:
                                          the link changes with what the program does */
#define REALIGN_LSB_REBUILD 64  /* frames learnt before the first table rebuild; the
                                   interval doubles up to REALIGN_LSB_REBUILD_MAX */
#define REALIGN_LSB_REBUILD_MAX 1024
#define REALIGN_LSB_DOUBT 64    /* quarter bits of evidence, summed while it stays
                                   negative, that make a frame doubted */

#define REALIGN_LSB_SAMPLE 4 /* frames of data only per frame counted ... */
#define REALIGN_LSB_YOUNG 4096 /* ... once a table holds this many bytes */
#define REALIGN_LSB_TABLES 4 /* trace IDs with a table of their own (the first
                                seen); others are not weighed */

/* The link between a byte's low bit and its other bits, for one trace ID
 * (each protocol has its own). */
struct realign_lsb {
	unsigned frames;     /* frames counted since the table was rebuilt */
	unsigned every;      /* frames between rebuilds (0: REALIGN_LSB_REBUILD) */
	uint32_t total;      /* bytes in count */
	uint32_t count[256]; /* odd-slot data bytes seen, per value */
	int8_t score[256];   /* evidence of an even-slot data byte b for the
	                        alignment, in quarter bits: 4 log2(2 P(b & 1 |
	                        b >> 1)); 0 while its context is rare or mixed */
};

struct realign_ids {
	uint32_t known[4];  /* bit per trace ID 0x00-0x7F */
	unsigned learnt;    /* plausible frames seen */
	uint8_t doubt[128]; /* doubt of an ID slot naming each ID, kept up to date
	                       by realign_learn (realign_ids_init first) */
	uint8_t lsb_of[128]; /* 1 + the table of each trace ID, 0: none */
	unsigned lsb_n;      /* tables given out */
	struct realign_lsb lsb[REALIGN_LSB_TABLES];
};

void realign_ids_init(struct realign_ids *ids);

/* Evidence against a frame at this alignment: 0 when every ID slot names an
 * ID in use (or any valid ID while still learning), more for each reserved
 * or unknown ID.  Called for every frame: a table lookup per ID slot. */
static inline unsigned realign_frame_doubt(const struct realign_ids *ids, const uint8_t *f)
{
	/* bit s of `slots` for each even slot s holding an ID change; a frame
	 * of data only (about half of them) costs two tests */
	unsigned slots = (unsigned)(f[0] & 1) | (unsigned)(f[2] & 1) << 2 |
			 (unsigned)(f[4] & 1) << 4 | (unsigned)(f[6] & 1) << 6 |
			 (unsigned)(f[8] & 1) << 8 | (unsigned)(f[10] & 1) << 10 |
			 (unsigned)(f[12] & 1) << 12 | (unsigned)(f[14] & 1) << 14;
	unsigned doubt = 0;

	if (!slots)
		return 0;
	if ((slots >> 14) & (f[15] >> 7))
		doubt = REALIGN_W_RESERVED;
	do {
		unsigned s = (unsigned)__builtin_ctz(slots);

		doubt += ids->doubt[f[s] >> 1];
		slots &= slots - 1;
	} while (slots);
	return doubt;
}

/* Take the valid IDs of a frame believed to be aligned into the known set. */
void realign_learn(struct realign_ids *ids, const uint8_t *f);

/* The table of trace ID id (given out on first use), or NULL. */
struct realign_lsb *realign_lsb_of(struct realign_ids *ids, uint8_t id);

/* A frame of data only (no ID slot): only these are weighed by their low
 * bits, every byte being of the ID in force. */
static inline int realign_data_only(const uint8_t *f)
{
	return !((f[0] | f[2] | f[4] | f[6] | f[8] | f[10] | f[12] | f[14]) & 1);
}

/* realign_lsb_score of a frame of data only (every even slot holds data,
 * bit 0 clear): eight lookups, no test. */
static inline int realign_lsb_score_data(const int8_t *t, const uint8_t *f)
{
	unsigned a = f[15];

	return t[f[0] | (a & 1u)] + t[f[2] | ((a >> 1) & 1u)] + t[f[4] | ((a >> 2) & 1u)] +
	       t[f[6] | ((a >> 3) & 1u)] + t[f[8] | ((a >> 4) & 1u)] +
	       t[f[10] | ((a >> 5) & 1u)] + t[f[12] | ((a >> 6) & 1u)] + t[f[14] | (a >> 7)];
}

/* Count the odd-slot bytes of a frame of data only believed to be aligned
 * (the caller gives one frame in REALIGN_LSB_SAMPLE). */
void realign_lsb_learn(struct realign_lsb *t, const uint8_t *f);

/* Evidence of the low bits of a frame's even-slot data bytes for its
 * alignment under a score table, in quarter bits (positive: aligned). */
static inline int realign_lsb_score(const int8_t *table, const uint8_t *f)
{
	unsigned aux = f[15];
	int sc = 0;
	unsigned s;

	for (s = 0; s < 16; s += 2, aux >>= 1) /* slots 0, 2 .. 14 */
		if (!(f[s] & 1))
			sc += table[(f[s] & 0xFEu) | (aux & 1u)];
	return sc;
}

/* Best shift (0-15) of win[0..n): the shift whose whole frames hold the
 * fewest reserved and unknown IDs and the most A-sync patterns (five or more
 * 0x00 then 0x80 in one ID's de-formatted bytes).  The current alignment
 * (shift 0) is kept unless another shift beats it clearly.  win[0..16) is
 * the frame that raised the doubt: it is not weighed. */
unsigned realign_best_shift(const struct realign_ids *ids, const uint8_t *win, size_t n);

#endif
