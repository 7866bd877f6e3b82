/* SPDX-License-Identifier: BSD-3-Clause */
/* Trace sources, middle floor: capture chunks -> the chosen trace ID's
 * bytes in chunks, the counters, the frame errors and the stream ->
 * capture offset map. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source_int.h"

void source_stream_note_error(struct pft_source *s, const struct pft_frame_item *it)
{
	if (!s->frame_errors++)
		snprintf(s->frame_error, sizeof s->frame_error, "%s at capture offset %llu (%u bytes)",
			 it->type == PFT_FRAME_ITEM_ERROR ?
				 pft_frame_error_name((enum pft_frame_error)it->reason) :
				 "no FSYNC found",
			 (unsigned long long)it->capture_offset, it->len);
}

/* One pass over the whole capture, de-formatting only: the trace IDs it
 * holds (frame_stats) and its frame errors; then back to the start. */
int source_stream_scan(struct pft_source *s)
{
	struct pft_frame_decoder *d = pft_frame_decoder_alloc(s->format, 0);
	struct pft_frame_item it;
	int r;

	if (!d)
		return -PFT_E_NOMEM;
	pft_frame_decoder_set_realign(d, !s->no_realign);
	for (;;) {
		while ((r = pft_frame_decoder_next(d, &it, sizeof it)) == 0)
			if (it.type != PFT_FRAME_ITEM_DATA)
				source_stream_note_error(s, &it);
		if (r != -PFT_E_AGAIN)
			break;
		r = source_capture_read(s);
		if (r) {
			pft_frame_decoder_free(d);
			return r;
		}
		if (s->eof)
			pft_frame_decoder_end(d);
		else
			pft_frame_decoder_feed(d, s->cdata, s->clen);
	}
	pft_frame_decoder_get_stats(d, &s->frame_stats, sizeof(s->frame_stats));
	pft_frame_decoder_free(d);
	return source_capture_rewind(s);
}

/* The main pass counts again. */
int source_stream_start(struct pft_source *s)
{
	memset(&s->frame_stats, 0, sizeof s->frame_stats);
	s->frame_errors = 0;
	s->frame_error[0] = '\0';
	if (s->format == PFT_FRAME_RAW)
		return 0;
	s->fdec = pft_frame_decoder_alloc(s->format, 0);
	if (s->fdec)
		pft_frame_decoder_set_realign(s->fdec, !s->no_realign);
	s->obuf = malloc(PFT_SOURCE_CHUNK + 4 * PFT_FRAME_SIZE);
	return s->fdec && s->obuf ? 0 : -PFT_E_NOMEM;
}

int source_stream_add_seg(struct pft_source *s, uint64_t stream, uint64_t capture)
{
	if (s->nseg > s->seg0) {
		const struct source_segment *l = &s->seg[s->nseg - 1];
		/* continues the last segment? (its length is up to the next) */
		if (capture - l->capture == stream - l->stream)
			return 0;
	}
	if (s->nseg == s->segcap) {
		size_t nc = s->segcap ? s->segcap * 2 : 4096;
		struct source_segment *ns;

		if (s->seg0 >= s->segcap / 2 && s->seg0) {
			/* reuse the released front */
			memmove(s->seg, s->seg + s->seg0, (s->nseg - s->seg0) * sizeof(*ns));
			s->nseg -= s->seg0;
			s->seg0 = 0;
		} else {
			ns = realloc(s->seg, nc * sizeof(*ns));
			if (!ns)
				return -PFT_E_NOMEM;
			s->seg = ns;
			s->segcap = nc;
		}
	}
	s->seg[s->nseg].stream = stream;
	s->seg[s->nseg].capture = capture;
	s->nseg++;
	return 0;
}

/* Forget the segments that only cover stream bytes below s->release. */
void source_stream_trim(struct pft_source *s)
{
	if (!s->track) {
		s->seg0 = s->nseg = 0;
		return;
	}
	while (s->nseg - s->seg0 > 1 && s->seg[s->seg0 + 1].stream <= s->release)
		s->seg0++;
	if (s->seg0 == s->nseg)
		s->seg0 = s->nseg = 0;
}

uint64_t pft_source_capture_offset(const struct pft_source *s, uint64_t off)
{
	size_t lo = s->seg0, hi = s->nseg;

	if (s->nseg <= s->seg0)
		return off;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (s->seg[mid].stream <= off)
			lo = mid;
		else
			hi = mid;
	}
	return s->seg[lo].capture + (off - s->seg[lo].stream);
}

void pft_source_release(struct pft_source *s, uint64_t off)
{
	if (off > s->release)
		s->release = off;
}

static int take_item(struct pft_source *s, const struct pft_frame_item *it)
{
	uint32_t i;
	int r;

	if (s->lock_id < 0 && it->id >= 1 && it->id < 128)
		s->lock_id = it->id; /* no ID chosen, a pipe: the first with data */
	if (it->id != s->lock_id)
		return 0;
	if (s->track)
		for (i = 0; i < it->len; i++)
			if ((r = source_stream_add_seg(s, it->stream_offset + i, pft_frame_item_byte_offset(it, i))))
				return r;
	memcpy(s->obuf + s->olen, it->data, it->len);
	s->olen += it->len;
	return 0;
}

/* The next de-formatted chunk of the chosen ID into obuf (olen 0 and done
 * at the end).  A group (source_group.c) cuts its members' chunks at the
 * same places: keep the two in step. */
int source_stream_fill_frames(struct pft_source *s)
{
	struct pft_frame_item it;
	int r;

	s->olen = 0;
	for (;;) {
		if (s->olen + PFT_FRAME_MAX_RUN > PFT_SOURCE_CHUNK)
			return 0;
		r = pft_frame_decoder_next(s->fdec, &it, sizeof it);
		if (r == -PFT_E_AGAIN) {
			pft_frame_decoder_get_stats(s->fdec, &s->frame_stats, sizeof(s->frame_stats));
			if (s->olen)
				return 0;
			if ((r = source_capture_read(s)))
				return r;
			if (s->eof)
				pft_frame_decoder_end(s->fdec);
			else
				pft_frame_decoder_feed(s->fdec, s->cdata, s->clen);
			continue;
		}
		if (r) { /* -PFT_E_EOS */
			pft_frame_decoder_get_stats(s->fdec, &s->frame_stats, sizeof(s->frame_stats));
			s->done = 1;
			return 0;
		}
		if (it.type == PFT_FRAME_ITEM_ERROR && it.reason != PFT_FERR_TRUNCATED) {
			/* bytes of the chosen ID may be lost here: the chunk
			 * ends, and the next one says it starts after a gap */
			source_stream_note_error(s, &it);
			if (s->olen) {
				s->gap = 1;
				return 0;
			}
			s->out_gap = 1;
		} else if (it.type != PFT_FRAME_ITEM_DATA) {
			source_stream_note_error(s, &it);
		} else if ((r = take_item(s, &it))) {
			return r;
		}
	}
}

/* The next chunk into s->out / s->olen; s->have says whether there is one. */
int source_stream_fill(struct pft_source *s)
{
	int r;

	s->have = 0;
	if (s->done)
		return 0;
	source_stream_trim(s);
	s->out_gap = s->gap;
	s->gap = 0;
	if (s->format == PFT_FRAME_RAW) {
		if ((r = source_capture_read(s)))
			return r;
		s->frame_stats.bytes_in += s->clen;
		s->frame_stats.data += s->clen;
		s->out = s->cdata;
		s->olen = s->clen;
		if (s->eof)
			s->done = 1;
	} else {
		if ((r = source_stream_fill_frames(s))) {
			s->err = r;
			return r;
		}
		s->out = s->obuf;
	}
	s->have = s->olen > 0;
	return 0;
}

void source_stream_free(struct pft_source *s)
{
	pft_frame_decoder_free(s->fdec);
	free(s->obuf);
	free(s->seg);
	s->fdec = NULL;
	s->obuf = NULL;
	s->seg = NULL;
}
