/* SPDX-License-Identifier: BSD-3-Clause */
/* The input of the pft commands that read trace: the options over a
 * pft_source (pft/source.h), with the messages and exit codes (input.h). */
#define _DEFAULT_SOURCE /* madvise */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "input.h"
#include "input_probe.h"
#include "pft/etm3.h"

static int is_dir(const char *path)
{
	struct stat sb;

	return strcmp(path, "-") && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int exit_code_of(int err)
{
	return err == -PFT_E_EOS ? PFT_EXIT_DATA : PFT_EXIT_USAGE;
}

/* The source's counters and names into the fields the commands read. */
static void sync_info(struct input *in)
{
	struct pft_source_info i;

	pft_source_get_info(in->src, &i, sizeof i);
	in->format = i.format;
	if (i.trace_id >= 0)
		in->trace_id = (uint8_t)i.trace_id;
	in->stream_len = i.stream_len;
	in->delivered = i.delivered;
	in->capture_len = i.capture_len;
	in->frame_errors = i.frame_errors;
	in->frame_error_msg = i.first_frame_error;
	pft_source_get_frame_stats(in->src, &in->frame_stats, sizeof in->frame_stats);
	if (in->meta) /* the names of the source as opened, not of the mapping */
		pft_source_get_info(in->meta, &i, sizeof i);
	in->source_name = i.source_name;
	in->core_name = i.core_name;
	in->buffer_path = i.buffer_path;
}

/* The message a read of the mapping past the file's end (the file was
 * truncated while pft read it: the kernel sends SIGBUS) prints before the
 * process exits with PFT_EXIT_DATA.  A signal handler has only what it can
 * reach without arguments, hence this one file-scope buffer, written once
 * before the mapping is made and read only by the handler. */
static char truncated_msg[512];
static size_t truncated_len;

static void on_truncated(int sig)
{
	(void)sig;
	if (write(STDERR_FILENO, truncated_msg, truncated_len) < 0)
		_exit(PFT_EXIT_DATA);
	_exit(PFT_EXIT_DATA);
}

static void catch_truncation(const char *cmd, const char *path)
{
	struct sigaction sa;
	int n;

	n = snprintf(truncated_msg, sizeof truncated_msg,
		     "pft %s: %s: the file became shorter while it was read (truncated or "
		     "replaced): stopped, the output is incomplete\n", cmd, path);
	truncated_len = n < 0 ? 0 : (size_t)n < sizeof truncated_msg ? (size_t)n
								  : sizeof truncated_msg - 1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_truncated;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* A raw capture in a regular file: read through a mapping of it (views
 * handed out in place, no read() copies), the source as opened kept as
 * in->meta.  When the file cannot be mapped, it is read as before. */
static void map_raw(struct input *in, const struct pft_source_params *p)
{
	struct pft_source_params mp;
	struct pft_source_info i;
	struct pft_source *ms;
	struct stat sb;
	char msg[256];
	size_t len;
	void *m;
	int fd;

	pft_source_get_info(in->src, &i, sizeof i);
	if (i.format != PFT_FRAME_RAW || !i.buffer_path || !strcmp(i.buffer_path, "-"))
		return;
	fd = open(i.buffer_path, O_RDONLY);
	if (fd < 0)
		return;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_size <= 0 ||
	    (uint64_t)sb.st_size > SIZE_MAX) {
		close(fd);
		return;
	}
	len = (size_t)sb.st_size;
	catch_truncation(in->cmd ? in->cmd : "", i.buffer_path);
	m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return;
#ifdef MADV_SEQUENTIAL
	madvise(m, len, MADV_SEQUENTIAL);
#endif
	mp = *p;
	mp.format = PFT_FRAME_RAW;
	mp.trace_id = -1;
	mp.source_name = NULL;
	if (pft_source_open_memory(&ms, m, len, &mp, msg, sizeof msg)) {
		munmap(m, len);
		return;
	}
	in->meta = in->src;
	in->src = ms;
	in->map = m;
	in->map_len = len;
}

void input_drop(struct input *in, uint64_t off)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), from, to;

	if (!in->map)
		return;
	if (off > in->map_len)
		off = in->map_len;
	from = in->dropped / page * page; /* the page holding what was kept */
	to = off / page * page;           /* the page holding off stays */
	if (off == in->map_len)
		to = off;
	if (to > from) {
#ifdef MADV_DONTNEED
		madvise((void *)(uintptr_t)(in->map + from), (size_t)(to - from), MADV_DONTNEED);
#endif
		in->dropped = to;
	}
}

/* The source is a snapshot's PTM device (whatever --etmidr says). */
static int snapshot_ptm(const struct input *in)
{
	struct pft_snapshot_source s;
	int i;

	if (!in->snap || !in->source_name)
		return 0;
	i = pft_snapshot_find_source(in->snap, in->source_name);
	return i >= 0 && pft_snapshot_source(in->snap, (size_t)i, &s) == 0 && s.is_ptm;
}

int input_open(struct input *in, const char *path, const struct input_opts *given, int capture_offsets,
	       const char *cmd)
{
	struct pft_source_params p;
	const struct input_opts *o = given;
	char msg[1400], where[1200];
	int r;

	memset(in, 0, sizeof(*in));
	in->path = path;
	in->cmd = cmd;
	in->frame_error_msg = "";
	if (!path) {
		cli_error(cmd, "no input given (a snapshot folder, a capture file or -)");
		return PFT_EXIT_USAGE;
	}
	pft_source_params_init(&p);
	p.format = o->format;
	p.trace_id = o->id;
	/* --etmtraceidr chooses the ID to read from a snapshot or from frames as
	   --id does (it does not make frames the default layout of a file) */
	if (p.trace_id < 0 && (o->format > PFT_FRAME_RAW || is_dir(path)) &&
	    (o->regs_given & PFT_SNAPSHOT_REG_ETMTRACEIDR) &&
	    (o->regs.etmtraceidr & 0x7F) >= 1 && (o->regs.etmtraceidr & 0x7F) <= 0x6F)
		p.trace_id = (int)(o->regs.etmtraceidr & 0x7F);
	/* a file with --etmtraceidr alone is read raw, as before the probe */
	if (p.format < 0 && p.trace_id < 0 && !is_dir(path) && (o->regs_given & PFT_SNAPSHOT_REG_ETMTRACEIDR))
		p.format = PFT_FRAME_RAW;
	p.source_name = o->source;
	p.capture_offsets = capture_offsets;
	p.no_realign = given->no_realign;
	in->isync_resync = given->isync_resync;
	p.allow_outside = o->allow_outside;
	p.group = o->group;
	r = pft_source_open(&in->src, path, &p, msg, sizeof msg);
	if (r) {
		cli_error(cmd, "%s", msg);
		return exit_code_of(r);
	}
	if (pft_source_get_probe(in->src)) /* a bare capture: what the bytes said */
		input_probe_say(pft_source_get_probe(in->src), path, cmd);
	in->snap = pft_source_snapshot(in->src);
	pft_source_get_config(in->src, &in->config);
	map_raw(in, &p);
	input_apply_options(&in->config, o);
	sync_info(in);
	if (in->format == PFT_FRAME_RAW || !in->trace_id)
		in->trace_id = (uint8_t)(in->config.etmtraceidr & 0x7F);
	if (in->snap)
		snprintf(where, sizeof where, "%s (source %s)", path, in->source_name);
	if (given->allow_etm3 && input_is_etm3(&in->config) && !snapshot_ptm(in)) {
		char why[300];
		struct pft_etm3_features f;
		r = PFT_EXIT_OK;
		if (pft_etm3_config_features(&in->config, &f, why, sizeof why)) {
			cli_error(cmd, "bad ETMv3 registers%s%s: %s", in->snap ? " in " : "",
				  in->snap ? where : "", why);
			r = PFT_EXIT_USAGE;
		}
	} else {
		r = input_check_config(&in->config, cmd, in->snap ? where : NULL);
	}
	if (r)
		input_close(in);
	return r;
}

int input_read(struct input *in, const uint8_t **buf, size_t *len)
{
	struct pft_source_chunk c;
	int r = pft_source_next(in->src, &c, sizeof c);

	if (in->map && !in->keep_views)
		input_drop(in, in->last_end); /* the chunk before is done with */
	if (r == 0) {
		*buf = c.data;
		*len = c.len;
		in->last_end = c.stream_offset + c.len;
		in->gap = (c.flags & PFT_SOURCE_CHUNK_GAP) != 0;
		sync_info(in);
		return 1;
	}
	sync_info(in);
	if (r == -PFT_E_EOS)
		return 0;
	cli_error(in->cmd, "cannot read %s: %s", in->buffer_path ? in->buffer_path : in->path,
		  r == -PFT_E_IO ? strerror(errno) : pft_errstr(r));
	in->exit_code = PFT_EXIT_USAGE;
	return -1;
}

int input_finish(struct input *in, const char *cmd)
{
	char msg[1400];
	int r = pft_source_finish(in->src, msg, sizeof msg);

	sync_info(in);
	if (r) {
		cli_error(cmd, "%s", msg);
		return exit_code_of(r);
	}
	return PFT_EXIT_OK;
}

void input_close(struct input *in)
{
	if (!in)
		return;
	pft_source_close(in->src);
	pft_source_close(in->meta);
	if (in->map)
		munmap((void *)(uintptr_t)in->map, in->map_len);
	memset(in, 0, sizeof(*in));
	in->frame_error_msg = "";
}
