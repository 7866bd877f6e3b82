/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared input handling: options, snapshot or capture file -> configuration
 * and de-formatted PFT stream (see input.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

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

/* Whole file (or stdin for "-") into memory. */
static int read_all(const char *path, uint8_t **out, size_t *len, const char *cmd)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;

	*out = NULL;
	*len = 0;
	if (!f) {
		cli_error(cmd, "cannot open %s: %s", path, strerror(errno));
		return PFT_EXIT_USAGE;
	}
	for (;;) {
		size_t got;

		if (n == cap) {
			uint8_t *nb;
			cap = cap ? cap * 2 : 1 << 16;
			nb = realloc(buf, cap);
			if (!nb) {
				cli_error(cmd, "%s: out of memory", path);
				free(buf);
				if (f != stdin)
					fclose(f);
				return PFT_EXIT_USAGE;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (!got)
			break;
	}
	if (ferror(f)) {
		cli_error(cmd, "cannot read %s: %s", path, strerror(errno));
		free(buf);
		if (f != stdin)
			fclose(f);
		return PFT_EXIT_USAGE;
	}
	if (f != stdin)
		fclose(f);
	*out = buf;
	*len = n;
	return PFT_EXIT_OK;
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

static int add_seg(struct input *in, uint64_t stream, uint64_t capture)
{
	if (in->nseg) {
		const struct input_segment *l = &in->seg[in->nseg - 1];
		/* continues the last segment? (its length is up to the next) */
		if (capture - l->capture == stream - l->stream)
			return 0;
	}
	if (in->nseg == in->segcap) {
		size_t nc = in->segcap ? in->segcap * 2 : 256;
		struct input_segment *ns = realloc(in->seg, nc * sizeof(*ns));
		if (!ns)
			return -1;
		in->seg = ns;
		in->segcap = nc;
	}
	in->seg[in->nseg].stream = stream;
	in->seg[in->nseg].capture = capture;
	in->nseg++;
	return 0;
}

uint64_t input_capture_offset(const struct input *in, uint64_t off)
{
	size_t lo = 0, hi = in->nseg;

	if (!in->nseg)
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

/* De-format cap: stats only (id < 0), or collect id's stream into in. */
static int deformat(struct input *in, const uint8_t *cap, size_t len, int id, const char *cmd)
{
	struct pft_frame_decoder *d = pft_frame_decoder_alloc(in->format, 0);
	struct pft_frame_item it;
	int r;

	if (!d) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	if (id >= 0) {
		in->stream = malloc(len ? len : 1);
		if (!in->stream) {
			pft_frame_decoder_free(d);
			cli_error(cmd, "out of memory");
			return PFT_EXIT_USAGE;
		}
	}
	pft_frame_feed(d, cap, len);
	pft_frame_end(d);
	while ((r = pft_frame_next(d, &it, sizeof it)) == 0) {
		uint32_t i;

		if (it.type != PFT_FRAME_ITEM_DATA) {
			if (!in->frame_errors++)
				snprintf(in->frame_error_msg, sizeof in->frame_error_msg,
					 "%s at capture offset %llu (%u bytes)",
					 it.type == PFT_FRAME_ITEM_ERROR ?
						 pft_frame_error_name((enum pft_frame_error)it.reason) :
						 "no FSYNC found",
					 (unsigned long long)it.capture_offset, it.len);
			continue;
		}
		if (id < 0 || it.id != id)
			continue;
		for (i = 0; i < it.len; i++) {
			if (add_seg(in, it.stream_offset + i, pft_frame_item_byte_offset(&it, i))) {
				pft_frame_decoder_free(d);
				cli_error(cmd, "out of memory");
				return PFT_EXIT_USAGE;
			}
			in->stream[in->len++] = it.data[i];
		}
	}
	pft_frame_get_stats(d, &in->frame_stats);
	pft_frame_decoder_free(d);
	return PFT_EXIT_OK;
}

/* Take the capture (owned) and fill in->stream for in->trace_id. */
static int load_capture(struct input *in, uint8_t *cap, size_t len, int id, const char *what,
			const char *cmd)
{
	char ids[600];
	int r;

	in->capture_len = len;
	if (!len) {
		free(cap);
		cli_error(cmd, "%s is empty: no trace to read", what);
		return PFT_EXIT_DATA;
	}
	if (in->format == PFT_FRAME_RAW) {
		in->stream = cap;
		in->len = len;
		in->frame_stats.bytes_in = len;
		in->frame_stats.data = len;
		return PFT_EXIT_OK;
	}
	if (id < 0) {
		/* no ID chosen: the only one with data */
		int found = -1, k;

		r = deformat(in, cap, len, -1, cmd);
		if (r) {
			free(cap);
			return r;
		}
		for (k = 1; k < 128; k++)
			if (in->frame_stats.id_bytes[k]) {
				if (found >= 0) {
					describe_ids(&in->frame_stats, ids, sizeof ids);
					cli_error(cmd, "%s holds several trace IDs: %s; choose one with --id",
						  what, ids);
					free(cap);
					return PFT_EXIT_USAGE;
				}
				found = k;
			}
		if (found < 0) {
			free(cap);
			cli_error(cmd, "%s holds no trace data in %s format (%llu capture bytes%s%s)", what,
				  pft_frame_format_name(in->format), (unsigned long long)len,
				  in->frame_errors ? "; " : "", in->frame_error_msg);
			return PFT_EXIT_DATA;
		}
		in->frame_errors = 0;
		in->frame_error_msg[0] = '\0';
		id = found;
		if (!(in->config.etmtraceidr & 0x7F) || in->config.etmtraceidr != (uint32_t)id)
			in->config.etmtraceidr = (uint32_t)id;
	}
	in->trace_id = (uint8_t)id;
	r = deformat(in, cap, len, id, cmd);
	free(cap);
	if (r)
		return r;
	if (!in->len) {
		describe_ids(&in->frame_stats, ids, sizeof ids);
		cli_error(cmd, "no data for trace ID 0x%02X in %s; it holds %s", id, what, ids);
		return PFT_EXIT_USAGE;
	}
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
	int idx, r, fmt, explicit_choice = 1;
	uint8_t *cap;
	size_t len;

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
	in->buffer_path = s.buffer_file;
	r = read_all(s.buffer_file, &cap, &len, cmd);
	if (r)
		return r;

	if (!explicit_choice && in->format != PFT_FRAME_RAW && len) {
		/* Several PTMs share the buffer: take the first one with data. */
		struct input probe;
		size_t i;

		memset(&probe, 0, sizeof probe);
		probe.format = in->format;
		if (deformat(&probe, cap, len, -1, cmd) == PFT_EXIT_OK &&
		    !probe.frame_stats.id_bytes[s.trace_id]) {
			for (i = 0; i < pft_snapshot_source_count(in->snap); i++) {
				struct pft_snapshot_source t;

				pft_snapshot_source(in->snap, i, &t);
				if (t.is_ptm && t.buffer_file && !strcmp(t.buffer_file, s.buffer_file) &&
				    probe.frame_stats.id_bytes[t.trace_id]) {
					s = t;
					in->config = s.config;
					apply_opts(&in->config, o);
					in->source_name = s.name;
					in->core_name = s.core;
					snprintf(msg, sizeof msg, "%s (source %s)", dir, s.name);
					r = check_config(&in->config, cmd, msg);
					if (r) {
						free(cap);
						return r;
					}
					break;
				}
			}
		}
	}
	in->trace_id = (uint8_t)(in->config.etmtraceidr & 0x7F);
	snprintf(msg, sizeof msg, "%s (buffer of %s)", s.buffer_file, s.name);
	return load_capture(in, cap, len, in->format == PFT_FRAME_RAW ? -1 : in->trace_id, msg, cmd);
}

int input_open(struct input *in, const char *path, const struct input_opts *o, const char *cmd)
{
	struct stat sb;
	uint8_t *cap;
	size_t len;
	int r, id;

	memset(in, 0, sizeof(*in));
	in->path = path;
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
		in->buffer_path = path;
		r = read_all(path, &cap, &len, cmd);
		if (r)
			return r;
		id = o->id;
		if (id < 0 && (o->regs_given & PFT_SNAPSHOT_REG_ETMTRACEIDR))
			id = (int)(o->regs.etmtraceidr & 0x7F);
		in->trace_id = (uint8_t)(in->config.etmtraceidr & 0x7F);
		r = load_capture(in, cap, len, in->format == PFT_FRAME_RAW ? -1 : id,
				 strcmp(path, "-") ? path : "standard input", cmd);
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
	free(in->stream);
	free(in->seg);
	pft_snapshot_close(in->snap);
	memset(in, 0, sizeof(*in));
}
