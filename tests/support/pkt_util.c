/* SPDX-License-Identifier: BSD-3-Clause */
#include "pkt_util.h"

#include <stdlib.h>

struct pft_config pkt_cfg(uint32_t etmcr, uint32_t etmccer, uint32_t etmidr)
{
	struct pft_config c;

	pft_config_init(&c);
	c.etmcr = etmcr;
	c.etmccer = etmccer;
	c.etmidr = etmidr;
	return c;
}

struct pft_config pkt_cfg_class(unsigned k)
{
	unsigned minor = k >= 8, ca, cid, tsv;

	if (minor)
		k -= 8;
	tsv = minor ? k % 4 : 0;
	k /= minor ? 4 : 1;
	cid = k % 4;
	ca = k / 4 % 2;
	if (!minor)
		return pkt_cfg(0x10000000u | (ca ? 0x1000u : 0) | cid << 14, CCER_V10, IDR_V10);
	return pkt_cfg(0x50000000u | (ca ? 0x1000u : 0) | cid << 14,
		       0x04C01AC2u | (tsv & 1) << 28 | (tsv >> 1) << 29, IDR_V11);
}

size_t pkt_hex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;

	while (*s && n < cap) {
		char *end;
		unsigned long v;

		while (*s == ' ' || *s == '|')
			s++;
		if (!*s)
			break;
		v = strtoul(s, &end, 16);
		if (end == s)
			break;
		out[n++] = (uint8_t)v;
		s = end;
	}
	return n;
}

int pkt_decode_all(const struct pft_config *c, const uint8_t *buf, size_t len,
		   struct pft_packet *out, int max)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(c);
	uint64_t sum = 0;
	int n = 0, r;

	if (!d)
		return -1;
	pft_pkt_decoder_feed(d, buf, len);
	pft_pkt_decoder_end(d);
	for (;;) {
		struct pft_packet p;

		r = pft_pkt_decoder_next(d, &p, sizeof(p));
		if (r == -PFT_E_EOS)
			break;
		if (r < 0 || n >= max) {
			n = -1;
			break;
		}
		if (p.offset != sum)
			n = -1000000;
		sum += p.size;
		out[n++] = p;
	}
	pft_pkt_decoder_free(d);
	if (n >= 0 && sum != len)
		return -1;
	return n;
}

void pkt_print(FILE *f, const struct pft_packet *p)
{
	int i;

	fprintf(f, "@%llu %s size=%u [", (unsigned long long)p->offset,
		pft_pkt_type_name((enum pft_pkt_type)p->type), p->size);
	for (i = 0; i < p->nbytes; i++)
		fprintf(f, i ? " %02x" : "%02x", p->bytes[i]);
	fprintf(f, "] addr=0x%llx isa=%u ts=0x%llx cc=%u(%u) cid=0x%x atoms=%u/0x%x exc=%u "
		"fl=0x%x n=%u tsb=%u reason=%u vmid=%u\n",
		(unsigned long long)p->address, p->isa, (unsigned long long)p->timestamp,
		p->cycles, p->cc_bytes, p->context_id, p->atom_count, p->atoms, p->exception,
		p->flags, p->addr_bytes, p->ts_bytes, p->reason, p->vmid);
}

const char *pkt_atoms(const struct pft_packet *p, char *buf)
{
	int i;

	for (i = 0; i < p->atom_count && i < 31; i++)
		buf[i] = (p->atoms >> i) & 1 ? 'E' : 'N';
	buf[i] = 0;
	return buf;
}
