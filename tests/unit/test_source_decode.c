/* SPDX-License-Identifier: BSD-3-Clause */
/* Streamed decoding as the trace sources (pft/source.h) feed it: the
 * packet decoder fed chunk by chunk (chunks up to the source's 1 MiB) gives
 * exactly the packets of a decode of the whole stream at once, UNSYNCED runs
 * included (TC2's stream, the same with the wrong configuration, seeded
 * garbage with A-syncs, long zero runs), whatever the chunk sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/frame.h"
#include "pft/packet.h"

#define MAXP 400000

static size_t decode_whole(const struct pft_config *cfg, const uint8_t *s, size_t n,
			   struct pft_packet *out)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(cfg);
	size_t k = 0;

	pft_pkt_decoder_feed(d, s, n);
	pft_pkt_decoder_end(d);
	while (k < MAXP && pft_pkt_decoder_next(d, &out[k], sizeof out[k]) == 0)
		k++;
	pft_pkt_decoder_free(d);
	return k;
}

static size_t decode_chunked(const struct pft_config *cfg, const uint8_t *s, size_t n,
			     uint64_t *seed, size_t maxchunk, struct pft_packet *out)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(cfg);
	struct pft_packet p;
	size_t pos = 0, k = 0;
	int r;

	for (;;) {
		size_t c = 1 + (size_t)(check_rand(seed) % maxchunk);

		if (pos < n) {
			if (c > n - pos)
				c = n - pos;
			pft_pkt_decoder_feed(d, s + pos, c);
			pos += c;
		} else {
			pft_pkt_decoder_end(d);
		}
		while ((r = pft_pkt_decoder_next(d, &p, sizeof p)) == 0)
			if (k < MAXP)
				out[k++] = p;
		if (r == -PFT_E_EOS)
			break;
		CHECK_EQ(r, -PFT_E_AGAIN);
		if (r != -PFT_E_AGAIN)
			break;
	}
	pft_pkt_decoder_free(d);
	return k;
}

static void check_chunked(const char *name, const struct pft_config *cfg, const uint8_t *s, size_t n,
		       uint64_t *seed)
{
	static struct pft_packet a[MAXP], b[MAXP];
	static const size_t maxchunks[] = { 1, 7, 64, 4096, 1 << 20 };
	size_t na = decode_whole(cfg, s, n, a), nb, i, m, bad = 0;

	for (m = 0; m < sizeof maxchunks / sizeof maxchunks[0]; m++) {
		nb = decode_chunked(cfg, s, n, seed, maxchunks[m], b);
		CHECK_EQ(nb, na);
		for (i = 0; i < na && i < nb; i++)
			if (memcmp(&a[i], &b[i], sizeof a[i])) {
				if (!bad++)
					fprintf(stderr, "%s: chunks up to %zu: packet %zu (offset %llu) differs\n",
						name, maxchunks[m], i, (unsigned long long)a[i].offset);
			}
	}
	CHECK_EQ(bad, 0);
	printf("%s: %zu bytes, %zu packets, chunked decode identical\n", name, n, na);
}

int main(void)
{
	uint64_t seed = check_seed(0x5eed1a7e);
	char path[1024];
	struct pft_config cfg;
	uint8_t *cap, *s;
	size_t caplen, n, i;
	int64_t sl;

	if (!check_data_path(path, sizeof path, "TC2/cstrace.bin") ||
	    !(cap = check_read_file(path, &caplen))) {
		CHECK(0);
		return check_report();
	}
	s = malloc(1 << 20);
	CHECK(s != NULL);
	if (!s)
		return check_report();
	/* TC2 trace ID 0x13 with its registers */
	pft_config_init(&cfg);
	cfg.etmcr = 0x10001000;
	cfg.etmtraceidr = 0x13;
	sl = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, cap, caplen, s, 1 << 20, NULL);
	CHECK(sl > 4000);
	check_chunked("TC2 0x13", &cfg, s, (size_t)sl, &seed);
	/* the same bytes decoded with the wrong configuration: long unsynced runs */
	pft_config_init(&cfg);
	check_chunked("TC2 0x13, ETMCR=0", &cfg, s, (size_t)sl, &seed);
	/* seeded garbage with some A-syncs and zero runs */
	n = 1 << 20;
	for (i = 0; i < n; i++)
		s[i] = (uint8_t)check_rand(&seed);
	for (i = 0; i < 40; i++) {
		size_t at = (size_t)(check_rand(&seed) % (n - 70000));
		size_t z = check_rand(&seed) % 4 ? 5 + (size_t)(check_rand(&seed) % 8) :
			   (size_t)(check_rand(&seed) % 65536);
		memset(s + at, 0, z);
		s[at + z] = 0x80;
	}
	check_chunked("garbage with A-syncs", &cfg, s, n, &seed);
	free(s);
	free(cap);
	return check_report();
}
