/* SPDX-License-Identifier: BSD-3-Clause */
/* Does a stream decode as ETMv3 (pft/etm3.h), and under which configuration?
 * PFT and ETMv3 share the A-sync; a stream that derails a PFT decoder is
 * only called ETMv3 for certain when an ETMv3 decoder reads it: the best of
 * 16 candidate configurations of an ETMv3.5 (cycle-accurate off / on x
 * context ID of 0, 1, 2, 4 bytes x the original or the alternative branch
 * encoding, with timestamps; no data trace), scored like the PFT candidates
 * by the bytes after the first A-sync lost to errors plus 8 per odd I-sync
 * (an ARM-state address that is not word aligned: bytes of other packets
 * read as one), then errors.  When the best of them loses bytes, one of
 * them met a data-trace header (an error while data is not traced) and the
 * stream has 256 bytes or more after its first A-sync (with fewer, data
 * candidates explain noise too), the 16 are decoded
 * again with data values, data addresses, and both traced (64 in all), and
 * the best of all wins; readings that tie are told apart by what the data
 * packets hold (value bytes, addresses).
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
#define NALL (4 * NCAND) /* with data values, addresses, both traced */

struct e3score {
	uint64_t len, first_async, lost, errors, isyncs, odd, phdrs, far, atoms;
	uint64_t timestamps, vmids, data, no_data, cc_isyncs, plain_on;
	uint64_t data_val, data_addr; /* data packets with value bytes, with an address */
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
		s->data_val += p->data_size > 0 || p->type == PFT_ETM3_STORE_FAILED;
		s->data_addr += (p->flags & PFT_E3F_DADDR) != 0;
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

/* Candidate i: c = i % 16 (bits 1:0 context ID size 0, 1, 2, 4 bytes, bit
 * 2 cycle-accurate, bit 3 the alternative branch encoding) with data trace
 * d = i / 16 (ETMCR[3:2]: 0 none, 1 values, 2 addresses, 3 both). */
static void cand_config(unsigned i, struct pft_config *cfg)
{
	unsigned c = i % NCAND, d = i / NCAND;

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

/* The value of option o in candidate i. */
static unsigned opt_of(unsigned i, enum pft_probe_opt o)
{
	static const uint8_t cid[4] = { 0, 1, 2, 4 };
	unsigned c = i % NCAND, d = i / NCAND;

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
static uint8_t opt_conf(const struct e3score *sc, unsigned n, unsigned win, enum pft_probe_opt o,
			uint64_t after, uint64_t *alt_lost)
{
	const struct e3score *w = &sc[win], *a = NULL;
	unsigned i;
	uint64_t margin;

	for (i = 0; i < n; i++)
		if (opt_of(i, o) != opt_of(win, o) && (!a || better(&sc[i], a)))
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
			if (same(&sc[i], w) && opt_of(i, o) < opt_of(win, o))
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

static void infer(struct probe_e3 *r, const struct e3score *sc, unsigned n, unsigned win)
{
	const struct e3score *w = &sc[win];
	uint64_t after = w->first_async == PFT_PROBE_NO_ASYNC ? 0 : w->len - w->first_async;
	unsigned o;

	for (o = 0; o < PFT_PROBE_NR_OPTS; o++) {
		r->conf[o] = PFT_PROBE_CONF_NONE;
		r->alt_lost[o] = UINT64_MAX;
	}
	cand_config(win, &r->config);
	r->config.etmcr &= ~(1u << 28); /* timestamps: from their packets below */
	r->conf[PFT_PROBE_OPT_CYCLE_ACCURATE] =
		opt_conf(sc, n, win, PFT_PROBE_OPT_CYCLE_ACCURATE, after,
			 &r->alt_lost[PFT_PROBE_OPT_CYCLE_ACCURATE]);
	if (w->cc_isyncs) /* I-sync with cycle count: cycle-accurate for sure */
		r->conf[PFT_PROBE_OPT_CYCLE_ACCURATE] = PFT_PROBE_CONF_HIGH;
	else if (w->plain_on && !(win & 4) &&
		 r->conf[PFT_PROBE_OPT_CYCLE_ACCURATE] < PFT_PROBE_CONF_MEDIUM)
		/* trace turned on with I-syncs without a cycle count: a
		   cycle-accurate ETM gives them one (TC2's A7s and the
		   generator do; only periodic ones go without) */
		r->conf[PFT_PROBE_OPT_CYCLE_ACCURATE] = PFT_PROBE_CONF_MEDIUM;
	r->conf[PFT_PROBE_OPT_CONTEXTID] = opt_conf(sc, n, win, PFT_PROBE_OPT_CONTEXTID, after,
						    &r->alt_lost[PFT_PROBE_OPT_CONTEXTID]);
	r->conf[PFT_PROBE_OPT_ALT_BRANCH] = opt_conf(sc, n, win, PFT_PROBE_OPT_ALT_BRANCH, after,
						     &r->alt_lost[PFT_PROBE_OPT_ALT_BRANCH]);
	if (n > NCAND) {
		unsigned shown = (w->data_val ? 1u : 0u) | (w->data_addr ? 2u : 0u);

		r->conf[PFT_PROBE_OPT_DATA_TRACE] =
			opt_conf(sc, n, win, PFT_PROBE_OPT_DATA_TRACE, after,
				 &r->alt_lost[PFT_PROBE_OPT_DATA_TRACE]);
		/* values only and both read alike when no packet has an address
		   (addresses only and both, when none has value bytes): the
		   packets say which */
		if (r->conf[PFT_PROBE_OPT_DATA_TRACE] == PFT_PROBE_CONF_NONE && win / NCAND == shown)
			r->conf[PFT_PROBE_OPT_DATA_TRACE] = PFT_PROBE_CONF_MEDIUM;
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

/* Candidate a reads the stream better than b; of two data-trace readings
 * that read it alike, the one whose kind its data packets show (value
 * bytes: values traced; addresses: addresses traced). */
static int wins(const struct e3score *sc, unsigned a, unsigned b)
{
	const struct e3score *s = &sc[a];
	unsigned shown = (s->data_val ? 1u : 0u) | (s->data_addr ? 2u : 0u);

	return better(s, &sc[b]) ||
	       (same(s, &sc[b]) && a / NCAND && a / NCAND == shown && b / NCAND != shown);
}

int probe_etm3(const uint8_t *buf, size_t len, struct probe_e3 *r)
{
	struct e3score sc[NALL];
	unsigned c, n = NCAND, win = NALL;
	uint64_t no_data = 0;

	for (c = 0; c < NALL; c++) {
		struct pft_config cfg;
		struct e3score *s = &sc[c];

		if (c == NCAND) {
			/* the best loses bytes and data headers derailed one of
			   them: every candidate again with data traced */
			if (win == NALL || !sc[win].errors || !no_data ||
			    sc[win].first_async == PFT_PROBE_NO_ASYNC || len - sc[win].first_async < 256)
				break;
			n = NALL;
		}
		memset(s, 0, sizeof(*s));
		s->len = len;
		s->first_async = PFT_PROBE_NO_ASYNC;
		cand_config(c, &cfg);
		if (pft_etm3_decode_buffer(&cfg, buf, len, account, s) < 0) {
			s->lost = s->errors = UINT64_MAX / 16; /* never the best */
			continue;
		}
		no_data += s->no_data;
		/* I-syncs with a cycle count come from a cycle-accurate ETM; a
		   decode without it may read the same bytes as well */
		if (win == NALL || wins(sc, c, win) ||
		    (same(s, &sc[win]) && s->cc_isyncs && (c & 4) && !(win & 4) && c / NCAND == win / NCAND))
			win = c;
	}
	if (win == NALL)
		return -PFT_E_INTERNAL;
	r->lost = sc[win].lost;
	r->errors = sc[win].errors;
	r->isyncs = sc[win].isyncs;
	r->odd = sc[win].odd;
	r->phdrs = sc[win].phdrs;
	r->far = sc[win].far;
	r->atoms = sc[win].atoms;
	infer(r, sc, n, win);
	return 0;
}
