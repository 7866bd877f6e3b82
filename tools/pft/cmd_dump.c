/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump: list the PFT packets of one trace source, one per line (text or
 * JSON Lines), or a per-type summary.  Schema: doc/dump.md. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "input.h"
#include "dump_all.h"
#include "sources_all.h"
#include "task_pool.h"
#include "dump_etm3.h"
#include "jobs_opt.h"
#include "par_run.h"
#include "rec_pipe.h"
#include "input_probe.h"
#include "pft/packet.h"

const char *const cmd_dump_summary = "list the PFT packets of a capture or snapshot";

static void help(FILE *f)
{
	fprintf(f,
		"Usage: pft dump [options] INPUT\n"
		"\n"
		"List the PFT packets of one PTM trace source, one per line: offset in the\n"
		"source's de-formatted byte stream, raw bytes, packet type, decoded fields.\n"
		"ETMv3 sources (snapshot device type ETM3.x, or --etmidr with bits [11:8]\n"
		"= 2) are listed with the ETMv3 packet layer (doc/etm3.md).\n"
		"Bytes skipped before the first A-sync and malformed bytes appear as\n"
		"'unsynced' and 'error' lines with their offsets, so every byte of the\n"
		"stream is listed exactly once.\n"
		"\n"
		"INPUT is a DS-5/OpenCSD snapshot folder (registers, buffer and trace ID come\n"
		"from its ini files), a capture file, or - for standard input.\n"
		"The input is read as a stream, in 1 MiB chunks: memory stays bounded\n"
		"whatever its size.  From a pipe, what needs the whole capture (a trace ID\n"
		"without data, several IDs without --id) is reported at the end.\n"
		"\n"
		"Output:\n"
		"  --json               JSON Lines: one object per packet (schema: doc/dump.md)\n"
		"  --stats              only a summary: packets and bytes per type, bytes\n"
		"                       accounted for, frame statistics\n"
		"  --id all             every PFT and ETMv3 source at once, merged in capture\n"
		"                       order, the trace ID on every line; other sources named\n"
		"                       once with their byte counts and skipped.  The default\n"
		"                       without --id or --source when the input holds several\n"
		"                       PFT/ETMv3 sources (as pft decode).  Not from stdin.\n"
		JOBS_OPTIONS_HELP("4 MiB with --stats, else 128 KiB")
		"  -o, --output FILE    write to FILE instead of standard output (- = stdout)\n"
		"  -h, --help           this text\n"
		"\n"
		INPUT_OPTIONS_HELP
		"\n"
		"Examples:\n"
		"  pft dump data/TC2 --id 0x13\n"
		"  pft dump data/TC2 --id 0x10          (a Cortex-A7 ETMv3.5 source)\n"
		"  pft dump data/trace_cov_a15 --json\n"
		"  pft dump cstrace.bin --format frames --id 0x13 --cycle-accurate --timestamps\n"
		"  pft dump ptm.bin --etmcr 0x10001000 --etmidr 0x411CF312 --stats\n"
		"\n"
		"Exit status: 0 success; 1 the trace has errors (malformed packets or frames,\n"
		"an empty input); 2 usage or setup error (bad option, missing file, bad\n"
		"registers, a trace ID the capture does not hold).\n");
}

struct dump {
	FILE *out;
	struct input *in;
	int json;
	uint64_t count[PFT_PKT_NR_TYPES];
	uint64_t bytes[PFT_PKT_NR_TYPES];
	uint64_t errors;
	uint64_t first_error;
	/* --json: capture offset of the first stream byte not yet reported
	 * (pin_off), kept while the decoder holds a run spanning chunks, so
	 * that the offset map of those chunks can be released; zstart: where
	 * the trailing zeros of the stream read so far start */
	uint64_t pin_off, pin_cap, zstart;
	int pinned;
	int tag; /* --id all: the trace ID put on every line (0: none) */
	const char *tag_name; /* and the snapshot's source name (NULL: none) */
	unsigned jobs;  /* threads (par_run.h) */
	size_t segment;
	struct rec_pipe *pipe; /* --jobs N, a listing: lines made on N threads */
	int pipe_err;          /* the pipe failed (out of memory): stop */
	int werrno;            /* its first write error */
};

static void atoms_str(const struct pft_packet *p, char *s)
{
	unsigned i;

	for (i = 0; i < p->atom_count && i < 32; i++)
		s[i] = (p->atoms >> i) & 1 ? 'E' : 'N';
	s[i] = '\0';
}

/* Append to line[] (text_line's buffer); output is cut at 500 characters. */
#define APP(...)                                                                    \
	do {                                                                        \
		int n_ = snprintf(line + L, sizeof line - 2 - L, __VA_ARGS__);      \
		if (n_ > 0)                                                         \
			L += (size_t)n_ < sizeof line - 2 - L ? (size_t)n_ : sizeof line - 3 - L; \
	} while (0)

static void text_line(const struct dump *d, FILE *o, const struct pft_packet *p)
{
	char line[512];
	size_t L = 0;
	char hex[3 * PFT_PKT_MAX_BYTES + 1], at[40];
	unsigned i, n = 0;
	int cc = (p->flags & PFT_PKT_F_CC) != 0;

	for (i = 0; i < p->nbytes; i++)
		n += (unsigned)snprintf(hex + n, sizeof hex - n, i ? " %02x" : "%02x", p->bytes[i]);
	hex[n] = '\0';
	if (d->tag)
		APP("0x%02X %s%s", (unsigned)d->tag, d->tag_name ? d->tag_name : "",
		    d->tag_name ? " " : "");
	APP("%8" PRIu64 "  %-47s  %-16s", p->offset, hex, pft_pkt_type_name(p->type));
	switch (p->type) {
	case PFT_PKT_ISYNC:
		APP(" address=0x%08" PRIx64 " isa=%s reason=%s ns=%d hyp=%d altis=%d", p->address,
			pft_isa_name(p->isa), pft_isync_reason_name(p->reason),
			!!(p->flags & PFT_PKT_F_NS), !!(p->flags & PFT_PKT_F_HYP),
			!!(p->flags & PFT_PKT_F_ALTIS));
		if (p->flags & PFT_PKT_F_CID)
			APP(" context_id=0x%08" PRIx32, p->context_id);
		break;
	case PFT_PKT_ATOM:
		atoms_str(p, at);
		APP(" atoms=%s", at);
		break;
	case PFT_PKT_BRANCH:
		APP(" address=0x%08" PRIx64 " isa=%s", p->address, pft_isa_name(p->isa));
		if (p->flags & PFT_PKT_F_E0)
			APP(" exception=%s(%u) ns=%d altis=%d", pft_exception_name(p->exception),
				p->exception, !!(p->flags & PFT_PKT_F_NS), !!(p->flags & PFT_PKT_F_ALTIS));
		if (p->flags & PFT_PKT_F_E1)
			APP(" hyp=%d", !!(p->flags & PFT_PKT_F_HYP));
		break;
	case PFT_PKT_WAYPOINT_UPDATE:
		APP(" address=0x%08" PRIx64 " isa=%s", p->address, pft_isa_name(p->isa));
		if (p->flags & PFT_PKT_F_INFO)
			APP(" altis=%d", !!(p->flags & PFT_PKT_F_ALTIS));
		break;
	case PFT_PKT_TIMESTAMP:
		APP(" timestamp=0x%" PRIx64 " (%" PRIu64 ")", p->timestamp, p->timestamp);
		if (p->flags & PFT_PKT_F_TS_R)
			APP(" r=1");
		break;
	case PFT_PKT_CONTEXT_ID:
		APP(" context_id=0x%08" PRIx32, p->context_id);
		break;
	case PFT_PKT_VMID:
		APP(" vmid=0x%02x", p->vmid);
		break;
	case PFT_PKT_ERROR:
		APP(" reason=%s size=%" PRIu32, pft_pkt_error_name(p->reason), p->size);
		break;
	case PFT_PKT_UNSYNCED:
	case PFT_PKT_ASYNC:
		if (p->size > p->nbytes || p->type == PFT_PKT_UNSYNCED)
			APP(" size=%" PRIu32, p->size);
		break;
	default:
		break;
	}
	if (cc)
		APP(" cycles=%" PRIu32, p->cycles);
	while (L && line[L - 1] == ' ')
		L--;
	line[L++] = '\n';
	fwrite(line, 1, L, o);
}

#undef APP

static void json_bool(FILE *o, const char *k, int v)
{
	fprintf(o, ",\"%s\":%s", k, v ? "true" : "false");
}

/* A snapshot's source name that needs no escaping in JSON (names are
 * identifiers such as PTM_0; others are left out). */
static int json_safe(const char *name)
{
	if (!name || !*name)
		return 0;
	for (; *name; name++)
		if ((unsigned char)*name <= 0x20 || *name == '"' || *name == '\\')
			return 0;
	return 1;
}

static void json_line(const struct dump *d, FILE *o, const struct pft_packet *p, uint64_t cap)
{
	char at[40];

	dump_json_begin(o, d->tag, d->tag_name, p->offset, cap, p->size, pft_pkt_type_name(p->type),
			p->bytes, p->nbytes);
	switch (p->type) {
	case PFT_PKT_ISYNC:
		fprintf(o, ",\"address\":%" PRIu64 ",\"isa\":\"%s\",\"reason\":\"%s\"", p->address,
			pft_isa_name(p->isa), pft_isync_reason_name(p->reason));
		json_bool(o, "ns", p->flags & PFT_PKT_F_NS);
		json_bool(o, "hyp", p->flags & PFT_PKT_F_HYP);
		json_bool(o, "altis", p->flags & PFT_PKT_F_ALTIS);
		if (p->flags & PFT_PKT_F_CID)
			fprintf(o, ",\"context_id\":%" PRIu32, p->context_id);
		break;
	case PFT_PKT_ATOM:
		atoms_str(p, at);
		fprintf(o, ",\"atoms\":\"%s\"", at);
		break;
	case PFT_PKT_BRANCH:
		fprintf(o, ",\"address\":%" PRIu64 ",\"isa\":\"%s\"", p->address, pft_isa_name(p->isa));
		if (p->flags & PFT_PKT_F_E0) {
			fprintf(o, ",\"exception\":%u,\"exception_name\":\"%s\"", p->exception,
				pft_exception_name(p->exception));
			json_bool(o, "ns", p->flags & PFT_PKT_F_NS);
			json_bool(o, "altis", p->flags & PFT_PKT_F_ALTIS);
		}
		if (p->flags & PFT_PKT_F_E1)
			json_bool(o, "hyp", p->flags & PFT_PKT_F_HYP);
		break;
	case PFT_PKT_WAYPOINT_UPDATE:
		fprintf(o, ",\"address\":%" PRIu64 ",\"isa\":\"%s\"", p->address, pft_isa_name(p->isa));
		if (p->flags & PFT_PKT_F_INFO)
			json_bool(o, "altis", p->flags & PFT_PKT_F_ALTIS);
		break;
	case PFT_PKT_TIMESTAMP:
		fprintf(o, ",\"timestamp\":%" PRIu64, p->timestamp);
		json_bool(o, "r", p->flags & PFT_PKT_F_TS_R);
		break;
	case PFT_PKT_CONTEXT_ID:
		fprintf(o, ",\"context_id\":%" PRIu32, p->context_id);
		break;
	case PFT_PKT_VMID:
		fprintf(o, ",\"vmid\":%u", p->vmid);
		break;
	case PFT_PKT_ERROR:
		fprintf(o, ",\"reason\":\"%s\"", pft_pkt_error_name(p->reason));
		break;
	default:
		break;
	}
	if (p->flags & PFT_PKT_F_CC)
		fprintf(o, ",\"cycles\":%" PRIu32, p->cycles);
	fputs("}\n", o);
}

static void json_string(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(o, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(o, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, o);
	}
	fputc('"', o);
}

static void header_source(struct dump *d)
{
	const struct input *in = d->in;
	const struct pft_config *c = &in->config;

	fprintf(d->out, "# pft dump %s", in->path);
	if (in->source_name)
		fprintf(d->out, " source %s", in->source_name);
	fprintf(d->out, " trace ID 0x%02X format %s: ", in->trace_id, pft_frame_format_name(in->format));
	if (in->stream_len != INPUT_LEN_UNKNOWN)
		fprintf(d->out, "%" PRIu64 " stream bytes\n", in->stream_len);
	else
		fprintf(d->out, "stream length not known in advance (a pipe)\n");
	fprintf(d->out, "# ETMCR=0x%08" PRIX32 " ETMCCER=0x%08" PRIX32 " ETMIDR=0x%08" PRIX32
		" ETMTRACEIDR=0x%08" PRIX32 "\n", c->etmcr, c->etmccer, c->etmidr, c->etmtraceidr);
}

static void header_columns(struct dump *d)
{
	fprintf(d->out, "#%s  offset  bytes                                            type             fields\n",
		d->tag ? "id    " : "");
}

static void header(struct dump *d)
{
	header_source(d);
	header_columns(d);
}

static void stats(struct dump *d)
{
	const struct input *in = d->in;
	const struct pft_frame_stats *fs = &in->frame_stats;
	uint64_t np = 0, nb = 0;
	unsigned t;

	for (t = 1; t < PFT_PKT_NR_TYPES; t++) {
		np += d->count[t];
		nb += d->bytes[t];
	}
	if (d->json) {
		fprintf(d->out, "{\"stats\":{\"input\":");
		json_string(d->out, in->path);
		fprintf(d->out, ",\"buffer\":");
		json_string(d->out, in->buffer_path ? in->buffer_path : in->path);
		fprintf(d->out, ",\"format\":\"%s\",\"trace_id\":%u,\"stream_bytes\":%" PRIu64 ",\"accounted_bytes\":%" PRIu64
			",\"items\":%" PRIu64 ",\"types\":{", pft_frame_format_name(in->format), in->trace_id, in->delivered, nb, np);
		for (t = 1; t < PFT_PKT_NR_TYPES; t++)
			fprintf(d->out, "%s\"%s\":{\"count\":%" PRIu64 ",\"bytes\":%" PRIu64 "}",
				t > 1 ? "," : "", pft_pkt_type_name((enum pft_pkt_type)t), d->count[t],
				d->bytes[t]);
		fprintf(d->out, "},\"capture\":{\"bytes\":%" PRIu64 ",\"data\":%" PRIu64
			",\"overhead\":%" PRIu64 ",\"sync\":%" PRIu64 ",\"unsynced\":%" PRIu64
			",\"error\":%" PRIu64 ",\"frames\":%" PRIu64 "}}}\n",
			fs->bytes_in, fs->data, fs->overhead, fs->sync, fs->unsynced, fs->error, fs->frames);
		return;
	}
	fprintf(d->out, "# pft dump --stats %s", in->path);
	if (in->source_name)
		fprintf(d->out, " source %s", in->source_name);
	fprintf(d->out, " trace ID 0x%02X format %s\n", in->trace_id, pft_frame_format_name(in->format));
	fprintf(d->out, "%-18s %10s %10s\n", "type", "items", "bytes");
	for (t = 1; t < PFT_PKT_NR_TYPES; t++)
		fprintf(d->out, "%-18s %10" PRIu64 " %10" PRIu64 "\n",
			pft_pkt_type_name((enum pft_pkt_type)t), d->count[t], d->bytes[t]);
	fprintf(d->out, "%-18s %10" PRIu64 " %10" PRIu64 "\n", "total", np, nb);
	fprintf(d->out, "stream bytes %" PRIu64 ", accounted for %" PRIu64 " (%s)\n", in->delivered, nb,
		nb == in->delivered ? "all" : "MISMATCH");
	if (in->format != PFT_FRAME_RAW)
		fprintf(d->out, "capture bytes %" PRIu64 ": %" PRIu64 " data (all IDs), %" PRIu64
			" frame overhead, %" PRIu64 " sync, %" PRIu64 " unsynced, %" PRIu64
			" in frame errors; %" PRIu64 " frames\n",
			fs->bytes_in, fs->data, fs->overhead, fs->sync, fs->unsynced, fs->error, fs->frames);
}

/* --jobs N: a packet and its capture offset, for the lines made on other
 * threads (rec_pipe.h) */
struct dump_rec {
	struct pft_packet p;
	uint64_t cap;
};

static void rec_line(const void *ctx, FILE *f, const void *rec)
{
	const struct dump *d = ctx;
	const struct dump_rec *x = rec;

	if (d->json)
		json_line(d, f, &x->p, x->cap);
	else
		text_line(d, f, &x->p);
}

static void packet(struct dump *d, const struct pft_packet *p, uint64_t cap, int want_stats)
{
	if (p->type < PFT_PKT_NR_TYPES) {
		d->count[p->type]++;
		d->bytes[p->type] += p->size;
	}
	if (p->type == PFT_PKT_ERROR && !d->errors++)
		d->first_error = p->offset;
	if (want_stats)
		return;
	if (d->pipe) {
		struct dump_rec x;

		x.p = *p;
		x.cap = cap;
		if (rec_pipe_add(d->pipe, &x))
			d->pipe_err = 1;
	} else if (d->json) {
		json_line(d, d->out, p, cap);
	} else {
		text_line(d, d->out, p);
	}
}

/* Every packet the decoder gives (a skipped run is one UNSYNCED item
 * however the input is chunked). */
static void put(struct dump *d, const struct pft_packet *p, int want_stats)
{
	uint64_t cap = 0;

	if (d->json) {
		cap = d->pinned && p->offset == d->pin_off ? d->pin_cap :
		      input_capture_offset(d->in, p->offset);
		/* packets come in offset order, each byte once */
		input_release(d->in, p->offset + p->size);
	}
	packet(d, p, cap, want_stats);
}

/* --json, a chunk drained: the items still to come start at the first byte
 * not reported, or (an A-sync, or what is left of an UNSYNCED run past its
 * cap) inside the trailing zeros of the stream.  The capture offsets of
 * everything else read so far are no longer needed: keep the first one,
 * release the rest, so that a skipped run spanning many chunks does not
 * grow the offset map. */
static void hold(struct dump *d, const struct pft_pkt_decoder *dec, const uint8_t *buf,
		 size_t len)
{
	uint64_t off = pft_pkt_decoder_get_offset(dec), base = d->in->delivered - len;
	size_t i = len;

	while (i && !buf[i - 1])
		i--;
	if (i)
		d->zstart = base + i;
	if (off >= d->in->delivered) {
		d->pinned = 0; /* nothing held: the next item starts in the next chunk */
	} else if (!d->pinned || d->pin_off != off) {
		d->pin_off = off;
		d->pin_cap = input_capture_offset(d->in, off);
		d->pinned = 1;
	}
	input_release(d->in, off > d->zstart ? off : d->zstart);
}

struct dump_args {
	struct input_opts io;
	const char *outpath, *inpath;
	int json, want_stats, all;
	struct jobs_opts jobs; /* --jobs, --segment-size */
};

/* The command line -> *a.  -1 to go on, else the exit code (--help: 0). */
static int parse_args(int argc, char **argv, struct dump_args *a)
{
	static const struct option own[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "stats", no_argument, NULL, 's' },
		JOBS_LONG_OPTIONS,
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct option all[64];
	int c, r;

	input_opts_init(&a->io);
	input_merge_options(all, sizeof all / sizeof all[0], own);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", all, NULL)) != -1) {
		if (c == INPUT_OPT_ID && optarg && !strcmp(optarg, "all")) {
			a->all = 1;
			continue;
		}
		r = input_parse_option(&a->io, c, optarg, "dump");
		if (!r)
			r = jobs_parse_option(&a->jobs, c, optarg, "dump");
		if (r < 0)
			return PFT_EXIT_USAGE;
		if (r > 0)
			continue;
		switch (c) {
		case 'j': a->json = 1; break;
		case 's': a->want_stats = 1; break;
		case 'o': a->outpath = optarg; break;
		case 'h': help(stdout); return PFT_EXIT_OK;
		default:
			return cli_bad_option("dump", c, argv, optind);
		}
	}
	a->inpath = cli_single_input("dump", argc, argv, optind);
	return a->inpath ? -1 : PFT_EXIT_USAGE;
}

/* --stats: every item the decoder holds counted, nothing else done
 * (pft_pkt_decoder_count: no packet is built for the common ones).
 * Returns the decoder's status. */
static int count_all(struct dump *d, struct pft_pkt_decoder *dec)
{
	struct pft_pkt_counts k;
	unsigned t;
	int r;

	memset(&k, 0, sizeof k);
	r = pft_pkt_decoder_count(dec, &k, sizeof k);
	for (t = 0; t < PFT_PKT_NR_TYPES; t++) {
		d->count[t] += k.items[t];
		d->bytes[t] += k.bytes[t];
	}
	if (k.items[PFT_PKT_ERROR] && !d->errors)
		d->first_error = k.first_error;
	d->errors += k.items[PFT_PKT_ERROR];
	return r;
}

/* Every chunk of the input through the packet decoder to the output.
 * Returns the decoder's last status (-PFT_E_EOS when all went through), or
 * 1 after a read error (message printed). */
static int put_item(void *arg, const void *p)
{
	struct dump *d = arg;

	put(d, p, 0);
	return d->pipe_err;
}

/* --jobs N (par_run.h): the same items, on N threads.  As dump_stream. */
static int dump_jobs(struct dump *d, int want_stats)
{
	struct par_run r;
	struct pft_par_counts c;
	int k;

	memset(&r, 0, sizeof r);
	r.jobs = d->jobs;
	r.segment = d->segment;
	r.kind = PFT_PAR_PACKETS;
	r.keep = !want_stats;
	r.item = put_item;
	r.arg = d;
	if (!want_stats) {
		d->pipe = rec_pipe_open(d->out, d->jobs, sizeof(struct dump_rec),
					REC_PIPE_RECS(d->segment ? d->segment : PAR_RUN_SEGMENT_ITEMS),
					rec_line, d);
		if (!d->pipe)
			return -PFT_E_NOMEM;
	}
	k = par_run_stream(d->in, &d->in->config, NULL, d->in->isync_resync, &r);
	if (d->pipe && rec_pipe_end(d->pipe))
		d->pipe_err = 1;
	if (d->pipe)
		d->werrno = rec_pipe_write_errno(d->pipe);
	rec_pipe_close(d->pipe);
	d->pipe = NULL;
	if (want_stats && r.par && !pft_par_get_counts(r.par, &c, sizeof c)) {
		memcpy(d->count, c.count, sizeof d->count);
		memcpy(d->bytes, c.bytes, sizeof d->bytes);
		d->errors = c.errors;
		d->first_error = c.first_error;
	}
	pft_par_free(r.par);
	return k;
}

static int dump_stream(struct dump *d, struct pft_pkt_decoder *dec, int want_stats)
{
	if (d->jobs > 1)
		return dump_jobs(d, want_stats);
	struct pft_packet p;
	const uint8_t *buf = NULL;
	size_t len = 0;
	int k, r = -PFT_E_AGAIN;

	while (r == -PFT_E_AGAIN) {
		k = input_read(d->in, &buf, &len);
		if (k < 0)
			return 1;
		if (k > 0 && d->in->gap) {
			pft_pkt_decoder_resync(dec);
			while (pft_pkt_decoder_next(dec, &p, sizeof p) == 0)
				put(d, &p, want_stats);
		}
		if (k == 0)
			pft_pkt_decoder_end(dec);
		else
			pft_pkt_decoder_feed(dec, buf, len);
		if (want_stats)
			r = count_all(d, dec);
		else
			while ((r = pft_pkt_decoder_next(dec, &p, sizeof p)) == 0)
				put(d, &p, 0);
		if (k > 0 && d->json && !want_stats && r == -PFT_E_AGAIN)
			hold(d, dec, buf, len);
		if (k == 0)
			break;
	}
	return r;
}

/* One message for everything wrong with the data: the exit code. */
static int report(const struct dump *d, int r)
{
	const struct input *in = d->in;
	char msg[700];
	size_t n = 0;

	int nosync = in->delivered > 0 && !d->count[PFT_PKT_ASYNC];

	if (r == -PFT_E_EOS && !in->frame_errors && !d->errors && !nosync)
		return PFT_EXIT_OK;
	msg[0] = '\0';
	if (in->frame_errors)
		n += (size_t)snprintf(msg + n, sizeof msg - n, "%s: %s%s",
				      in->buffer_path ? in->buffer_path : in->path, in->frame_error_msg,
				      in->frame_errors > 1 ? " (and more frame errors)" : "");
	if (d->errors && n < sizeof msg)
		n += (size_t)snprintf(msg + n, sizeof msg - n,
				      "%s%" PRIu64 " malformed packet%s in the trace ID 0x%02X stream (first at offset %" PRIu64 ")",
				      n ? "; " : "", d->errors, d->errors > 1 ? "s" : "", in->trace_id, d->first_error);
	if (nosync && n < sizeof msg) /* as decode: exit 1 */
		n += (size_t)snprintf(msg + n, sizeof msg - n,
				      "%strace ID 0x%02X: no synchronisation (A-sync) in %" PRIu64
				      " bytes: no packet could be decoded", n ? "; " : "", in->trace_id,
				      in->delivered);
	if (r != -PFT_E_EOS && n < sizeof msg)
		snprintf(msg + n, sizeof msg - n, "%spacket decoder stopped: %s", n ? "; " : "",
			 pft_errstr(r));
	cli_error("dump", "%s", msg);
	input_probe_hint(in, d->errors, "dump");
	return PFT_EXIT_DATA;
}

/* A PFT source: packet decoder over the stream, then the end checks. */
static int dump_pft_read(const struct dump_args *a, struct dump *d, int *r)
{
	struct pft_pkt_decoder *dec = pft_pkt_decoder_alloc(&d->in->config);

	if (!dec) {
		cli_error("dump", "cannot create the packet decoder (out of memory)");
		return PFT_EXIT_USAGE;
	}
	pft_pkt_decoder_set_isync_resync(dec, (enum pft_isync_resync)d->in->isync_resync);
	if (!a->want_stats && !d->json)
		header(d);
	*r = dump_stream(d, dec, a->want_stats);
	pft_pkt_decoder_free(dec);
	return PFT_EXIT_OK;
}

/* After dump_pft_read's last status r: what needs the whole capture (an
 * absent trace ID in a pipe), --stats' summary, the checks.  The exit
 * code. */
static int dump_pft_end(const struct dump_args *a, struct dump *d, int r)
{
	int rc = r == 1 ? d->in->exit_code : input_finish(d->in, "dump");

	if (!rc && a->want_stats)
		stats(d);
	if (!rc && d->pipe_err) {
		cli_error("dump", "out of memory");
		rc = PFT_EXIT_USAGE;
	} else if (!rc) {
		rc = report(d, r);
	}
	return rc;
}

static int dump_pft(const struct dump_args *a, struct dump *d)
{
	int r = 0, rc = dump_pft_read(a, d, &r);

	return rc ? rc : dump_pft_end(a, d, r);
}

/* --id all --stats: one source of the run. */
struct stats_src {
	const struct dump_args *a;
	struct input in;
	struct dump d;
	struct dump_etm3 *e3; /* an ETMv3 source (else d) */
	int r, rc;
};

/* Read source i to its end, counting (a task_pool task). */
static void stats_task(void *ctx, unsigned i)
{
	struct stats_src *s = (struct stats_src *)ctx + i;

	s->rc = s->e3 ? dump_etm3_read(s->e3, 1, 0, &s->r) : dump_pft_read(s->a, &s->d, &s->r);
}

/* --id all --stats: each source's summary and checks in source order, as
 * the merged run writes them, without the merge (totals have no order to
 * keep): every source read on its own, up to --jobs of them at a time on
 * their own threads (one source: its --jobs threads on its segments).  The
 * exit code: the worst source's. */
static int dump_every_stats(const struct dump_args *a)
{
	struct sources_all *sa;
	struct stats_src *s;
	void *tab;
	unsigned jobs = jobs_count(&a->jobs), i, n = 0;
	FILE *out;
	int rc, k;

	rc = sources_all_begin(&sa, &tab, sizeof *s, a->inpath, &a->io, &a->inpath, 1,
			       a->outpath, "dump", &out);
	s = tab;
	for (i = 0; !rc && i < sa->n; i++) {
		struct stats_src *x = &s[n++];
		int tag;
		const char *name;

		x->a = a;
		if ((rc = input_open(&x->in, a->inpath, &sa->opts[i], 0, "dump")))
			break;
		tag = x->in.trace_id ? x->in.trace_id : (int)(x->in.config.etmtraceidr & 0x7F);
		name = json_safe(x->in.source_name) ? x->in.source_name : NULL;
		if (input_is_etm3(&x->in.config)) {
			if (!(x->e3 = dump_etm3_new(&x->in, out, a->json, 1)))
				rc = PFT_EXIT_USAGE;
			else
				dump_etm3_tag(x->e3, tag, name);
		}
		x->d.out = out;
		x->d.json = a->json;
		x->d.in = &x->in;
		x->d.tag = tag;
		x->d.tag_name = name;
		x->d.jobs = sa->n == 1 ? jobs : 1; /* one source: its segments on the threads */
		x->d.segment = a->jobs.segment;
	}
	if (!rc && n == 1) /* one source: its segments on the threads */
		s[0].rc = s[0].e3 ? dump_etm3_read(s[0].e3, jobs, a->jobs.segment, &s[0].r)
				  : dump_pft_read(a, &s[0].d, &s[0].r);
	else if (!rc)
		task_pool_run(n, jobs, stats_task, s);
	for (i = 0; !rc && i < n; i++) {
		k = s[i].rc;
		if (!k)
			k = s[i].e3 ? dump_etm3_finish(s[i].e3, s[i].r, NULL) : dump_pft_end(a, &s[i].d, s[i].r);
		if (k > rc)
			rc = k;
	}
	if (out && cli_output_done("dump", out, a->outpath)) /* the one message then */
		rc = PFT_EXIT_USAGE;
	else if (n && n == sa->n && *sources_all_skipped(sa, &s[n - 1].in))
		cli_error("dump", "skipped (neither PFT nor ETMv3, or no data): %s", sa->skipped);
	for (i = 0; i < n; i++) {
		dump_etm3_free(s[i].e3);
		input_close(&s[i].in);
	}
	if (out && out != stdout)
		fclose(out);
	free(s);
	free(sa);
	return rc;
}

/* --id all: every PFT and ETMv3 source, one decoder each, merged in capture
 * order (dump_all.h); the statistics and the end checks per source. */
static int dump_every(const struct dump_args *a)
{
	struct dump_all *m;
	struct dump d[DUMP_ALL_MAX];
	struct dump_etm3 *e3[DUMP_ALL_MAX];
	union dump_all_pkt p;
	FILE *out;
	uint64_t cap;
	unsigned i, n;
	int k = 0, rc, r;

	rc = dump_all_open(&m, a->inpath, &a->io, !a->want_stats && !a->json, "dump");
	if (rc)
		return rc;
	out = cli_output_is_input("dump", a->outpath, &a->inpath, 1) ? NULL :
	      cli_open_output("dump", a->outpath);
	if (!out) {
		dump_all_close(m);
		return PFT_EXIT_USAGE;
	}
	n = dump_all_count(m);
	memset(d, 0, sizeof d);
	memset(e3, 0, sizeof e3);
	for (i = 0; i < n && !rc; i++) {
		d[i].out = out;
		d[i].json = a->json;
		d[i].in = dump_all_input(m, i);
		d[i].tag = d[i].in->trace_id ? d[i].in->trace_id : (int)(d[i].in->config.etmtraceidr & 0x7F);
		d[i].tag_name = json_safe(d[i].in->source_name) ? d[i].in->source_name : NULL;
		if (dump_all_is_etm3(m, i)) { /* its own packet layer (dump_etm3.h) */
			if (!(e3[i] = dump_etm3_new(d[i].in, out, a->json, a->want_stats)))
				rc = PFT_EXIT_USAGE;
			else
				dump_etm3_tag(e3[i], d[i].tag, d[i].tag_name);
			if (e3[i] && !a->want_stats && !a->json)
				dump_etm3_header(e3[i], 0);
		} else if (!a->want_stats && !a->json) {
			header_source(&d[i]);
		}
	}
	if (!rc && !a->want_stats && !a->json)
		header_columns(&d[0]);
	while (!rc && (k = dump_all_next(m, &i, &p, &cap)) == 1)
		if (e3[i])
			dump_etm3_packet(e3[i], &p.e, cap);
		else
			packet(&d[i], &p.p, cap, a->want_stats);
	if (!rc)
		rc = k < 0 ? -k : PFT_EXIT_OK;
	for (i = 0; i < n && !rc; i++) {
		r = input_finish(d[i].in, "dump");
		if (!r && e3[i])
			r = dump_etm3_end(e3[i], dump_all_status(m, i));
		else if (!r && a->want_stats)
			stats(&d[i]);
		if (!r && !e3[i])
			r = report(&d[i], dump_all_status(m, i));
		if (r > rc)
			rc = r;
	}
	if (cli_output_done("dump", out, a->outpath)) /* the one message then */
		rc = PFT_EXIT_USAGE;
	else if (*dump_all_skipped(m))
		cli_error("dump", "skipped (neither PFT nor ETMv3, or no data): %s", dump_all_skipped(m));
	if (out != stdout)
		fclose(out);
	for (i = 0; i < n; i++)
		dump_etm3_free(e3[i]);
	dump_all_close(m);
	return rc;
}

/* The output written: 0, or 1 (message printed).  A write that failed on
 * the several-thread path gives its errno: the last fflush may have
 * nothing left to fail on. */
static int output_done(const struct dump *d, const char *path)
{
	if (d->werrno && ferror(d->out)) {
		errno = d->werrno;
		cli_write_error("dump", NULL, path);
		return 1;
	}
	return cli_output_done("dump", d->out, path);
}

int cmd_dump(int argc, char **argv)
{
	struct dump_args a;
	struct input in;
	struct dump d;
	int rc;

	memset(&a, 0, sizeof a);
	memset(&d, 0, sizeof d);
	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	if (a.all || sources_all_default(a.inpath, &a.io, 1))
		return a.want_stats ? dump_every_stats(&a) : dump_every(&a);
	d.json = a.json;
	d.jobs = jobs_count(&a.jobs);
	d.segment = a.jobs.segment; /* 0: par_run.h's default */
	a.io.allow_etm3 = 1;
	rc = input_open(&in, a.inpath, &a.io, d.json && !a.want_stats, "dump");
	if (rc)
		return rc;
	d.in = &in;
	{
		const char *ins[2] = { in.path, in.buffer_path };

		d.out = cli_output_is_input("dump", a.outpath, ins, 2) ? NULL :
			cli_open_output("dump", a.outpath);
	}
	if (!d.out) {
		input_close(&in);
		return PFT_EXIT_USAGE;
	}
	if (input_is_etm3(&in.config)) /* an ETMv3 source: its own packet layer */
		rc = dump_etm3(&in, d.out, d.json, a.want_stats, d.jobs, d.segment, &d.werrno);
	else
		rc = dump_pft(&a, &d);
	if (output_done(&d, a.outpath))
		rc = PFT_EXIT_USAGE;
	if (d.out != stdout)
		fclose(d.out);
	input_close(&in);
	return rc;
}
