/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft: ETMv2 trace port: capture format, TFO codec, port generator and
 * synchroniser (pft_tfo_).
 *
 * An ETMv2 trace port is sampled once per cycle: PIPESTAT[3:0] (pipeline
 * status) and TRACEPKT[n:0] (n = 3, 7 or 15), which carries the bytes of the
 * ETM's FIFO.  Trace FIFO Offsets (TFOs) tell a decoder where the next TFO
 * packet header sits in that byte stream (ARM IHI 0014, "ETMv2 signal
 * protocol", Trace FIFO offsets).  This layer turns port cycles into the
 * byte-aligned FIFO stream plus the pipeline status sequence, and back.
 * doc/tfo.md describes the model, the file format and every choice made
 * where the specification is silent.
 *
 *     dec = pft_tfo_decoder_alloc(&port);            // width, ...
 *     for each port cycle c (PIPESTAT, TRACEPKT):
 *         pft_tfo_decoder_feed(dec, &c);
 *         while (pft_tfo_decoder_next(dec, &it, sizeof it) == 0)
 *             use(&it);                              (then -PFT_E_AGAIN)
 *     pft_tfo_decoder_end(dec); drain until -PFT_E_EOS; pft_tfo_decoder_free(dec); */
#ifndef PFT_TFO_H
#define PFT_TFO_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- pipeline status ------------------------------------------------------
 * The sixteen ETMv2 PIPESTAT[3:0] encodings.  Bit 0 set: a packet was placed
 * in the FIFO this cycle (the "D" statuses, IHI 0014 6.1.3).  8-15 are the
 * branch phantom statuses (6.1.2): a folded direct branch, taken (PT) or not
 * (PN), followed by IE, DE, IN or DN.  TR (6.1.7) and TD (6.1.6) carry
 * information on TRACEPKT[3:0]. */
enum pft_tfo_ps {
	PFT_TFO_PS_IE = 0x0,   /* instruction executed */
	PFT_TFO_PS_DE = 0x1,   /* executed, packet(s) placed in the FIFO ("ID") */
	PFT_TFO_PS_IN = 0x2,   /* instruction not executed */
	PFT_TFO_PS_DN = 0x3,   /* not executed, packet(s) placed in the FIFO */
	PFT_TFO_PS_WT = 0x4,   /* wait: no instruction this cycle */
	PFT_TFO_PS_DW = 0x5,   /* wait, packet(s) placed in the FIFO */
	PFT_TFO_PS_TR = 0x6,   /* trigger: TRACEPKT[3:0] holds the replaced status */
	PFT_TFO_PS_TD = 0x7,   /* trace disabled / TFO: TRACEPKT holds no FIFO data */
	PFT_TFO_PS_PTIE = 0x8, PFT_TFO_PS_PTDE = 0x9, PFT_TFO_PS_PTIN = 0xA, PFT_TFO_PS_PTDN = 0xB,
	PFT_TFO_PS_PNIE = 0xC, PFT_TFO_PS_PNDE = 0xD, PFT_TFO_PS_PNIN = 0xE, PFT_TFO_PS_PNDN = 0xF
};

/* Mnemonic of a PIPESTAT value ("IE", "DE", ..., "PNDN"; "??" above 15). */
PFT_API const char *pft_tfo_ps_name(unsigned ps);

/* Parse a mnemonic (case-insensitive; "ID" is accepted for DE, as in the
 * spec's Table 6.5).  Returns the value 0-15, or -PFT_E_INVAL. */
PFT_API int pft_tfo_ps_parse(const char *s, size_t len);

/* ---- TFO codec (IHI 0014, Table 6.4) --------------------------------------
 * TRACEPKT[7:4] = TFO[3:0], TRACEPKT[3] = !TFO[6], TRACEPKT[2:1] = TFO[5:4],
 * TRACEPKT[0] = 1.  Values 0-95 are encodable. */
#define PFT_TFO_MAX_VALUE 95

/* TRACEPKT[7:0] for a TFO value: 0-255 on success, -PFT_E_INVAL above 95. */
PFT_API int pft_tfo_encode(unsigned value);

/* What a TD cycle's TRACEPKT means.  Only TRACEPKT[3:0] decides the kind,
 * so a 4-bit port can classify on the first cycle of a TFO. */
enum pft_tfo_kind {
	PFT_TFO_KIND_DISABLED = 0,    /* bXXXXXXX0: trace disabled, not cycle-accurate */
	PFT_TFO_KIND_DISABLED_CA = 1, /* bXXXX0111: trace disabled, cycle-accurate */
	PFT_TFO_KIND_VALUE = 2,       /* a TFO value */
	PFT_TFO_KIND_RESERVED = 3     /* bXXXX0101: reserved */
};

/* Classify TRACEPKT[7:0] of a TD cycle; for PFT_TFO_KIND_VALUE the value
 * (0-95) is stored in *value (may be NULL).  Never fails. */
PFT_API enum pft_tfo_kind pft_tfo_classify(unsigned tracepkt, unsigned *value);
/* "disabled", "disabled_ca", "value", "reserved" */
PFT_API const char *pft_tfo_kind_name(enum pft_tfo_kind k);

/* TFO reason codes (IHI 0014 Table 6.7), carried in the TFO packet header. */
enum pft_tfo_reason {
	PFT_TFO_REASON_SYNC = 0,     /* periodic synchronisation: implies an IE */
	PFT_TFO_REASON_ENABLE = 1,   /* tracing has been enabled */
	PFT_TFO_REASON_OVERFLOW = 2, /* trace restarted after overflow */
	PFT_TFO_REASON_DEBUG = 3     /* processor exited from debug state */
};

PFT_API const char *pft_tfo_reason_name(unsigned reason); /* "sync", "enable", ... */

/* TFO packet header byte (Table 6.6; see doc/tfo.md: pft's layout is
 * b L R R 0 0 0 0 0, L = LSM in progress, RR = reason).  encode: 0-255 or
 * -PFT_E_INVAL for reason > 3.  decode: 0 if the byte is a TFO header,
 * -PFT_E_BAD_PACKET if its reserved bits [4:0] are not zero (reason and lsm
 * are filled in either case; either pointer may be NULL). */
PFT_API int pft_tfo_header_encode(unsigned reason, int lsm);
PFT_API int pft_tfo_header_decode(unsigned byte, unsigned *reason, int *lsm);

/* ---- port configuration and capture records ------------------------------ */
struct pft_tfo_port {
	uint8_t width;          /* TRACEPKT width: 4, 8 or 16 */
	uint8_t cycle_accurate; /* 1: idle TD cycles drive TRACEPKT[3:0] = 0111 */
};

/* One sampled cycle. */
struct pft_tfo_cycle {
	uint8_t pipestat;  /* PIPESTAT[3:0] */
	uint8_t pad;
	uint16_t tracepkt; /* TRACEPKT[width-1:0]; higher bits 0 */
};

/* 0 if the port description is valid, else -PFT_E_INVAL. */
PFT_API int pft_tfo_port_check(const struct pft_tfo_port *port);

/* ---- capture file format (doc/tfo.md) -------------------------------------
 * Binary: an 8-byte header "ETM2" 0x01 <width> <flags> 0x00, then one record
 * per cycle: PIPESTAT byte, TRACEPKT[7:0], and TRACEPKT[15:8] for 16-bit
 * ports.  Text: a line "etmv2-port <width> [ca]", then one line per cycle
 * "<PIPESTAT> <TRACEPKT>" (mnemonic or 0xN / bNNNN; hex, 0x.. or b.. data).
 * Both are read piecewise from caller buffers, so any size streams. */
#define PFT_TFO_BIN_HEADER_SIZE 8

/* Record size in bytes for a width: 2 (4/8-bit) or 3 (16-bit); 0 if invalid. */
PFT_API size_t pft_tfo_bin_record_size(unsigned width);

/* Read the binary header.  Returns PFT_TFO_BIN_HEADER_SIZE, -PFT_E_AGAIN if
 * len is too short, -PFT_E_FORMAT for a wrong magic, version or width,
 * -PFT_E_BAD_FRAME for non-zero reserved bits. */
PFT_API int pft_tfo_bin_read_header(const uint8_t *buf, size_t len, struct pft_tfo_port *port);

/* Read one record.  Returns the record size, -PFT_E_AGAIN if len is too
 * short, -PFT_E_BAD_FRAME if bits that must be 0 are set (PIPESTAT[7:4], or
 * TRACEPKT[7:4] on a 4-bit port); *c is filled in either case. */
PFT_API int pft_tfo_bin_read_record(const uint8_t *buf, size_t len, unsigned width,
				    struct pft_tfo_cycle *c);

/* Writers: return bytes written, -PFT_E_NOSPC if cap is too small,
 * -PFT_E_INVAL for an invalid port / out-of-range cycle. */
PFT_API int pft_tfo_bin_write_header(uint8_t *buf, size_t cap, const struct pft_tfo_port *port);
PFT_API int pft_tfo_bin_write_record(uint8_t *buf, size_t cap, unsigned width,
				     const struct pft_tfo_cycle *c);

/* Text lines.  pft_tfo_text_parse_line parses one line (without or with its
 * newline): returns 1 for a cycle (*c filled), 2 for the header line (*port
 * filled), 0 for a blank or comment ('#') line, -PFT_E_BAD_FRAME for a bad
 * line.  A cycle line needs the port (width) from an earlier header; pass
 * width 0 before it and the line is -PFT_E_BAD_FRAME. */
PFT_API int pft_tfo_text_parse_line(const char *line, size_t len, unsigned width,
				    struct pft_tfo_cycle *c, struct pft_tfo_port *port);

/* Format the header line / one cycle line, NUL terminated, with '\n'.
 * Returns the length (without NUL), -PFT_E_NOSPC, or -PFT_E_INVAL. */
PFT_API int pft_tfo_text_format_header(char *buf, size_t cap, const struct pft_tfo_port *port);
PFT_API int pft_tfo_text_format_cycle(char *buf, size_t cap, unsigned width,
				      const struct pft_tfo_cycle *c);

/* ---- periodic synchronisation counter -------------------------------------
 * When the counter reaches zero a periodic TFO becomes pending and the
 * counter reloads; the TFO happens on the first IE cycle from then on.  If
 * the counter reaches zero again first, an overflow TFO (reason 2) is due at
 * once instead.  Caller-owned state; no allocation. */
struct pft_tfo_sync_counter {
	uint32_t period;  /* cycles between sync requests; 0 = never */
	uint32_t count;   /* cycles left */
	uint8_t pending;  /* a periodic TFO is waiting for an IE */
};

PFT_API void pft_tfo_sync_counter_init(struct pft_tfo_sync_counter *s, uint32_t period);

/* Advance one cycle whose pipeline status is ps.  Returns -1 for no TFO, or
 * the reason of the TFO due on this cycle: PFT_TFO_REASON_SYNC (ps is IE) or
 * PFT_TFO_REASON_OVERFLOW. */
PFT_API int pft_tfo_sync_counter_tick(struct pft_tfo_sync_counter *s, unsigned ps);

/* ---- port generator ---------------------------------------------------------
 * Models the ETM side: a byte FIFO filled per cycle, drained onto TRACEPKT
 * whenever it holds data (low nibble first on a 4-bit port; two bytes per
 * cycle on a 16-bit port), with TFOs and a trigger.  One input cycle gives
 * exactly one port cycle. */
enum {
	PFT_TFO_GEN_TFO = 1,     /* a TFO occurs on this cycle (reason in .reason) */
	PFT_TFO_GEN_TRIGGER = 2  /* the trigger event occurs on this cycle (once per generator:
				  * "the trigger can occur only once per trace run") */
};

struct pft_tfo_gen_cycle {
	uint8_t status;  /* the pipeline status of the cycle: any pft_tfo_ps except TR and TD */
	uint8_t flags;   /* PFT_TFO_GEN_* */
	uint8_t reason;  /* TFO reason (0-3) when PFT_TFO_GEN_TFO; reason 0 needs status IE */
	uint8_t lsm;     /* TFO: set the header's LSM-in-progress bit */
	uint16_t npush;  /* bytes entering the FIFO this cycle (after the TFO header on a TFO cycle) */
};

/* What one generator step did (for tests and tools). */
struct pft_tfo_gen_note {
	int8_t tfo_value;       /* TFO value output for a TFO on this cycle, else -1 */
	uint8_t gap;            /* the TFO is mid-byte: a gap nibble will follow */
	uint8_t idle_lanes;     /* TRACEPKT lanes driven without FIFO data (see doc) */
	uint8_t status_dropped; /* a reason 1-3 TFO replaced this cycle's status */
	uint64_t header_offset; /* stream offset of the TFO header (TFO cycles) */
};

struct pft_tfo_gen;

/* fifo_size: FIFO capacity in bytes (1-4096).  NULL on bad arguments or no memory. */
PFT_API struct pft_tfo_gen *pft_tfo_gen_alloc(const struct pft_tfo_port *port, size_t fifo_size);
PFT_API void pft_tfo_gen_free(struct pft_tfo_gen *g);

/* Run one cycle.  bytes: in->npush bytes (may be NULL when 0).  note may be
 * NULL.  Returns 0, or (nothing is changed then):
 *   -PFT_E_INVAL  bad status/reason, reason 0 without IE, a TFO while the
 *                 previous TFO value is still being output, a TFO value
 *                 above 95 (too many bytes in the FIFO), or a second
 *                 trigger;
 *   -PFT_E_NOSPC  the FIFO would overflow. */
PFT_API int pft_tfo_gen_step(struct pft_tfo_gen *g, const struct pft_tfo_gen_cycle *in,
			     const uint8_t *bytes, struct pft_tfo_cycle *out,
			     struct pft_tfo_gen_note *note);

/* Bytes in the FIFO (a partly output byte counts as one). */
PFT_API size_t pft_tfo_gen_fifo_level(const struct pft_tfo_gen *g);
/* 1 while a TFO value or gap nibble is still to be output (no TFO allowed). */
PFT_API int pft_tfo_gen_busy(const struct pft_tfo_gen *g);
/* Total bytes pushed so far (TFO headers included) = next stream offset. */
PFT_API uint64_t pft_tfo_gen_stream_offset(const struct pft_tfo_gen *g);

/* ---- port decoder / synchroniser -------------------------------------------
 * Push cycles in, pull items out.  Items come in cycle order: pipeline
 * statuses, aligned FIFO bytes, TFOs (with the stream offset of their
 * header), triggers, and reports of bad or skipped input.  FIFO bytes are
 * delivered from the first TFO header on; everything before is reported as
 * skipped.  Memory is bounded (a fixed queue); no allocation after alloc. */
enum pft_tfo_item_kind {
	PFT_TFO_ITEM_STATUS = 1,  /* one pipeline status (field status) */
	PFT_TFO_ITEM_BYTES,       /* 1-2 FIFO bytes (bytes, nbytes) at stream offset */
	PFT_TFO_ITEM_TFO,         /* a TFO: value, reason, header, offset = header position */
	PFT_TFO_ITEM_TRIGGER,     /* the TR cycle */
	PFT_TFO_ITEM_SKIPPED,     /* count TRACEPKT data lanes of cycles [cycle, cycle_end] dropped unsynchronised */
	PFT_TFO_ITEM_ERROR        /* bad input at cycle: error (-PFT_E_*) and detail (pft_tfo_err) */
};
/* "status", "bytes", "tfo", "trigger", "skipped", "error" */
PFT_API const char *pft_tfo_item_kind_name(enum pft_tfo_item_kind k);

/* Item flags. */
enum {
	PFT_TFO_F_IMPLIED = 1,    /* STATUS: the IE implied by a periodic (reason 0) TFO */
	PFT_TFO_F_TRIGGER = 2,    /* STATUS: the replaced status of a TR cycle; TFO: signalled by TR */
	PFT_TFO_F_GAP = 4,        /* TFO: was mid-byte; a gap nibble was dropped */
	PFT_TFO_F_RESYNC = 8,     /* TFO: (re)gained synchronisation here */
	PFT_TFO_F_NO_HEADER = 16, /* TFO: the header was never reached (reason unknown) */
	PFT_TFO_F_LSM = 32,       /* TFO: header says LSM in progress */
	PFT_TFO_F_NIBBLES = 64,   /* SKIPPED: count is in nibbles (4-bit port) */
	PFT_TFO_F_CA = 128        /* STATUS TD: a cycle-accurate trace-disabled cycle
				   * (TRACEPKT[3:0] = 0111); without it TRACEPKT[0] = 0 */
};

/* Details of PFT_TFO_ITEM_ERROR. */
enum pft_tfo_err {
	PFT_TFO_ERR_RESERVED = 1,   /* TD with the reserved TFO encoding bXXXX0101 */
	PFT_TFO_ERR_TD_IN_TFO,      /* TD (no TFO) while TFO data is being output */
	PFT_TFO_ERR_TD_FIFO,        /* TD (no TFO) while a TFO header is still in the FIFO */
	PFT_TFO_ERR_GAP,            /* gap nibble was not 0x6 */
	PFT_TFO_ERR_HEADER,         /* TFO header with reserved bits set */
	PFT_TFO_ERR_TOO_LONG,       /* TFO header not reached within the queue bound */
	PFT_TFO_ERR_TRUNCATED,      /* capture ended inside a TFO or a byte */
	PFT_TFO_ERR_PIPESTAT,       /* PIPESTAT/TRACEPKT value out of range for the port */
	PFT_TFO_ERR_TFO_IN_TFO,     /* a TFO started while a TFO value was being output */
	PFT_TFO_ERR_ORDER           /* a TFO value puts its header before an older TFO's header */
};

PFT_API const char *pft_tfo_err_name(unsigned detail);

struct pft_tfo_item {
	uint8_t kind;      /* pft_tfo_item_kind */
	uint8_t status;    /* STATUS: pft_tfo_ps */
	uint8_t nbytes;    /* BYTES: 1 or 2 */
	uint8_t bytes[2];  /* BYTES */
	uint8_t value;     /* TFO: the TFO value */
	uint8_t reason;    /* TFO: reason code (valid unless F_NO_HEADER) */
	uint8_t header;    /* TFO: header byte */
	uint16_t flags;    /* PFT_TFO_F_* */
	uint16_t detail;   /* ERROR: pft_tfo_err */
	int32_t error;     /* ERROR: -PFT_E_* */
	uint64_t cycle;    /* capture cycle index (TFO: its TD/TR cycle; BYTES: cycle of the last lane) */
	uint64_t cycle_end;/* SKIPPED: last cycle */
	uint64_t offset;   /* BYTES: stream offset of bytes[0]; TFO: of the header */
	uint64_t count;    /* SKIPPED: lanes dropped (bytes, or nibbles with F_NIBBLES) */
};

struct pft_tfo_decoder;

/* NULL on a bad port or no memory. */
PFT_API struct pft_tfo_decoder *pft_tfo_decoder_alloc(const struct pft_tfo_port *port);
PFT_API void pft_tfo_decoder_free(struct pft_tfo_decoder *d);

/* Feed one cycle.  Returns 0, -PFT_E_AGAIN if the item queue is too full
 * (pull items with pft_tfo_decoder_next first, then push the same cycle again),
 * -PFT_E_INVAL after pft_tfo_decoder_end or for NULL. */
PFT_API int pft_tfo_decoder_feed(struct pft_tfo_decoder *d, const struct pft_tfo_cycle *c);

/* No more cycles: report anything left unfinished (a TFO whose header never
 * came, half a byte) and release every held item.  Returns 0, or
 * -PFT_E_INVAL for NULL or a second call. */
PFT_API int pft_tfo_decoder_end(struct pft_tfo_decoder *d);

/* Pull the next item (size = sizeof *item).  Returns 0 with *item filled,
 * -PFT_E_AGAIN when more cycles are needed, -PFT_E_EOS once ended and
 * drained, -PFT_E_INVAL for bad arguments. */
PFT_API int pft_tfo_decoder_next(struct pft_tfo_decoder *d, struct pft_tfo_item *item, size_t size);

/* Cycles pushed so far. */
PFT_API uint64_t pft_tfo_decoder_get_offset(const struct pft_tfo_decoder *d);

#ifdef __cplusplus
}
#endif
#endif
