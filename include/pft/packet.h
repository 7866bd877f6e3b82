/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft packet layer: PFT packet decoder (bytes -> packets) and encoder
 * (packets -> bytes), its exact inverse.  Layouts: spec chapter 4 and
 * doc/packets.md.
 *
 * Departure from "packets stay raw": the address-compression base (last
 * I-sync / branch / WPU address and ISA, spec 4.5.4) and the running
 * timestamp (compressed bytes merged, Gray decoded) are properties of the
 * packet stream alone, so the packet layer keeps them and every packet
 * carries its full address / timestamp next to the raw sizes (addr_bytes,
 * ts_bytes, cc_bytes).  The encoder keeps the same state, which is what
 * makes encode(decode(bytes)) == bytes possible.
 *
 *     dec = pft_pkt_decoder_alloc(&cfg);
 *     for each chunk:
 *         pft_pkt_decoder_feed(dec, chunk, len);
 *         while (pft_pkt_decoder_next(dec, &pkt, sizeof pkt) == 0)
 *             printf("%s\n", pft_pkt_type_name(pkt.type));  (then -PFT_E_AGAIN)
 *     pft_pkt_decoder_end(dec); drain until -PFT_E_EOS; pft_pkt_decoder_free(dec);
 *
 *     enc = pft_pkt_encoder_alloc(&cfg);
 *     n = pft_pkt_encoder_encode(enc, &pkt, out, sizeof out);  (bytes written)
 *     pft_pkt_encoder_free(enc); */
#ifndef PFT_PACKET_H
#define PFT_PACKET_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pft_pkt_type {
	PFT_PKT_NONE = 0,
	PFT_PKT_ASYNC,            /* >= 5 x 0x00, 0x80 */
	PFT_PKT_ISYNC,
	PFT_PKT_ATOM,
	PFT_PKT_BRANCH,           /* branch address, with or without exception */
	PFT_PKT_WAYPOINT_UPDATE,
	PFT_PKT_TRIGGER,
	PFT_PKT_CONTEXT_ID,
	PFT_PKT_VMID,
	PFT_PKT_TIMESTAMP,
	PFT_PKT_EXCEPTION_RETURN,
	PFT_PKT_IGNORE,
	/* Not packets: accounting for bytes that are not decoded. */
	PFT_PKT_UNSYNCED,         /* bytes skipped while searching for A-sync */
	PFT_PKT_ERROR,            /* malformed bytes; `reason` = enum pft_pkt_error */
	PFT_PKT_NR_TYPES
};

/* JSON / listing name: "async", "isync", "atom", "branch", "waypoint_update",
 * "trigger", "context_id", "vmid", "timestamp", "exception_return", "ignore",
 * "unsynced", "error". */
PFT_API const char *pft_pkt_type_name(enum pft_pkt_type type);

/* Why a PFT_PKT_ERROR item was produced.  After every error the decoder
 * discards its state and searches for the next A-sync. */
enum pft_pkt_error {
	PFT_PERR_NONE = 0,
	PFT_PERR_RESERVED_HEADER, /* reserved header byte (incl. 0x80/0x82 without CA) */
	PFT_PERR_TRUNCATED,       /* stream ended inside a packet */
	PFT_PERR_BAD_ASYNC,       /* >= 5 zeros not followed by 0x80 */
	PFT_PERR_BAD_ADDRESS,     /* undefined ISA bits in an address byte 4, Jazelle WPU */
	PFT_PERR_NO_CONTEXT_ID,   /* 0x6E while the context ID size is 0 */
	PFT_PERR_NO_VMID,         /* 0x3C on a PFTv1.0 PTM */
	PFT_PERR_NR
};
PFT_API const char *pft_pkt_error_name(enum pft_pkt_error err);

enum pft_isync_reason {
	PFT_ISYNC_PERIODIC = 0,
	PFT_ISYNC_TRACE_ON = 1,
	PFT_ISYNC_OVERFLOW = 2,
	PFT_ISYNC_DEBUG_EXIT = 3
};
/* "periodic", "trace_on", "overflow", "debug_exit" */
PFT_API const char *pft_isync_reason_name(enum pft_isync_reason r);

/* Exception numbers of the branch packet (spec Table 4-4, ARMv7-A/R). */
enum pft_exception {
	PFT_EXC_NONE = 0, PFT_EXC_DEBUG_HALT = 1, PFT_EXC_SMC = 2, PFT_EXC_HYP = 3,
	PFT_EXC_ASYNC_DATA_ABORT = 4, PFT_EXC_THUMBEE_CHECK = 5,
	PFT_EXC_RESET = 8, PFT_EXC_UNDEFINED = 9, PFT_EXC_SVC = 10,
	PFT_EXC_PREFETCH_ABORT = 11, PFT_EXC_DATA_ABORT = 12, PFT_EXC_GENERIC = 13,
	PFT_EXC_IRQ = 14, PFT_EXC_FIQ = 15
};
/* "debug_halt", "smc", "hyp", ... or "exception_<n>" for others (into a
 * static table for 0..15, "other" above). */
PFT_API const char *pft_exception_name(unsigned code);

/* packet flags */
#define PFT_PKT_F_CC      0x0001u /* cycles valid (cycle count field present) */
#define PFT_PKT_F_E0      0x0002u /* BRANCH: exception byte 0 present (ns, altis valid) */
#define PFT_PKT_F_E1      0x0004u /* BRANCH: exception byte 1 present (hyp valid) */
#define PFT_PKT_F_NS      0x0008u /* ISYNC, BRANCH: Non-secure (BRANCH: state after the
                                     packet, from E0 or unchanged) */
#define PFT_PKT_F_HYP     0x0010u /* ISYNC, BRANCH: Hyp mode (BRANCH: from E1 or unchanged) */
#define PFT_PKT_F_ALTIS   0x0020u /* ISYNC: info bit; BRANCH / WPU: the E0 / info bit when
                                     present, else 1 exactly when isa is ThumbEE */
#define PFT_PKT_F_TS_R    0x0040u /* TIMESTAMP: R bit (clock frequency changed) */
#define PFT_PKT_F_INFO    0x0080u /* WPU: info byte present */
#define PFT_PKT_F_CID     0x0100u /* ISYNC: context_id present (size > 0) */

#define PFT_PKT_MAX_BYTES 16      /* bytes[] holds at most this many */

/* One decoded packet (or accounting item).  Fields not listed for a type
 * are 0 (and bytes[] beyond nbytes).  A BRANCH or WPU read before the first
 * I-sync / 5-byte address after a (re)sync has isa PFT_ISA_UNKNOWN: its
 * address is only the bits it carries (doc/packets.md). */
struct pft_packet {
	uint64_t offset;      /* offset of the first byte in the PFT byte stream */
	uint32_t size;        /* bytes covered (A-sync and UNSYNCED may exceed 16) */
	uint16_t type;        /* enum pft_pkt_type */
	uint16_t flags;       /* PFT_PKT_F_* */
	uint64_t address;     /* ISYNC, BRANCH, WPU: full address after decompression */
	uint64_t timestamp;   /* TIMESTAMP: full value after merge and Gray decode */
	uint32_t cycles;      /* cycle count, valid if PFT_PKT_F_CC (0xFFFFFFFF = overflow) */
	uint32_t context_id;  /* ISYNC (F_CID), CONTEXT_ID */
	uint32_t atoms;       /* ATOM: bit i set = atom i is E; bit 0 = oldest */
	uint16_t exception;   /* BRANCH: exception number, 0 = none */
	uint8_t isa;          /* ISYNC, BRANCH, WPU: enum pft_isa after the packet */
	uint8_t atom_count;   /* ATOM: number of atoms, 1..5 */
	uint8_t addr_bytes;   /* BRANCH, WPU: address bytes 1..5 in the packet */
	uint8_t cc_bytes;     /* bytes of the cycle count field (0 if none) */
	uint8_t ts_bytes;     /* TIMESTAMP: value bytes 1..9 */
	uint8_t reason;       /* ISYNC: enum pft_isync_reason; ERROR: enum pft_pkt_error */
	uint8_t vmid;         /* VMID */
	uint8_t nbytes;       /* bytes[] valid: min(size, PFT_PKT_MAX_BYTES) */
	uint8_t bytes[PFT_PKT_MAX_BYTES]; /* raw bytes of the packet */
};

/* ---- decoder ------------------------------------------------------------
 * Streaming and pull-style.  Feed the byte stream of one trace source (already
 * de-formatted) in chunks of any size; pull packets until -PFT_E_AGAIN; feed
 * the next chunk; call pft_pkt_decoder_end() at the end and drain until -PFT_E_EOS.
 * A packet that straddles two chunks is returned once the second arrives (the
 * decoder copies at most one packet's worth of bytes).
 *
 * The decoder starts unsynchronised and searches for an A-sync; skipped bytes
 * come out as one PFT_PKT_UNSYNCED item per run, when the A-sync is found, at
 * pft_pkt_decoder_end(), or when the run reaches 2^30 bytes (a longer run is split
 * there, into items of 2^30 bytes).  The run is counted across feeds, not
 * copied (its first 16 bytes are kept for bytes[]).  An A-sync has at most
 * 2^29 zeros; zeros before the last 2^29 are unsynced bytes.  The items never
 * depend on how the input is chunked: random chunks give exactly the items
 * of a single-buffer decode.  Every byte fed comes out in exactly one item:
 * the sizes of all items add up to the input length. */
struct pft_pkt_decoder;

/* NULL if out of memory or cfg fails pft_config_features(). */
PFT_API struct pft_pkt_decoder *pft_pkt_decoder_alloc(const struct pft_config *cfg);
PFT_API void pft_pkt_decoder_free(struct pft_pkt_decoder *dec);

/* Give the next chunk.  The decoder borrows buf until the next feed; all
 * packets of the previous chunk must have been pulled (else -PFT_E_INVAL). */
PFT_API int pft_pkt_decoder_feed(struct pft_pkt_decoder *dec, const uint8_t *buf, size_t len);

/* No more input: a partial packet left over becomes a TRUNCATED error item. */
PFT_API int pft_pkt_decoder_end(struct pft_pkt_decoder *dec);

/* Next item.  0 on success; -PFT_E_AGAIN when the chunk is used up;
 * -PFT_E_EOS after pft_pkt_decoder_end() and the last item; -PFT_E_INVAL on misuse.
 * size is sizeof *pkt (for ABI growth). */
PFT_API int pft_pkt_decoder_next(struct pft_pkt_decoder *dec, struct pft_packet *pkt, size_t size);

/* Up to max items into pkts[0..max-1], exactly as that many calls of
 * pft_pkt_decoder_next() would give them (the same items, the same state after).
 * Returns the number of items written (1..max, at most INT_MAX); if there
 * are none, what pft_pkt_decoder_next() returns: -PFT_E_AGAIN when the chunk is used
 * up, -PFT_E_EOS at the end, -PFT_E_INVAL on misuse (also max == 0).
 * size is sizeof *pkts (the array stride).  Elements after the ones counted
 * (up to max) may have been written to.  Fewer instructions per item than
 * one call per item: the decoder state stays in registers (doc/packets.md). */
PFT_API int pft_pkt_decoder_next_batch(struct pft_pkt_decoder *dec, struct pft_packet *pkts, size_t max,
			       size_t size);

/* Items counted instead of returned (pft_pkt_decoder_count): per enum
 * pft_pkt_type, the number of items and the bytes they cover.  The arrays
 * have room for types added later. */
#define PFT_PKT_COUNT_TYPES 16
struct pft_pkt_counts {
	uint64_t items[PFT_PKT_COUNT_TYPES];
	uint64_t bytes[PFT_PKT_COUNT_TYPES];
	uint64_t first_error; /* offset of the first ERROR item counted into this
	                         struct (set when items[PFT_PKT_ERROR] was 0) */
};

/* Every item pft_pkt_decoder_next() would give until it returns a negative
 * status, added to *counts instead of written out: the same items and the
 * same decoder state after, at a fraction of the cost (no struct
 * pft_packet is built for the common packets: doc/packets.md, "Counting").
 * Returns that status (-PFT_E_AGAIN when the chunk is used up, -PFT_E_EOS
 * at the end), or -PFT_E_INVAL for NULL or size 0.  size is sizeof *counts
 * (a shorter struct gets its first fields, as for _next). */
PFT_API int pft_pkt_decoder_count(struct pft_pkt_decoder *dec, struct pft_pkt_counts *counts,
				  size_t size);

/* Resynchronisation at an I-sync.  An unsynchronised decoder looks for an
 * A-sync; it may also take an I-sync whose fixed bits hold (doc/packets.md)
 * as the point to go on from, since many streams hold far fewer A-syncs
 * than I-syncs (filtered trace starts with an I-sync every time it turns
 * on).  The bytes passed over are an UNSYNCED item either way. */
enum pft_isync_resync {
	PFT_ISYNC_RESYNC_OFF = 0,    /* only an A-sync synchronises */
	PFT_ISYNC_RESYNC_LOST = 1,   /* default: the first synchronisation is at
	                                an A-sync, as the architecture asks; after
	                                sync is lost (an error, a gap,
	                                pft_pkt_decoder_resync()) an I-sync too */
	PFT_ISYNC_RESYNC_ALWAYS = 2  /* an I-sync also for the first one: for a
	                                stream whose A-syncs were lost; a false
	                                I-sync in the bytes before the first real
	                                packet is possible (about one in 2,000 to
	                                6,000 random bytes passes the checks) */
};
/* -PFT_E_INVAL for NULL or an unknown mode. */
PFT_API int pft_pkt_decoder_set_isync_resync(struct pft_pkt_decoder *dec, enum pft_isync_resync mode);

/* Drop state and search for the next A-sync (as after an error), or I-sync
 * (see pft_pkt_decoder_set_isync_resync). */
PFT_API void pft_pkt_decoder_resync(struct pft_pkt_decoder *dec);

/* Offset of the first byte not yet reported in an item (the sum of the
 * sizes of the items returned so far). */
PFT_API uint64_t pft_pkt_decoder_get_offset(const struct pft_pkt_decoder *dec);

/* Convenience: decode a whole buffer.  Calls cb for every item; stops and
 * returns the callback's value if it is nonzero.  Returns 0 at the end. */
PFT_API int pft_pkt_decode_buffer(const struct pft_config *cfg, const uint8_t *buf,
                                  size_t len,
                                  int (*cb)(const struct pft_packet *pkt, void *arg),
                                  void *arg);

/* ---- encoder ------------------------------------------------------------
 * The inverse.  Keeps the same compression state as the decoder (address
 * base and ISA, NS/AltIS/Hyp last sent, last timestamp).  Fields used:
 *   ASYNC:     size (number of bytes, >= 6; 0 means 6)
 *   ISYNC:     address, isa, reason, flags NS/HYP, cycles (+F_CC; written only
 *              if CA and reason != periodic), context_id (if the CID size > 0)
 *   ATOM:      atoms, atom_count (1..5, or 1 with CA), cycles if CA
 *   BRANCH:    address, isa, exception, flags NS/HYP/ALTIS, cycles if CA.
 *              Address bytes = max(addr_bytes, fewest that carry every changed
 *              bit, 2 if exception bytes are needed; 5 on an ISA change).
 *              E0 is written if F_E0, exception != 0, or NS/AltIS/Hyp differ
 *              from the last I-sync/branch; E1 if F_E1, exception > 15, or (v1.1)
 *              Hyp differs.
 *   WPU:       address, isa (same compression), F_INFO/F_ALTIS
 *   TIMESTAMP: timestamp, F_TS_R; value bytes = max(ts_bytes, fewest that carry
 *              every changed bit); all of them for the first timestamp
 *              after a reset if ts_bytes is 0; cycles if CA
 *   CONTEXT_ID, VMID, TRIGGER, EXCEPTION_RETURN, IGNORE: their one field.
 * cc bytes = max(cc_bytes, fewest for the value). */
struct pft_pkt_encoder;

PFT_API struct pft_pkt_encoder *pft_pkt_encoder_alloc(const struct pft_config *cfg);
PFT_API void pft_pkt_encoder_free(struct pft_pkt_encoder *enc);

/* Encode one packet into out.  Returns the number of bytes written (> 0),
 * -PFT_E_NOSPC if cap is too small (nothing written, state unchanged),
 * -PFT_E_INVAL for a packet that cannot be encoded under this configuration
 * (e.g. 3 atoms with CA, CONTEXT_ID with size 0, VMID on v1.0). */
PFT_API int pft_pkt_encoder_encode(struct pft_pkt_encoder *enc, const struct pft_packet *pkt,
                           uint8_t *out, size_t cap);

/* Forget the compression state (next branch gets 5 bytes, next timestamp is
 * full), as after an A-sync / I-sync in the decoder. */
PFT_API void pft_pkt_encoder_reset(struct pft_pkt_encoder *enc);

#ifdef __cplusplus
}
#endif
#endif
