/* SPDX-License-Identifier: BSD-3-Clause */
/* --id all: the trace sources of one capture or snapshot (sources_all.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "probe_out.h"
#include "sources_all.h"
#include "pft/probe.h"
#include "pft/snapshot.h"

#define PROBE_BYTES (16u << 20) /* capture bytes probed for the trace IDs */

static int is_dir(const char *path)
{
	struct stat sb;

	return strcmp(path, "-") && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static void skip(struct sources_all *sa, uint8_t id, const char *what)
{
	if (sa->nskip >= 128)
		return;
	sa->skip_id[sa->nskip] = id;
	snprintf(sa->skip_what[sa->nskip], sizeof sa->skip_what[0], "%s", what);
	sa->nskip++;
}

static int add(struct sources_all *sa, const char *path, const struct input_opts *one,
	       const char *name, uint8_t id, const char *cmd)
{
	if (sa->n >= SOURCES_ALL_MAX) {
		if (cmd)
			cli_error(cmd, "%s: more than %d trace sources: give --id", path,
				  SOURCES_ALL_MAX);
		return PFT_EXIT_USAGE;
	}
	sa->opts[sa->n] = *one;
	snprintf(sa->names[sa->n], sizeof sa->names[0], "%s", name ? name : "");
	sa->opts[sa->n].source = name ? sa->names[sa->n] : NULL;
	sa->ids[sa->n] = id;
	sa->n++;
	return PFT_EXIT_OK;
}

/* The bytes per trace ID in the first PROBE_BYTES of a snapshot's framed
 * buffer, counted once per file (frames only: no protocol probe). */
struct probe_cache {
	const char *file;
	int ok;
	struct pft_frame_stats st;
};

static int count_ids(struct pft_frame_stats *st, const char *file)
{
	struct pft_frame_decoder *dec = pft_frame_decoder_alloc(PFT_FRAME_CORESIGHT, 0);
	struct pft_frame_item it;
	unsigned long long total;
	unsigned char *buf = NULL;
	size_t len;
	int ok = 0;

	if (dec && access(file, R_OK) == 0 && /* else input_open says what is wrong */
	    probe_read_file(NULL, file, PROBE_BYTES, &buf, &len, &total) >= 0 &&
	    pft_frame_decoder_feed(dec, buf, len) == 0 && pft_frame_decoder_end(dec) == 0) {
		while (pft_frame_decoder_next(dec, &it, sizeof it) == 0)
			;
		ok = pft_frame_decoder_get_stats(dec, st, sizeof *st) == 0;
	}
	free(buf);
	pft_frame_decoder_free(dec);
	return ok;
}

/* 1 if the frames of file hold bytes of trace ID id (a raw buffer: 1). */
static int has_data(struct probe_cache *pc, const char *file, const char *format, uint8_t id)
{
	if (pft_snapshot_buffer_format(format ? format : "coresight") == PFT_FRAME_RAW)
		return 1;
	if (!pc->file || strcmp(pc->file, file)) {
		pc->file = file;
		pc->ok = count_ids(&pc->st, file);
	}
	if (!pc->ok)
		return 1; /* input_open says what is wrong */
	return id < 128 && pc->st.id_bytes[id] != 0;
}

/* A raw buffer (source_data) holds the bytes of one source, but a snapshot
 * may give its only buffer to every source: the index of the source that
 * owns the buffer file of source i (the first PTM source using it, else the
 * first ETMv3 source), i itself for a framed buffer. */
static size_t raw_owner(const struct pft_snapshot *snap, size_t i, int etm3)
{
	struct pft_snapshot_source a, b;
	size_t j, n = pft_snapshot_source_count(snap), first = n;
	int pass;

	if (pft_snapshot_source(snap, i, &a) < 0 || !a.buffer_file ||
	    pft_snapshot_buffer_format(a.buffer_format ? a.buffer_format : "coresight") != PFT_FRAME_RAW)
		return i;
	for (pass = 0; pass < 2 && first == n; pass++)
		for (j = 0; j < n && first == n; j++)
			if (pft_snapshot_source(snap, j, &b) == 0 && b.buffer_file &&
			    !strcmp(b.buffer_file, a.buffer_file) &&
			    (pass ? etm3 && b.is_etm3 : b.is_ptm))
				first = j;
	return first;
}

/* A snapshot: its PTM (and ETMv3) sources by name; the others are skipped. */
static int find_snapshot(struct sources_all *sa, const char *path, const struct input_opts *o,
			 int etm3, const char *cmd)
{
	struct pft_snapshot *snap;
	struct pft_snapshot_source ss;
	struct input_opts one = *o;
	struct probe_cache pc;
	char msg[1024], what[40];
	size_t i, n;
	int r = PFT_EXIT_OK;

	memset(&pc, 0, sizeof pc);
	if (pft_snapshot_open(path, &snap, msg, sizeof msg) < 0) {
		if (cmd)
			cli_error(cmd, "%s", msg);
		return PFT_EXIT_USAGE;
	}
	n = pft_snapshot_source_count(snap);
	for (i = 0; i < n && !r; i++) {
		if (pft_snapshot_source(snap, i, &ss) < 0)
			continue;
		if (!ss.is_ptm && !(etm3 && ss.is_etm3)) {
			skip(sa, ss.trace_id, ss.type ? ss.type : ss.is_etm3 ? "ETMv3" : "not PFT");
			continue;
		}
		if (!ss.buffer_file) {
			snprintf(what, sizeof what, "%s, no buffer",
				 ss.type ? ss.type : ss.is_ptm ? "PTM" : "ETMv3");
			skip(sa, ss.trace_id, what);
			continue;
		}
		if (raw_owner(snap, i, etm3) != i) {
			snprintf(what, sizeof what, "%s, raw buffer of another",
				 ss.type ? ss.type : ss.is_ptm ? "PTM" : "ETMv3");
			skip(sa, ss.trace_id, what);
			continue;
		}
		if (!has_data(&pc, ss.buffer_file, ss.buffer_format, ss.trace_id)) {
			snprintf(what, sizeof what, "%s, no data",
				 ss.type ? ss.type : ss.is_ptm ? "PTM" : "ETMv3");
			skip(sa, ss.trace_id, what);
			continue;
		}
		one.id = -1;
		r = add(sa, path, &one, ss.name, ss.trace_id, cmd);
	}
	pft_snapshot_close(snap);
	return r;
}

static enum pft_probe_layout layout_of(int format)
{
	return format == PFT_FRAME_RAW ? PFT_PROBE_LAYOUT_RAW
	       : format == PFT_FRAME_CORESIGHT ? PFT_PROBE_LAYOUT_FRAMES
	       : format == PFT_FRAME_TPIU ? PFT_PROBE_LAYOUT_TPIU : PFT_PROBE_LAYOUT_UNKNOWN;
}

/* A capture file: the probe says which trace IDs hold PFT, and (when no
 * register or flag is given) with which options. */
static int find_capture(struct sources_all *sa, const char *path, const struct input_opts *o,
			const char *cmd)
{
	struct pft_probe_report *rep = calloc(1, sizeof *rep);
	unsigned long long total;
	unsigned char *buf = NULL;
	size_t len, i;
	int r = PFT_EXIT_OK, given = o->regs_given || o->cycle_accurate || o->timestamps ||
				    o->vmid || o->return_stack || o->branch_broadcast ||
				    o->contextid_bytes >= 0 || o->pft_minor >= 0;

	if (!cmd && access(path, R_OK)) { /* quiet: input_open says what is wrong */
		free(rep);
		return PFT_EXIT_USAGE;
	}
	if (!rep || probe_read_file(cmd, path, PROBE_BYTES, &buf, &len, &total) < 0) {
		free(rep);
		return PFT_EXIT_USAGE;
	}
	rep->size = sizeof *rep;
	r = pft_probe_buffer(buf, len, o->format >= 0 ? layout_of(o->format) : PFT_PROBE_LAYOUT_UNKNOWN,
			     rep);
	free(buf);
	if (r < 0) {
		free(rep);
		if (cmd)
			cli_error(cmd, "%s: %s", path, pft_errstr(r));
		return PFT_EXIT_USAGE;
	}
	r = PFT_EXIT_OK;
	for (i = 0; i < rep->nstreams && !r; i++) {
		const struct pft_probe_stream *st = &rep->streams[i];
		struct input_opts one = *o;

		if (st->protocol != PFT_PROBE_PROTO_PFT) {
			skip(sa, st->id, pft_probe_proto_name((enum pft_probe_proto)st->protocol));
			continue;
		}
		one.format = rep->layout == PFT_PROBE_LAYOUT_TPIU ? PFT_FRAME_TPIU
			     : rep->layout == PFT_PROBE_LAYOUT_FRAMES ? PFT_FRAME_CORESIGHT : PFT_FRAME_RAW;
		one.id = one.format == PFT_FRAME_RAW ? -1 : st->id;
		if (!given) {
			one.regs = st->config;
			one.regs_given = PFT_SNAPSHOT_REG_ETMCR | PFT_SNAPSHOT_REG_ETMCCER |
					 PFT_SNAPSHOT_REG_ETMIDR;
		}
		r = add(sa, path, &one, NULL, st->id, cmd);
	}
	free(rep);
	return r;
}

int sources_all_find(struct sources_all *sa, const char *path, const struct input_opts *o,
		     int etm3, const char *cmd)
{
	int r;

	if (!path || !strcmp(path, "-")) {
		if (cmd)
			cli_error(cmd, "--id all reads a capture file or a snapshot folder (not "
				       "standard input: each source reads the capture on its own)");
		return PFT_EXIT_USAGE;
	}
	r = is_dir(path) ? find_snapshot(sa, path, o, etm3, cmd) : find_capture(sa, path, o, cmd);
	if (!r && !sa->n) {
		if (cmd)
			cli_error(cmd, "%s: no %s source", path, etm3 ? "PFT or ETMv3" : "PFT");
		r = PFT_EXIT_DATA;
	}
	return r;
}

int sources_all_count(const char *path, const struct input_opts *o, int etm3)
{
	struct sources_all *sa;
	int n;

	if (!path || !strcmp(path, "-"))
		return -1;
	/* a raw stream is one source; --etmtraceidr names the one to read */
	if (o->format == PFT_FRAME_RAW || (o->regs_given & PFT_SNAPSHOT_REG_ETMTRACEIDR))
		return 1;
	sa = calloc(1, sizeof *sa);
	if (!sa)
		return -1;
	n = sources_all_find(sa, path, o, etm3, NULL) ? -1 : (int)sa->n;
	free(sa);
	return n;
}

int sources_all_group(struct sources_all *sa, struct pft_source_group **g, int scan,
		      const char *cmd)
{
	unsigned i;

	if (pft_source_group_alloc(g, 0, scan ? PFT_SOURCE_GROUP_SCAN : 0) < 0) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	for (i = 0; i < sa->n; i++)
		sa->opts[i].group = *g;
	return PFT_EXIT_OK;
}

int sources_all_default(const char *path, const struct input_opts *o, int etm3)
{
	return o->id < 0 && !o->source && sources_all_count(path, o, etm3) > 1;
}

/* The list, the byte counts from st (NULL: left out). */
static const char *skipped(struct sources_all *sa, const struct pft_frame_stats *st)
{
	size_t n = 0;
	unsigned i;

	sa->skipped[0] = 0;
	for (i = 0; i < sa->nskip && n < sizeof sa->skipped - 80; i++) {
		int k = snprintf(sa->skipped + n, sizeof sa->skipped - n, "%s0x%02x (%s",
				 i ? ", " : "", sa->skip_id[i], sa->skip_what[i]);
		n += k > 0 ? (size_t)k : 0;
		if (st && sa->skip_id[i] < 128)
			k = snprintf(sa->skipped + n, sizeof sa->skipped - n, ", %llu bytes)",
				     (unsigned long long)st->id_bytes[sa->skip_id[i]]);
		else
			k = snprintf(sa->skipped + n, sizeof sa->skipped - n, ")");
		n += k > 0 ? (size_t)k : 0;
	}
	return sa->skipped;
}

const char *sources_all_skipped(struct sources_all *sa, const struct input *in)
{
	if (!in && sa->seen)
		return skipped(sa, sa->seen_format != PFT_FRAME_RAW ? &sa->seen_stats : NULL);
	return skipped(sa, in && in->format != PFT_FRAME_RAW ? &in->frame_stats : NULL);
}

int sources_all_wanted(const char *path, const struct input_opts *o, int all)
{
	return all || sources_all_default(path, o, 1);
}

void sources_all_saw(struct sources_all *sa, const struct input *in)
{
	sa->seen = 1;
	sa->seen_format = in->format;
	sa->seen_stats = in->frame_stats;
}

int sources_all_each(struct sources_all *sa, const char *path, const struct input_opts *o,
		     const char *cmd, sources_all_fn one, void *ctx)
{
	struct input_opts io = *o;
	unsigned k;
	int r, rc;

	io.allow_etm3 = 1;
	rc = sources_all_find(sa, path, &io, 1, cmd);
	for (k = 0; rc != PFT_EXIT_USAGE && k < sa->n; k++) {
		r = one(ctx, sa, k);
		if (r > rc)
			rc = r;
	}
	if (rc != PFT_EXIT_USAGE && *sources_all_skipped(sa, NULL))
		cli_error(cmd, "skipped (neither PFT nor ETMv3, or no data): %s", sa->skipped);
	return rc;
}

int sources_all_begin(struct sources_all **sa, void **tab, size_t size, const char *path,
		      const struct input_opts *o, const char *const *ins, size_t nins,
		      const char *outpath, const char *cmd, FILE **out)
{
	struct input_opts io = *o;
	int rc;

	*out = NULL;
	*sa = calloc(1, sizeof **sa);
	*tab = calloc(SOURCES_ALL_MAX, size);
	if (!*sa || !*tab) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	io.allow_etm3 = 1;
	rc = sources_all_find(*sa, path, &io, 1, cmd);
	if (!rc && cli_output_is_input(cmd, outpath, ins, nins))
		rc = PFT_EXIT_USAGE;
	if (!rc && !(*out = cli_open_output(cmd, outpath)))
		rc = PFT_EXIT_USAGE;
	return rc;
}
