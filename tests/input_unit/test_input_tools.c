/* SPDX-License-Identifier: BSD-3-Clause */
/* The streaming input layer of the pft commands (tools/pft/input.c):
 *  - the packet decoder fed chunk by chunk (as pft dump feeds it, chunks
 *    up to the reader's 1 MiB) gives exactly the packets of a decode of
 *    the whole stream at once, UNSYNCED runs included (TC2's stream, the
 *    same with the wrong configuration, seeded garbage with A-syncs, long
 *    zero runs), whatever the chunk sizes;
 *  - the reader: the chunks of a capture of several MiB put together are
 *    the stream pft_frame_extract gets from the whole capture, and every
 *    byte's capture offset is the one a one-shot de-formatting reports. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "input.h"

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pft %s: ", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

FILE *cli_open_output(const char *cmd, const char *path)
{
	(void)cmd;
	(void)path;
	return stdout;
}

#define MAXP 400000

static size_t decode_whole(const struct pft_config *cfg, const uint8_t *s, size_t n,
			   struct pft_packet *out)
{
	struct pft_pkt_decoder *d = pft_pkt_decoder_alloc(cfg);
	size_t k = 0;

	pft_pkt_feed(d, s, n);
	pft_pkt_end(d);
	while (k < MAXP && pft_pkt_next(d, &out[k], sizeof out[k]) == 0)
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
			pft_pkt_feed(d, s + pos, c);
			pos += c;
		} else {
			pft_pkt_end(d);
		}
		while ((r = pft_pkt_next(d, &p, sizeof p)) == 0)
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

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)n);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

static void check_reader(const uint8_t *cap, size_t caplen)
{
	enum { COPIES = 96 }; /* 3 MiB of capture: several chunks */
	char path[] = "/tmp/pft_input_testXXXXXX";
	int fd = mkstemp(path), r, k;
	size_t total = caplen * COPIES, i, n, pos = 0, bad = 0, chunks = 0;
	uint8_t *whole = malloc(total), *ref = malloc(total);
	uint64_t *refoff = malloc(total * sizeof(uint64_t));
	struct pft_frame_decoder *fd0 = pft_frame_decoder_alloc(PFT_FRAME_CORESIGHT, 0);
	struct pft_frame_item it;
	struct input_opts io;
	struct input in;
	const uint8_t *buf;
	size_t len;

	CHECK(fd >= 0 && whole && ref && refoff && fd0);
	if (fd < 0 || !whole || !ref || !refoff || !fd0)
		return;
	for (i = 0; i < COPIES; i++)
		memcpy(whole + i * caplen, cap, caplen);
	CHECK_EQ(write(fd, whole, total), (long long)total);
	close(fd);
	/* reference: one-shot de-formatting */
	pft_frame_feed(fd0, whole, total);
	pft_frame_end(fd0);
	n = 0;
	while (pft_frame_next(fd0, &it, sizeof it) == 0)
		if (it.type == PFT_FRAME_ITEM_DATA && it.id == 0x13)
			for (i = 0; i < it.len; i++) {
				ref[n] = it.data[i];
				refoff[n++] = pft_frame_item_byte_offset(&it, i);
			}
	pft_frame_decoder_free(fd0);

	input_opts_init(&io);
	io.id = 0x13;
	r = input_open(&in, path, &io, 1, "test");
	CHECK_EQ(r, 0);
	if (!r) {
		CHECK_EQ(in.stream_len, n);
		while ((k = input_read(&in, &buf, &len)) > 0) {
			chunks++;
			CHECK(pos + len <= n);
			if (pos + len > n)
				break;
			if (memcmp(buf, ref + pos, len))
				bad++;
			for (i = 0; i < len; i++)
				if (input_capture_offset(&in, pos + i) != refoff[pos + i])
					bad++;
			pos += len;
			input_release(&in, pos - 1); /* keep the last byte's segment */
		}
		CHECK_EQ(k, 0);
		CHECK_EQ(pos, n);
		CHECK_EQ(bad, 0);
		CHECK_EQ(input_finish(&in, "test"), 0);
		CHECK_EQ(in.frame_stats.bytes_in, total);
		CHECK_EQ(in.frame_stats.id_bytes[0x13], n);
		CHECK(chunks >= 3);
		/* the map holds little more than the last chunk */
		CHECK(in.nseg - in.seg0 < INPUT_CHUNK / 8);
		input_close(&in);
	}
	printf("reader: %zu capture bytes, %zu stream bytes in %zu chunks, bytes and capture offsets "
	       "as a one-shot de-formatting\n", total, n, chunks);

	/* a wrong --id is refused up front, listing the IDs */
	io.id = 0x42;
	CHECK_EQ(input_open(&in, path, &io, 0, "test"), 2);
	input_close(&in);
	unlink(path);
	free(whole);
	free(ref);
	free(refoff);
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
	    !(cap = read_file(path, &caplen))) {
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
	check_reader(cap, caplen);
	free(s);
	free(cap);
	return check_report();
}
