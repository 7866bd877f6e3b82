/* SPDX-License-Identifier: BSD-3-Clause */
/* De-formatting real trace: TC2's 32 KiB ETB buffer (CoreSight frames, a
 * wrapped buffer, five sources).  Oracle: OpenCSD's trc_pkt_lister run now
 * with -o_raw_unpacked, which prints the de-formatted bytes of every frame
 * per trace ID ("????" for bytes before the first ID).  Every ID's stream
 * must be identical; ID 0x13 (the PTM) must be 4533 bytes (the sum of the
 * sizes of the packets trc_pkt_lister lists for it). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/frame.h"

#define NIDS 129 /* 0..127, 128 = unknown */

struct streams {
	uint8_t *b[NIDS];
	size_t n[NIDS];
};

static void add(struct streams *s, unsigned id, uint8_t byte)
{
	if (!(s->n[id] & 1023)) {
		uint8_t *nb = realloc(s->b[id], s->n[id] + 1024);
		if (!nb)
			return;
		s->b[id] = nb;
	}
	s->b[id][s->n[id]++] = byte;
}

/* Parse "Frame Data; Index N; ID_DATA[0xNN]; hh hh ..." lines. */
static int lister_streams(const char *dir, struct streams *s)
{
	char cmd[1200], line[1024];
	FILE *p;
	int lines = 0;

	snprintf(cmd, sizeof cmd, "trc_pkt_lister -ss_dir '%s' -o_raw_unpacked -logstdout 2>/dev/null",
		 dir);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof line, p)) {
		char *q = strstr(line, "ID_DATA[");
		unsigned id;

		if (strncmp(line, "Frame Data;", 11) || !q)
			continue;
		q += 8;
		if (q[0] == '?')
			id = 128;
		else
			id = (unsigned)strtoul(q, NULL, 16) & 0x7F;
		q = strchr(q, ';');
		if (!q)
			continue;
		q++;
		for (;;) {
			char *e;
			unsigned long v = strtoul(q, &e, 16);
			if (e == q)
				break;
			add(s, id, (uint8_t)v);
			q = e;
		}
		lines++;
	}
	pclose(p);
	return lines;
}

int main(void)
{
	char path[1024], dir[1024];
	size_t len = 0, chunk;
	uint8_t *cap;
	static struct streams ours, theirs;
	struct pft_frame_stats st;
	int lines;
	unsigned id;

	check_data_path(dir, sizeof dir, "TC2");
	check_data_path(path, sizeof path, "TC2/cstrace.bin");
	cap = check_read_file(path, &len);
	CHECK(cap != NULL);
	if (!cap)
		return check_report();
	CHECK_EQ(len, 32768);

	/* Ours, fed in odd-sized chunks. */
	for (chunk = 7; chunk <= 4096; chunk = chunk * 9 + 1) {
		struct pft_frame_decoder *d = pft_frame_decoder_alloc(PFT_FRAME_CORESIGHT, 0);
		struct pft_frame_item it;
		size_t pos = 0;
		int r;

		for (id = 0; id < NIDS; id++)
			ours.n[id] = 0;
		for (;;) {
			if (pos < len) {
				size_t n = len - pos < chunk ? len - pos : chunk;
				pft_frame_decoder_feed(d, cap + pos, n);
				pos += n;
			} else {
				pft_frame_decoder_end(d);
			}
			while ((r = pft_frame_decoder_next(d, &it, sizeof it)) == 0) {
				uint32_t i;
				CHECK_EQ(it.type, PFT_FRAME_ITEM_DATA);
				for (i = 0; i < it.len; i++)
					add(&ours, it.id == PFT_FRAME_ID_UNKNOWN ? 128 : it.id,
					    it.data[i]);
			}
			if (r != -PFT_E_AGAIN)
				break;
		}
		CHECK_EQ(r, -PFT_E_EOS);
		pft_frame_decoder_get_stats(d, &st, sizeof(st));
		pft_frame_decoder_free(d);
		CHECK_EQ(st.frames, 2048);
		CHECK_EQ(st.error + st.unsynced + st.sync, 0);
		CHECK_EQ(st.data + st.overhead, len);
		CHECK_EQ(ours.n[0x13], 4533);
		CHECK_EQ(st.id_bytes[0x13], 4533);
	}

	lines = lister_streams(dir, &theirs);
	if (lines <= 0)
		fprintf(stderr, "trc_pkt_lister (OpenCSD, package libopencsd-bin) gave no output\n");
	CHECK(lines > 1000);
	for (id = 0; id < NIDS; id++) {
		if (ours.n[id] != theirs.n[id] ||
		    (ours.n[id] && memcmp(ours.b[id], theirs.b[id], ours.n[id]))) {
			fprintf(stderr, "ID 0x%02x: ours %zu bytes, trc_pkt_lister %zu bytes%s\n", id,
				ours.n[id], theirs.n[id],
				ours.n[id] == theirs.n[id] ? " (contents differ)" : "");
			CHECK(0);
		}
	}
	printf("TC2: %zu bytes of ID 0x13, %zu 0x10, %zu 0x11, %zu 0x12, %zu ID 0, %zu before the first ID; "
	       "identical to trc_pkt_lister -o_raw_unpacked (%d frame lines)\n",
	       ours.n[0x13], ours.n[0x10], ours.n[0x11], ours.n[0x12], ours.n[0], ours.n[128], lines);
	for (id = 0; id < NIDS; id++) {
		free(ours.b[id]);
		free(theirs.b[id]);
	}
	free(cap);
	return check_report();
}
