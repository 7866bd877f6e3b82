/* SPDX-License-Identifier: BSD-3-Clause */
/* One source's byte stream: which protocol, and for PFT which configuration.
 *
 * The stream is decoded as PFT under every candidate configuration that
 * changes how bytes split into packets: version 1.1 / 1.0, cycle-accurate
 * off / on, context ID of 0, 1, 2 or 4 bytes (16 decodes of at most
 * PFT_PROBE_MAX_STREAM bytes).  Each decode is scored by
 *   lost    bytes after the first A-sync that end in error or unsynced items
 *           (a wrong guess derails the decoder, which then skips to the
 *           next A-sync);
 *   odd     I-syncs no PTM writes: information byte with b7 set or b0 clear,
 *           or an ARM-state address with A1 set (doc/packets.md, A7: all
 *           real I-syncs have b7 = 0, b0 = 1; ARM addresses are word
 *           aligned), or a periodic I-sync whose context ID differs from
 *           the one in force (bytes of other packets read as a context ID);
 *   errors  error items (a packet cut by the end of the stream is not one);
 *   ts_back timestamps that go backwards (Gray 48-bit in v1.0, binary in
 *           v1.1 as on Cortex-A15).
 * The best candidate is the smallest (lost + 8 x odd, errors, ts_back).  An
 * option is told by the bytes when every candidate with another value of it
 * scores worse; the margin gives the confidence.  Options that do not change
 * the packet boundaries are read from what the best decode contains:
 * timestamp, VMID and context ID packets, and E atoms (none at all while
 * branch packets abound: branch broadcast). */
#include <stdlib.h>
#include <string.h>

#include "pft/packet.h"
#include "probe_int.h"

#define NCAND 16
#define BATCH 256

struct score {
	uint64_t lost, odd, errors, ts_back;
	uint64_t packets, isyncs, branches, e_atoms, n_atoms, timestamps, cids, vmids;
	uint64_t first_async;
	uint64_t isync_flow; /* I-syncs followed by an atom, branch or WPU */
	uint64_t far;        /* I-syncs whose address bits [31:16] differ from the next
				full (5-byte) branch address's */
	int isync_pending;   /* an I-sync not yet compared with a full branch */
	uint32_t isync_hi;
	int after_isync, have_cid;
	uint32_t cid;        /* current context ID */
};

static void cand_config(unsigned c, struct pft_config *cfg)
{
	unsigned minor = (c & 8) ? 0 : 1, ca = (c >> 2) & 1, cid = c & 3;

	pft_config_init(cfg);
	cfg->etmidr = (cfg->etmidr & ~0xF0u) | (minor << 4);
	if (minor == 0)
		cfg->etmccer = 0x000008EAu; /* a v1.0 PTM (Cortex-A9) */
	cfg->etmcr = (ca ? 1u << 12 : 0) | ((uint32_t)cid << 14); /* 0, 1, 2, 3: 0, 1, 2, 4 bytes */
}

static unsigned cand_cid_bytes(unsigned c)
{
	static const uint8_t sizes[4] = { 0, 1, 2, 4 };
	return sizes[c & 3];
}

static int odd_isync(const struct pft_packet *p)
{
	if (p->nbytes < 6)
		return 0;
	if ((p->bytes[5] & 0x80) || !(p->bytes[5] & 0x01))
		return 1;
	return p->isa == PFT_ISA_ARM && (p->address & 2);
}

static void account(struct score *s, const struct pft_packet *p, uint64_t len, uint64_t *last_ts,
                    int *have_ts)
{
	s->packets++;
	switch (p->type) {
	case PFT_PKT_ASYNC:
		if (s->first_async == PFT_PROBE_NO_ASYNC)
			s->first_async = p->offset;
		break;
	case PFT_PKT_UNSYNCED:
		if (s->first_async != PFT_PROBE_NO_ASYNC)
			s->lost += p->size;
		break;
	case PFT_PKT_ERROR:
		if (p->reason == PFT_PERR_TRUNCATED && p->offset + p->size >= len)
			break;
		s->errors++;
		if (s->first_async != PFT_PROBE_NO_ASYNC)
			s->lost += p->size;
		break;
	case PFT_PKT_ISYNC:
		s->after_isync = 1;
		s->isyncs++;
		s->odd += (uint64_t)odd_isync(p);
		/* a periodic I-sync repeats the context ID in force (a change
		 * comes as a context ID packet first) */
		if ((p->flags & PFT_PKT_F_CID) && p->reason == PFT_ISYNC_PERIODIC && s->have_cid &&
		    p->context_id != s->cid)
			s->odd++;
		if (p->flags & PFT_PKT_F_CID) {
			s->cid = p->context_id;
			s->have_cid = 1;
		}
		s->isync_pending = 1;
		s->isync_hi = (uint32_t)(p->address >> 16) & 0xFFFF;
		break;
	case PFT_PKT_BRANCH:
		if (s->isync_pending && p->addr_bytes >= 5) {
			s->far += ((uint32_t)(p->address >> 16) & 0xFFFF) != s->isync_hi;
			s->isync_pending = 0;
		}
		s->branches++;
		s->isync_flow += (uint64_t)s->after_isync;
		s->after_isync = 0;
		break;
	case PFT_PKT_WAYPOINT_UPDATE:
		s->isync_flow += (uint64_t)s->after_isync;
		s->after_isync = 0;
		break;
	case PFT_PKT_ATOM: {
		uint32_t m = p->atom_count >= 32 ? 0xFFFFFFFFu : (1u << p->atom_count) - 1;
		uint32_t e = p->atoms & m;
		unsigned k = 0;
		while (e) {
			k += e & 1;
			e >>= 1;
		}
		s->isync_flow += (uint64_t)s->after_isync;
		s->after_isync = 0;
		s->e_atoms += k;
		s->n_atoms += p->atom_count - k;
		break;
	}
	case PFT_PKT_TIMESTAMP:
		s->timestamps++;
		if (*have_ts && p->timestamp < *last_ts)
			s->ts_back++;
		*last_ts = p->timestamp;
		*have_ts = 1;
		break;
	case PFT_PKT_CONTEXT_ID:
		s->cids++;
		s->cid = p->context_id;
		s->have_cid = 1;
		break;
	case PFT_PKT_VMID:
		s->vmids++;
		break;
	default:
		break;
	}
}

static int decode_cand(const uint8_t *buf, size_t len, const struct pft_config *cfg,
                       struct score *s, struct pft_packet *pk)
{
	struct pft_pkt_decoder *dec = pft_pkt_decoder_alloc(cfg);
	uint64_t last_ts = 0;
	int have_ts = 0, n, i;

	memset(s, 0, sizeof *s);
	s->first_async = PFT_PROBE_NO_ASYNC;
	if (!dec)
		return -PFT_E_NOMEM;
	if (pft_pkt_decoder_feed(dec, buf, len) < 0 || pft_pkt_decoder_end(dec) < 0) {
		pft_pkt_decoder_free(dec);
		return -PFT_E_INTERNAL;
	}
	while ((n = pft_pkt_decoder_next_batch(dec, pk, BATCH, sizeof *pk)) > 0)
		for (i = 0; i < n; i++)
			account(s, &pk[i], len, &last_ts, &have_ts);
	pft_pkt_decoder_free(dec);
	return n == -PFT_E_EOS ? 0 : -PFT_E_INTERNAL;
}

/* Lower is better. */
static int cmp_score(const struct score *a, const struct score *b)
{
	uint64_t ka = a->lost + 8 * a->odd, kb = b->lost + 8 * b->odd;

	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (a->errors != b->errors)
		return a->errors < b->errors ? -1 : 1;
	if (a->ts_back != b->ts_back)
		return a->ts_back < b->ts_back ? -1 : 1;
	return 0;
}

/* Value of an option in candidate c (the options the candidates vary). */
static unsigned cand_opt(unsigned c, enum pft_probe_opt o)
{
	switch (o) {
	case PFT_PROBE_OPT_VERSION: return (c & 8) ? 0 : 1;
	case PFT_PROBE_OPT_CYCLE_ACCURATE: return (c >> 2) & 1;
	case PFT_PROBE_OPT_CONTEXTID: return cand_cid_bytes(c);
	default: return 0;
	}
}

/* Confidence that option o has the best candidate's value: how much better
 * the best candidate scores than the best with another value. */
static uint8_t opt_conf(const struct score *sc, unsigned best, enum pft_probe_opt o, uint64_t after,
                        uint64_t *alt_lost)
{
	unsigned c, alt = NCAND;
	const struct score *b = &sc[best], *a;
	uint64_t kb, ka, margin;

	for (c = 0; c < NCAND; c++)
		if (cand_opt(c, o) != cand_opt(best, o) && (alt == NCAND || cmp_score(&sc[c], &sc[alt]) < 0))
			alt = c;
	a = &sc[alt];
	if (cmp_score(a, b) == 0) {
		/* a context ID size ties only with larger ones: the larger read
		 * bytes of the next packets as context ID and got away with it;
		 * the smallest size that decodes is the likely one */
		if (o != PFT_PROBE_OPT_CONTEXTID)
			return PFT_PROBE_CONF_NONE;
		for (c = 0; c < NCAND; c++)
			if (cmp_score(&sc[c], b) == 0 && cand_cid_bytes(c) < cand_cid_bytes(best))
				return PFT_PROBE_CONF_NONE;
		return PFT_PROBE_CONF_LOW;
	}
	*alt_lost = a->lost;
	kb = b->lost + 8 * b->odd;
	ka = a->lost + 8 * a->odd;
	margin = ka - kb;
	if (margin >= 64 || (after && margin * 50 >= after) || a->errors >= b->errors + 3)
		return PFT_PROBE_CONF_HIGH;
	if (margin > 0 || a->errors > b->errors || a->ts_back >= b->ts_back + 2)
		return PFT_PROBE_CONF_MEDIUM;
	return PFT_PROBE_CONF_LOW;
}

static void infer_config(struct pft_probe_stream *st, const struct score *sc, unsigned best,
                         uint64_t after)
{
	const struct score *b = &sc[best];
	struct pft_config *cfg = &st->config;
	unsigned o;

	for (o = 0; o < PFT_PROBE_NR_OPTS; o++)
		st->conf[o] = PFT_PROBE_CONF_NONE;
	for (o = PFT_PROBE_OPT_VERSION; o <= PFT_PROBE_OPT_CONTEXTID; o++)
		st->conf[o] = opt_conf(sc, best, (enum pft_probe_opt)o, after, &st->alt_lost[o]);
	/* With VMID tracing a VMID packet follows every I-sync before the next
	 * atom, branch or WPU (spec 4.5.8); with timestamps, synchronisation
	 * ends with a T-sync (spec 4.11.4). */
	if (b->vmids) { /* VMID packets exist in v1.1 only */
		st->conf[PFT_PROBE_OPT_VMID] = PFT_PROBE_CONF_HIGH;
		cfg->etmcr |= 1u << 30;
	} else if (b->isync_flow >= 2) {
		st->conf[PFT_PROBE_OPT_VMID] = PFT_PROBE_CONF_HIGH;
	} else if (b->isync_flow == 1) {
		st->conf[PFT_PROBE_OPT_VMID] = PFT_PROBE_CONF_MEDIUM;
	}
	if (b->timestamps) {
		st->conf[PFT_PROBE_OPT_TIMESTAMPS] = PFT_PROBE_CONF_HIGH;
		cfg->etmcr |= 1u << 28;
	} else if (b->isync_flow >= 1) {
		st->conf[PFT_PROBE_OPT_TIMESTAMPS] = PFT_PROBE_CONF_MEDIUM;
	}
	/* Branch broadcast: taken direct branches become branch packets, so
	 * atoms carry only N (spec 4.6). */
	if (b->e_atoms == 0 && b->branches >= 16) {
		st->conf[PFT_PROBE_OPT_BRANCH_BROADCAST] =
			b->branches >= 64 ? PFT_PROBE_CONF_MEDIUM : PFT_PROBE_CONF_LOW;
		cfg->etmcr |= 1u << 8;
	} else if (b->e_atoms >= 16) {
		st->conf[PFT_PROBE_OPT_BRANCH_BROADCAST] = PFT_PROBE_CONF_HIGH;
	} else if (b->e_atoms > 0) {
		st->conf[PFT_PROBE_OPT_BRANCH_BROADCAST] = PFT_PROBE_CONF_MEDIUM;
	}
	/* the return stack turns some indirect branches into E atoms: only the
	 * program image can tell (conf stays NONE) */
}

static void classify(struct pft_probe_stream *st, const struct score *b, uint64_t after)
{
	st->protocol = PFT_PROBE_PROTO_UNKNOWN;
	st->proto_conf = PFT_PROBE_CONF_LOW;
	if (st->stm_asyncs > 0 && st->asyncs == 0) {
		st->protocol = PFT_PROBE_PROTO_STM;
		st->proto_conf = st->stm_asyncs >= 2 ? PFT_PROBE_CONF_HIGH : PFT_PROBE_CONF_MEDIUM;
		return;
	}
	if (st->etm4_asyncs > st->asyncs) {
		st->protocol = PFT_PROBE_PROTO_ETM4;
		st->proto_conf = st->etm4_asyncs >= 2 ? PFT_PROBE_CONF_HIGH : PFT_PROBE_CONF_MEDIUM;
		return;
	}
	if (st->asyncs == 0)
		return; /* no sync pattern: nothing can be decoded */
	/* PFT: (nearly) every byte after the first A-sync decodes, the I-syncs
	 * look like a PTM's, at most one error per 4 KiB */
	if (b->isyncs > 0 && b->lost * 50 <= after && b->odd * 10 <= b->isyncs &&
	    b->errors * 4096 <= after + 4096 && st->etm3_isyncs * 4 <= st->asyncs) {
		st->protocol = PFT_PROBE_PROTO_PFT;
		st->proto_conf = b->lost == 0 && b->errors == 0 && b->isyncs >= 2 && after >= 256
			? PFT_PROBE_CONF_HIGH : PFT_PROBE_CONF_MEDIUM;
		return;
	}
	/* A-sync of the PFT/ETMv3 family that does not decode as PFT */
	st->protocol = PFT_PROBE_PROTO_ETM3;
	st->proto_conf = st->etm3_isyncs > 0 || (b->lost * 2 >= after && st->asyncs >= 2)
		? PFT_PROBE_CONF_MEDIUM : PFT_PROBE_CONF_LOW;
}

/* An ETMv3 stream: the configuration its best ETMv3 decode was read with. */
static void etm3_options(struct pft_probe_stream *st, const struct probe_e3 *e)
{
	unsigned o;

	st->config = e->config;
	for (o = 0; o < PFT_PROBE_NR_OPTS; o++) {
		st->conf[o] = e->conf[o];
		st->alt_lost[o] = e->alt_lost[o];
	}
	st->etm3_timestamps = e->timestamps;
	st->etm3_vmids = e->vmids;
	st->etm3_data = e->data;
}

/* Not PFT, with the PFT/ETMv3/ITM sync: ETMv3 when the ETMv3 decoder reads
 * it (nearly) without loss; else ITM when it reads as ITM packets without a
 * reserved header; else ETMv3 with low confidence when it loses much less
 * as ETMv3 than as PFT, or when the ETMv3 decoder found I-syncs; else
 * unknown. */
static void refine_etm3(struct pft_probe_stream *st, const uint8_t *buf, size_t len, uint64_t after)
{
	struct probe_e3 e;

	if (probe_etm3(buf, len, &e) < 0)
		return;
	st->etm3_lost = e.lost;
	st->etm3_errors = e.errors;
	st->etm3_isync_packets = e.isyncs;
	if (st->etm3_isync_packets > 0 && st->etm3_lost * 50 <= after && st->etm3_errors * 4096 <= after + 4096) {
		st->proto_conf = st->etm3_lost == 0 && st->etm3_isync_packets >= 2 && after >= 256
			? PFT_PROBE_CONF_HIGH : PFT_PROBE_CONF_MEDIUM;
		etm3_options(st, &e);
		return;
	}
	probe_itm(buf, len, (size_t)st->first_async, &st->itm_packets, &st->itm_reserved, &st->itm_swit);
	if (st->itm_packets >= 16 && st->itm_swit > 0 && st->itm_reserved * 200 <= st->itm_packets) {
		st->protocol = PFT_PROBE_PROTO_ITM;
		st->proto_conf = st->itm_reserved == 0 && st->itm_packets >= 64
			? PFT_PROBE_CONF_MEDIUM : PFT_PROBE_CONF_LOW;
	} else if (st->etm3_lost * 4 <= st->lost) {
		st->proto_conf = PFT_PROBE_CONF_LOW; /* loses much less as ETMv3 than as PFT */
	} else if (!st->etm3_isync_packets) {
		st->protocol = PFT_PROBE_PROTO_UNKNOWN;
	}
	if (st->protocol == PFT_PROBE_PROTO_ETM3)
		etm3_options(st, &e);
}

/* Decodes as PFT: does it decode as ETMv3 as well or better?  ETMv3 P-headers
 * and branch packets read as PFT atoms and branches; only the I-syncs tell
 * them apart (PFT: address, information, context ID; ETMv3: context ID,
 * information, address), and with a one- or two-byte context ID a PFT
 * decoder can read an ETMv3 I-sync without losing a byte.  So the stream is
 * ETMv3 when the ETMv3 decode scores better (lost bytes + 8 x odd I-syncs,
 * then errors).  PFT atom headers are any 1xxxxxx0, ETMv3 P-headers only
 * some of them, so a long PFT stream usually makes the ETMv3 decoder stumble;
 * a short one may not.  On a tie: the decode with fewer I-syncs whose
 * address disagrees with the next full branch address (bits [31:16]) wins;
 * then PROBE_TIE_PHDRS P-headers or more with 3 atoms or more each on
 * average are ETMv3 (it traces every instruction); else PFT with low
 * confidence (the bytes cannot tell). */
#define PROBE_TIE_PHDRS 8

static void refine_pft(struct pft_probe_stream *st, const struct score *b, const uint8_t *buf, size_t len,
                       uint64_t after)
{
	struct probe_e3 e;
	uint64_t kp = b->lost + 8 * b->odd, ke;

	if (probe_etm3(buf, len, &e) < 0)
		return;
	st->etm3_lost = e.lost;
	st->etm3_errors = e.errors;
	st->etm3_isync_packets = e.isyncs;
	ke = e.lost + 8 * e.odd;
	if (e.isyncs == 0 || ke > kp || (ke == kp && e.errors > b->errors))
		return; /* PFT decodes better */
	if (ke < kp || e.errors < b->errors) {
		st->protocol = PFT_PROBE_PROTO_ETM3;
		etm3_options(st, &e);
		st->proto_conf = e.lost == 0 && e.errors == 0 && e.odd == 0 && e.isyncs >= 2 && after >= 256
			? PFT_PROBE_CONF_HIGH : PFT_PROBE_CONF_MEDIUM;
		return;
	}
	/* a tie: the I-sync whose address agrees with the first full branch
	 * address after it (bits [31:16]) is the one read in its own layout */
	if (e.far != b->far) {
		if (e.far < b->far) {
			st->protocol = PFT_PROBE_PROTO_ETM3;
			etm3_options(st, &e);
			st->proto_conf = PFT_PROBE_CONF_MEDIUM;
		}
		return;
	}
	/* ETMv3 traces every instruction: its P-headers carry many atoms */
	if (e.phdrs >= PROBE_TIE_PHDRS && e.atoms >= 3 * e.phdrs) {
		st->protocol = PFT_PROBE_PROTO_ETM3;
		etm3_options(st, &e);
		st->proto_conf = PFT_PROBE_CONF_MEDIUM;
		return;
	}
	st->proto_conf = PFT_PROBE_CONF_LOW; /* PFT or ETMv3: the bytes cannot tell */
}

int pft_probe_stream(const uint8_t *buf, size_t len, uint8_t id, struct pft_probe_stream *st)
{
	struct score sc[NCAND];
	struct pft_packet *pk;
	unsigned c, best = 0;
	uint64_t after;
	int r = 0;

	if (!st || (!buf && len))
		return -PFT_E_INVAL;
	memset(st, 0, sizeof *st);
	st->id = id;
	st->bytes = len;
	for (c = 0; c < PFT_PROBE_NR_OPTS; c++)
		st->alt_lost[c] = UINT64_MAX;
	st->etm3_lost = st->etm3_errors = st->etm3_isync_packets = UINT64_MAX;
	st->itm_packets = st->itm_reserved = st->itm_swit = UINT64_MAX;
	if (len > PFT_PROBE_MAX_STREAM)
		len = PFT_PROBE_MAX_STREAM;
	st->probed = len;
	pft_config_init(&st->config);
	probe_scan_syncs(buf, len, st);
	if (st->asyncs == 0) {
		memset(sc, 0, sizeof sc[0]);
		classify(st, &sc[0], 0);
		return 0;
	}
	pk = malloc(BATCH * sizeof *pk);
	if (!pk)
		return -PFT_E_NOMEM;
	for (c = 0; c < NCAND && r == 0; c++) {
		struct pft_config cfg;
		cand_config(c, &cfg);
		r = decode_cand(buf, len, &cfg, &sc[c], pk);
		if (r == 0 && cmp_score(&sc[c], &sc[best]) < 0)
			best = c;
	}
	free(pk);
	if (r < 0)
		return r;
	{
		const struct score *b = &sc[best];
		after = b->first_async == PFT_PROBE_NO_ASYNC ? 0 : len - b->first_async;
		st->lost = b->lost;
		st->errors = b->errors;
		st->packets = b->packets;
		st->isyncs = b->isyncs;
		st->branches = b->branches;
		st->e_atoms = b->e_atoms;
		st->n_atoms = b->n_atoms;
		st->timestamps = b->timestamps;
		st->context_ids = b->cids;
		st->vmids = b->vmids;
		st->ts_backwards = b->ts_back;
		cand_config(best, &st->config);
		classify(st, b, after);
		if (st->protocol == PFT_PROBE_PROTO_ETM3)
			refine_etm3(st, buf, len, after);
		else if (st->protocol == PFT_PROBE_PROTO_PFT)
			refine_pft(st, b, buf, len, after);
		if (st->protocol == PFT_PROBE_PROTO_PFT)
			infer_config(st, sc, best, after);
	}
	st->config.etmtraceidr = id < 0x70 ? id : 0x10;
	return 0;
}
