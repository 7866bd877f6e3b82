/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft probe (pft_probe_): what is in a capture nobody described.
 *
 * Bytes in, a report out.  The probe finds
 *   - the layout: raw single-source stream, CoreSight 16-byte frames, or a
 *     TPIU port capture (FSYNC/HSYNC; aligned on a frame or not), and
 *     whether the buffer looks wrapped (streams that begin mid-packet);
 *   - for every trace ID with data: its byte count and the protocol it looks
 *     like (PFT 1.0 / 1.1, ETMv3, ETMv4/ETE, STM, ITM, or unknown), with the
 *     evidence (sync patterns, share of bytes lost to errors when read as PFT);
 *   - for every PFT stream: the configuration the bytes imply (cycle-accurate,
 *     context ID size, timestamps, VMID, PFT version, branch broadcast), each
 *     option with a confidence, found by decoding the stream under every
 *     candidate configuration and scoring bytes lost, errors and the
 *     consistency of the timestamps;
 *   - for every ETMv3 stream, the same way: cycle-accurate, context ID size,
 *     the branch encoding (original or alternative), data trace,
 *     timestamps, VMID.  Where the bytes cannot tell an option
 *     (the return stack needs the program image; the version needs VMID or
 *     timestamp packets), its confidence is PFT_PROBE_CONF_NONE and the value
 *     is the default of pft_config_init().
 * Nothing is printed and nothing is kept: the report is the caller's.
 *
 *     struct pft_probe_report rep = { .size = sizeof rep };
 *     if (pft_probe_buffer(capture, len, PFT_PROBE_LAYOUT_UNKNOWN, &rep) == 0)
 *         printf("%s\n", pft_probe_layout_name(rep.layout)); */
#ifndef PFT_PROBE_H
#define PFT_PROBE_H

#include "pft/common.h"
#include "pft/frame.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pft_probe_layout {
	PFT_PROBE_LAYOUT_UNKNOWN = 0, /* nothing fits: neither frames nor a stream of a known protocol */
	PFT_PROBE_LAYOUT_RAW,         /* one source's bytes, no frames */
	PFT_PROBE_LAYOUT_FRAMES,      /* CoreSight 16-byte frames (ETB/ETF/ETR memory) */
	PFT_PROBE_LAYOUT_TPIU         /* frames with FSYNC/HSYNC (trace port capture) */
};
/* "unknown", "raw", "frames", "tpiu" (the --format names of pft dump/decode) */
PFT_API const char *pft_probe_layout_name(enum pft_probe_layout l);
/* The deformatter's format for a layout (UNKNOWN: PFT_FRAME_RAW). */
PFT_API enum pft_frame_format pft_probe_frame_format(enum pft_probe_layout l);

enum pft_probe_proto {
	PFT_PROBE_PROTO_UNKNOWN = 0,
	PFT_PROBE_PROTO_PFT,   /* PFT 1.0 / 1.1 (PTM); see pft_probe_stream.config */
	PFT_PROBE_PROTO_ETM3,  /* A-sync like PFT, decodes as ETMv3 and not as PFT */
	PFT_PROBE_PROTO_ETM4,  /* ETMv4 / ETE: A-sync of 11 zeros then 0x80 */
	PFT_PROBE_PROTO_STM,   /* STPv2: ASYNC of 21 F nibbles then a 0 nibble */
	PFT_PROBE_PROTO_ITM,   /* the PFT A-sync (ITM's sync), decodes as neither PFT nor
	                          ETMv3, and reads as ITM packets without a reserved header */
	PFT_PROBE_PROTO_NR
};
/* "unknown", "pft", "etmv3", "etmv4", "stm", "itm" */
PFT_API const char *pft_probe_proto_name(enum pft_probe_proto p);

/* How sure the probe is.  NONE: the bytes cannot tell (value is a default). */
enum pft_probe_conf {
	PFT_PROBE_CONF_NONE = 0,
	PFT_PROBE_CONF_LOW,
	PFT_PROBE_CONF_MEDIUM,
	PFT_PROBE_CONF_HIGH
};
/* "none", "low", "medium", "high" */
PFT_API const char *pft_probe_conf_name(enum pft_probe_conf c);

/* The options of a PFT stream, indexes of pft_probe_stream.conf[]. */
enum pft_probe_opt {
	PFT_PROBE_OPT_VERSION = 0,    /* PFT 1.0 or 1.1 (ETMIDR[7:4]) */
	PFT_PROBE_OPT_CYCLE_ACCURATE, /* ETMCR[12] */
	PFT_PROBE_OPT_CONTEXTID,      /* ETMCR[15:14] */
	PFT_PROBE_OPT_TIMESTAMPS,     /* ETMCR[28] */
	PFT_PROBE_OPT_VMID,           /* ETMCR[30] */
	PFT_PROBE_OPT_RETURN_STACK,   /* ETMCR[29]: never told by the bytes alone */
	PFT_PROBE_OPT_BRANCH_BROADCAST, /* ETMCR[8] */
	PFT_PROBE_OPT_ALT_BRANCH,     /* ETMv3: ETMIDR[20], the alternative branch encoding */
	PFT_PROBE_OPT_DATA_TRACE,     /* ETMv3: ETMCR[3:2], data values / addresses traced */
	PFT_PROBE_NR_OPTS
};
/* "version", "cycle_accurate", "contextid_bytes", "timestamps", "vmid",
 * "return_stack", "branch_broadcast", "alt_branch", "data_trace" */
PFT_API const char *pft_probe_opt_name(enum pft_probe_opt o);

#define PFT_PROBE_NO_ASYNC UINT64_MAX
#define PFT_PROBE_ID_RAW 0xFF /* pft_probe_stream.id of a raw capture's stream */

struct pft_probe_stream {
	uint8_t id;            /* trace ID, or PFT_PROBE_ID_RAW */
	uint8_t protocol;      /* enum pft_probe_proto */
	uint8_t proto_conf;    /* enum pft_probe_conf */
	uint8_t conf[PFT_PROBE_NR_OPTS]; /* PFT, ETMv3: enum pft_probe_conf of each option
	                            (ALT_BRANCH and DATA_TRACE: ETMv3 only) */
	uint64_t bytes;        /* bytes of this ID in the capture */
	uint64_t probed;       /* bytes the probe looked at (<= bytes; see PFT_PROBE_MAX_STREAM) */
	/* sync patterns */
	uint64_t first_async;  /* stream offset of the first A-sync, or PFT_PROBE_NO_ASYNC */
	uint32_t asyncs;       /* 5 to 10 x 0x00 then 0x80 (PFT, ETMv3) */
	uint32_t etm4_asyncs;  /* 11 or more x 0x00 then 0x80 (ETMv4/ETE) */
	uint32_t stm_asyncs;   /* 10 or more x 0xFF then 0x0F or 0xF0 */
	uint32_t etm3_isyncs;  /* 0x70 (ETMv3 cycle-accurate I-sync, reserved in PFT) just after an A-sync */
	/* the best decode as PFT (config below) */
	uint64_t lost;         /* bytes after the first A-sync in error or unsynced items */
	uint64_t errors;       /* error items (a truncated packet at the very end not counted) */
	uint64_t packets, isyncs, branches, e_atoms, n_atoms, timestamps, context_ids, vmids;
	uint64_t ts_backwards; /* timestamps smaller than the one before */
	/* the best decode as ETMv3 (streams with an A-sync: ETMv3 ones, and PFT
	 * ones, which are weighed against it; else UINT64_MAX) */
	uint64_t etm3_lost, etm3_errors, etm3_isync_packets;
	/* ETMv3 streams: timestamp, VMID and data-trace packets of that decode */
	uint64_t etm3_timestamps, etm3_vmids, etm3_data;
	/* read as ITM from the first sync (when ETMv3 was tried and did not fit;
	 * else UINT64_MAX) */
	uint64_t itm_packets, itm_reserved, itm_swit;
	uint64_t alt_lost[PFT_PROBE_NR_OPTS]; /* version, cycle_accurate, contextid_bytes
	                            (ETMv3: and alt_branch, data_trace):
	                            bytes lost by the best candidate with another value
	                            of the option (UINT64_MAX: it ties) */
	struct pft_config config; /* PFT, ETMv3: the configuration inferred (ETMv3: ETMIDR
	                             of an ETMv3.5, with bit 20 for the alternative
	                             encoding); ETMTRACEIDR = id */
};

#define PFT_PROBE_MAX_STREAMS 128
#define PFT_PROBE_MAX_STREAM (1u << 20) /* bytes per stream decoded under each candidate */

struct pft_probe_report {
	size_t size;             /* sizeof(struct pft_probe_report), set by the caller */
	uint8_t layout;          /* enum pft_probe_layout */
	uint8_t layout_conf;     /* enum pft_probe_conf */
	uint8_t aligned;         /* TPIU: the capture starts with an FSYNC; FRAMES: always 1 */
	uint8_t wrapped;         /* a PFT stream starts mid-packet, or frame data comes
	                            before the first ID: a circular buffer that wrapped
	                            (or a capture started after the trace) */
	uint64_t capture_len;    /* bytes given */
	uint64_t fsyncs;         /* FF FF FF 7F patterns found */
	uint64_t lead_bytes;     /* TPIU: bytes before the first FSYNC */
	uint64_t frame_errors;   /* bytes in frame error items under the chosen layout */
	uint64_t frames;         /* frames read under the chosen layout */
	uint64_t unknown_id;     /* frame data bytes before the first ID byte */
	unsigned nstreams;       /* streams[] used, sorted by ID; null ID 0x00 is left out */
	struct pft_probe_stream streams[PFT_PROBE_MAX_STREAMS];
};

/* Probe a whole capture.  layout: PFT_PROBE_LAYOUT_UNKNOWN to infer it, or the
 * layout to assume (e.g. a snapshot's buffer format).  rep->size is the
 * size of the caller's struct (sizeof *rep; an older, shorter or a newer,
 * longer one gets the common part, the rest zeroed, and rep->size the size
 * filled).  Returns 0; -PFT_E_INVAL (NULL, bad size or layout);
 * -PFT_E_NOMEM.  An empty capture gives layout UNKNOWN and no streams. */
PFT_API int pft_probe_buffer(const uint8_t *buf, size_t len, enum pft_probe_layout layout,
                             struct pft_probe_report *rep);

/* Probe the byte stream of one source (already de-formatted): the protocol
 * and, for PFT, the configuration.  *st is filled (id and bytes included). */
PFT_API int pft_probe_stream(const uint8_t *buf, size_t len, uint8_t id,
                             struct pft_probe_stream *st);

/* The number of streams of the report that look like PFT. */
PFT_API unsigned pft_probe_pft_count(const struct pft_probe_report *rep);

#ifdef __cplusplus
}
#endif
#endif
