/* SPDX-License-Identifier: BSD-3-Clause */
/* libpft ETMv3 trace generator (pft_etm3_gen_, src/etm3/etm3_gen.c): a
 * software ETMv3 instruction trace unit.  It takes the instructions a
 * processor retired, in program order, each already classified by the
 * caller (executed or condition failed, indirect branch, exception return),
 * and the exceptions taken between them, and writes the ETMv3 byte stream
 * the hardware would: A-sync and I-sync at trace start and every ETMSYNCFR
 * bytes, P-headers (the formats of the configured mode), branch address
 * packets (with exception information and the cancel bit), context ID,
 * timestamp and exception return packets, and with ETMCR[3:2] the normal
 * data packets of the data transfers given.  The packets go through the
 * layer's encoder (pft_etm3_encoder_*), so the bytes are what
 * pft_etm3_decoder_* reads back.  Rules and choices: doc/etm3.md,
 * "Generator".
 *
 *     g = pft_etm3_gen_alloc(&cfg);            // ETMCR, ETMIDR, ETMCCER, ETMSYNCFR, ETMTRACEIDR
 *     for each retired instruction: pft_etm3_gen_insn(g, &in);
 *       and each of its data transfers: pft_etm3_gen_data(g, &d);
 *     for each exception:           pft_etm3_gen_exception(g, &x);
 *     pft_etm3_gen_flush(g);
 *     while ((n = pft_etm3_gen_read(g, buf, sizeof buf)) > 0) write(buf, n);
 *     pft_etm3_gen_free(g); */
#ifndef PFT_ETM3GEN_H
#define PFT_ETM3GEN_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pft_etm3_gen_insn.flags */
#define PFT_ETM3_GEN_I_FAILED     0x01u /* condition failed: an N atom */
#define PFT_ETM3_GEN_I_INDIRECT   0x02u /* a branch whose target the decoder cannot know:
					   a branch address packet follows when executed */
#define PFT_ETM3_GEN_I_DIRECT     0x04u /* a direct branch: with ETMCR[8] (branch
					   broadcast) its address is output too */
#define PFT_ETM3_GEN_I_EXC_RETURN 0x08u /* an exception return: exception return packet */

/* One retired instruction. */
struct pft_etm3_gen_insn {
	uint64_t addr;
	uint64_t next_addr;   /* the address of the instruction that follows */
	uint64_t timestamp;   /* timestamp counter when it retired (ETMCR[28]) */
	uint32_t cycles;      /* cycles since the previous instruction (cycle-accurate:
				 its W marks; 0 gives an atom without a W) */
	uint32_t context_id;  /* CONTEXTIDR while it executed */
	uint8_t isa;          /* enum pft_isa */
	uint8_t next_isa;
	uint8_t flags;        /* PFT_ETM3_GEN_I_* */
};

/* pft_etm3_gen_exception.flags */
#define PFT_ETM3_GEN_E_CANCEL   0x01u /* the instruction at cancel_addr was traced (an E
					 atom) and did not complete: cancel bit set */
#define PFT_ETM3_GEN_E_UNTRACED 0x02u /* the handler is not traced: trace goes off
					 until the next instruction (I-sync trace on) */
#define PFT_ETM3_GEN_E_NS       0x04u /* Non-secure after the exception */

/* An exception taken after the last instruction given. */
struct pft_etm3_gen_exception {
	uint64_t vector;       /* first handler instruction */
	uint64_t cancel_addr;  /* E_CANCEL: the instruction that did not complete */
	uint64_t timestamp;
	uint32_t cycles;       /* cycles since the previous instruction (added to the
				  W marks of the next atom) */
	uint16_t number;       /* ETMv3 exception number (doc/etm3.md: 14 IRQ, 12 data abort...) */
	uint8_t isa;           /* enum pft_isa at the vector */
	uint8_t cancel_isa;
	uint8_t flags;         /* PFT_ETM3_GEN_E_* */
};

/* pft_etm3_gen_data.flags */
#define PFT_ETM3_GEN_D_STORE 0x01u /* a store (a load otherwise); not in the trace */

/* One data transfer of the last instruction given (doc/etm3.md, "Data
 * trace"): the processor's view, 1, 2 or 4 bytes (a 64-bit transfer is
 * given as two 32-bit ones, the lower address first). */
struct pft_etm3_gen_data {
	uint64_t address;
	uint32_t value;        /* the size's low bytes */
	uint8_t size;          /* 1, 2 or 4 */
	uint8_t flags;         /* PFT_ETM3_GEN_D_* */
};

struct pft_etm3_gen_stats {
	uint64_t insns;          /* instructions given */
	uint64_t atoms;          /* E and N atoms written (cancelled ones included) */
	uint64_t packets;        /* packets written (A-sync included) */
	uint64_t bytes;          /* bytes written */
	uint64_t isyncs;         /* I-sync packets (all reasons) */
	uint64_t branches;       /* branch address packets (exceptions included) */
	uint64_t exceptions;     /* exception branch packets */
	uint64_t cancels;        /* of them with the cancel bit */
	uint64_t timestamps;     /* timestamp packets */
	uint64_t context_ids;    /* context ID packets */
	uint64_t exc_returns;    /* exception return packets */
	uint64_t data;           /* normal data packets (ETMCR[3:2] != 0) */
	uint64_t data_addresses; /* of them with a data address */
	uint64_t data_ignored;   /* transfers given while data is not traced */
};

struct pft_etm3_gen;

/* NULL when out of memory or the registers do not describe an ETMv3 doing
 * instruction trace (pft_etm3_config_features fails, data-only mode).
 * ETMSYNCFR[11:0]: A-sync and I-sync again once that many bytes were
 * written since the last ones (0: only at trace start). */
PFT_API struct pft_etm3_gen *pft_etm3_gen_alloc(const struct pft_config *cfg);
PFT_API void pft_etm3_gen_free(struct pft_etm3_gen *g);
/* 0, -PFT_E_INVAL (NULL, an address the ISA cannot have), -PFT_E_NOMEM. */
PFT_API int pft_etm3_gen_insn(struct pft_etm3_gen *g, const struct pft_etm3_gen_insn *in);
PFT_API int pft_etm3_gen_exception(struct pft_etm3_gen *g, const struct pft_etm3_gen_exception *x);
/* A data transfer of the last instruction given, which must have executed
 * (not PFT_ETM3_GEN_I_FAILED, no exception since).  With ETMCR[3:2] = 0 it
 * is counted and left out.  Otherwise the instruction's atom goes out (the
 * P-header is closed) before its first normal data packet, so that the
 * packet follows the atom of the data instruction it belongs to; the packet
 * carries the data address (ETMCR[3]) when it is the instruction's first
 * transfer or does not follow on from the one before (A bit; the whole
 * address after an A-sync, else compressed against the last one), and the
 * value (ETMCR[2]) in the fewest of 0, 1, 2 or 4 bytes that hold it.
 * 0, -PFT_E_INVAL (NULL, a size other than 1/2/4, an address above 32 bits,
 * no executed instruction to belong to), -PFT_E_NOMEM. */
PFT_API int pft_etm3_gen_data(struct pft_etm3_gen *g, const struct pft_etm3_gen_data *d);
/* End of the run: the pending P-header and branch address go out. */
PFT_API int pft_etm3_gen_flush(struct pft_etm3_gen *g);
/* Bytes written and not yet read. */
PFT_API size_t pft_etm3_gen_pending(const struct pft_etm3_gen *g);
/* Up to cap bytes of the stream into buf; the number copied. */
PFT_API size_t pft_etm3_gen_read(struct pft_etm3_gen *g, uint8_t *buf, size_t cap);
/* Counters; size = sizeof *st.  0 or -PFT_E_INVAL. */
PFT_API int pft_etm3_gen_get_stats(const struct pft_etm3_gen *g, struct pft_etm3_gen_stats *st,
				   size_t size);

#ifdef __cplusplus
}
#endif
#endif
