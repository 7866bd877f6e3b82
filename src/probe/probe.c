/* SPDX-License-Identifier: BSD-3-Clause */
/* The capture probe: layout, trace IDs, and each ID's stream through
 * pft_probe_stream (probe_stream.c).
 *
 * Layout.  An FSYNC (FF FF FF 7F) cannot occur in CoreSight frames (an even
 * slot 0xFF is the reserved ID 0x7F), so FSYNCs point at a TPIU capture.
 * Frames are believed when the deformatter finds (almost) no frame errors
 * and nearly all data sits in a few trace IDs: any other byte stream read as
 * frames changes ID every other slot, spreading its bytes over dozens of IDs
 * (and writes ID 0x7F wherever 0xFF falls on an even slot).  Otherwise the
 * capture is read as one raw stream.  When both readings are possible, the
 * one that decodes more bytes as PFT wins (a raw stream can look like frames
 * holding a little PFT by chance), then, with no PFT either way, the one
 * that decodes more bytes as ETMv3 when the raw stream is ETMv3 with
 * confidence medium or high, then the one in which a stream decodes as a
 * known protocol. */
#include <stdlib.h>
#include <string.h>

#include "common/struct_size.h"
#include "probe_int.h"

const char *pft_probe_layout_name(enum pft_probe_layout l)
{
	static const char *const n[] = { "unknown", "raw", "frames", "tpiu" };
	return (unsigned)l < 4 ? n[l] : "unknown";
}

enum pft_frame_format pft_probe_frame_format(enum pft_probe_layout l)
{
	return l == PFT_PROBE_LAYOUT_TPIU ? PFT_FRAME_TPIU
	       : l == PFT_PROBE_LAYOUT_FRAMES ? PFT_FRAME_CORESIGHT : PFT_FRAME_RAW;
}

const char *pft_probe_proto_name(enum pft_probe_proto p)
{
	static const char *const n[] = { "unknown", "pft", "etmv3", "etmv4", "stm", "itm" };
	return (unsigned)p < PFT_PROBE_PROTO_NR ? n[p] : "unknown";
}

const char *pft_probe_conf_name(enum pft_probe_conf c)
{
	static const char *const n[] = { "none", "low", "medium", "high" };
	return (unsigned)c < 4 ? n[c] : "none";
}

const char *pft_probe_opt_name(enum pft_probe_opt o)
{
	static const char *const n[] = { "version", "cycle_accurate", "contextid_bytes", "timestamps",
		                         "vmid", "return_stack", "branch_broadcast", "alt_branch",
		                         "data_trace" };
	return (unsigned)o < PFT_PROBE_NR_OPTS ? n[o] : "?";
}

struct reading {
	struct pft_frame_stats st;
	uint64_t items;      /* DATA items */
	unsigned major_ids;  /* IDs 0x01-0x6F holding >= 1% of the data */
	uint64_t major;      /* their bytes */
	int plausible;
	uint8_t *stream[128]; /* collected bytes per ID (first PFT_PROBE_MAX_STREAM) */
	size_t slen[128], scap[128];
};

static void free_reading(struct reading *r)
{
	unsigned i;
	for (i = 0; i < 128; i++)
		free(r->stream[i]);
}

/* De-format the capture as fmt; with collect, keep every ID's first bytes. */
static int read_frames(const uint8_t *buf, size_t len, enum pft_frame_format fmt, int collect,
                       struct reading *r)
{
	struct pft_frame_decoder *dec = pft_frame_decoder_alloc(fmt, 0);
	struct pft_frame_item it;
	unsigned i;
	int k;

	memset(r, 0, sizeof *r);
	if (!dec)
		return -PFT_E_NOMEM;
	/* the question is whether the bytes are frames as they stand: no
	 * alignment recovery (it would also weigh every frame of a raw stream) */
	pft_frame_decoder_set_realign(dec, 0);
	pft_frame_decoder_feed(dec, buf, len);
	pft_frame_decoder_end(dec);
	while ((k = pft_frame_decoder_next(dec, &it, sizeof it)) == 0) {
		if (it.type != PFT_FRAME_ITEM_DATA || it.id >= 128)
			continue;
		r->items++;
		if (collect && it.id != PFT_FRAME_ID_NULL && r->slen[it.id] < PFT_PROBE_MAX_STREAM) {
			size_t n = it.len;
			if (r->slen[it.id] + n > r->scap[it.id]) { /* grow by doubling: memory
			                                              follows the data */
				size_t c = r->scap[it.id] ? 2 * r->scap[it.id] : 4096;
				uint8_t *q;
				if (c > PFT_PROBE_MAX_STREAM)
					c = PFT_PROBE_MAX_STREAM;
				q = realloc(r->stream[it.id], c);
				if (!q) {
					k = -PFT_E_NOMEM;
					break;
				}
				r->stream[it.id] = q;
				r->scap[it.id] = c;
			}
			if (n > PFT_PROBE_MAX_STREAM - r->slen[it.id])
				n = PFT_PROBE_MAX_STREAM - r->slen[it.id];
			memcpy(r->stream[it.id] + r->slen[it.id], it.data, n);
			r->slen[it.id] += n;
		}
	}
	pft_frame_decoder_get_stats(dec, &r->st, sizeof(r->st));
	pft_frame_decoder_free(dec);
	if (k != -PFT_E_EOS) {
		free_reading(r);
		return k == -PFT_E_NOMEM ? k : -PFT_E_INTERNAL;
	}
	for (i = 1; i < 0x70; i++)
		if (r->st.id_bytes[i] * 100 >= r->st.data && r->st.id_bytes[i] > 0) {
			r->major_ids++;
			r->major += r->st.id_bytes[i];
		}
	/* a formatter changes ID about once a frame (TC2's ETB: 0.7 ID changes,
	 * 1.7 runs per frame); other bytes read as frames give 2.5 or more
	 * changes a frame */
	r->plausible = r->st.data > 0 && r->st.error * 200 <= len && r->major_ids <= 16 &&
		       r->major > 0 &&
		       r->major * 10 >= (r->st.data - r->st.id_bytes[0] - r->st.unknown_id) * 9 &&
		       2 * r->items <= 5 * r->st.frames + 8;
	return 0;
}

static uint64_t count_fsyncs(const uint8_t *buf, size_t len, uint64_t *first)
{
	uint64_t n = 0;
	size_t i;

	*first = len;
	for (i = 0; i + 4 <= len; i++)
		if (buf[i] == 0xFF && buf[i + 1] == 0xFF && buf[i + 2] == 0xFF && buf[i + 3] == 0x7F) {
			if (!n)
				*first = i;
			n++;
		}
	return n;
}

static int known(const struct pft_probe_stream *s)
{
	return s->protocol != PFT_PROBE_PROTO_UNKNOWN;
}

/* Fill the report's streams from a frame reading. */
static int streams_from(struct pft_probe_report *rep, const struct reading *r)
{
	unsigned i;
	int k;

	rep->nstreams = 0;
	for (i = 1; i < 128; i++) {
		struct pft_probe_stream *s;
		if (!r->st.id_bytes[i])
			continue;
		s = &rep->streams[rep->nstreams++];
		k = pft_probe_stream(r->stream[i], r->slen[i], (uint8_t)i, s);
		if (k < 0)
			return k;
		s->bytes = r->st.id_bytes[i];
	}
	return 0;
}

static unsigned known_count(const struct pft_probe_report *rep)
{
	unsigned i, n = 0;
	for (i = 0; i < rep->nstreams; i++)
		n += (unsigned)known(&rep->streams[i]);
	return n;
}

static int use_frames(struct pft_probe_report *rep, const uint8_t *buf, size_t len,
                      enum pft_frame_format fmt)
{
	struct reading r;
	int k = read_frames(buf, len, fmt, 1, &r);

	if (k < 0)
		return k;
	k = streams_from(rep, &r);
	rep->layout = fmt == PFT_FRAME_TPIU ? PFT_PROBE_LAYOUT_TPIU : PFT_PROBE_LAYOUT_FRAMES;
	rep->frame_errors = r.st.error;
	rep->frames = r.st.frames;
	rep->unknown_id = r.st.unknown_id;
	rep->aligned = fmt == PFT_FRAME_TPIU ? rep->lead_bytes == 0 : 1;
	rep->layout_conf = r.plausible ? PFT_PROBE_CONF_HIGH : PFT_PROBE_CONF_LOW;
	free_reading(&r);
	return k;
}

static int use_raw(struct pft_probe_report *rep, const uint8_t *buf, size_t len)
{
	int k = pft_probe_stream(buf, len, PFT_PROBE_ID_RAW, &rep->streams[0]);

	if (k < 0)
		return k;
	rep->nstreams = 1;
	rep->layout = PFT_PROBE_LAYOUT_RAW;
	rep->frame_errors = rep->frames = rep->unknown_id = 0;
	rep->aligned = 1;
	rep->layout_conf = known(&rep->streams[0])
		? rep->streams[0].proto_conf : PFT_PROBE_CONF_LOW;
	return 0;
}

static void mark_wrapped(struct pft_probe_report *rep)
{
	unsigned i;

	rep->wrapped = rep->unknown_id > 0;
	for (i = 0; i < rep->nstreams; i++) {
		const struct pft_probe_stream *s = &rep->streams[i];
		if (s->protocol == PFT_PROBE_PROTO_PFT && s->first_async > 0)
			rep->wrapped = 1;
	}
}

/* Bytes of a PFT stream decoded: after the first A-sync, not lost. */
static uint64_t pft_decoded(const struct pft_probe_stream *s)
{
	if (s->protocol != PFT_PROBE_PROTO_PFT || s->first_async == PFT_PROBE_NO_ASYNC)
		return 0;
	return s->probed - s->first_async - (s->lost < s->probed - s->first_async ? s->lost : 0);
}

static uint64_t pft_bytes(const struct pft_probe_report *rep)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < rep->nstreams; i++)
		n += pft_decoded(&rep->streams[i]);
	return n;
}

/* Bytes of an ETMv3 stream decoded: after the first A-sync, not lost by the
 * ETMv3 decoder. */
static uint64_t etm3_decoded(const struct pft_probe_stream *s)
{
	uint64_t after;

	if (s->protocol != PFT_PROBE_PROTO_ETM3 || s->first_async == PFT_PROBE_NO_ASYNC ||
	    s->etm3_lost == UINT64_MAX)
		return 0;
	after = s->probed - s->first_async;
	return after - (s->etm3_lost < after ? s->etm3_lost : after);
}

static uint64_t etm3_bytes(const struct pft_probe_report *rep)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < rep->nstreams; i++)
		n += etm3_decoded(&rep->streams[i]);
	return n;
}

static int infer(struct pft_probe_report *rep, const uint8_t *buf, size_t len)
{
	struct reading r;
	unsigned framed_known = 0;
	uint64_t framed_etm3 = 0;
	int k;

	if (rep->fsyncs > 0) {
		k = read_frames(buf, len, PFT_FRAME_TPIU, 0, &r);
		if (k < 0)
			return k;
		free_reading(&r);
		if (r.plausible)
			return use_frames(rep, buf, len, PFT_FRAME_TPIU);
	}
	k = read_frames(buf, len, PFT_FRAME_CORESIGHT, 0, &r);
	if (k < 0)
		return k;
	free_reading(&r);
	if (r.plausible) {
		k = use_frames(rep, buf, len, PFT_FRAME_CORESIGHT);
		if (k < 0)
			return k;
		if (pft_probe_pft_count(rep) > 0) {
			struct pft_probe_stream raw;
			k = pft_probe_stream(buf, len, PFT_PROBE_ID_RAW, &raw);
			if (k < 0)
				return k;
			if (raw.protocol != PFT_PROBE_PROTO_PFT || pft_decoded(&raw) <= pft_bytes(rep))
				return 0;
			return use_raw(rep, buf, len);
		}
		framed_known = known_count(rep);
		framed_etm3 = etm3_bytes(rep);
	}
	k = use_raw(rep, buf, len);
	if (k < 0)
		return k;
	if (rep->streams[0].protocol == PFT_PROBE_PROTO_PFT || (known(&rep->streams[0]) && !framed_known))
		return 0;
	/* no PFT either way: the reading that decodes more bytes as ETMv3 (a raw
	 * ETMv3 stream can look like frames of a few ETMv3-like streams) */
	if (rep->streams[0].proto_conf >= PFT_PROBE_CONF_MEDIUM && etm3_decoded(&rep->streams[0]) > framed_etm3)
		return 0;
	if (r.plausible) /* frames of streams nobody knows beat an unknown stream */
		return use_frames(rep, buf, len, PFT_FRAME_CORESIGHT);
	rep->layout = PFT_PROBE_LAYOUT_UNKNOWN;
	return 0;
}

static int probe_into(const uint8_t *buf, size_t len, enum pft_probe_layout layout,
		      struct pft_probe_report *rep);

/* rep->size: the caller's struct (an older or newer pft/probe.h) gets the
 * common part, the rest zeroed; rep->size becomes the part filled. */
int pft_probe_buffer(const uint8_t *buf, size_t len, enum pft_probe_layout layout,
                     struct pft_probe_report *rep)
{
	struct pft_probe_report *full;
	size_t size;
	int r;

	if (!rep || rep->size < sizeof(rep->size) || (!buf && len) ||
	    (unsigned)layout > PFT_PROBE_LAYOUT_TPIU)
		return -PFT_E_INVAL;
	size = rep->size;
	if (size == sizeof *rep)
		return probe_into(buf, len, layout, rep);
	full = malloc(sizeof *full);
	if (!full)
		return -PFT_E_NOMEM;
	r = probe_into(buf, len, layout, full);
	if (r == 0) {
		pft_copy_out(rep, size, full, sizeof *full);
		rep->size = size < sizeof *full ? size : sizeof *full;
	}
	free(full);
	return r;
}

static int probe_into(const uint8_t *buf, size_t len, enum pft_probe_layout layout,
		      struct pft_probe_report *rep)
{
	int k;

	memset(rep, 0, sizeof *rep);
	rep->size = sizeof *rep;
	rep->capture_len = len;
	rep->fsyncs = count_fsyncs(buf, len, &rep->lead_bytes);
	if (len == 0)
		return 0;
	switch (layout) {
	case PFT_PROBE_LAYOUT_RAW:
		k = use_raw(rep, buf, len);
		break;
	case PFT_PROBE_LAYOUT_FRAMES:
		k = use_frames(rep, buf, len, PFT_FRAME_CORESIGHT);
		break;
	case PFT_PROBE_LAYOUT_TPIU:
		k = use_frames(rep, buf, len, PFT_FRAME_TPIU);
		break;
	default:
		k = infer(rep, buf, len);
		break;
	}
	if (k < 0)
		return k;
	if (rep->layout != PFT_PROBE_LAYOUT_TPIU)
		rep->lead_bytes = 0;
	mark_wrapped(rep);
	return 0;
}

unsigned pft_probe_pft_count(const struct pft_probe_report *rep)
{
	unsigned i, n = 0;

	if (!rep)
		return 0;
	for (i = 0; i < rep->nstreams; i++)
		n += rep->streams[i].protocol == PFT_PROBE_PROTO_PFT;
	return n;
}
