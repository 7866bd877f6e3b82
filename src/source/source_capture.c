/* SPDX-License-Identifier: BSD-3-Clause */
/* Trace sources, bottom floor: the capture's bytes in chunks of
 * PFT_SOURCE_CHUNK.  A file or a pipe is read with large reads gathered
 * into chunks; a caller's buffer is handed out in place (no copy).
 *
 * A regular file is read, not mapped: mapping it and giving the pages
 * behind the reader back (to keep the resident size bounded) measured
 * slower than 1 MiB reads into one buffer the deformatter then finds in
 * the cache (pft dump of a 64 MiB capture: 0.207-0.220 s against
 * 0.199-0.206 s of CPU). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source_int.h"

void source_capture_set_memory(struct pft_source *s, const void *buf, size_t len)
{
	s->fd = -1;
	s->map = buf;
	s->map_len = len;
	s->size = (int64_t)len;
}

void source_capture_set_fd(struct pft_source *s, int fd)
{
	struct stat sb;

	s->fd = fd;
	s->size = -1;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && lseek(fd, 0, SEEK_CUR) == 0)
		s->size = (int64_t)sb.st_size;
}

/* 0, or -PFT_E_IO with errno set. */
int source_capture_open_path(struct pft_source *s, const char *path)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;

	if (fd < 0)
		return -PFT_E_IO;
	s->own_fd = fd != STDIN_FILENO;
	source_capture_set_fd(s, fd);
	return 0;
}

static int read_fd(struct pft_source *s)
{
	size_t n = 0;
	ssize_t got = 0;

	if (!s->cbuf && !(s->cbuf = malloc(PFT_SOURCE_CHUNK)))
		return -PFT_E_NOMEM;
	/* a pipe gives at most its buffer per read: gather a whole chunk (a
	   live source is read as it comes: the first bytes are taken as soon
	   as a quarter chunk is there) */
	while (n < PFT_SOURCE_CHUNK / 4) {
		got = read(s->fd, s->cbuf + n, PFT_SOURCE_CHUNK - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	if (got < 0)
		return -PFT_E_IO;
	s->cdata = s->cbuf;
	s->clen = n;
	return 0;
}

/* The next capture chunk into cdata/clen (clen 0 and eof at the end).
 * 0, or -PFT_E_IO (errno set) / -PFT_E_NOMEM, kept in s->err. */
int source_capture_read(struct pft_source *s)
{
	if (s->map) {
		size_t n = s->map_len - s->map_pos;

		if (n > PFT_SOURCE_CHUNK)
			n = PFT_SOURCE_CHUNK;
		s->cdata = s->map + s->map_pos;
		s->clen = n;
		s->map_pos += n;
	} else {
		int r = read_fd(s);

		if (r) {
			s->err = r;
			return r;
		}
	}
	s->capture_len += s->clen;
	if (!s->clen)
		s->eof = 1;
	return 0;
}

/* Back to the start (a regular file or a buffer): 0 or -PFT_E_IO. */
int source_capture_rewind(struct pft_source *s)
{
	s->eof = 0;
	s->capture_len = 0;
	s->cdata = NULL;
	s->clen = 0;
	if (s->map) {
		s->map_pos = 0;
		return 0;
	}
	return lseek(s->fd, 0, SEEK_SET) == 0 ? 0 : -PFT_E_IO;
}

void source_capture_close(struct pft_source *s)
{
	if (s->own_fd && s->fd >= 0)
		close(s->fd);
	free(s->cbuf);
	s->map = NULL;
	s->fd = -1;
	s->cbuf = NULL;
}
