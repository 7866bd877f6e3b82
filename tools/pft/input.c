/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared input handling: options, snapshot or capture file -> configuration
 * and de-formatted PFT stream (see input.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "input.h"

const struct option input_long_options[] = {
	{ "id", required_argument, NULL, INPUT_OPT_ID },
	{ "source", required_argument, NULL, INPUT_OPT_SOURCE },
	{ "format", required_argument, NULL, INPUT_OPT_FORMAT },
	{ "etmcr", required_argument, NULL, INPUT_OPT_ETMCR },
	{ "etmccr", required_argument, NULL, INPUT_OPT_ETMCCR },
	{ "etmccer", required_argument, NULL, INPUT_OPT_ETMCCER },
	{ "etmidr", required_argument, NULL, INPUT_OPT_ETMIDR },
	{ "etmtraceidr", required_argument, NULL, INPUT_OPT_ETMTRACEIDR },
	{ "etmsyncfr", required_argument, NULL, INPUT_OPT_ETMSYNCFR },
	{ "cycle-accurate", no_argument, NULL, INPUT_OPT_CYCLE_ACCURATE },
	{ "contextid-bytes", required_argument, NULL, INPUT_OPT_CONTEXTID_BYTES },
	{ "timestamps", no_argument, NULL, INPUT_OPT_TIMESTAMPS },
	{ "vmid", no_argument, NULL, INPUT_OPT_VMID },
	{ "return-stack", no_argument, NULL, INPUT_OPT_RETURN_STACK },
	{ "branch-broadcast", no_argument, NULL, INPUT_OPT_BRANCH_BROADCAST },
	{ "pft-version", required_argument, NULL, INPUT_OPT_PFT_VERSION },
	{ NULL, 0, NULL, 0 }
};

void input_opts_init(struct input_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->id = -1;
	o->format = -1;
	o->contextid_bytes = -1;
	o->pft_minor = -1;
	pft_config_init(&o->regs);
}

struct option *input_merge_options(struct option *dst, size_t cap, const struct option *own)
{
	size_t n = 0, i;

	for (i = 0; own && own[i].name; i++) {
		if (n + 1 >= cap)
			return NULL;
		dst[n++] = own[i];
	}
	for (i = 0; input_long_options[i].name; i++) {
		if (n + 1 >= cap)
			return NULL;
		dst[n++] = input_long_options[i];
	}
	memset(&dst[n], 0, sizeof(dst[n]));
	return dst;
}

static int parse_u32(const char *arg, uint32_t *out)
{
	char *e;
	unsigned long long v;

	if (!arg || !*arg || *arg == '-')
		return -1;
	errno = 0;
	v = strtoull(arg, &e, 0);
	if (errno || *e || v > 0xFFFFFFFFull)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int input_parse_option(struct input_opts *o, int opt, const char *arg, const char *cmd)
{
	static const struct {
		int opt;
		uint32_t bit;
		const char *name;
	} regs[] = {
		{ INPUT_OPT_ETMCR, PFT_SNAPSHOT_REG_ETMCR, "--etmcr" },
		{ INPUT_OPT_ETMCCR, PFT_SNAPSHOT_REG_ETMCCR, "--etmccr" },
		{ INPUT_OPT_ETMCCER, PFT_SNAPSHOT_REG_ETMCCER, "--etmccer" },
		{ INPUT_OPT_ETMIDR, PFT_SNAPSHOT_REG_ETMIDR, "--etmidr" },
		{ INPUT_OPT_ETMTRACEIDR, PFT_SNAPSHOT_REG_ETMTRACEIDR, "--etmtraceidr" },
		{ INPUT_OPT_ETMSYNCFR, PFT_SNAPSHOT_REG_ETMSYNCFR, "--etmsyncfr" },
	};
	uint32_t v;
	size_t i;

	if (opt < INPUT_OPT_BASE || opt >= INPUT_OPT_END)
		return 0;
	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		if (regs[i].opt != opt)
			continue;
		if (parse_u32(arg, &v)) {
			cli_error(cmd, "%s: '%s' is not a 32-bit number (use 0x... or decimal)",
				  regs[i].name, arg ? arg : "");
			return -1;
		}
		o->regs_given |= regs[i].bit;
		switch (regs[i].bit) {
		case PFT_SNAPSHOT_REG_ETMCR: o->regs.etmcr = v; break;
		case PFT_SNAPSHOT_REG_ETMCCR: o->regs.etmccr = v; break;
		case PFT_SNAPSHOT_REG_ETMCCER: o->regs.etmccer = v; break;
		case PFT_SNAPSHOT_REG_ETMIDR: o->regs.etmidr = v; break;
		case PFT_SNAPSHOT_REG_ETMTRACEIDR: o->regs.etmtraceidr = v; break;
		default: o->regs.etmsyncfr = v; break;
		}
		return 1;
	}
	switch (opt) {
	case INPUT_OPT_ID:
		if (parse_u32(arg, &v) || v == 0 || v > 0x6F) {
			cli_error(cmd, "--id: '%s' is not a trace ID (0x01-0x6F)", arg ? arg : "");
			return -1;
		}
		o->id = (int)v;
		return 1;
	case INPUT_OPT_SOURCE:
		o->source = arg;
		return 1;
	case INPUT_OPT_FORMAT:
		if (!strcmp(arg, "raw"))
			o->format = PFT_FRAME_RAW;
		else if (!strcmp(arg, "frames") || !strcmp(arg, "coresight"))
			o->format = PFT_FRAME_CORESIGHT;
		else if (!strcmp(arg, "tpiu"))
			o->format = PFT_FRAME_TPIU;
		else {
			cli_error(cmd, "--format: '%s' is not raw, frames or tpiu", arg);
			return -1;
		}
		return 1;
	case INPUT_OPT_CYCLE_ACCURATE: o->cycle_accurate = 1; return 1;
	case INPUT_OPT_TIMESTAMPS: o->timestamps = 1; return 1;
	case INPUT_OPT_VMID: o->vmid = 1; return 1;
	case INPUT_OPT_RETURN_STACK: o->return_stack = 1; return 1;
	case INPUT_OPT_BRANCH_BROADCAST: o->branch_broadcast = 1; return 1;
	case INPUT_OPT_CONTEXTID_BYTES:
		if (parse_u32(arg, &v) || (v != 0 && v != 1 && v != 2 && v != 4)) {
			cli_error(cmd, "--contextid-bytes: '%s' is not 0, 1, 2 or 4", arg ? arg : "");
			return -1;
		}
		o->contextid_bytes = (int)v;
		return 1;
	case INPUT_OPT_PFT_VERSION:
		if (!strcmp(arg, "1.0") || !strcmp(arg, "1"))
			o->pft_minor = 0;
		else if (!strcmp(arg, "1.1"))
			o->pft_minor = 1;
		else {
			cli_error(cmd, "--pft-version: '%s' is not 1.0 or 1.1", arg);
			return -1;
		}
		return 1;
	default:
		return 0;
	}
}

/* Layer the options over cfg (defaults or a snapshot's registers). */
static void apply_opts(struct pft_config *cfg, const struct input_opts *o)
{
	static const uint8_t cid_field[5] = { 0, 1, 2, 0, 3 };

	if (o->regs_given & PFT_SNAPSHOT_REG_ETMCR)
		cfg->etmcr = o->regs.etmcr;
	if (o->regs_given & PFT_SNAPSHOT_REG_ETMCCR)
		cfg->etmccr = o->regs.etmccr;
	if (o->regs_given & PFT_SNAPSHOT_REG_ETMCCER)
		cfg->etmccer = o->regs.etmccer;
	if (o->regs_given & PFT_SNAPSHOT_REG_ETMIDR)
		cfg->etmidr = o->regs.etmidr;
	if (o->regs_given & PFT_SNAPSHOT_REG_ETMTRACEIDR)
		cfg->etmtraceidr = o->regs.etmtraceidr;
	if (o->regs_given & PFT_SNAPSHOT_REG_ETMSYNCFR)
		cfg->etmsyncfr = o->regs.etmsyncfr;
	if (o->id >= 0 && !(o->regs_given & PFT_SNAPSHOT_REG_ETMTRACEIDR))
		cfg->etmtraceidr = (uint32_t)o->id;
	if (o->cycle_accurate)
		cfg->etmcr |= 1u << 12;
	if (o->timestamps)
		cfg->etmcr |= 1u << 28;
	if (o->vmid)
		cfg->etmcr |= 1u << 30;
	if (o->return_stack)
		cfg->etmcr |= 1u << 29;
	if (o->branch_broadcast)
		cfg->etmcr |= 1u << 8;
	if (o->contextid_bytes >= 0)
		cfg->etmcr = (cfg->etmcr & ~(3u << 14)) | (uint32_t)cid_field[o->contextid_bytes] << 14;
	if (o->pft_minor >= 0)
		cfg->etmidr = (cfg->etmidr & ~0xF0u) | (uint32_t)o->pft_minor << 4;
}

static int check_config(const struct pft_config *cfg, const char *cmd, const char *where)
{
	char why[300];

	if (pft_config_check(cfg, why, sizeof why)) {
		cli_error(cmd, "bad PTM registers%s%s: %s", where ? " in " : "", where ? where : "", why);
		return PFT_EXIT_USAGE;
	}
	return PFT_EXIT_OK;
}

int input_config(const struct input_opts *o, struct pft_config *cfg, const char *cmd)
{
	pft_config_init(cfg);
	apply_opts(cfg, o);
	return check_config(cfg, cmd, NULL);
}

static void describe_ids(const struct pft_frame_stats *st, char *buf, size_t cap)
{
	size_t n = 0;
	int id, any = 0;

	buf[0] = '\0';
	for (id = 1; id < 128 && n + 40 < cap; id++) {
		if (!st->id_bytes[id])
			continue;
		n += (size_t)snprintf(buf + n, cap - n, "%s0x%02X (%llu bytes)", any ? ", " : "", id,
				      (unsigned long long)st->id_bytes[id]);
		any = 1;
	}
	if (!any)
		snprintf(buf, cap, "no trace data at all");
}

/* Open the capture file (or stdin) for reading in chunks; *size gets its
 * length if it is a regular file, else -1. */
static int open_capture(struct input *in, const char *path, int64_t *size, const char *cmd)
{
	struct stat sb;

	*size = -1;
	in->fd = strcmp(path, "-") ? open(path, O_RDONLY) : STDIN_FILENO;
	if (in->fd < 0) {
		cli_error(cmd, "cannot open %s: %s", path, strerror(errno));
		return PFT_EXIT_USAGE;
	}
	in->buffer_path = path;
	if (fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    lseek(in->fd, 0, SEEK_CUR) == 0)
		*size = (int64_t)sb.st_size;
	in->cbuf = malloc(INPUT_CHUNK);
	in->obuf = malloc(INPUT_CHUNK + 4 * PFT_FRAME_SIZE);
	if (!in->cbuf || !in->obuf) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	return PFT_EXIT_OK;
}

/* Next capture chunk into cbuf (clen 0 and eof at the end); -1 on error. */
static int read_capture(struct input *in)
{
	size_t n = 0;
	ssize_t got = 0;

	/* a pipe gives at most its buffer per read: gather a whole chunk (a
	   live source is read as it comes: the first bytes are taken as soon
	   as a quarter chunk is there) */
	while (n < INPUT_CHUNK / 4) {
		got = read(in->fd, in->cbuf + n, INPUT_CHUNK - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	if (got < 0) {
		cli_error(in->cmd, "cannot read %s: %s",
			  strcmp(in->buffer_path, "-") ? in->buffer_path : "standard input",
			  strerror(errno));
		in->exit_code = PFT_EXIT_USAGE;
		return -1;
	}
	in->clen = n;
	in->capture_len += n;
	if (!n)
		in->eof = 1;
	return 0;
}

static void note_frame_error(struct input *in, const struct pft_frame_item *it)
{
	if (!in->frame_errors++)
		snprintf(in->frame_error_msg, sizeof in->frame_error_msg,
			 "%s at capture offset %llu (%u bytes)",
			 it->type == PFT_FRAME_ITEM_ERROR ?
				 pft_frame_error_name((enum pft_frame_error)it->reason) :
				 "no FSYNC found",
			 (unsigned long long)it->capture_offset, it->len);
}

/* One pass over a regular file, de-formatting only: the trace IDs it holds
 * (frame_stats) and its frame errors.  The file is rewound after. */
static int scan_ids(struct input *in, const char *cmd)
{
	struct pft_frame_decoder *d = pft_frame_decoder_alloc(in->format, 0);
	struct pft_frame_item it;
	int r;

	if (!d) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	for (;;) {
		while ((r = pft_frame_next(d, &it, sizeof it)) == 0)
			if (it.type != PFT_FRAME_ITEM_DATA)
				note_frame_error(in, &it);
		if (r != -PFT_E_AGAIN)
			break;
		if (read_capture(in)) {
			pft_frame_decoder_free(d);
			return in->exit_code;
		}
		if (in->eof)
			pft_frame_end(d);
		else
			pft_frame_feed(d, in->cbuf, in->clen);
	}
	pft_frame_get_stats(d, &in->frame_stats);
	pft_frame_decoder_free(d);
	in->eof = 0;
	in->capture_len = 0;
	if (lseek(in->fd, 0, SEEK_SET) != 0) {
		cli_error(cmd, "cannot rewind %s: %s", in->buffer_path, strerror(errno));
		return PFT_EXIT_USAGE;
	}
	return PFT_EXIT_OK;
}

static int add_seg(struct input *in, uint64_t stream, uint64_t capture)
{
	if (in->nseg > in->seg0) {
		const struct input_segment *l = &in->seg[in->nseg - 1];
		/* continues the last segment? (its length is up to the next) */
		if (capture - l->capture == stream - l->stream)
			return 0;
	}
	if (in->nseg == in->segcap) {
		size_t nc = in->segcap ? in->segcap * 2 : 4096;
		struct input_segment *ns;

		if (in->seg0 >= in->segcap / 2 && in->seg0) {
			/* reuse the released front */
			memmove(in->seg, in->seg + in->seg0, (in->nseg - in->seg0) * sizeof(*ns));
			in->nseg -= in->seg0;
			in->seg0 = 0;
		} else {
			ns = realloc(in->seg, nc * sizeof(*ns));
			if (!ns)
				return -1;
			in->seg = ns;
			in->segcap = nc;
		}
	}
	in->seg[in->nseg].stream = stream;
	in->seg[in->nseg].capture = capture;
	in->nseg++;
	return 0;
}

/* Forget the segments that only cover stream bytes below in->release. */
static void trim_segs(struct input *in)
{
	if (!in->track) {
		in->seg0 = in->nseg = 0;
		return;
	}
	while (in->nseg - in->seg0 > 1 && in->seg[in->seg0 + 1].stream <= in->release)
		in->seg0++;
	if (in->seg0 == in->nseg)
		in->seg0 = in->nseg = 0;
}

uint64_t input_capture_offset(const struct input *in, uint64_t off)
{
	size_t lo = in->seg0, hi = in->nseg;

	if (in->nseg <= in->seg0)
		return off;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (in->seg[mid].stream <= off)
			lo = mid;
		else
			hi = mid;
	}
	return in->seg[lo].capture + (off - in->seg[lo].stream);
}

/* The next de-formatted chunk of the chosen ID into obuf (olen 0 and done
 * at the end).  -1 on a read error. */
static int fill_frames(struct input *in)
{
	struct pft_frame_item it;
	int r;
	uint32_t i;

	in->olen = 0;
	for (;;) {
		if (in->olen + PFT_FRAME_MAX_RUN > INPUT_CHUNK)
			return 0;
		r = pft_frame_next(in->fdec, &it, sizeof it);
		if (r == -PFT_E_AGAIN) {
			pft_frame_get_stats(in->fdec, &in->frame_stats);
			if (in->olen)
				return 0;
			if (read_capture(in))
				return -1;
			if (in->eof)
				pft_frame_end(in->fdec);
			else
				pft_frame_feed(in->fdec, in->cbuf, in->clen);
			continue;
		}
		if (r) { /* -PFT_E_EOS */
			pft_frame_get_stats(in->fdec, &in->frame_stats);
			in->done = 1;
			return 0;
		}
		if (it.type != PFT_FRAME_ITEM_DATA) {
			note_frame_error(in, &it);
			continue;
		}
		if (in->lock_id < 0 && it.id >= 1 && it.id < 128) {
			in->lock_id = it.id; /* no ID chosen, a pipe: the first with data */
			in->trace_id = it.id;
		}
		if (it.id != in->lock_id)
			continue;
		for (i = 0; i < it.len; i++)
			if (in->track &&
			    add_seg(in, it.stream_offset + i, pft_frame_item_byte_offset(&it, i))) {
				cli_error(in->cmd, "out of memory");
				in->exit_code = PFT_EXIT_USAGE;
				return -1;
			}
		memcpy(in->obuf + in->olen, it.data, it.len);
		in->olen += it.len;
	}
}

/* The next chunk into cbuf/obuf; in->have says whether there is one. */
static int fill(struct input *in)
{
	in->have = 0;
	if (in->done)
		return 0;
	trim_segs(in);
	if (in->format == PFT_FRAME_RAW) {
		if (read_capture(in))
			return -1;
		in->frame_stats.bytes_in += in->clen;
		in->frame_stats.data += in->clen;
		in->olen = in->clen;
		if (in->eof)
			in->done = 1;
	} else if (fill_frames(in)) {
		return -1;
	}
	in->have = in->olen > 0;
	return 0;
}

int input_read(struct input *in, const uint8_t **buf, size_t *len)
{
	if (in->exit_code)
		return -1;
	while (!in->have) {
		if (in->done)
			return 0;
		if (fill(in))
			return -1;
	}
	*buf = in->format == PFT_FRAME_RAW ? in->cbuf : in->obuf;
	*len = in->olen;
	in->delivered += in->olen;
	in->have = 0;
	return 1;
}

int input_finish(struct input *in, const char *cmd)
{
	char ids[600];
	int k, n = 0;

	in->stream_len = in->delivered;
	if (in->format == PFT_FRAME_RAW)
		return PFT_EXIT_OK;
	for (k = 1; k < 128; k++)
		n += in->frame_stats.id_bytes[k] != 0;
	if (in->lock_id < 0) {
		cli_error(cmd, "%s holds no trace data in %s format (%llu capture bytes%s%s)", in->what,
			  pft_frame_format_name(in->format), (unsigned long long)in->capture_len,
			  in->frame_errors ? "; " : "", in->frame_error_msg);
		return PFT_EXIT_DATA;
	}
	if (in->auto_id && n > 1) {
		describe_ids(&in->frame_stats, ids, sizeof ids);
		cli_error(cmd, "%s holds several trace IDs: %s; choose one with --id (read 0x%02X, the first)",
			  in->what, ids, in->trace_id);
		return PFT_EXIT_USAGE;
	}
	if (!in->delivered) {
		describe_ids(&in->frame_stats, ids, sizeof ids);
		cli_error(cmd, "no data for trace ID 0x%02X in %s; it holds %s", in->trace_id, in->what,
			  ids);
		return PFT_EXIT_USAGE;
	}
	return PFT_EXIT_OK;
}

/* The capture is open (in->fd): choose the trace ID (id < 0: the only one
 * with data), check what can be checked up front, and read the first chunk. */
static int start_capture(struct input *in, int64_t size, int id, int scanned, const char *cmd)
{
	char ids[600];
	int r, was_auto = id < 0 && in->format != PFT_FRAME_RAW;

	in->stream_len = INPUT_LEN_UNKNOWN;
	if (size == 0) {
		cli_error(cmd, "%s is empty: no trace to read", in->what);
		return PFT_EXIT_DATA;
	}
	if (in->format == PFT_FRAME_RAW) {
		if (size > 0)
			in->stream_len = (uint64_t)size;
	} else {
		if (size > 0 && !scanned) {
			r = scan_ids(in, cmd);
			if (r)
				return r;
			scanned = 1;
		}
		if (scanned && id < 0) {
			/* no ID chosen: the only one with data */
			int found = -1, k;

			for (k = 1; k < 128; k++)
				if (in->frame_stats.id_bytes[k]) {
					if (found >= 0) {
						describe_ids(&in->frame_stats, ids, sizeof ids);
						cli_error(cmd, "%s holds several trace IDs: %s; choose one with --id",
							  in->what, ids);
						return PFT_EXIT_USAGE;
					}
					found = k;
				}
			if (found < 0) {
				cli_error(cmd, "%s holds no trace data in %s format (%llu capture bytes%s%s)",
					  in->what, pft_frame_format_name(in->format),
					  (unsigned long long)size, in->frame_errors ? "; " : "",
					  in->frame_error_msg);
				return PFT_EXIT_DATA;
			}
			id = found;
		}
		if (scanned) {
			if (!in->frame_stats.id_bytes[id]) {
				describe_ids(&in->frame_stats, ids, sizeof ids);
				cli_error(cmd, "no data for trace ID 0x%02X in %s; it holds %s", id,
					  in->what, ids);
				return PFT_EXIT_USAGE;
			}
			in->stream_len = in->frame_stats.id_bytes[id];
		}
		/* the main pass counts again */
		memset(&in->frame_stats, 0, sizeof in->frame_stats);
		in->frame_errors = 0;
		in->frame_error_msg[0] = '\0';
		in->auto_id = id < 0;
		in->lock_id = id;
		if (id >= 0)
			in->trace_id = (uint8_t)id;
		in->fdec = pft_frame_decoder_alloc(in->format, 0);
		if (!in->fdec) {
			cli_error(cmd, "out of memory");
			return PFT_EXIT_USAGE;
		}
	}
	if (fill(in))
		return in->exit_code;
	if (!in->capture_len) {
		cli_error(cmd, "%s is empty: no trace to read", in->what);
		return PFT_EXIT_DATA;
	}
	if (was_auto && in->lock_id >= 0 &&
	    (!(in->config.etmtraceidr & 0x7F) || in->config.etmtraceidr != (uint32_t)in->lock_id))
		in->config.etmtraceidr = (uint32_t)in->lock_id;
	return PFT_EXIT_OK;
}

static void list_sources(const struct pft_snapshot *sn, char *buf, size_t cap)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < pft_snapshot_source_count(sn) && n + 60 < cap; i++) {
		struct pft_snapshot_source s;

		pft_snapshot_source(sn, i, &s);
		n += (size_t)snprintf(buf + n, cap - n, "%s%s (%s, ID 0x%02X)", i ? ", " : "", s.name,
				      s.type, s.trace_id);
	}
	if (!n)
		snprintf(buf, cap, "none");
}

static int open_snapshot(struct input *in, const char *dir, const struct input_opts *o,
			 const char *cmd)
{
	char msg[700], list[600];
	struct pft_snapshot_source s;
	int idx, r, fmt, explicit_choice = 1, scanned = 0;
	int64_t size;

	r = pft_snapshot_open(dir, &in->snap, msg, sizeof msg);
	if (r) {
		cli_error(cmd, "%s", msg);
		return PFT_EXIT_USAGE;
	}
	if (o->source) {
		idx = pft_snapshot_find_source(in->snap, o->source);
		if (idx < 0) {
			list_sources(in->snap, list, sizeof list);
			cli_error(cmd, "no trace source '%s' in %s; its sources: %s", o->source, dir, list);
			return PFT_EXIT_USAGE;
		}
	} else if (o->id >= 0) {
		idx = pft_snapshot_find_trace_id(in->snap, (uint8_t)o->id);
		if (idx < 0) {
			list_sources(in->snap, list, sizeof list);
			cli_error(cmd, "no trace source with trace ID 0x%02X in %s; its sources: %s",
				  o->id, dir, list);
			return PFT_EXIT_USAGE;
		}
	} else {
		size_t i;

		explicit_choice = 0;
		idx = -1;
		for (i = 0; i < pft_snapshot_source_count(in->snap) && idx < 0; i++) {
			pft_snapshot_source(in->snap, i, &s);
			if (s.is_ptm)
				idx = (int)i;
		}
		if (idx < 0) {
			list_sources(in->snap, list, sizeof list);
			cli_error(cmd, "no PTM trace source in %s (its sources: %s)", dir, list);
			return PFT_EXIT_USAGE;
		}
	}
	pft_snapshot_source(in->snap, (size_t)idx, &s);
	if (!s.is_ptm) {
		cli_error(cmd, "trace source %s in %s has type %s: not a PTM (PFT)", s.name, dir,
			  *s.type ? s.type : "device of unknown type");
		return PFT_EXIT_USAGE;
	}
	if (!s.buffer_file) {
		cli_error(cmd, "trace source %s has no trace buffer in %s/trace.ini", s.name, dir);
		return PFT_EXIT_USAGE;
	}
	if (o->format >= 0) {
		fmt = o->format;
	} else {
		fmt = pft_snapshot_buffer_format(s.buffer_format);
		if (fmt < 0) {
			cli_error(cmd, "buffer %s has format '%s', which pft does not read; give --format",
				  s.buffer_name ? s.buffer_name : "?",
				  s.buffer_format ? s.buffer_format : "(none)");
			return PFT_EXIT_USAGE;
		}
	}
	in->format = (enum pft_frame_format)fmt;
	in->config = s.config;
	apply_opts(&in->config, o);
	snprintf(msg, sizeof msg, "%s (source %s)", dir, s.name);
	r = check_config(&in->config, cmd, msg);
	if (r)
		return r;
	in->source_name = s.name;
	in->core_name = s.core;
	snprintf(in->what, sizeof in->what, "%s (buffer of %s)", s.buffer_file, s.name);
	r = open_capture(in, s.buffer_file, &size, cmd);
	if (r)
		return r;

	if (!explicit_choice && in->format != PFT_FRAME_RAW && size > 0) {
		/* Several PTMs share the buffer: take the first one with data. */
		size_t i;

		r = scan_ids(in, cmd);
		if (r)
			return r;
		scanned = 1;
		if (!in->frame_stats.id_bytes[s.trace_id]) {
			for (i = 0; i < pft_snapshot_source_count(in->snap); i++) {
				struct pft_snapshot_source t;

				pft_snapshot_source(in->snap, i, &t);
				if (t.is_ptm && t.buffer_file && !strcmp(t.buffer_file, s.buffer_file) &&
				    in->frame_stats.id_bytes[t.trace_id]) {
					s = t;
					in->config = s.config;
					apply_opts(&in->config, o);
					in->source_name = s.name;
					in->core_name = s.core;
					snprintf(msg, sizeof msg, "%s (source %s)", dir, s.name);
					r = check_config(&in->config, cmd, msg);
					if (r)
						return r;
					snprintf(in->what, sizeof in->what, "%s (buffer of %s)",
						 s.buffer_file, s.name);
					break;
				}
			}
		}
	}
	in->trace_id = (uint8_t)(in->config.etmtraceidr & 0x7F);
	return start_capture(in, size, in->format == PFT_FRAME_RAW ? -1 : in->trace_id, scanned, cmd);
}

int input_open(struct input *in, const char *path, const struct input_opts *o, int capture_offsets,
	       const char *cmd)
{
	struct stat sb;
	int64_t size;
	int r, id;

	memset(in, 0, sizeof(*in));
	in->fd = -1;
	in->path = path;
	in->cmd = cmd;
	in->track = capture_offsets;
	in->lock_id = -1;
	if (!path) {
		cli_error(cmd, "no input given (a snapshot folder, a capture file or -)");
		return PFT_EXIT_USAGE;
	}
	if (strcmp(path, "-") && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		r = open_snapshot(in, path, o, cmd);
	} else {
		if (o->source) {
			cli_error(cmd, "--source needs a snapshot folder; %s is a file", path);
			return PFT_EXIT_USAGE;
		}
		r = input_config(o, &in->config, cmd);
		if (r)
			return r;
		in->format = o->format >= 0 ? (enum pft_frame_format)o->format :
			     o->id >= 0 ? PFT_FRAME_CORESIGHT : PFT_FRAME_RAW;
		snprintf(in->what, sizeof in->what, "%s", strcmp(path, "-") ? path : "standard input");
		r = open_capture(in, path, &size, cmd);
		if (r) {
			input_close(in);
			return r;
		}
		id = o->id;
		if (id < 0 && (o->regs_given & PFT_SNAPSHOT_REG_ETMTRACEIDR))
			id = (int)(o->regs.etmtraceidr & 0x7F);
		in->trace_id = (uint8_t)(in->config.etmtraceidr & 0x7F);
		r = start_capture(in, size, in->format == PFT_FRAME_RAW ? -1 : id, 0, cmd);
		if (!r && in->format != PFT_FRAME_RAW) {
			char why[300];
			/* the ID found in the capture becomes ETMTRACEIDR */
			if (pft_config_check(&in->config, why, sizeof why)) {
				cli_error(cmd, "bad PTM registers: %s", why);
				r = PFT_EXIT_USAGE;
			}
		}
	}
	if (r)
		input_close(in);
	return r;
}

void input_close(struct input *in)
{
	if (!in)
		return;
	if (in->fd > STDIN_FILENO)
		close(in->fd);
	free(in->cbuf);
	free(in->obuf);
	free(in->seg);
	pft_frame_decoder_free(in->fdec);
	pft_snapshot_close(in->snap);
	memset(in, 0, sizeof(*in));
	in->fd = -1;
}
