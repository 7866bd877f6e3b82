/* SPDX-License-Identifier: BSD-3-Clause */
/* PFT packet decoder, floor 3b, above pkt_next.c: pft_pkt_decoder_count(),
 * the items of pft_pkt_decoder_next() counted per type instead of written
 * out.  In the middle of a chunk the common packets are measured in place
 * with the decoder state in registers and no struct pft_packet built: runs
 * of one-byte atoms eight bytes at a time (one load and a few word
 * operations for the whole run), cycle-accurate atoms from their
 * continuation bits, branch addresses, I-syncs and timestamps with only
 * the compression state they change.  The rare packets go through the
 * in-place readers of pkt_read.c, and everything out of the in-place path (A-sync,
 * errors, chunk ends, unsynchronised bytes) through pft_pkt_decoder_next()
 * one item at a time, so the items and the state after are those of
 * pft_pkt_decoder_next().  See pkt_internal.h for the floors. */
#include <stddef.h>
#include <string.h>

#include "packet/pkt_internal.h"
#include "packet/pkt_fast.h"

_Static_assert(PFT_PKT_NR_TYPES <= PFT_PKT_COUNT_TYPES, "struct pft_pkt_counts too small");

static void count_item(struct pft_pkt_counts *c, const struct pft_packet *p)
{
	unsigned t = p->type < PFT_PKT_NR_TYPES ? p->type : PFT_PKT_ERROR;

	if (t == PFT_PKT_ERROR && !c->items[PFT_PKT_ERROR])
		c->first_error = p->offset;
	c->items[t]++;
	c->bytes[t] += p->size;
}

#if PKT_FAST
#define BYTES(x) ((x) * 0x0101010101010101ull)

/* How many of the 8 bytes of w, from the lowest, are one-byte atoms (at
 * most 7: byte 7 is left to the next step): with cycle accuracy 10xxxxx0
 * (bit 6, C, clear), without it 1xxxxxx0 but the reserved 0x80 and 0x82
 * (no bit of 6:2 set).  A byte's faults are gathered in its bit 7: bit 7
 * clear (~w), bit 6 set (w << 1), bit 0 set (w << 7). */
static PKT_INLINE unsigned atom_run(uint64_t w, const int ca)
{
	uint64_t bad = ~w | w << 7;

	if (ca)
		bad |= w << 1;
	else
		bad |= ~((w & BYTES(0x7C)) + BYTES(0x7F));
	return (unsigned)__builtin_ctzll((bad & BYTES(0x80)) | 1ull << 63) >> 3;
}

/* Count in place while pos < fast_lim (PKT_FAST_AVAIL bytes readable, in
 * sync, no partial packet); stops before a packet left to the general path
 * (A-sync, errors).  ca is constant after inlining. */
static PKT_INLINE void count_fast(struct pft_pkt_decoder *d, struct pft_pkt_counts *c,
				  const int ca)
{
	static const uint8_t bits[5] = { 0, 6, 12, 19, 26 };
	const uint8_t *p = d->buf + d->pos, *lim = d->buf + d->fast_lim, *start = p;
	/* atoms and branches in registers; the bytes of atoms are what is
	 * left of the run once the other packets' bytes (b_other) are taken */
	uint64_t n_atom = 0, n_br = 0, b_br = 0, b_other = 0;
	uint32_t addr = d->st.base_addr;
	unsigned s = pkt_isa_shift(d->st.base_isa);
	struct pft_packet tmp;

	while (p < lim) {
		uint64_t w = pkt_ld64(p);
		unsigned h = (uint8_t)w, n;

		if (PKT_LIKELY((h & 0x81) == 0x80)) {
			unsigned k = atom_run(w, ca);
			if (ca) {
				/* k one-byte atoms, or one atom with a longer cycle count */
				n_atom += k ? k : 1;
				p += k ? k : pkt_cc_len(w);
				continue;
			}
			if (PKT_UNLIKELY(!k))
				break; /* reserved 0x80 / 0x82: an error item */
			n_atom += k;
			p += k;
			continue;
		}
		if (h & 1) {
			/* the address ends at the first byte 0-3 with C clear, or at 4 */
			uint64_t stop = (~w & 0x80808080ull) | 0x8000000000ull;
			unsigned na = ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
			if (PKT_LIKELY(!((na == 5) | ((na > 1) & (unsigned)(w >> (8 * na - 2)))))) {
				/* 1-4 bytes and no exception: ISA, NS, Hyp unchanged */
				unsigned nb = bits[na];
				uint32_t v = (uint32_t)(((w >> 1) & 0x3F) | ((w >> 2) & 0x1FC0) |
							((w >> 3) & 0xFE000) | ((w >> 4) & 0x7F00000));
				v &= (1u << nb) - 1;
				addr = (addr & ~((1u << (s + nb)) - 1)) | v << s;
				n = na;
				if (ca)
					n += pkt_cc_len(pkt_ld64(p + na));
				n_br++;
				b_br += n;
				p += n;
				continue;
			}
		} else if (h == 0x08) {
			/* I-sync: as pkt_fast_isync() without the packet */
			unsigned info = (unsigned)(w >> 40) & 0xFF, isa;
			n = 6;
			if (ca && (info & 0x60))
				n += pkt_cc_len(pkt_ld64(p + 6));
			n += d->cfg.cid_bytes;
			addr = (uint32_t)(w >> 8) & 0xFFFFFFFEu;
			if ((w >> 8) & 1)
				isa = (info & 0x04) ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
			else
				isa = PFT_ISA_ARM;
			d->st.base_isa = (uint8_t)isa;
			d->st.ns = (info >> 3) & 1;
			d->st.hyp = (info >> 1) & 1;
			s = pkt_isa_shift(isa);
			c->items[PFT_PKT_ISYNC]++;
			c->bytes[PFT_PKT_ISYNC] += n;
			b_other += n;
			p += n;
			continue;
		} else if ((h & 0xFB) == 0x42) {
			/* timestamp: the running value merged as rd_timestamp() does */
			uint64_t v = 0;
			uint32_t cyc;
			unsigned nv = pkt_read_ts(p + 1, PKT_FAST_AVAIL - 1, d->cfg.ts_max, &v);
			d->st.ts = pkt_ts_merge(d->st.ts, v, nv, d->cfg.ts_max);
			n = 1 + nv;
			if (ca) /* at most 15 bytes in all: inside the 16 readable */
				n += pkt_read_cc(p + n, PKT_FAST_AVAIL - n, &cyc);
			c->items[PFT_PKT_TIMESTAMP]++;
			c->bytes[PFT_PKT_TIMESTAMP] += n;
			b_other += n;
			p += n;
			continue;
		}
		/* the rest (exception bytes, 5-byte addresses, WPU, ...):
		 * the in-place readers, with a packet of their own */
		d->st.base_addr = addr;
		n = (h & 1) ? pkt_read_branch_full(d, p, 0, &tmp) : pkt_read_other(d, p, 0, &tmp);
		if (!n)
			break;
		c->items[tmp.type]++;
		c->bytes[tmp.type] += n;
		b_other += n;
		addr = d->st.base_addr;
		s = pkt_isa_shift(d->st.base_isa);
		p += n;
	}
	d->st.base_addr = addr;
	d->pos = (size_t)(p - d->buf);
	c->items[PFT_PKT_ATOM] += n_atom;
	c->bytes[PFT_PKT_ATOM] += (uint64_t)(p - start) - b_br - b_other;
	c->items[PFT_PKT_BRANCH] += n_br;
	c->bytes[PFT_PKT_BRANCH] += b_br;
}

static __attribute__((noinline)) void count_fast_ca(struct pft_pkt_decoder *d,
						    struct pft_pkt_counts *c)
{
	count_fast(d, c, 1);
}

static __attribute__((noinline)) void count_fast_nca(struct pft_pkt_decoder *d,
						     struct pft_pkt_counts *c)
{
	count_fast(d, c, 0);
}
#endif

static int count_run(struct pft_pkt_decoder *dec, struct pft_pkt_counts *c)
{
	struct pft_packet pkt;
	int r;

	for (;;) {
#if PKT_FAST
		if (dec->pos < dec->fast_lim) {
			if (dec->cfg.ca)
				count_fast_ca(dec, c);
			else
				count_fast_nca(dec, c);
		}
#endif
		r = pft_pkt_decoder_next(dec, &pkt, sizeof(pkt));
		if (r)
			return r;
		count_item(c, &pkt);
	}
}

int pft_pkt_decoder_count(struct pft_pkt_decoder *dec, struct pft_pkt_counts *counts, size_t size)
{
	struct pft_pkt_counts local;
	size_t n = size < sizeof(local) ? size : sizeof(local);
	int r;

	if (!dec || !counts || !size)
		return -PFT_E_INVAL;
	if (size == sizeof(local))
		return count_run(dec, counts);
	/* a struct of another size: its common part */
	memset(&local, 0, sizeof(local));
	memcpy(&local, counts, n);
	r = count_run(dec, &local);
	memcpy(counts, &local, n);
	return r;
}
