/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft ETMv3 packet layer: decoder (bytes -> packets) and encoder
 * (packets -> bytes), its exact inverse, for the ETMv3.0-3.5 signal protocol
 * (ARM IHI 0014, chapter 7) as emitted by Cortex-A5/A7/A8 and Cortex-R4/R5/R7.
 * Layouts, choices and the differences from OpenCSD: doc/etm3.md.
 *
 * As in the PFT packet layer (packet.h), the compression state that belongs
 * to the byte stream alone (last instruction address and instruction set,
 * last data address, running timestamp) is kept here, so every packet carries
 * its full values next to the raw sizes, and the encoder keeps the same state,
 * which makes encode(decode(bytes)) == bytes possible.
 *
 * The configuration is the same raw-register struct pft_config as for PFT:
 * ETMCR, ETMCCER, ETMIDR, ETMTRACEIDR (ETMCCR and ETMSYNCFR are not used).
 *
 *     dec = pft_etm3_decoder_alloc(&cfg);
 *     pft_etm3_decoder_feed(dec, buf, len);
 *     while (pft_etm3_decoder_next(dec, &pkt, sizeof pkt) == 0)
 *         printf("%s\n", pft_etm3_pkt_type_name(pkt.type));
 *     pft_etm3_decoder_end(dec); drain until -PFT_E_EOS; pft_etm3_decoder_free(dec); */
#ifndef PFT_ETM3_H
#define PFT_ETM3_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ETMv3-only register bits (IHI 0014 §3); the bits shared with the PTM
 * (cycle-accurate, context ID size, timestamps, VMID, ETMCCER, ETMIDR
 * version fields) are the PFT_ETM* names of common.h. */
#define PFT_ETM3_ETMCR_DATA_VALUE     (1u << 2)  /* data values traced */
#define PFT_ETM3_ETMCR_DATA_ADDRESS   (1u << 3)  /* data addresses traced */
#define PFT_ETM3_ETMCR_BRANCH_OUTPUT  (1u << 8)  /* every branch address output */
#define PFT_ETM3_ETMCR_DATA_ONLY      (1u << 20) /* data-only mode */
#define PFT_ETM3_ETMIDR_ALT_BRANCH    (1u << 20) /* alternative branch encoding (v3.4+) */
#define PFT_ETM3_ETMIDR_MAJOR         2u         /* ETMIDR[11:8] of an ETMv3 */

/* What the registers mean for an ETMv3 byte stream. */
struct pft_etm3_features {
	uint8_t minor;           /* ETMIDR[7:4]: 0..5 for ETMv3.0..ETMv3.5 */
	uint8_t cycle_accurate;  /* ETMCR[12] */
	uint8_t contextid_bytes; /* 0, 1, 2 or 4 from ETMCR[15:14] */
	uint8_t data_value;      /* ETMCR[2]: data values traced */
	uint8_t data_address;    /* ETMCR[3]: data addresses traced */
	uint8_t data_only;       /* ETMCR[20]: data-only mode (no instruction trace) */
	uint8_t branch_broadcast;/* ETMCR[8] */
	uint8_t timestamps;      /* ETMCR[28] (ETMv3.5) */
	uint8_t vmid;            /* ETMCR[30] (ETMv3.5) */
	uint8_t alt_branch;      /* ETMIDR[20] and minor >= 4: alternative branch encoding */
	uint8_t ts_bits;         /* 48 or 64 (ETMCCER[29]) */
	uint8_t virt_ext;        /* ETMCCER[26]: Virtualization Extensions (Hyp bit valid) */
	uint8_t security_ext;    /* ETMIDR[19] */
	uint8_t trace_id;        /* ETMTRACEIDR[6:0] */
};

/* Derive the features.  0, or -PFT_E_BAD_CONFIG when the registers cannot
 * describe an ETMv3 (ETMIDR[11:8] is not 2, minor above 5, trace ID 0 or
 * >= 0x70, data-only mode without data tracing), -PFT_E_INVAL for NULL or an
 * uninitialised struct.  *out is filled in either case.  msg (may be NULL)
 * receives a reason, NUL terminated and truncated to cap. */
PFT_API int pft_etm3_config_features(const struct pft_config *cfg,
				     struct pft_etm3_features *out, char *msg, size_t cap);

enum pft_etm3_pkt_type {
	PFT_ETM3_NONE = 0,
	PFT_ETM3_ASYNC,            /* >= 5 x 0x00, 0x80 */
	PFT_ETM3_ISYNC,            /* 0x08, or 0x70 with a cycle count */
	PFT_ETM3_PHDR,             /* P-header: atoms (and W cycles when cycle-accurate) */
	PFT_ETM3_BRANCH,           /* branch address, with or without exception bytes */
	PFT_ETM3_CYCLE_COUNT,      /* 0x04 */
	PFT_ETM3_TRIGGER,          /* 0x0C */
	PFT_ETM3_CONTEXT_ID,       /* 0x6E */
	PFT_ETM3_VMID,             /* 0x3C */
	PFT_ETM3_TIMESTAMP,        /* 0x42 / 0x46 */
	PFT_ETM3_EXCEPTION_RETURN, /* 0x76 */
	PFT_ETM3_EXCEPTION_ENTRY,  /* 0x7E (ARMv7-M) */
	PFT_ETM3_IGNORE,           /* 0x66 */
	/* data trace (only with ETMCR[3:2] != 0) */
	PFT_ETM3_DATA,             /* normal data: b00A0SS10 */
	PFT_ETM3_OOO_DATA,         /* out-of-order data: b0TT0SS00, TT != 0 */
	PFT_ETM3_OOO_PLACEHOLDER,  /* out-of-order placeholder: b01A1TT00, TT != 0 */
	PFT_ETM3_VALUE_NOT_TRACED, /* b011x1010 */
	PFT_ETM3_DATA_SUPPRESSED,  /* 0x62 */
	PFT_ETM3_STORE_FAILED,     /* 0x50 (data value trace only) */
	/* Not packets: accounting for bytes that are not decoded. */
	PFT_ETM3_UNSYNCED,         /* bytes skipped while searching for A-sync */
	PFT_ETM3_ERROR,            /* malformed bytes; reason = enum pft_etm3_error */
	PFT_ETM3_NR_TYPES
};

/* "async", "isync", "phdr", "branch", "cycle_count", "trigger", "context_id",
 * "vmid", "timestamp", "exception_return", "exception_entry", "ignore",
 * "data", "ooo_data", "ooo_placeholder", "value_not_traced",
 * "data_suppressed", "store_failed", "unsynced", "error"; "?" otherwise. */
PFT_API const char *pft_etm3_pkt_type_name(enum pft_etm3_pkt_type type);

/* Why an ERROR item was produced.  After every error the decoder discards its
 * state and searches for the next A-sync. */
enum pft_etm3_error {
	PFT_E3ERR_NONE = 0,
	PFT_E3ERR_RESERVED_HEADER, /* reserved header byte or P-header encoding */
	PFT_E3ERR_TRUNCATED,       /* stream ended inside a packet */
	PFT_E3ERR_BAD_ASYNC,       /* zeros not followed by 0x80, or fewer than 5 */
	PFT_E3ERR_BAD_ADDRESS,     /* reserved bits in branch address byte 5 */
	PFT_E3ERR_BAD_EXCEPTION,   /* malformed exception information byte */
	PFT_E3ERR_BAD_FIELD,       /* reserved bits set in the last byte of a
				      cycle count, timestamp or LSiP address */
	PFT_E3ERR_NO_DATA_TRACE,   /* data packet header while that data is not traced */
	PFT_E3ERR_NO_CONTEXT_ID,   /* 0x6E while the context ID size is 0 */
	PFT_E3ERR_NR
};
/* "reserved_header", "truncated", "bad_async", "bad_address",
 * "bad_exception", "bad_field", "no_data_trace", "no_context_id". */
PFT_API const char *pft_etm3_error_name(enum pft_etm3_error err);

/* packet flags */
#define PFT_E3F_CC        0x0001u /* ISYNC (0x70), CYCLE_COUNT: cycles valid */
#define PFT_E3F_NS        0x0002u /* ISYNC: info NS bit; BRANCH: NS of exception byte 0 */
#define PFT_E3F_HYP       0x0004u /* ISYNC: info Hyp bit; BRANCH: Hyp of exception byte 1 */
#define PFT_E3F_ALTIS     0x0008u /* ISYNC: info AltISA bit; BRANCH: AltISA of byte 0 */
#define PFT_E3F_EXC       0x0010u /* BRANCH: exception information present */
#define PFT_E3F_CANCEL    0x0020u /* BRANCH: exception cancels the last traced instruction */
#define PFT_E3F_EXC_OLD   0x0040u /* BRANCH: exception in the original (deprecated) byte-5 form */
#define PFT_E3F_LSIP      0x0080u /* ISYNC: load/store in progress, lsip_address valid */
#define PFT_E3F_INFO0     0x0100u /* ISYNC: bit 0 of the information byte */
#define PFT_E3F_NOADDR    0x0200u /* ISYNC: data-only mode, no address */
#define PFT_E3F_CID       0x0400u /* ISYNC: context_id present */
#define PFT_E3F_TS_R      0x0800u /* TIMESTAMP: header bit 2 */
#define PFT_E3F_DADDR     0x1000u /* data packets: address field present */
#define PFT_E3F_VARIANT   0x2000u /* VALUE_NOT_TRACED: header bit 4; DATA, OOO_PLACEHOLDER:
				     header bit 5 (address follows) set while data
				     addresses are not traced; ISYNC: bit 0 of the first
				     LSiP address byte */
#define PFT_E3F_JAZELLE   0x4000u /* ISYNC: info J bit */
#define PFT_E3F_E1        0x8000u /* BRANCH: exception byte 1 present */

#define PFT_ETM3_MAX_BYTES 24     /* bytes[] holds at most this many */

/* ISA of packets read before the first I-sync after a (re)sync. */
#define PFT_ETM3_ISA_UNKNOWN PFT_ISA_UNKNOWN

/* One decoded packet (or accounting item).  Fields not listed for a type are
 * 0 (and bytes[] beyond nbytes). */
struct pft_etm3_packet {
	uint64_t offset;       /* offset of the first byte in the ETMv3 byte stream */
	uint32_t size;         /* bytes covered (A-sync and UNSYNCED may exceed 24) */
	uint16_t type;         /* enum pft_etm3_pkt_type */
	uint16_t flags;        /* PFT_E3F_* */
	uint64_t address;      /* ISYNC, BRANCH: instruction address after decompression;
				  data packets with F_DADDR: data address after decompression */
	uint64_t timestamp;    /* TIMESTAMP: full value after merging */
	uint32_t cycles;       /* CYCLE_COUNT, ISYNC (F_CC): count; PHDR (cycle-accurate):
				  number of W (cycle) marks */
	uint32_t context_id;   /* ISYNC (F_CID), CONTEXT_ID */
	uint32_t atoms;        /* PHDR: bit i set = atom i is E (executed); bit 0 oldest */
	uint32_t data_value;   /* DATA, OOO_DATA: value (data_size bytes, little endian) */
	uint32_t lsip_address; /* ISYNC (F_LSIP): the second, compressed address */
	uint16_t exception;    /* BRANCH (F_EXC): exception number (9 bits; 3 with EXC_OLD) */
	uint8_t isa;           /* ISYNC, BRANCH: enum pft_isa after the packet */
	uint8_t atom_count;    /* PHDR: number of atoms, 0..16 */
	uint8_t format;        /* PHDR: P-header format 1..4 */
	uint8_t addr_bytes;    /* BRANCH: address bytes 1..5; ISYNC: LSiP address bytes;
				  data packets: data address bytes 1..5 */
	uint8_t cc_bytes;      /* CYCLE_COUNT, ISYNC (F_CC): bytes of the count */
	uint8_t ts_bytes;      /* TIMESTAMP: value bytes */
	uint8_t reason;        /* ISYNC: enum pft_isync_reason (packet.h values 0..3);
				  ERROR: enum pft_etm3_error */
	uint8_t vmid;          /* VMID */
	uint8_t exc_bytes;     /* BRANCH: exception information bytes 0..3 */
	uint8_t resume;        /* BRANCH: resume field of exception byte 2 (ARMv7-M) */
	uint8_t tag;           /* OOO_DATA, OOO_PLACEHOLDER: tag 1..3 */
	uint8_t data_size;     /* DATA, OOO_DATA: value bytes 0, 1, 2 or 4 */
	uint8_t daddr_hi;      /* data packets: bits [7:4] of data address byte 5 */
	uint8_t nbytes;        /* bytes[] valid: min(size, PFT_ETM3_MAX_BYTES) */
	uint8_t bytes[PFT_ETM3_MAX_BYTES]; /* raw bytes of the packet */
};

/* ---- decoder ------------------------------------------------------------
 * Streaming and pull-style, with the contract of the PFT decoder (packet.h):
 * feed chunks of any size, pull until -PFT_E_AGAIN, pft_etm3_decoder_end() at the
 * end, drain until -PFT_E_EOS.  Starts unsynchronised; skipped bytes come
 * out as one UNSYNCED item per run (split at 2^30 bytes).  Items never depend
 * on the chunking; the sizes of all items add up to the input length. */
struct pft_etm3_decoder;

/* NULL if out of memory or cfg fails pft_etm3_config_features(). */
PFT_API struct pft_etm3_decoder *pft_etm3_decoder_alloc(const struct pft_config *cfg);
PFT_API void pft_etm3_decoder_free(struct pft_etm3_decoder *dec);
/* The decoder borrows buf until the next feed; all items of the previous
 * chunk must have been pulled (else -PFT_E_INVAL). */
PFT_API int pft_etm3_decoder_feed(struct pft_etm3_decoder *dec, const uint8_t *buf, size_t len);
/* No more input: a partial packet left over becomes a TRUNCATED error item. */
PFT_API int pft_etm3_decoder_end(struct pft_etm3_decoder *dec);
/* 0 on success; -PFT_E_AGAIN, -PFT_E_EOS, -PFT_E_INVAL.  size = sizeof *pkt. */
PFT_API int pft_etm3_decoder_next(struct pft_etm3_decoder *dec, struct pft_etm3_packet *pkt,
			  size_t size);
/* Up to max items into pkts[0..max-1], exactly as that many calls of
 * pft_etm3_decoder_next() would give them.  Returns the number written (1..max, at
 * most INT_MAX); if there are none, what pft_etm3_decoder_next() returns (also
 * -PFT_E_INVAL for max == 0).  size is sizeof *pkts (the array stride).
 * Runs of one-byte P-headers are decoded in a tight loop. */
PFT_API int pft_etm3_decoder_next_batch(struct pft_etm3_decoder *dec, struct pft_etm3_packet *pkts,
				size_t max, size_t size);
/* Items counted instead of returned (pft_etm3_decoder_count): per enum
 * pft_etm3_pkt_type, the number of items and the bytes they cover.  The
 * arrays have room for types added later. */
#define PFT_ETM3_COUNT_TYPES 32
struct pft_etm3_counts {
	uint64_t items[PFT_ETM3_COUNT_TYPES];
	uint64_t bytes[PFT_ETM3_COUNT_TYPES];
	uint64_t first_error; /* offset of the first ERROR item counted into this
				 struct (set when items[PFT_ETM3_ERROR] was 0) */
};
/* Every item pft_etm3_decoder_next() would give until it returns a negative
 * status, added to *counts instead of written out: the same items and the
 * same decoder state after.  Runs of one-byte P-headers (most of an ETMv3
 * stream) are counted eight bytes a step without building a packet
 * (doc/etm3.md, "Counting").  Returns that status (-PFT_E_AGAIN,
 * -PFT_E_EOS), or -PFT_E_INVAL for NULL or size 0; size is sizeof *counts
 * (a shorter struct gets its first fields). */
PFT_API int pft_etm3_decoder_count(struct pft_etm3_decoder *dec, struct pft_etm3_counts *counts,
				   size_t size);
/* P-headers read in place, for a consumer that walks them itself
 * (pft_etm3_flow_decoder_put_from() does): nearly every packet of an ETMv3
 * stream is a one-byte P-header, and it needs no packet struct.
 * pft_etm3_decoder_peek() gives the run of P-header bytes at the decoder's
 * position in the current chunk, when the next items are read from the
 * chunk alone (synchronised, not inside an A-sync, no packet cut by the
 * chunk's start and no item waiting): *bytes (the caller's buffer),
 * *offset the stream offset of the first, and how many, up to the first
 * byte that is not a P-header or the chunk's end; 0 otherwise (take the
 * next item with pft_etm3_decoder_next()).  pft_etm3_decoder_skip_phdrs()
 * passes the first n of them (pft_etm3_phdr_byte() tells what each is),
 * exactly as n calls of pft_etm3_decoder_next() would pass them;
 * -PFT_E_INVAL and nothing passed when n is more than the last peek gave. */
PFT_API size_t pft_etm3_decoder_peek(struct pft_etm3_decoder *dec, const uint8_t **bytes,
				     uint64_t *offset);
PFT_API int pft_etm3_decoder_skip_phdrs(struct pft_etm3_decoder *dec, size_t n);
/* The P-header that byte b is under features f: 1 and *pkt as
 * pft_etm3_decoder_next() would give it (offset 0); 0 and *pkt zeroed when b
 * is not a P-header (another header, or a reserved P-header encoding);
 * -PFT_E_INVAL for NULL or size 0.  size is sizeof *pkt. */
PFT_API int pft_etm3_phdr_byte(const struct pft_etm3_features *f, uint8_t b,
			       struct pft_etm3_packet *pkt, size_t size);
/* Drop state and search for the next A-sync (a gap in the stream).  The
 * bytes of a packet cut by the gap come out first as an UNSYNCED item:
 * pull it before the next feed. */
PFT_API void pft_etm3_decoder_resync(struct pft_etm3_decoder *dec);
/* Offset of the first byte not yet reported in an item. */
PFT_API uint64_t pft_etm3_decoder_get_offset(const struct pft_etm3_decoder *dec);
/* Convenience: decode a whole buffer, cb for every item; stops with the
 * callback's value if nonzero.  0 at the end, or a negative error. */
PFT_API int pft_etm3_decode_buffer(const struct pft_config *cfg, const uint8_t *buf, size_t len,
				   int (*cb)(const struct pft_etm3_packet *pkt, void *arg),
				   void *arg);

/* ---- encoder ------------------------------------------------------------
 * The inverse, keeping the same compression state (last instruction address
 * and ISA, AltISA state, last data address, last timestamp).  Fields used:
 *   ASYNC:   size (>= 6; 0 means 6)
 *   ISYNC:   address, isa, reason, flags NS/HYP/ALTIS/INFO0/LSIP/NOADDR,
 *            cycles + cc_bytes if F_CC (header 0x70), context_id if the
 *            context ID size > 0, lsip_address + addr_bytes if F_LSIP.
 *            The T bit comes from isa (Thumb/ThumbEE), J from isa Jazelle.
 *   PHDR:    format, atoms, atom_count, cycles (as the decoder reports them)
 *   BRANCH:  address, isa, flags EXC/NS/HYP/ALTIS/CANCEL/EXC_OLD, exception,
 *            exc_bytes, resume; address bytes = max(addr_bytes, fewest that
 *            carry every changed bit; 5 on an ISA change)
 *   CYCLE_COUNT: cycles, cc_bytes; TIMESTAMP: timestamp, ts_bytes, F_TS_R
 *   CONTEXT_ID, VMID: their field; data packets: address (F_DADDR),
 *            addr_bytes, daddr_hi, data_value, data_size, tag, F_VARIANT
 *   TRIGGER, EXCEPTION_RETURN/ENTRY, IGNORE, DATA_SUPPRESSED, STORE_FAILED.
 * Counts (cc_bytes, ts_bytes, addr_bytes) = max(given, fewest needed). */
struct pft_etm3_encoder;

PFT_API struct pft_etm3_encoder *pft_etm3_encoder_alloc(const struct pft_config *cfg);
PFT_API void pft_etm3_encoder_free(struct pft_etm3_encoder *enc);
/* Bytes written (> 0), -PFT_E_NOSPC (nothing written, state unchanged), or
 * -PFT_E_INVAL for a packet this configuration cannot carry. */
PFT_API int pft_etm3_encoder_encode(struct pft_etm3_encoder *enc, const struct pft_etm3_packet *pkt,
				uint8_t *out, size_t cap);
/* Forget the compression state, as the decoder does on a resync. */
PFT_API void pft_etm3_encoder_reset(struct pft_etm3_encoder *enc);

#ifdef __cplusplus
}
#endif
#endif
