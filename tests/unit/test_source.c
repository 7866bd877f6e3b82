/* SPDX-License-Identifier: BSD-3-Clause */
/* Trace sources (pft/source.h) against a one-shot de-formatting of the
 * whole capture (pft_frame_decoder fed everything at once):
 *  - a capture file of several MiB, read from the file, a pipe and
 *    a memory buffer: the chunks put together are the reference stream of
 *    the trace ID, every byte's capture offset is the reference's, and the
 *    offset map stays bounded when released behind the reader;
 *  - TC2's snapshot folder: the source, registers and stream of ID 0x13,
 *    and the automatic choice (the first PTM source with data);
 *  - a raw capture: the bytes as they are, in chunks;
 *  - the errors: an absent ID (listing those present), several IDs and none
 *    chosen, an empty file, a missing file, --source on a file. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "pft/source.h"
#include "source/source_int.h"

struct ref {
	uint8_t *data;
	uint64_t *off;
	size_t n;
};

static void make_ref(const uint8_t *cap, size_t len, uint8_t id, struct ref *r)
{
	struct pft_frame_decoder *d = pft_frame_decoder_alloc(PFT_FRAME_CORESIGHT, 0);
	struct pft_frame_item it;
	uint32_t i;

	r->data = malloc(len);
	r->off = malloc(len * sizeof(uint64_t));
	r->n = 0;
	CHECK(d && r->data && r->off);
	pft_frame_decoder_feed(d, cap, len);
	pft_frame_decoder_end(d);
	while (pft_frame_decoder_next(d, &it, sizeof it) == 0)
		if (it.type == PFT_FRAME_ITEM_DATA && it.id == id)
			for (i = 0; i < it.len; i++) {
				r->data[r->n] = it.data[i];
				r->off[r->n++] = pft_frame_item_byte_offset(&it, i);
			}
	pft_frame_decoder_free(d);
}

/* Read src to its end against ref; returns the number of chunks. */
static size_t read_all(const char *what, struct pft_source *src, const struct ref *ref, int offsets)
{
	struct pft_source_chunk c;
	size_t chunks = 0, bad = 0, i;
	uint64_t pos = 0;
	int r;

	while ((r = pft_source_next(src, &c, sizeof c)) == 0) {
		chunks++;
		CHECK_EQ(c.stream_offset, pos);
		CHECK(c.len > 0 && pos + c.len <= ref->n);
		if (pos + c.len > ref->n)
			break;
		bad += memcmp(c.data, ref->data + pos, c.len) != 0;
		for (i = 0; offsets && i < c.len; i++)
			bad += pft_source_capture_offset(src, pos + i) != ref->off[pos + i];
		pos += c.len;
		pft_source_release(src, pos - 1); /* keep the last byte's segment */
		if (offsets) /* the map holds little more than the last chunk */
			CHECK(src->nseg - src->seg0 < PFT_SOURCE_CHUNK / 8);
	}
	CHECK_EQ(r, -PFT_E_EOS);
	CHECK_EQ(pos, ref->n);
	CHECK_EQ(bad, 0);
	printf("%s: %llu stream bytes in %zu chunks%s as the one-shot de-formatting\n", what,
	       (unsigned long long)pos, chunks, offsets ? ", bytes and capture offsets" : "");
	return chunks;
}

static void check_file(const char *path, const uint8_t *whole, size_t total, const struct ref *ref)
{
	struct pft_source_params p;
	struct pft_source_info info;
	struct pft_frame_stats st;
	struct pft_source *src;
	char msg[1024];
	int r;

	pft_source_params_init(&p);
	p.trace_id = 0x13;
	p.capture_offsets = 1;
	r = pft_source_open(&src, path, &p, msg, sizeof msg);
	CHECK_EQ(r, 0);
	if (r)
		return;
	pft_source_get_info(src, &info, sizeof info);
	CHECK_EQ(info.stream_len, ref->n); /* known up front: the file was scanned */
	CHECK_EQ(info.trace_id, 0x13);
	CHECK(read_all("file", src, ref, 1) >= 3);
	CHECK_EQ(pft_source_finish(src, msg, sizeof msg), 0);
	pft_source_get_frame_stats(src, &st, sizeof st);
	CHECK_EQ(st.bytes_in, total);
	CHECK_EQ(st.id_bytes[0x13], ref->n);
	pft_source_close(src);

	/* the same capture from memory */
	r = pft_source_open_memory(&src, whole, total, &p, msg, sizeof msg);
	CHECK_EQ(r, 0);
	if (!r) {
		read_all("memory", src, ref, 1);
		CHECK_EQ(pft_source_finish(src, msg, sizeof msg), 0);
		pft_source_close(src);
	}
}

/* Through a pipe: no ID given, the first with data (0x13 comes first in
 * TC2's buffer? the reference says which); the length is known at the end. */
static void check_pipe(const uint8_t *whole, size_t total, const struct ref *ref)
{
	struct pft_source_params p;
	struct pft_source_info info;
	struct pft_source *src;
	char msg[1024];
	int fds[2], r, status;
	pid_t pid;

	CHECK_EQ(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		size_t off = 0;
		close(fds[0]);
		while (off < total) {
			ssize_t w = write(fds[1], whole + off, total - off);
			if (w <= 0)
				_exit(1);
			off += (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	pft_source_params_init(&p);
	p.trace_id = 0x13;
	p.format = PFT_FRAME_CORESIGHT;
	p.capture_offsets = 1;
	r = pft_source_open_fd(&src, fds[0], "the pipe", &p, msg, sizeof msg);
	CHECK_EQ(r, 0);
	if (!r) {
		pft_source_get_info(src, &info, sizeof info);
		CHECK_EQ(info.stream_len, PFT_SOURCE_LEN_UNKNOWN);
		read_all("pipe", src, ref, 1);
		CHECK_EQ(pft_source_finish(src, msg, sizeof msg), 0);
		pft_source_get_info(src, &info, sizeof info);
		CHECK_EQ(info.stream_len, ref->n);
		CHECK_EQ(info.capture_len, total);
		pft_source_close(src);
	}
	close(fds[0]);
	waitpid(pid, &status, 0);
}

static void check_snapshot(const uint8_t *cap, size_t caplen)
{
	struct pft_source_params p;
	struct pft_source_info info;
	struct pft_config cfg;
	struct pft_source *src;
	struct ref ref;
	char dir[1024], msg[1024];
	int r;

	check_data_path(dir, sizeof dir, "TC2");
	make_ref(cap, caplen, 0x13, &ref);
	pft_source_params_init(&p);
	p.trace_id = 0x13;
	r = pft_source_open(&src, dir, &p, msg, sizeof msg);
	CHECK_EQ(r, 0);
	if (!r) {
		pft_source_get_info(src, &info, sizeof info);
		CHECK(info.source_name && !strcmp(info.source_name, "PTM_0"));
		CHECK(info.core_name != NULL);
		CHECK(pft_source_snapshot(src) != NULL);
		pft_source_get_config(src, &cfg);
		CHECK_EQ(cfg.etmtraceidr & 0x7F, 0x13);
		CHECK_EQ(cfg.etmcr, 0x10001000u); /* cycle accurate, timestamps (device ini) */
		read_all("snapshot TC2 0x13", src, &ref, 0);
		CHECK_EQ(pft_source_finish(src, msg, sizeof msg), 0);
		pft_source_close(src);
	}
	/* no choice: the first PTM source whose ID has data */
	pft_source_params_init(&p);
	r = pft_source_open(&src, dir, &p, msg, sizeof msg);
	CHECK_EQ(r, 0);
	if (!r) {
		pft_source_get_info(src, &info, sizeof info);
		CHECK(info.trace_id > 0);
		printf("snapshot TC2, no choice: %s, ID 0x%02X\n", info.source_name, info.trace_id);
		pft_source_close(src);
	}
	p.source_name = "NO_SUCH";
	CHECK_EQ(pft_source_open(&src, dir, &p, msg, sizeof msg), -PFT_E_NOTFOUND);
	CHECK(strstr(msg, "PTM_") != NULL); /* lists the sources */
	free(ref.data);
	free(ref.off);
}

static void check_raw(const uint8_t *data, size_t len)
{
	struct pft_source_params p;
	struct pft_source *src;
	struct ref ref;
	char msg[256];
	size_t i;

	ref.data = (uint8_t *)data;
	ref.n = len;
	ref.off = malloc(len * sizeof(uint64_t));
	for (i = 0; i < len; i++)
		ref.off[i] = i;
	pft_source_params_init(&p);
	p.format = PFT_FRAME_RAW;
	CHECK_EQ(pft_source_open_memory(&src, data, len, &p, msg, sizeof msg), 0);
	CHECK(read_all("raw memory", src, &ref, 0) >= 2);
	CHECK_EQ(pft_source_finish(src, msg, sizeof msg), 0);
	pft_source_close(src);
	free(ref.off);
}

static void check_errors(const char *path, const uint8_t *cap, size_t caplen)
{
	struct pft_source_params p;
	struct pft_source *src = NULL;
	char msg[1024], empty[] = "/tmp/pft_source_emptyXXXXXX";
	int fd;

	pft_source_params_init(&p);
	p.trace_id = 0x42;
	CHECK_EQ(pft_source_open(&src, path, &p, msg, sizeof msg), -PFT_E_NOTFOUND);
	CHECK(strstr(msg, "0x13 (") != NULL); /* the IDs present */
	CHECK(src == NULL);
	p.trace_id = -1;
	p.format = PFT_FRAME_CORESIGHT;
	CHECK_EQ(pft_source_open_memory(&src, cap, caplen, &p, msg, sizeof msg), -PFT_E_INVAL);
	CHECK(strstr(msg, "several trace IDs") != NULL);
	fd = mkstemp(empty);
	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ(pft_source_open(&src, empty, &p, msg, sizeof msg), -PFT_E_EOS);
	CHECK(strstr(msg, "is empty") != NULL);
	unlink(empty);
	CHECK_EQ(pft_source_open(&src, "/nonexistent/x.bin", &p, msg, sizeof msg), -PFT_E_IO);
	p.source_name = "PTM_0";
	CHECK_EQ(pft_source_open(&src, path, &p, msg, sizeof msg), -PFT_E_INVAL);
	pft_source_params_init(&p);
	p.trace_id = 0x70;
	CHECK_EQ(pft_source_open(&src, path, &p, msg, sizeof msg), -PFT_E_INVAL);
	printf("errors: %s\n", msg);
}

int main(void)
{
	enum { COPIES = 96 }; /* 3 MiB of capture: several chunks */
	char path[1024], tmp[] = "/tmp/pft_source_testXXXXXX";
	uint8_t *cap, *whole;
	size_t caplen, total, i;
	struct ref ref;
	int fd;

	if (!check_data_path(path, sizeof path, "TC2/cstrace.bin") ||
	    !(cap = check_read_file(path, &caplen))) {
		CHECK(0);
		return check_report();
	}
	total = caplen * COPIES;
	whole = malloc(total);
	fd = mkstemp(tmp);
	CHECK(whole && fd >= 0);
	if (!whole || fd < 0)
		return check_report();
	for (i = 0; i < COPIES; i++)
		memcpy(whole + i * caplen, cap, caplen);
	CHECK_EQ(write(fd, whole, total), (long long)total);
	close(fd);
	make_ref(whole, total, 0x13, &ref);
	CHECK(ref.n > 100000);
	check_file(tmp, whole, total, &ref);
	check_pipe(whole, total, &ref);
	check_snapshot(cap, caplen);
	check_raw(whole, total);
	check_errors(tmp, whole, total);
	unlink(tmp);
	free(ref.data);
	free(ref.off);
	free(whole);
	free(cap);
	return check_report();
}
