/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft frame layer (pft_frame_): the CoreSight trace formatter's 16-byte
 * frames, in both directions, and the TPIU port capture around them.
 *
 * A frame is 15 slots and an auxiliary byte (byte 15).  Even slots 0, 2 ..
 * 14 hold either a trace ID change (bit 0 = 1, ID in bits [7:1]) or a data
 * byte whose bits [7:1] are in the slot and whose bit 0 is bit i of the
 * auxiliary byte (slot 2i).  Odd slots 1 .. 13 always hold a whole data
 * byte.  When slot 2i is an ID change, auxiliary bit i says whether the data
 * byte in slot 2i+1 still belongs to the previous ID (1) or already to the
 * new one (0).  An ID change in slot 14 applies from the next frame on.
 *   ID 0x00        null source: padding written when a buffer is flushed
 *   ID 0x01-0x6F   trace sources
 *   ID 0x70-0x7E   reserved by CoreSight (0x7B flush response, 0x7D trigger)
 *   ID 0x7F        never used: an even byte 0xFF is a port sync, not an ID
 * A TPIU adds, on the port, FSYNC (bytes FF FF FF 7F) between frames and
 * HSYNC (bytes FF 7F) at any halfword; both are removed here, and a capture
 * that starts mid-frame is aligned on its first FSYNC.
 *
 * The deformatter is streaming and pull-style like every libpft layer: feed
 * capture chunks of any size, pull items until -PFT_E_AGAIN, feed again,
 * pft_frame_decoder_end() and drain until -PFT_E_EOS.  Every capture byte is
 * accounted for: in a DATA item, as frame overhead (ID and auxiliary bytes),
 * as removed sync, or in an UNSYNCED / ERROR item (see pft_frame_decoder_get_stats).
 *
 *     dec = pft_frame_decoder_alloc(PFT_FRAME_CORESIGHT, 0);
 *     for each chunk of the capture:
 *         pft_frame_decoder_feed(dec, chunk, len);
 *         while (pft_frame_decoder_next(dec, &it, sizeof it) == 0)
 *             if (it.type == PFT_FRAME_ITEM_DATA && it.id == 0x13)
 *                 pft_pkt_decoder_feed(pkt, it.data, it.len) ...
 *     pft_frame_decoder_end(dec); drain; pft_frame_decoder_get_stats(dec, &st, sizeof st);
 *
 *     enc = pft_frame_encoder_alloc(PFT_FRAME_CORESIGHT, 0, 0);
 *     n = pft_frame_encoder_encode(enc, 0x13, pft, len, out, cap, &used);
 *     n += pft_frame_encoder_flush(enc, out + n, cap - n); */
#ifndef PFT_FRAME_H
#define PFT_FRAME_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the capture is laid out. */
enum pft_frame_format {
	PFT_FRAME_RAW = 0,       /* no frames: the bytes of one source (DS-5 "source_data") */
	PFT_FRAME_CORESIGHT = 1, /* 16-byte frames, the capture starts on a frame
	                            boundary (ETB/ETF/ETR memory, DS-5 "coresight") */
	PFT_FRAME_TPIU = 2       /* trace port capture: frames with FSYNC/HSYNC, aligned
	                            on the first FSYNC */
};
/* "raw", "frames", "tpiu"; NULL for an unknown value. */
PFT_API const char *pft_frame_format_name(enum pft_frame_format fmt);

#define PFT_FRAME_SIZE 16
#define PFT_FRAME_ID_NULL 0x00    /* padding */
#define PFT_FRAME_ID_UNKNOWN 0xFF /* data seen before the first ID byte of the capture */
#define PFT_FRAME_MAX_RUN 15      /* data bytes of one ID in one frame, at most */

enum pft_frame_item_type {
	PFT_FRAME_ITEM_NONE = 0,
	PFT_FRAME_ITEM_DATA,     /* a run of de-formatted bytes of one trace ID */
	PFT_FRAME_ITEM_UNSYNCED, /* capture bytes skipped before the first FSYNC (TPIU) */
	PFT_FRAME_ITEM_ERROR     /* capture bytes that break the frame rules; reason says how */
};
/* "data", "unsynced", "error" */
PFT_API const char *pft_frame_item_type_name(enum pft_frame_item_type t);

enum pft_frame_error {
	PFT_FERR_NONE = 0,
	PFT_FERR_TRUNCATED,   /* the capture ends inside a frame: the partial frame */
	PFT_FERR_ID_7F,       /* an ID byte 0xFF (ID 0x7F) inside a frame: the rest of the frame */
	PFT_FERR_BAD_SYNC,    /* TPIU: FF FF not followed by FF 7F, or an FSYNC inside a
	                         frame: the partial frame and the sync bytes; the
	                         deformatter then searches for the next FSYNC */
	PFT_FERR_REALIGN,     /* CoreSight frames: bytes skipped to regain the frame
	                         alignment after the capture lost or gained bytes */
	PFT_FERR_NR
};
/* "truncated frame", "ID 0x7F", "bad sync", "realigned" */
PFT_API const char *pft_frame_error_name(enum pft_frame_error e);

/* One item.  Pointers stay valid until the next call on the deformatter. */
struct pft_frame_item {
	uint16_t type;            /* enum pft_frame_item_type */
	uint8_t id;               /* DATA: trace ID 0x00-0x7F, or PFT_FRAME_ID_UNKNOWN */
	uint8_t reason;           /* ERROR: enum pft_frame_error */
	uint32_t len;             /* DATA: data bytes; UNSYNCED/ERROR: capture bytes */
	uint64_t stream_offset;   /* DATA: offset of data[0] in this ID's de-formatted stream */
	uint64_t capture_offset;  /* offset in the capture of the first byte */
	const uint8_t *data;      /* DATA: the de-formatted bytes */
	const uint64_t *byte_offsets; /* DATA: capture offset of each data byte; NULL when
	                                 they are contiguous (RAW): capture_offset + i */
};

static inline uint64_t pft_frame_item_byte_offset(const struct pft_frame_item *it, uint32_t i)
{
	return it->byte_offsets ? it->byte_offsets[i] : it->capture_offset + i;
}

/* Byte counts since alloc / reset.  Invariant after pft_frame_decoder_end():
 * bytes_in == data + overhead + sync + unsynced + error. */
struct pft_frame_stats {
	uint64_t bytes_in;   /* capture bytes fed */
	uint64_t data;       /* de-formatted bytes in DATA items (all IDs) */
	uint64_t overhead;   /* ID bytes and auxiliary bytes of frames */
	uint64_t sync;       /* FSYNC / HSYNC bytes removed, and frames of 4 FSYNCs */
	uint64_t unsynced;   /* bytes in UNSYNCED items */
	uint64_t error;      /* bytes in ERROR items */
	uint64_t frames;     /* complete frames decoded */
	uint64_t id_bytes[128]; /* data bytes per trace ID */
	uint64_t unknown_id; /* data bytes before the first ID byte */
};

struct pft_frame_decoder;

/* fmt: the capture layout.  raw_id: the trace ID reported for PFT_FRAME_RAW
 * data (any value; ignored for the other formats).  NULL if out of memory or
 * fmt is unknown. */
PFT_API struct pft_frame_decoder *pft_frame_decoder_alloc(enum pft_frame_format fmt,
                                                          uint8_t raw_id);
PFT_API void pft_frame_decoder_free(struct pft_frame_decoder *dec);

/* Give the next capture chunk.  The decoder borrows buf until the next feed
 * (RAW data items point into it).  Returns 0; -PFT_E_INVAL if items of the
 * previous chunk are still waiting, after pft_frame_decoder_end(), or for NULL with
 * len > 0. */
PFT_API int pft_frame_decoder_feed(struct pft_frame_decoder *dec, const uint8_t *buf, size_t len);

/* No more input.  A partial frame left over becomes a TRUNCATED error item. */
PFT_API int pft_frame_decoder_end(struct pft_frame_decoder *dec);

/* Next item: 0 on success; -PFT_E_AGAIN when the chunk is used up;
 * -PFT_E_EOS after pft_frame_decoder_end() and the last item; -PFT_E_INVAL on misuse
 * (NULL, size smaller than struct pft_frame_item). */
PFT_API int pft_frame_decoder_next(struct pft_frame_decoder *dec, struct pft_frame_item *item,
                           size_t size);

/* Capture offset of the next byte the decoder will look at. */
PFT_API uint64_t pft_frame_decoder_get_offset(const struct pft_frame_decoder *dec);

/* Copy the counters into *out of size bytes (sizeof *out; a shorter or
 * longer struct from another version of this header gets the common part,
 * the rest zeroed).  0; -PFT_E_INVAL for NULL or size 0. */
PFT_API int pft_frame_decoder_get_stats(const struct pft_frame_decoder *dec,
                                        struct pft_frame_stats *out, size_t size);

/* Frame alignment recovery (CoreSight frames; on by default).  A capture that
 * lost or gained bytes (a DMA glitch, a dropped USB packet, a short read)
 * shifts every later frame.  The deformatter doubts a frame whose ID slots
 * name reserved IDs or IDs no source has used, or a run of frames whose
 * even slots' data have low bits that do not fit their other bits (learnt
 * per trace ID from the odd slots: what a shift by an even number of bytes,
 * which leaves the ID slots plausible, breaks); it then looks ahead 64
 * frames, weighs the 16 possible shifts (IDs in use, A-sync patterns in the
 * de-formatted bytes, the low bits), reports the bytes before the best one
 * as a PFT_FERR_REALIGN error and goes on from there.  Items are then
 * delayed by up to the lookahead (about 1 KiB of capture).  A caller that
 * sees the protocol break (packet errors) may call
 * pft_frame_decoder_realign() so that the next frames are weighed the same
 * way; when the current alignment is the best, nothing changes.  on = 0
 * switches recovery off (frames are taken as they come). */
PFT_API int pft_frame_decoder_set_realign(struct pft_frame_decoder *dec, int on);
PFT_API int pft_frame_decoder_realign(struct pft_frame_decoder *dec);

/* Forget everything (ID, alignment, offsets, counters), as after alloc. */
PFT_API void pft_frame_decoder_resync(struct pft_frame_decoder *dec);

/* ---- formatter ------------------------------------------------------------
 * The inverse: bytes of one or more sources -> frames.  The encoder keeps at
 * most one frame in progress; output is written in whole frames (16 bytes,
 * plus 4 for an FSYNC in TPIU format) into the caller's buffer. */
struct pft_frame_encoder;

/* Options of pft_frame_encoder_alloc (flags). */
#define PFT_FRAME_ENC_ID_EVERY_FRAME 0x1u /* start every frame with the current ID,
                                            so a reader starting at any frame knows it */

/* fmt: PFT_FRAME_CORESIGHT or PFT_FRAME_TPIU (RAW is refused).  fsync_every:
 * TPIU only, write an FSYNC before the first frame and then before every
 * fsync_every-th frame (0 = before the first frame only).  NULL on error. */
PFT_API struct pft_frame_encoder *pft_frame_encoder_alloc(enum pft_frame_format fmt,
                                                          unsigned fsync_every,
                                                          unsigned flags);
PFT_API void pft_frame_encoder_free(struct pft_frame_encoder *enc);

/* Append len bytes of trace ID id (0x01-0x6F; 0x00 and 0x70-0x7E are
 * accepted for tests) to the frames.  Writes finished frames into
 * out[0..cap) and returns the number of bytes written; *consumed receives
 * how many input bytes were taken (all of them when cap is large enough:
 * cap >= 20 * (len / 7 + 2) always suffices).  -PFT_E_INVAL for a bad id or
 * NULL; -PFT_E_NOSPC when not even one input byte fits. */
PFT_API int pft_frame_encoder_encode(struct pft_frame_encoder *enc, uint8_t id, const uint8_t *data,
                             size_t len, uint8_t *out, size_t cap, size_t *consumed);

/* Complete the frame in progress with null-ID padding and write it (also
 * when it is empty, if pad_empty is nonzero, to write at least one frame).
 * Returns bytes written (0 if nothing was pending), or -PFT_E_NOSPC when cap
 * < 20. */
PFT_API int pft_frame_encoder_flush(struct pft_frame_encoder *enc, uint8_t *out, size_t cap);

/* Convenience: frame a whole buffer of one source.  Returns the number of
 * bytes written to out (the frames, padded), -PFT_E_NOSPC if cap is too
 * small (see pft_frame_encoder_encode for a sufficient size), -PFT_E_INVAL. */
PFT_API int64_t pft_frame_encode_buffer(enum pft_frame_format fmt, uint8_t id,
                                        const uint8_t *data, size_t len,
                                        uint8_t *out, size_t cap);

/* Convenience: the de-formatted stream of one trace ID from a whole capture.
 * Writes up to cap bytes to out and returns the stream length (which may be
 * larger than cap: then only cap bytes were written); stats, if not NULL,
 * receives the counters.  -PFT_E_INVAL, -PFT_E_NOMEM. */
PFT_API int64_t pft_frame_extract(enum pft_frame_format fmt, uint8_t id, const uint8_t *capture,
                                  size_t len, uint8_t *out, size_t cap,
                                  struct pft_frame_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
