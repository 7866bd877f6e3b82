/* SPDX-License-Identifier: BSD-3-Clause */
/* The probe in pft dump / pft decode (input_probe.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "input_probe.h"
#include "pft/probe.h"
#include "probe_out.h"

/* Capture bytes probed for the hint after malformed packets: its first MiB
 * tells the options as well as more would, and costs less than the decode
 * (16 MiB took longer than decoding a 4 MiB capture). */
#define PROBE_READ (1u << 20)


static const char *idhex(uint8_t id, char *b)
{
	snprintf(b, 3, "%02x", id);
	return b;
}

static int is_file(const char *path)
{
	struct stat sb;
	return path && strcmp(path, "-") && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* Probe a file; NULL when it cannot be read (nothing printed). */
static struct pft_probe_report *probe_file(const char *path)
{
	struct pft_probe_report *rep;
	unsigned long long total;
	unsigned char *buf;
	size_t len;
	rep = calloc(1, sizeof *rep);
	if (!rep)
		return NULL;
	if (probe_read_file(NULL, path, PROBE_READ, &buf, &len, &total) < 0) {
		free(rep);
		return NULL;
	}
	rep->size = sizeof *rep;
	if (pft_probe_buffer(buf, len, PFT_PROBE_LAYOUT_UNKNOWN, rep) < 0) {
		free(rep);
		rep = NULL;
	}
	free(buf);
	return rep;
}

/* "0x10, 0x11, 0x12 ETMv3" style list of the streams that are not PFT. */
static void others(const struct pft_probe_report *rep, char *b, size_t cap)
{
	unsigned i, n = 0;

	b[0] = 0;
	for (i = 0; i < rep->nstreams; i++) {
		const struct pft_probe_stream *s = &rep->streams[i];
		if (s->protocol == PFT_PROBE_PROTO_PFT || s->id == PFT_PROBE_ID_RAW)
			continue;
		probe_cat(b, cap, "%s0x%02x %s", n++ ? ", " : "", s->id,
			  pft_probe_proto_name((enum pft_probe_proto)s->protocol));
	}
}

void input_probe_say(const struct pft_probe_report *rep, const char *path, const char *cmd)
{
	const struct pft_probe_stream *s = NULL;
	char opts[512], skip[1024], more[256], hex[3];
	unsigned i, npft = 0;

	more[0] = 0;
	for (i = 0; i < rep->nstreams; i++) {
		if (rep->streams[i].protocol != PFT_PROBE_PROTO_PFT)
			continue;
		if (!npft++)
			s = &rep->streams[i];
		else
			probe_cat(more, sizeof more, "%s0x%02x", npft > 2 ? ", " : "", rep->streams[i].id);
	}
	if (!s)
		return;
	probe_options(rep, s, opts, sizeof opts);
	others(rep, skip, sizeof skip);
	fprintf(stderr, "pft %s: no --format or --id given; probed %s: %s, PFT 1.%u%s%s: "
		"reading it as %s%s%s%s%s (see pft probe)\n", cmd, path,
		rep->layout == PFT_PROBE_LAYOUT_RAW ? "one raw stream" :
		rep->layout == PFT_PROBE_LAYOUT_TPIU ? "TPIU capture" : "CoreSight frames",
		(unsigned)((s->config.etmidr >> 4) & 0xF),
		rep->layout == PFT_PROBE_LAYOUT_RAW ? "" : " in trace ID 0x",
		rep->layout == PFT_PROBE_LAYOUT_RAW ? "" : idhex(s->id, hex), opts,
		skip[0] ? "; skipped: " : "", skip, more[0] ? "; also PFT, not read (use --id): " : "",
		more);
}

void input_probe_hint(const struct input *in, uint64_t errors, const char *cmd)
{
	const char *path = in->buffer_path ? in->buffer_path : in->path;
	const struct pft_probe_stream *s = NULL, *first = NULL, *e3 = NULL;
	struct pft_probe_report *rep;
	struct pft_features used, f;
	char opts[512], why[256];
	unsigned i;
	int etm3_id = -1;

	if (!errors || errors < in->delivered / INPUT_PROBE_HINT_BYTES || !is_file(path))
		return;
	rep = probe_file(path);
	if (!rep)
		return;
	for (i = 0; i < rep->nstreams; i++) {
		const struct pft_probe_stream *t = &rep->streams[i];
		if (t->protocol == PFT_PROBE_PROTO_PFT && !first)
			first = t;
		if (in->format == PFT_FRAME_RAW ? t->id == PFT_PROBE_ID_RAW : t->id == in->trace_id)
			s = t;
	}
	why[0] = 0;
	if (pft_probe_frame_format((enum pft_probe_layout)rep->layout) != in->format && first) {
		probe_cat(why, sizeof why, "the capture looks like %s, not %s",
			  pft_probe_layout_name((enum pft_probe_layout)rep->layout),
			  pft_frame_format_name(in->format));
		s = first;
	} else if (s && s->protocol != PFT_PROBE_PROTO_PFT) {
		if (s->protocol == PFT_PROBE_PROTO_ETM3 && !input_is_etm3(&in->config)) {
			etm3_id = s->id;
			e3 = s;
		}
		probe_cat(why, sizeof why, "trace ID 0x%02x looks like %s, not PFT", s->id,
			  pft_probe_proto_name((enum pft_probe_proto)s->protocol));
		s = first;
	} else if (s) {
		pft_config_features(&in->config, &used);
		pft_config_features(&s->config, &f);
		if (s->conf[PFT_PROBE_OPT_CYCLE_ACCURATE] >= PFT_PROBE_CONF_MEDIUM &&
		    f.cycle_accurate != used.cycle_accurate)
			probe_cat(why, sizeof why, "%scycle-accurate %s", why[0] ? ", " : "",
				  f.cycle_accurate ? "on" : "off");
		if (s->conf[PFT_PROBE_OPT_CONTEXTID] >= PFT_PROBE_CONF_MEDIUM &&
		    f.contextid_bytes != used.contextid_bytes)
			probe_cat(why, sizeof why, "%s%u context ID bytes", why[0] ? ", " : "", f.contextid_bytes);
		if (s->conf[PFT_PROBE_OPT_VERSION] >= PFT_PROBE_CONF_MEDIUM && f.minor != used.minor)
			probe_cat(why, sizeof why, "%sPFT 1.%u", why[0] ? ", " : "", f.minor);
		if (why[0]) {
			char tmp[256];
			snprintf(tmp, sizeof tmp, "the bytes decode cleanly with %s", why);
			snprintf(why, sizeof why, "%s", tmp);
		}
	}
	if (etm3_id >= 0 && (!strcmp(cmd, "dump") || !strcmp(cmd, "decode"))) {
		probe_options(rep, e3, opts, sizeof opts);
		cli_error(cmd, "to read trace ID 0x%02x as ETMv3, give its registers: --etmidr with 2 "
			  "in bits [11:8] (0x410CF250 is an ETMv3.5) and --cycle-accurate / "
			  "--timestamps as programmed, or the snapshot folder (the probe's guess: %s)",
			  etm3_id, opts);
	}
	if (why[0] && s && s->protocol == PFT_PROBE_PROTO_PFT) {
		probe_options(rep, s, opts, sizeof opts);
		cli_error(cmd, "%s: try %s (see pft probe %s)", why, opts, path);
	} else if (why[0]) {
		cli_error(cmd, "%s, and no PFT stream was found in %s (see pft probe)", why, path);
	}
	free(rep);
}
