/* SPDX-License-Identifier: BSD-3-Clause */
/* Does a stream decode as ETMv3 (pft/etm3.h), and under which configuration?
 * PFT and ETMv3 share the A-sync; a stream that derails a PFT decoder is
 * only called ETMv3 for certain when an ETMv3 decoder reads it: the best of
 * 16 candidate configurations of an ETMv3.5 (cycle-accurate off / on x
 * context ID of 0, 1, 2, 4 bytes x the original or the alternative branch
 * encoding, with timestamps; no data trace), scored like the PFT candidates
 * by the bytes after the first A-sync lost to errors plus 8 per odd I-sync
 * (an ARM-state address that is not word aligned: bytes of other packets
 * read as one), then errors.  When the best of them meets data-trace
 * headers (which are errors while data is not traced), the same
 * configuration is decoded again with data values, data addresses, and
 * both traced, and the best of all wins.
 *
 * The options (doc/probe.md, "ETMv3 options"): cycle-accurate, context ID
 * size, branch encoding and data trace are told by the candidates, as for
 * PFT: an option is known when every candidate with another value of it
 * scores worse, and the margin gives the confidence (I-syncs with a cycle
 * count, 0x70, say cycle-accurate for sure: of two decodes that read as
 * well, the cycle-accurate one is taken then); timestamps and VMID by
 * their packets in the best decode. */
#include <string.h>

#include "pft/etm3.h"
#include "pft/packet.h"
#include "probe_int.h"

#define NCAND 16
#define NDATA 3 /* data-trace variants of the best candidate */

struct e3score {
	uint64_t len, first_async, lost, errors, isyncs, odd, phdrs, far, atoms;
	uint64_t timestamps, vmids, data, no_data, cc_isyncs, plain_on;
	int pending;
	uint32_t hi;
};

static int account(const struct pft_etm3_packet *p, void *arg)
{
	struct e3score *s = arg;

	switch (p->type) {
	case PFT_ETM3_ASYNC:
		if (s->first_async == PFT_PROBE_NO_ASYNC)
			s->first_async = p->offset;
		break;
	case PFT_ETM3_ISYNC:
		s->isyncs++;
		s->cc_isyncs += (p->flags & PFT_E3F_CC) != 0;
		s->plain_on += !(p->flags & PFT_E3F_CC) && p->reason != PFT_ISYNC_PERIODIC;
		/* an ARM-state address is word aligned; no Cortex-A core
		 * executes Jazelle bytecode (its Jazelle is the trivial one) */
		s->odd += (p->isa == PFT_ISA_ARM && (p->address & 3)) || p->isa == PFT_ISA_JAZELLE;
		s->pending = 1;
		s->hi = (uint32_t)(p->address >> 16) & 0xFFFF;
		break;
	case PFT_ETM3_BRANCH:
		if (s->pending && p->addr_bytes >= 5) {
			s->far += ((uint32_t)(p->address >> 16) & 0xFFFF) != s->hi;
			s->pending = 0;
		}
		break;
	case PFT_ETM3_PHDR:
		s->phdrs++;
		s->atoms += p->atom_count;
		break;
	case PFT_ETM3_TIMESTAMP:
		s->timestamps++;
		break;
	case PFT_ETM3_VMID:
		s->vmids++;
		break;
	case PFT_ETM3_DATA:
	case PFT_ETM3_OOO_DATA:
	case PFT_ETM3_OOO_PLACEHOLDER:
	case PFT_ETM3_VALUE_NOT_TRACED:
	case PFT_ETM3_DATA_SUPPRESSED:
	case PFT_ETM3_STORE_FAILED:
		s->data++;
		break;
	case PFT_ETM3_ERROR:
		if (p->reason == PFT_E3ERR_TRUNCATED && p->offset + p->size >= s->len)
			break;
		s->errors++;
		s->no_data += p->reason == PFT_E3ERR_NO_DATA_TRACE;
		/* fall through */
	case PFT_ETM3_UNSYNCED:
		if (s->first_async != PFT_PROBE_NO_ASYNC)
			s->lost += p->size;
		break;
	default:
		break;
	}
	return 0;
}

/* Candidate c (0..15: bits 1:0 context ID size 0, 1, 2, 4 bytes, bit 2
 * cycle-accurate, bit 3 the alternative branch encoding) with data trace d
 * (ETMCR[3:2]: 0 none, 1 values, 2 addresses, 3 both). */
static void cand_config(unsigned c, unsigned d, struct pft_config *cfg)
{
	pft_config_init(cfg);
	cfg->etmidr = 0x410CF250u | ((c & 8) ? PFT_ETM3_ETMIDR_ALT_BRANCH : 0); /* ETMv3.5 (Cortex-A7) */
	cfg->etmccer = 0x344008F2u;
	cfg->etmcr = (1u << 28) | ((c & 4) ? 1u << 12 : 0) | ((uint32_t)(c & 3) << 14) | (d << 2);
}

static uint64_t key(const struct e3score *s)
{
	return s->lost + 8 * s->odd;
}

static int better(const struct e3score *a, const struct e3score *b)
{
	return key(a) < key(b) || (key(a) == key(b) && a->errors < b->errors);
}

static int same(const struct e3score *a, const struct e3score *b)
{
	return key(a) == key(b) && a->errors == b->errors;
}

/* The value of option o in candidate i (i >= NCAND: data variant i - NCAND
 * + 1 of candidate best). */
static unsigned opt_of(unsigned i, unsigned best, enum pft_probe_opt o)
{
	static const uint8_t cid[4] = { 0, 1, 2, 4 };
	unsigned c = i < NCAND ? i : best, d = i < NCAND ? 0 : i - NCAND + 1;

	switch (o) {
	case PFT_PROBE_OPT_CYCLE_ACCURATE: return (c >> 2) & 1;
	case PFT_PROBE_OPT_CONTEXTID: return cid[c & 3];
	case PFT_PROBE_OPT_ALT_BRANCH: return (c >> 3) & 1;
	case PFT_PROBE_OPT_DATA_TRACE: return d;
	default: return 0;
	}
}

/* How sure option o is: the best decode with another value of it against
 * the winner's (as opt_conf() does for PFT). */
static uint8_t opt_conf(const struct e3score *sc, unsigned n, unsigned best, unsigned win,
			enum pft_probe_opt o, uint64_t after, uint64_t *alt_lost)
{
	const struct e3score *w = &sc[win], *a = NULL;
	unsigned i;
	uint64_t margin;

	for (i = 0; i < n; i++)
		if (opt_of(i, best, o) != opt_of(win, best, o) && (!a || better(&sc[i], a)))
			a = &sc[i];
	if (!a)
		return PFT_PROBE_CONF_NONE; /* no candidate had another value */
	if (same(a, w)) {
		/* a context ID size ties only with larger ones (they read bytes
		 * of the next packets as context ID): the smallest that decodes
		 * is the likely one */
		if (o != PFT_PROBE_OPT_CONTEXTID)
			return PFT_PROBE_CONF_NONE;
		for (i = 0; i < n; i++)
			if (same(&sc[i], w) && opt_of(i, best, o) < opt_of(win, best, o))
				return PFT_PROBE_CONF_NONE;
		return PFT_PROBE_CONF_LOW;
	}
	*alt_lost = a->lost;
	margin = key(a) - key(w);
	if (margin >= 64 || (after && margin * 50 >= after) || a->errors >= w->errors + 3)
		return PFT_PROBE_CONF_HIGH;
	if (margin > 0 || a->errors > w->errors)
		return PFT_PROBE_CONF_MEDIUM;
	return PFT_PROBE_CONF_LOW;
}

static void infer(struct probe_e3 *r, const struct e3score *sc, unsigned n, unsigned best,
		  unsigned win)
{
	const struct e3score *w = &sc[win];
	uint64_t after = w->first_async == PFT_PROBE_NO_ASYNC ? 0 : w->len - w->first_async;
	unsigned o;

	for (o = 0; o < PFT_PROBE_NR_OPTS; o++) {
		r->conf[o] = PFT_PROBE_CONF_NONE;
		r->alt_lost[o] = UINT64_MAX;
	}
	cand_config(win < NCAND ? win : best, win < NCAND ? 0 : win - NCAND + 1, &r->config);
	r->config.etmcr &= ~(1u << 28); /* timestamps: from their packets below */
	r->conf[PFT_PROBE_OPT_CYCLE_ACCURATE] =
		opt_conf(sc, n, best, win, PFT_PROBE_OPT_CYCLE_ACCURATE, after,
			 &r->alt_lost[PFT_PROBE_OPT_CYCLE_ACCURATE]);
	if (w->cc_isyncs) /* I-sync with cycle count: cycle-accurate for sure */
		r->conf[PFT_PROBE_OPT_CYCLE_ACCURATE] = PFT_PROBE_CONF_HIGH;
	else if (w->plain_on && !(win < NCAND ? win & 4 : best & 4) &&
		 r->conf[PFT_PROBE_OPT_CYCLE_ACCURATE] < PFT_PROBE_CONF_MEDIUM)
		/* trace turned on with I-syncs without a cycle count: a
		   cycle-accurate ETM gives them one (TC2's A7s and the
		   generator do; only periodic ones go without) */
		r->conf[PFT_PROBE_OPT_CYCLE_ACCURATE] = PFT_PROBE_CONF_MEDIUM;
	r->conf[PFT_PROBE_OPT_CONTEXTID] = opt_conf(sc, n, best, win, PFT_PROBE_OPT_CONTEXTID, after,
						    &r->alt_lost[PFT_PROBE_OPT_CONTEXTID]);
	r->conf[PFT_PROBE_OPT_ALT_BRANCH] = opt_conf(sc, n, best, win, PFT_PROBE_OPT_ALT_BRANCH, after,
						     &r->alt_lost[PFT_PROBE_OPT_ALT_BRANCH]);
	if (n > NCAND) {
		r->conf[PFT_PROBE_OPT_DATA_TRACE] =
			opt_conf(sc, n, best, win, PFT_PROBE_OPT_DATA_TRACE, after,
				 &r->alt_lost[PFT_PROBE_OPT_DATA_TRACE]);
	} else if (w->isyncs >= 2 && !w->errors) {
		/* no data header at all: data trace off, or on with nothing
		   traced */
		r->conf[PFT_PROBE_OPT_DATA_TRACE] = PFT_PROBE_CONF_LOW;
	}
	if (w->timestamps) {
		r->config.etmcr |= 1u << 28;
		r->conf[PFT_PROBE_OPT_TIMESTAMPS] = PFT_PROBE_CONF_HIGH;
	}
	if (w->vmids) {
		r->config.etmcr |= 1u << 30;
		r->conf[PFT_PROBE_OPT_VMID] = PFT_PROBE_CONF_HIGH;
	}
	r->timestamps = w->timestamps;
	r->vmids = w->vmids;
	r->data = w->data;
}

int probe_etm3(const uint8_t *buf, size_t len, struct probe_e3 *r)
{
	struct e3score sc[NCAND + NDATA];
	unsigned c, n = NCAND, best = NCAND, win;

	for (c = 0; c < NCAND + NDATA; c++) {
		struct pft_config cfg;
		struct e3score *s = &sc[c];

		if (c == NCAND) {
			/* data headers derailed the best: decode it with data traced */
			if (best == NCAND || !sc[best].no_data)
				break;
			n = NCAND + NDATA;
		}
		memset(s, 0, sizeof(*s));
		s->len = len;
		s->first_async = PFT_PROBE_NO_ASYNC;
		cand_config(c < NCAND ? c : best, c < NCAND ? 0 : c - NCAND + 1, &cfg);
		if (pft_etm3_decode_buffer(&cfg, buf, len, account, s) < 0) {
			s->lost = s->errors = UINT64_MAX / 16; /* never the best */
			continue;
		}
		/* I-syncs with a cycle count come from a cycle-accurate ETM; a
		   decode without it may read the same bytes as well */
		if (c < NCAND && (best == NCAND || better(s, &sc[best]) ||
				  (same(s, &sc[best]) && s->cc_isyncs && (c & 4) && !(best & 4))))
			best = c;
	}
	if (best == NCAND)
		return -PFT_E_INTERNAL;
	win = best;
	for (c = NCAND; c < n; c++)
		if (better(&sc[c], &sc[win]))
			win = c;
	r->lost = sc[win].lost;
	r->errors = sc[win].errors;
	r->isyncs = sc[win].isyncs;
	r->odd = sc[win].odd;
	r->phdrs = sc[win].phdrs;
	r->far = sc[win].far;
	r->atoms = sc[win].atoms;
	infer(r, sc, n, best, win);
	return 0;
}
