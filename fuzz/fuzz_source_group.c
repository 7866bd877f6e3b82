/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: source groups (pft/source.h, one reader for several
 * trace IDs) over arbitrary captures in memory.  Byte 0 picks the layout
 * (frames or TPIU) and alignment recovery, bytes 1-3 three trace IDs (two
 * may be equal: two members on one ID), byte 4 the reading order; the rest
 * is the capture.  Traps if a member's chunks (length, flags, bytes,
 * capture offsets) differ from those of the same source read alone, a
 * member of an ID alone refuses at open gets bytes, or the group reads the
 * capture more than once or keeps chunks queued at the end. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft/source.h"

#define ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)
#define N 3

struct trail {
	uint64_t h;      /* hash of every chunk's length, flags, bytes, offsets */
	uint64_t chunks;
	int status;      /* of open, then of the last next */
};

static void mix(struct trail *t, uint64_t v)
{
	t->h = (t->h ^ v) * 0x100000001B3ull;
}

static void take(struct trail *t, struct pft_source *src, const struct pft_source_chunk *c)
{
	size_t i;

	t->chunks++;
	mix(t, c->len);
	mix(t, c->flags);
	for (i = 0; i < c->len; i++) {
		mix(t, c->data[i]);
		mix(t, pft_source_capture_offset(src, c->stream_offset + i));
	}
	pft_source_release(src, c->stream_offset + c->len);
}

static int open_one(struct pft_source **src, const uint8_t *cap, size_t len, int fmt, int realign,
		    int id, struct pft_source_group *g)
{
	struct pft_source_params p;
	char msg[256];

	pft_source_params_init(&p);
	p.format = fmt;
	p.trace_id = id;
	p.capture_offsets = 1;
	p.no_realign = !realign;
	p.group = g;
	return pft_source_open_memory(src, cap, len, &p, msg, sizeof msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pft_source_group_stats st;
	struct pft_source_group *g;
	struct pft_source *src[N];
	struct pft_source_chunk c;
	struct trail alone[N], grp[N];
	const uint8_t *cap = data + 5;
	size_t len;
	int fmt, realign, id[N], live, i, r;
	uint32_t order;

	if (size < 6)
		return 0;
	len = size - 5;
	fmt = (data[0] & 1) ? PFT_FRAME_TPIU : PFT_FRAME_CORESIGHT;
	realign = (data[0] & 2) != 0;
	for (i = 0; i < N; i++)
		id[i] = 1 + data[1 + i] % 0x6F;
	order = data[4];
	memset(alone, 0, sizeof alone);
	memset(grp, 0, sizeof grp);
	for (i = 0; i < N; i++) {
		alone[i].status = open_one(&src[i], cap, len, fmt, realign, id[i], NULL);
		if (alone[i].status)
			continue;
		while ((r = pft_source_next(src[i], &c, sizeof c)) == 0)
			take(&alone[i], src[i], &c);
		alone[i].status = r;
		pft_source_close(src[i]);
	}
	ASSERT(pft_source_group_alloc(&g, 0, 0) == 0);
	for (i = 0; i < N; i++) {
		grp[i].status = open_one(&src[i], cap, len, fmt, realign, id[i], g);
		if (grp[i].status) {
			ASSERT(alone[i].status != -PFT_E_EOS);
			src[i] = NULL;
		}
	}
	do { /* members in an order the input picks */
		live = 0;
		for (i = 0; i < N; i++) {
			order = order * 1103515245u + 12345u;
			if (!src[i] || ((order >> 16) & 3) == 0)
				continue;
			live = 1;
			r = pft_source_next(src[i], &c, sizeof c);
			if (r == 0) {
				take(&grp[i], src[i], &c);
			} else {
				grp[i].status = r;
				pft_source_close(src[i]);
				src[i] = NULL;
			}
		}
		for (i = 0; i < N; i++)
			live |= src[i] != NULL;
	} while (live);
	ASSERT(pft_source_group_get_stats(g, &st, sizeof st) == 0);
	ASSERT(st.capture_bytes <= len);
	ASSERT(st.queued == 0);
	pft_source_group_free(g);
	for (i = 0; i < N; i++) {
		if (alone[i].status != -PFT_E_EOS) { /* alone: refused at open (an ID
							without data, found by its scan) */
			ASSERT(grp[i].chunks == 0);
			continue;
		}
		ASSERT(grp[i].status == -PFT_E_EOS);
		ASSERT(grp[i].chunks == alone[i].chunks);
		ASSERT(grp[i].h == alone[i].h);
	}
	return 0;
}
