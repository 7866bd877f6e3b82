/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft: ARM CoreSight Program Flow Trace.  Shared definitions: export
 * macro, error codes, instruction sets, and the raw-register configuration
 * every layer is created from.
 *
 *     struct pft_config cfg;
 *     pft_config_init(&cfg);               // Cortex-A15 PTM defaults
 *     cfg.etmcr = PFT_ETMCR_CYCLE_ACCURATE | PFT_ETMCR_TIMESTAMP;
 *     if (pft_config_check(&cfg, msg, sizeof msg) < 0) puts(msg);
 *     ... pft_pkt_decoder_alloc(&cfg), pft_flow_decoder_alloc(&cfg, img) ...
 *     errors: r < 0 is -PFT_E_*, pft_errstr(r) names it. */
#ifndef PFT_COMMON_H
#define PFT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(PFT_BUILDING_LIB)
#define PFT_API __attribute__((visibility("default")))
#else
#define PFT_API
#endif

/* Errors.  Functions return int; 0 (or a positive count) is success and a
 * negative value is -PFT_E_*.  Three families are kept apart:
 *   bad input data   PFT_E_BAD_PACKET, PFT_E_BAD_FRAME, PFT_E_FORMAT, PFT_E_NOMAP
 *   caller misuse    PFT_E_INVAL, PFT_E_BAD_CONFIG, PFT_E_NOSPC
 *   internal bug     PFT_E_INTERNAL
 * plus the flow statuses PFT_E_AGAIN and PFT_E_EOS, which are not failures. */
enum pft_error_code {
	PFT_OK = 0,
	PFT_E_INTERNAL,    /* a bug in libpft */
	PFT_E_INVAL,       /* invalid argument */
	PFT_E_NOMEM,       /* out of memory */
	PFT_E_BAD_CONFIG,  /* register values that make no sense for a PTM */
	PFT_E_NOSPC,       /* caller's buffer too small */
	PFT_E_AGAIN,       /* more input needed (feed more bytes, or end the stream) */
	PFT_E_EOS,         /* end of stream: nothing more will come */
	PFT_E_BAD_PACKET,  /* malformed trace packet */
	PFT_E_BAD_FRAME,   /* malformed CoreSight frame / port capture */
	PFT_E_NOSYNC,      /* no synchronisation point found */
	PFT_E_NOMAP,       /* memory not in the program image */
	PFT_E_IO,          /* file could not be read or written (see errno) */
	PFT_E_FORMAT,      /* file of the wrong format (ini, ELF, snapshot ...) */
	PFT_E_NOTFOUND,    /* named item (file, section, source, symbol) absent */
	PFT_E_UNSUPPORTED, /* valid, but not supported by this libpft */
	PFT_E_NR_ERRORS
};

/* A short English description of an error code; accepts either sign.
 * Never returns NULL. */
PFT_API const char *pft_errstr(int err);
/* The constant's short name for listings and JSON: "inval", "bad_packet",
 * "eos" ... (PFT_E_ and upper case dropped); "?" if unknown. */
PFT_API const char *pft_error_code_name(int err);

/* libpft version, "MAJOR.MINOR.PATCH". */
PFT_API const char *pft_version(void);

/* Instruction set state. */
enum pft_isa {
	PFT_ISA_ARM = 0,
	PFT_ISA_THUMB = 1,   /* Thumb and Thumb-2 (T32) */
	PFT_ISA_THUMBEE = 2,
	PFT_ISA_JAZELLE = 3,
	PFT_ISA_UNKNOWN = 4
};

/* "A32", "T32", "T32EE", "JAZ" or "?" (the names of pft decode --format addrs). */
PFT_API const char *pft_isa_name(enum pft_isa isa);

/* The PTM configuration as raw register values (register numbers of spec
 * Table 3-16).  Snapshot [regs] sections and perf metadata drop straight in.
 * Features are derived from these in one place: pft_config_features(). */
struct pft_config {
	size_t size;          /* sizeof(struct pft_config), set by pft_config_init */
	uint32_t etmcr;       /* 0x000 main control */
	uint32_t etmccr;      /* 0x001 configuration code */
	uint32_t etmccer;     /* 0x07A configuration code extension */
	uint32_t etmidr;      /* 0x079 ID */
	uint32_t etmtraceidr; /* 0x080 CoreSight trace ID */
	uint32_t etmsyncfr;   /* 0x078 synchronisation frequency */
};

/* Register bits (spec ARM IHI 0035B §3.16), named once.  Single bits are
 * masks; fields have a _SHIFT and an unshifted _MASK. */
/* ETMCR, Main Control Register (§3.16.1). */
#define PFT_ETMCR_POWER_DOWN          (1u << 0)
#define PFT_ETMCR_BRANCH_BROADCAST    (1u << 8)
#define PFT_ETMCR_PROGRAMMING         (1u << 10)
#define PFT_ETMCR_CYCLE_ACCURATE      (1u << 12)
#define PFT_ETMCR_CONTEXTID_SIZE_SHIFT 14 /* 0: none, 1: 1 byte, 2: 2, 3: 4 */
#define PFT_ETMCR_CONTEXTID_SIZE_MASK 3u
#define PFT_ETMCR_TIMESTAMP           (1u << 28)
#define PFT_ETMCR_RETURN_STACK        (1u << 29)
#define PFT_ETMCR_VMID                (1u << 30) /* PFTv1.1 */
#define PFT_ETMCR_RESERVED            0x80FF287Eu /* must be zero */
/* ETMCCR, Configuration Code Register (§3.16.2). */
#define PFT_ETMCCR_ADDR_PAIRS_MASK    0xFu /* [3:0] address comparator pairs */
#define PFT_ETMCCR_COUNTERS_SHIFT     13
#define PFT_ETMCCR_COUNTERS_MASK      7u
#define PFT_ETMCCR_SEQUENCER          (1u << 16)
#define PFT_ETMCCR_EXT_OUTPUTS_SHIFT  20
#define PFT_ETMCCR_EXT_OUTPUTS_MASK   7u
#define PFT_ETMCCR_CID_CMPS_SHIFT     24
#define PFT_ETMCCR_CID_CMPS_MASK      3u
/* ETMCCER, Configuration Code Extension Register (§3.16.29). */
#define PFT_ETMCCER_TIMESTAMP         (1u << 22) /* timestamping implemented */
#define PFT_ETMCCER_RETURN_STACK      (1u << 23) /* return stack implemented */
#define PFT_ETMCCER_DMB_WAYPOINT      (1u << 24) /* DMB/DSB are waypoints */
#define PFT_ETMCCER_TS_ON_DMB         (1u << 25) /* timestamp on DMB/DSB */
#define PFT_ETMCCER_VIRTUALIZATION    (1u << 26) /* PFTv1.1: VMID */
#define PFT_ETMCCER_REDUCED_COUNTER   (1u << 27) /* PFTv1.1 */
#define PFT_ETMCCER_TS_BINARY         (1u << 28) /* PFTv1.1: 0 = Gray */
#define PFT_ETMCCER_TS_64BIT          (1u << 29) /* PFTv1.1: 0 = 48 bits */
/* ETMIDR, ID Register (§3.16.28). */
#define PFT_ETMIDR_MINOR_SHIFT        4  /* 0 = PFTv1.0, 1 = PFTv1.1 */
#define PFT_ETMIDR_MINOR_MASK         0xFu
#define PFT_ETMIDR_MAJOR_SHIFT        8  /* 3 = PFTv1 (2 = ETMv3) */
#define PFT_ETMIDR_MAJOR_MASK         0xFu
#define PFT_ETMIDR_THUMB32_SINGLE     (1u << 18) /* 32-bit Thumb is one instruction */
#define PFT_ETMIDR_SECURITY_EXT       (1u << 19)
/* ETMTRACEIDR (§3.16.35). */
#define PFT_ETMTRACEIDR_MASK          0x7Fu

/* Register numbers (spec Table 3-16), as snapshot [regs] keys and the
 * software PTM's register file number them; names in src/snapshot/snap_regs.c. */
#define PFT_PTM_ETMCR        0x000
#define PFT_PTM_ETMCCR       0x001
#define PFT_PTM_ETMTRIGGER   0x002
#define PFT_PTM_ETMSR        0x004
#define PFT_PTM_ETMSCR       0x005
#define PFT_PTM_ETMTSSCR     0x006
#define PFT_PTM_ETMTEEVR     0x008
#define PFT_PTM_ETMTECR1     0x009
#define PFT_PTM_ETMFFLR      0x00B
#define PFT_PTM_ETMACVR(n)   (0x010 + (n) - 1)   /* n = 1..16 */
#define PFT_PTM_ETMACTR(n)   (0x020 + (n) - 1)
#define PFT_PTM_ETMCNTRLDVR(n) (0x050 + (n) - 1) /* n = 1..4 */
#define PFT_PTM_ETMCNTENR(n)   (0x054 + (n) - 1)
#define PFT_PTM_ETMCNTRLDEVR(n) (0x058 + (n) - 1)
#define PFT_PTM_ETMCNTVR(n)    (0x05C + (n) - 1)
#define PFT_PTM_ETMSQ12EVR   0x060
#define PFT_PTM_ETMSQ21EVR   0x061
#define PFT_PTM_ETMSQ23EVR   0x062
#define PFT_PTM_ETMSQ31EVR   0x063
#define PFT_PTM_ETMSQ32EVR   0x064
#define PFT_PTM_ETMSQ13EVR   0x065
#define PFT_PTM_ETMSQR       0x067
#define PFT_PTM_ETMEXTOUTEVR(n) (0x068 + (n) - 1) /* n = 1..4 */
#define PFT_PTM_ETMCIDCVR(n) (0x06C + (n) - 1)    /* n = 1..3 */
#define PFT_PTM_ETMCIDCMR    0x06F
#define PFT_PTM_ETMSYNCFR    0x078
#define PFT_PTM_ETMIDR       0x079
#define PFT_PTM_ETMCCER      0x07A
#define PFT_PTM_ETMEXTINSEL  0x07B
#define PFT_PTM_ETMTESSEICR  0x07C
#define PFT_PTM_ETMEIBCR     0x07D
#define PFT_PTM_ETMTSEVR     0x07E
#define PFT_PTM_ETMAUXCR     0x07F
#define PFT_PTM_ETMTRACEIDR  0x080
#define PFT_PTM_ETMVMIDCVR   0x090
#define PFT_PTM_NR_REGS      0x091

/* Defaults: a PFTv1.1 PTM as on Cortex-A15 (ETMIDR 0x411CF312, ETMCCER
 * 0x34C01AC2, ETMCCR 0x8D294004), ETMCR 0 (no CA, no timestamps, no context
 * ID), trace ID 0x10, ETMSYNCFR 0x400. */
PFT_API void pft_config_init(struct pft_config *cfg);

/* A caller's configuration of any version (src->size bytes, e.g. built
 * against an older, shorter pft/common.h) into the library's: the common
 * part is copied, fields the caller's struct lacks keep their
 * pft_config_init() values, dst->size = sizeof *dst.  0; -PFT_E_INVAL for
 * NULL or a size too small to hold the size field (not initialised).
 * Every function taking a const struct pft_config * reads it this way. */
PFT_API int pft_config_copy(struct pft_config *dst, const struct pft_config *src);

/* What the registers mean for the byte stream. */
struct pft_features {
	uint8_t minor;          /* PFT minor version: 0 = PFTv1.0, 1 = PFTv1.1 */
	uint8_t cycle_accurate; /* ETMCR[12] */
	uint8_t branch_broadcast; /* ETMCR[8] */
	uint8_t return_stack;   /* ETMCR[29] */
	uint8_t timestamps;     /* ETMCR[28] */
	uint8_t vmid;           /* ETMCR[30] (v1.1) */
	uint8_t contextid_bytes;/* 0, 1, 2 or 4 from ETMCR[15:14] */
	uint8_t ts_bits;        /* 48 or 64 (ETMCCER[29], v1.1; v1.0 is 48) */
	uint8_t ts_gray;        /* 1 = Gray coded (v1.0 always; v1.1 ETMCCER[28]=0) */
	uint8_t dmb_waypoint;   /* ETMCCER[24]: DMB/DSB are waypoints */
	uint8_t ts_on_dmb;      /* ETMCCER[25] */
	uint8_t thumb32_single; /* ETMIDR[18]: 32-bit Thumb traced as one instruction */
	uint8_t security_ext;   /* ETMIDR[19] */
	uint8_t trace_id;       /* ETMTRACEIDR[6:0] */
};

/* Derive features from the registers.  Returns 0, or -PFT_E_BAD_CONFIG when
 * the values cannot describe a PTM (ETMIDR major version is not 3 (PFTv1),
 * minor above 1, trace ID 0 or >= 0x70, branch broadcast with return stack),
 * or -PFT_E_INVAL for NULL / wrong size.  *out is filled in either case, so
 * a tool can still explain what it saw. */
PFT_API int pft_config_features(const struct pft_config *cfg, struct pft_features *out);

/* Like pft_config_features but with a human-readable reason for a failure,
 * written into msg (NUL terminated, truncated to cap). */
PFT_API int pft_config_check(const struct pft_config *cfg, char *msg, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
