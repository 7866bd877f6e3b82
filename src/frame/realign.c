/* SPDX-License-Identifier: BSD-3-Clause */
/* Frame alignment evidence (realign.h).
 *
 * A capture that lost or gained bytes shifts every later frame.  An odd
 * shift puts data bytes into the ID slots: IDs appear that no source uses,
 * and reserved ones.  An even shift keeps the ID slots but takes a data byte
 * for the auxiliary byte, so the low bits of half the data bytes go wrong;
 * the A-sync patterns every trace protocol repeats (five or more zero bytes
 * then 0x80) are then broken, and so is a rule the formatter keeps: an ID
 * change in slot 14 has auxiliary bit 7 clear (its data starts in the next
 * frame), while a data byte taken for the auxiliary byte sets it about half
 * the time.  All this evidence is weighed here. */
#include "realign.h"

#include <string.h>

#include "pft/frame.h"

#define W_RESERVED REALIGN_W_RESERVED
#define W_UNKNOWN REALIGN_W_UNKNOWN
/* Score of a shift over a window. */
#define REALIGN_SKIP_FRAMES 4 /* frames at the window's start not weighed */
#define W_FRAME 2     /* a frame with no hard evidence against it */
#define W_ASYNC 6     /* an A-sync pattern in a de-formatted stream */
#define W_KEEP_ODD 5  /* a shift must beat the current alignment by more than
                         this: two junk frames where bytes were lost, or a new
                         ID at the window's edge, are no evidence; three broken
                         frames or one A-sync more are */
#define REALIGN_MIN_FRAMES 4 /* fewer whole frames to weigh (the capture's
                                end): too little evidence, keep the alignment */
#define W_LSB_SHIFT 2 /* the low-bit evidence (quarter bits) counts in bits */
#define REALIGN_EVEN_MIN_FRAMES 32 /* an even shift is weighed on weak evidence
                                      (auxiliary bits, low bits, A-syncs): on
                                      fewer frames (the capture's end) noise in
                                      them can beat the right alignment */
#define W_KEEP_EVEN 12 /* an even shift changes only the auxiliary byte: it
                          must show two A-syncs or six broken frames more */

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

static void update_doubt(struct realign_ids *ids)
{
	unsigned id;

	for (id = 0; id < 128; id++)
		ids->doubt[id] = (uint8_t)id_doubt(ids, (uint8_t)id);
}

void realign_ids_init(struct realign_ids *ids)
{
	memset(ids, 0, sizeof(*ids));
	update_doubt(ids);
}

/* 4 log2(2 q / 64) for q = 0 .. 64: the score of a low bit seen with
 * probability q / 64 in its context. */
static const int8_t lsb_q_score[65] = {
	-24, -20, -16, -14, -12, -11, -10, -9, -8, -7, -7, -6, -6, -5, -5, -4, -4,
	-4, -3, -3, -3, -2, -2, -2, -2, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 1, 1, 1,
	1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4
};

/* The score table of count[] (bytes seen per value): contexts seen fewer
 * than min times, or whose low bit is seen with a probability between
 * band / 64 and 1 - band / 64 (random data, a mixed context), score 0. */
static void lsb_table(const uint32_t *count, uint32_t min, unsigned band, int8_t *score)
{
	unsigned ctx;

	for (ctx = 0; ctx < 128; ctx++) {
		uint32_t c1 = count[2 * ctx + 1];
		uint32_t n = count[2 * ctx] + c1;
		unsigned q1;

		if (n < min) {
			score[2 * ctx] = score[2 * ctx + 1] = 0;
			continue;
		}
		/* two of each bit assumed seen: a context seen with one low bit
		 * only is not taken for certain */
		q1 = (unsigned)((64u * ((uint64_t)c1 + 2) + (n + 4) / 2) / (n + 4));
		if (q1 < 4)
			q1 = 4;
		if (q1 > 60)
			q1 = 60;
		if (q1 > band && q1 < 64 - band) {
			score[2 * ctx] = score[2 * ctx + 1] = 0;
			continue;
		}
		score[2 * ctx] = lsb_q_score[64 - q1];
		score[2 * ctx + 1] = lsb_q_score[q1];
	}
}

static void lsb_rebuild(struct realign_lsb *t)
{
	lsb_table(t->count, REALIGN_LSB_MIN, 20, t->score);
	if (t->total >= REALIGN_LSB_FORGET) { /* older bytes weigh less */
		unsigned b;

		t->total = 0;
		for (b = 0; b < 256; b++) {
			t->count[b] /= 2;
			t->total += t->count[b];
		}
	}
	t->frames = 0;
	if (t->every < REALIGN_LSB_REBUILD_MAX)
		t->every = t->every ? 2 * t->every : REALIGN_LSB_REBUILD;
}

struct realign_lsb *realign_lsb_of(struct realign_ids *ids, uint8_t id)
{
	if (id >= 128)
		return NULL;
	if (!ids->lsb_of[id]) {
		if (ids->lsb_n == REALIGN_LSB_TABLES)
			return NULL;
		ids->lsb_of[id] = (uint8_t)++ids->lsb_n;
	}
	return &ids->lsb[ids->lsb_of[id] - 1];
}

void realign_lsb_learn(struct realign_lsb *t, const uint8_t *f)
{
	unsigned s;

	for (s = 1; s < PFT_FRAME_SIZE - 1; s += 2)
		t->count[f[s]]++;
	t->total += 7;
	if (++t->frames >= t->every)
		lsb_rebuild(t);
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
	update_doubt(ids);
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

/* Hard evidence against a frame: reserved IDs and an ID in slot 14 with
 * auxiliary bit 7 set. */
static int frame_broken(const uint8_t *f)
{
	unsigned s;

	for (s = 0; s < PFT_FRAME_SIZE - 1; s += 2)
		if ((f[s] & 1) && f[s] >= 0xE0 && f[s] != 0xF7 && f[s] != 0xFB)
			return 1; /* IDs 0x70-0x7F but 0x7B, 0x7D */
	return (f[14] & 1) && (f[15] & 0x80);
}

/* Score of one shift: whole frames without hard evidence against them, the
 * A-sync patterns found, the low bits of the even slots' data, less each
 * distinct unknown ID once (a source that starts mid-capture repeats one new
 * ID; a shifted window shows many).  A frame or two of junk where the bytes
 * were lost weighs little against the rest of the window. */
static long shift_score(const struct realign_ids *ids, const uint8_t *win, unsigned frames)
{
	struct scan sc = { { 0 }, 0 };
	uint32_t seen[4];
	uint32_t count[256];
	long score = 0, lsb = 0;
	unsigned j, s;
	uint8_t cur_id = PFT_FRAME_ID_UNKNOWN;
	int8_t table[256];

	memcpy(seen, ids->known, sizeof seen);
	/* the low bits are judged by the window's own odd slots: the link
	 * between a byte's low bit and the rest changes with what the program
	 * does, and the even slots of the right shift follow the odd slots of
	 * the same frames */
	memset(count, 0, sizeof count);
	for (j = 0; j < frames && frames >= REALIGN_LSB_MIN_FRAMES; j++)
		for (s = 1; s < PFT_FRAME_SIZE - 1; s += 2)
			count[win[(size_t)j * PFT_FRAME_SIZE + s]]++;
	lsb_table(count, REALIGN_LSB_MIN_WINDOW, 12, table); /* all 0 in a short window */

	for (j = 0; j < frames; j++) {
		const uint8_t *f = win + (size_t)j * PFT_FRAME_SIZE;

		if (!frame_broken(f))
			score += W_FRAME;
		for (s = 0; s < PFT_FRAME_SIZE - 1; s += 2) {
			uint8_t id = (uint8_t)(f[s] >> 1);

			if ((f[s] & 1) && id < 0x70 && id != PFT_FRAME_ID_NULL &&
			    !((seen[id >> 5] >> (id & 31)) & 1)) {
				score -= W_UNKNOWN;
				seen[id >> 5] |= 1u << (id & 31);
			}
		}
		lsb += realign_lsb_score(table, f);
		cur_id = scan_frame(&sc, f, cur_id);
	}
	return score + (long)sc.asyncs * W_ASYNC + lsb / (1 << W_LSB_SHIFT);
}

unsigned realign_best_shift(const struct realign_ids *ids, const uint8_t *win, size_t n)
{
	unsigned frames, k, best = 0;
	long best_score = 0;

	/* The frame that raised the doubt, and the few after it that the lost
	 * or inserted bytes may have broken too, are no evidence for shift 0 or
	 * against it: every shift is weighed on the same number of whole frames
	 * after them. */
	size_t from = REALIGN_SKIP_FRAMES * PFT_FRAME_SIZE;

	if (n < from + 2 * PFT_FRAME_SIZE - 1)
		from = PFT_FRAME_SIZE; /* the end of the capture: weigh what there is */
	if (n < from + 2 * PFT_FRAME_SIZE - 1)
		return 0;
	frames = (unsigned)((n - from - (PFT_FRAME_SIZE - 1)) / PFT_FRAME_SIZE);
	if (frames < REALIGN_MIN_FRAMES)
		return 0;
	for (k = 0; k < PFT_FRAME_SIZE; k++) {
		long score, keep;

		if (k % 2 == 0 && k && frames < REALIGN_EVEN_MIN_FRAMES)
			continue;
		score = shift_score(ids, win + from + k, frames);
		keep = best ? 0 : k % 2 ? W_KEEP_ODD : W_KEEP_EVEN;

		if (k == 0 || score > best_score + keep) {
			best = k;
			best_score = score;
		}
	}
	return best;
}
