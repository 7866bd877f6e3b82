/* SPDX-License-Identifier: BSD-3-Clause */
/* pft probe: what is in a capture, and how to decode it (include/pft/probe.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "pft/probe.h"
#include "pft/snapshot.h"
#include "probe_out.h"

const char *const cmd_probe_summary = "tell the layout, trace IDs, protocols and PTM/ETMv3 options of a capture";

#define PROBE_MAX_CAPTURE (256u << 20)

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: pft probe [options] FILE|DIR|-\n"
		"\n"
		"Look at a capture nobody described and say what is in it: the layout (one\n"
		"source's raw bytes, CoreSight 16-byte frames, or a TPIU port capture with\n"
		"FSYNC/HSYNC, aligned or not; a circular buffer that wrapped), every trace ID\n"
		"with its byte count and the protocol it looks like (PFT 1.0/1.1, ETMv3,\n"
		"ETMv4/ETE, STM, ITM, unknown) with the evidence, and for each PFT stream\n"
		"the PTM options the bytes imply (cycle-accurate, context ID size,\n"
		"timestamps, VMID, version, branch broadcast), for each ETMv3 stream its\n"
		"options (cycle-accurate, context ID size, branch encoding, data trace,\n"
		"timestamps, VMID), each with a confidence; 'none'\n"
		"means the bytes cannot tell.  Ends with the pft dump and pft decode command\n"
		"lines to use.\n"
		"See doc/probe.md.\n"
		"\n"
		"FILE is a capture (an ETB/ETR dump, a trace port capture, a PTM's bytes);\n"
		"DIR a DS-5/OpenCSD snapshot folder: its trace buffers are probed and what\n"
		"the bytes say is compared with its ini files.  At most 256 MiB are read.\n"
		"\n"
		"Options:\n"
		"  --json               one JSON object (schema: doc/probe.md)\n"
		"  --format FMT         assume the layout raw, frames or tpiu instead of inferring it\n"
		"  -o, --output FILE    write to FILE instead of standard output\n"
		"  -h, --help           this text\n"
		"\n"
		"Exit status: 0 when a PFT or ETMv3 stream was found, 1 when none was, 2 on a\n"
		"usage or\n"
		"read error.\n"
		"\n"
		"Examples:\n"
		"  pft probe data/TC2/cstrace.bin\n"
		"  pft probe data/trace_cov_a15/PTM_0_2.bin --json\n"
		"  pft probe data/TC2\n");
}

/* A snapshot folder: probe each buffer file once, compare the sources. */
static int probe_snapshot(const char *dir, int json, FILE *out, enum pft_probe_layout forced,
                          struct pft_probe_report *rep)
{
	struct pft_snapshot *snap;
	char msg[512];
	const char *done[16];
	size_t i, j, ndone = 0, n;
	int rc = PFT_EXIT_DATA, named;

	if (pft_snapshot_open(dir, &snap, msg, sizeof msg) < 0) {
		cli_error("probe", "%s: %s", dir, msg);
		return PFT_EXIT_USAGE;
	}
	n = pft_snapshot_source_count(snap);
	for (i = 0; i < n; i++) {
		struct pft_snapshot_source src;
		unsigned char *buf;
		size_t len;
		unsigned long long total;

		if (pft_snapshot_source(snap, i, &src) < 0 || !src.buffer_file)
			continue;
		for (j = 0; j < ndone && strcmp(done[j], src.buffer_file); j++)
			;
		if (j < ndone || ndone == 16)
			continue;
		done[ndone++] = src.buffer_file;
		if (probe_read_file("probe", src.buffer_file, PROBE_MAX_CAPTURE, &buf, &len, &total) < 0) {
			pft_snapshot_close(snap);
			return PFT_EXIT_USAGE;
		}
		rep->size = sizeof *rep;
		if (pft_probe_buffer(buf, len, forced, rep) < 0) {
			free(buf);
			cli_error("probe", "out of memory");
			pft_snapshot_close(snap);
			return PFT_EXIT_USAGE;
		}
		free(buf);
		if (json)
			probe_print_json(out, src.buffer_file, rep);
		else
			probe_print_text(out, src.buffer_file, rep);
		if (probe_readable_count(rep))
			rc = PFT_EXIT_OK;
		if (json)
			continue;
		fprintf(out, "the snapshot's ini files say:\n");
		/* a raw buffer is one source's: the one named like the buffer, when
		   there is one (a snapshot gives its only buffer to every source) */
		named = 0;
		for (j = 0; j < n && rep->layout == PFT_PROBE_LAYOUT_RAW; j++) {
			struct pft_snapshot_source s2;
			if (pft_snapshot_source(snap, j, &s2) == 0 && s2.buffer_name &&
			    !strcmp(s2.name, s2.buffer_name) && s2.buffer_file &&
			    !strcmp(s2.buffer_file, src.buffer_file))
				named = 1;
		}
		for (j = 0; j < n; j++) {
			struct pft_snapshot_source s2;
			unsigned k;
			if (pft_snapshot_source(snap, j, &s2) < 0 || !s2.buffer_file ||
			    strcmp(s2.buffer_file, src.buffer_file))
				continue;
			if (named && (!s2.buffer_name || strcmp(s2.name, s2.buffer_name)))
				continue;
			fprintf(out, "  %s (%s) trace ID 0x%02x, buffer format %s, ETMCR 0x%08x",
				s2.name, s2.type ? s2.type : "?", s2.trace_id,
				s2.buffer_format ? s2.buffer_format : "?", (unsigned)s2.config.etmcr);
			for (k = 0; k < rep->nstreams; k++) {
				const struct pft_probe_stream *ps = &rep->streams[k];
				if (ps->id != s2.trace_id && !(ps->id == PFT_PROBE_ID_RAW && rep->nstreams == 1))
					continue;
				fprintf(out, "; probe: %s", pft_probe_proto_name((enum pft_probe_proto)ps->protocol));
				if (ps->protocol == PFT_PROBE_PROTO_PFT || ps->protocol == PFT_PROBE_PROTO_ETM3) {
					unsigned o, none = 0;
					fprintf(out, " ETMCR 0x%08x", (unsigned)ps->config.etmcr);
					for (o = 0; o < PFT_PROBE_NR_OPTS; o++)
						if (probe_opt_shown(ps, (enum pft_probe_opt)o) &&
						    ps->conf[o] == PFT_PROBE_CONF_NONE)
							fprintf(out, "%s%s", none++ ? ", " : " (the bytes cannot tell: ",
								pft_probe_opt_name((enum pft_probe_opt)o));
					if (none)
						fprintf(out, ")");
				}
			}
			fprintf(out, "\n");
		}
	}
	pft_snapshot_close(snap);
	if (!ndone) {
		cli_error("probe", "%s: the snapshot names no trace buffer file", dir);
		return PFT_EXIT_USAGE;
	}
	return rc;
}

int cmd_probe(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, 0, 'j' },   { "format", required_argument, 0, 'f' },
		{ "output", required_argument, 0, 'o' }, { "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	enum pft_probe_layout forced = PFT_PROBE_LAYOUT_UNKNOWN;
	const char *outpath = NULL, *path;
	struct pft_probe_report *rep;
	unsigned long long total;
	unsigned char *buf;
	struct stat sb;
	size_t len;
	int c, json = 0, rc;
	FILE *out;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'o': outpath = optarg; break;
		case 'h': usage(stdout); return PFT_EXIT_OK;
		case 'f':
			if (!strcmp(optarg, "raw"))
				forced = PFT_PROBE_LAYOUT_RAW;
			else if (!strcmp(optarg, "frames"))
				forced = PFT_PROBE_LAYOUT_FRAMES;
			else if (!strcmp(optarg, "tpiu"))
				forced = PFT_PROBE_LAYOUT_TPIU;
			else {
				cli_error("probe", "--format: '%s' is not raw, frames or tpiu", optarg);
				return PFT_EXIT_USAGE;
			}
			break;
		default:
			return cli_bad_option("probe", c, argv, optind);
		}
	}
	path = cli_single_input("probe", argc, argv, optind);
	if (!path)
		return PFT_EXIT_USAGE;
	rep = calloc(1, sizeof *rep);
	if (!rep) {
		cli_error("probe", "out of memory");
		return PFT_EXIT_USAGE;
	}
	out = cli_open_output("probe", outpath);
	if (!out) {
		free(rep);
		return PFT_EXIT_USAGE;
	}
	if (strcmp(path, "-") && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		rc = probe_snapshot(path, json, out, forced, rep);
	} else if (probe_read_file("probe", path, PROBE_MAX_CAPTURE, &buf, &len, &total) < 0) {
		rc = PFT_EXIT_USAGE;
	} else {
		rep->size = sizeof *rep;
		if (pft_probe_buffer(buf, len, forced, rep) < 0) {
			cli_error("probe", "out of memory");
			rc = PFT_EXIT_USAGE;
		} else {
			if (json)
				probe_print_json(out, path, rep);
			else
				probe_print_text(out, path, rep);
			if (total > len && !json)
				fprintf(out, "(only the first %zu of %llu bytes were probed)\n", len, total);
			rc = probe_readable_count(rep) ? PFT_EXIT_OK : PFT_EXIT_DATA;
		}
		free(buf);
	}
	if (cli_output_done("probe", out, outpath))
		rc = PFT_EXIT_USAGE;
	if (out != stdout)
		fclose(out);
	free(rep);
	return rc;
}
