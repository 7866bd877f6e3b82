/* SPDX-License-Identifier: BSD-3-Clause */
/* Snapshot writer.  TC2's ID 0x13 stream (de-formatted here), its registers
 * and part of its kernel image are written as a new snapshot, once raw and
 * once framed by our formatter; then
 *   - pft_snapshot_open reads back what was written;
 *   - OpenCSD's trc_pkt_lister, run on each written snapshot, lists the same
 *     packets (type and fields, text after "Idx:N;") as it lists for ID 0x13
 *     of the original TC2 snapshot, and maps the memory dump (-decode). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pft/frame.h"
#include "pft/snapshot.h"

#define MAXL 4096

struct listing {
	char **line;
	size_t n;
	int mapped; /* saw the memory accessor line of the dump */
};

static void lister(const char *dir, const char *extra, struct listing *l)
{
	char cmd[1400], buf[1024];
	FILE *p;

	memset(l, 0, sizeof(*l));
	l->line = calloc(MAXL, sizeof(char *));
	snprintf(cmd, sizeof cmd, "trc_pkt_lister -ss_dir '%s' %s -logstdout 2>&1", dir, extra);
	p = popen(cmd, "r");
	if (!p || !l->line)
		return;
	while (fgets(buf, sizeof buf, p)) {
		char *s;

		if (strstr(buf, "FileAcc; Range::0xc0008000:c0017fff"))
			l->mapped = 1;
		/* "Idx:26571; ID:13;\tISYNC : ..." -> "ISYNC : ..." (a raw buffer has
		 * no trace ID: OpenCSD prints ID:0 there) */
		if (strncmp(buf, "Idx:", 4) || !(s = strchr(buf, '\t')) || l->n >= MAXL)
			continue;
		l->line[l->n++] = strdup(s + 1);
	}
	pclose(p);
}

static void free_listing(struct listing *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
}

static void compare(const struct listing *a, const struct listing *b, const char *what)
{
	size_t i, diffs = 0;

	CHECK_EQ(a->n, b->n);
	for (i = 0; i < a->n && i < b->n; i++)
		if (strcmp(a->line[i], b->line[i])) {
			if (diffs++ < 3)
				fprintf(stderr, "%s: line %zu:\n  orig: %s  ours: %s", what, i,
					a->line[i], b->line[i]);
		}
	CHECK_EQ(diffs, 0);
	printf("%s: %zu packet lines identical to the original snapshot's\n", what, b->n);
}

static uint8_t *read_back(const char *dir, const char *name, size_t *len)
{
	char p[300];

	snprintf(p, sizeof p, "%s/%s", dir, name);
	return check_read_file(p, len);
}

int main(void)
{
	char src[1024], path[1100], tmp[] = "/tmp/pft_wsnapXXXXXX", msg[600], cmd[200];
	uint8_t *cap, *kernel, *stream, *framed, *back;
	size_t cap_len = 0, k_len = 0, back_len = 0;
	int64_t n, nf;
	struct pft_snapshot_spec spec;
	struct pft_snapshot_mem mem;
	struct pft_snapshot *sn = NULL;
	struct pft_snapshot_source s;
	struct pft_snapshot_dump d;
	struct listing orig, ours;

	check_data_path(src, sizeof src, "TC2");
	snprintf(path, sizeof path, "%s/cstrace.bin", src);
	cap = check_read_file(path, &cap_len);
	snprintf(path, sizeof path, "%s/kernel_dump.bin", src);
	kernel = check_read_file(path, &k_len);
	CHECK(cap && kernel && k_len >= 0x10000);
	if (!cap || !kernel || k_len < 0x10000)
		return check_report();
	stream = malloc(cap_len);
	n = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, cap, cap_len, stream, cap_len, NULL);
	CHECK_EQ(n, 4533);
	CHECK(mkdtemp(tmp) != NULL);

	pft_snapshot_spec_init(&spec);
	spec.core_name = "cpu_3";
	spec.config.etmcr = 0x10001000;
	spec.config.etmtraceidr = 0x13;
	mem.address = 0xC0008000;
	mem.data = kernel;
	mem.len = 0x10000;
	spec.mem = &mem;
	spec.n_mem = 1;
	spec.trace = stream;
	spec.trace_len = (size_t)n;
	CHECK_EQ(pft_snapshot_write(tmp, &spec, msg, sizeof msg), 0);

	/* read back */
	CHECK_EQ(pft_snapshot_open(tmp, &sn, msg, sizeof msg), 0);
	if (sn) {
		CHECK_EQ(pft_snapshot_source_count(sn), 1);
		CHECK_EQ(pft_snapshot_source(sn, 0, &s), 0);
		CHECK(strcmp(s.name, "PTM_0") == 0 && strcmp(s.type, "PTM1.1") == 0);
		CHECK(s.core && strcmp(s.core, "cpu_3") == 0);
		CHECK_EQ(s.is_ptm, 1);
		CHECK_EQ(s.regs_present, 0x3F);
		CHECK(memcmp(&s.config, &spec.config, sizeof s.config) == 0);
		CHECK_EQ(pft_snapshot_buffer_format(s.buffer_format), PFT_FRAME_RAW);
		CHECK_EQ(pft_snapshot_dump_count(sn, "cpu_3"), 1);
		CHECK_EQ(pft_snapshot_dump(sn, "cpu_3", 0, &d), 0);
		CHECK_EQ(d.address, 0xC0008000);
		CHECK_EQ(d.length, 0x10000);
		back = check_read_file(s.buffer_file, &back_len);
		CHECK(back && back_len == (size_t)n && !memcmp(back, stream, back_len));
		free(back);
		back = check_read_file(d.path, &back_len);
		CHECK(back && back_len == 0x10000 && !memcmp(back, kernel, back_len));
		free(back);
		pft_snapshot_close(sn);
	} else {
		fprintf(stderr, "%s\n", msg);
	}

	/* OpenCSD reads it: same packets as the original. */
	lister(src, "-id 0x13", &orig);
	CHECK(orig.n > 1700);
	lister(tmp, "", &ours);
	compare(&orig, &ours, "raw snapshot");
	free_listing(&ours);
	lister(tmp, "-decode", &ours);
	CHECK(ours.mapped);
	free_listing(&ours);

	/* Framed by our formatter. */
	framed = malloc(cap_len * 4);
	nf = pft_frame_encode_buffer(PFT_FRAME_CORESIGHT, 0x13, stream, (size_t)n, framed, cap_len * 4);
	CHECK(nf > n);
	spec.trace = framed;
	spec.trace_len = (size_t)nf;
	spec.trace_format = PFT_FRAME_CORESIGHT;
	CHECK_EQ(pft_snapshot_write(tmp, &spec, msg, sizeof msg), 0);
	back = read_back(tmp, "cstrace.bin", &back_len);
	CHECK(back && back_len == (size_t)nf);
	free(back);
	lister(tmp, "-id 0x13", &ours);
	compare(&orig, &ours, "framed snapshot");
	free_listing(&ours);

	/* TPIU: FSYNC every 4 frames, HSYNCs sprinkled on halfword boundaries;
	 * OpenCSD reads it with -tpiu_hsync (the buffer is still "coresight").
	 * Frames are 16 bytes and FSYNCs 4, so w is a multiple of 4. */
	{
		struct pft_frame_encoder *enc = pft_frame_encoder_alloc(PFT_FRAME_TPIU, 4, 0);
		uint8_t *tp = malloc(cap_len * 6), *t2 = malloc(cap_len * 8);
		size_t w = 0, c, i, n2 = 0;
		int rr;

		CHECK(enc && tp && t2);
		rr = pft_frame_encoder_encode(enc, 0x13, stream, (size_t)n, tp, cap_len * 6, &c);
		CHECK(rr > 0 && c == (size_t)n);
		w = (size_t)rr;
		rr = pft_frame_encoder_flush(enc, tp + w, cap_len * 6 - w);
		CHECK(rr > 0);
		w += (size_t)rr;
		pft_frame_encoder_free(enc);
		/* OpenCSD 1.3.3 reads the capture in 32-bit words: it accepts
		 * HSYNCs in pairs that keep FSYNCs 32-bit aligned, and not right
		 * before an FSYNC (there it stops with "Data Path fatal error").
		 * test_frame and test_frame_roundtrip cover single HSYNCs at any
		 * halfword, including before an FSYNC. */
		for (i = 0; i < w; i += 4) {
			static const uint8_t fsync[4] = { 0xFF, 0xFF, 0xFF, 0x7F };
			if (i >= 4 && i % 36 == 8 && memcmp(tp + i, fsync, 4))
				for (int k = 0; k < 2; k++)
					t2[n2++] = 0xFF, t2[n2++] = 0x7F;
			memcpy(t2 + n2, tp + i, 4);
			n2 += 4;
		}
		spec.trace = t2;
		spec.trace_len = n2;
		spec.trace_format = PFT_FRAME_CORESIGHT;
		CHECK_EQ(pft_snapshot_write(tmp, &spec, msg, sizeof msg), 0);
		lister(tmp, "-id 0x13 -tpiu_hsync", &ours);
		compare(&orig, &ours, "TPIU capture with FSYNC and HSYNC");
		free_listing(&ours);
		{
			/* and ours reads it back */
			uint8_t *back2 = malloc((size_t)n + 64);
			struct pft_frame_stats fst;
			int64_t m = pft_frame_extract(PFT_FRAME_TPIU, 0x13, t2, n2, back2, (size_t)n + 64, &fst);
			CHECK_EQ(m, n);
			CHECK(back2 && memcmp(back2, stream, (size_t)n) == 0);
			CHECK(fst.sync > 0);
			CHECK_EQ(fst.error + fst.unsynced, 0);
			free(back2);
		}
		free(tp);
		free(t2);
	}
	free_listing(&orig);

	/* Refusals. */
	spec.trace_format = PFT_FRAME_TPIU;
	CHECK_EQ(pft_snapshot_write(tmp, &spec, msg, sizeof msg), -PFT_E_INVAL);
	spec.trace_format = PFT_FRAME_RAW;
	spec.config.etmidr = 0x410CF450; /* neither a PTM nor an ETMv3 */
	CHECK_EQ(pft_snapshot_write(tmp, &spec, msg, sizeof msg), -PFT_E_BAD_CONFIG);
	CHECK(strstr(msg, "ETMIDR") != NULL);
	{
		/* an ETMv3.5 is written with its device type */
		char e3[1200], line[200];
		FILE *f;
		int found = 0;

		spec.config.etmidr = 0x410CF250;
		snprintf(e3, sizeof e3, "%s/etm3", tmp);
		spec.trace = NULL; /* (freed above) */
		spec.trace_len = 0;
		spec.n_mem = 0;
		CHECK_EQ(pft_snapshot_write(e3, &spec, msg, sizeof msg), 0);
		snprintf(e3, sizeof e3, "%s/etm3/%s.ini", tmp, spec.source_name);
		f = fopen(e3, "r");
		CHECK(f != NULL);
		while (f && fgets(line, sizeof line, f))
			found |= strcmp(line, "type=ETM3.5\n") == 0;
		if (f)
			fclose(f);
		CHECK(found);
		spec.config.etmidr = 0x410CF250;
		spec.config.etmtraceidr = 0; /* ETMv3 rules: a reserved trace ID */
		CHECK_EQ(pft_snapshot_write(tmp, &spec, msg, sizeof msg), -PFT_E_BAD_CONFIG);
		spec.config.etmtraceidr = 0x13;
	}
	spec.config.etmidr = 0x411CF312;
	spec.source_name = "../evil";
	CHECK_EQ(pft_snapshot_write(tmp, &spec, msg, sizeof msg), -PFT_E_INVAL);
	spec.source_name = "PTM_0";
	CHECK_EQ(pft_snapshot_write("/nonexistent/dir/x", &spec, msg, sizeof msg), -PFT_E_IO);
	CHECK(strstr(msg, "/nonexistent/dir/x") != NULL);

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	CHECK_EQ(system(cmd), 0);
	free(framed);
	free(stream);
	free(cap);
	free(kernel);
	return check_report();
}
