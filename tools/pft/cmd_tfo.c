/* SPDX-License-Identifier: BSD-3-Clause */
/* pft tfo: synchronise an ETMv2 trace port capture on its Trace FIFO Offsets;
 * list TFOs, pipeline statuses, triggers and errors (text or JSON Lines),
 * write the byte-aligned FIFO stream, convert between capture forms. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pft/tfo.h"

const char *const cmd_tfo_summary = "ETMv2 trace port: find TFOs, list pipeline status, align FIFO bytes";

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: pft tfo [options] CAPTURE\n"
		"\n"
		"Read an ETMv2 trace port capture (PIPESTAT + TRACEPKT per cycle), synchronise\n"
		"on its Trace FIFO Offsets (TFOs) and list the TFOs, the pipeline status of\n"
		"every cycle, triggers, skipped data and errors.  CAPTURE is a binary capture\n"
		"(\"ETM2\" header) or the text form (see doc/tfo.md); '-' reads stdin.\n"
		"\n"
		"Options:\n"
		"  --port-width 4|8|16  TRACEPKT width; needed for a text capture without an\n"
		"                       'etmv2-port' line, checked against the file otherwise\n"
		"  --json               JSON Lines instead of text\n"
		"  --no-status          list TFOs, triggers, skipped data and errors only\n"
		"  --bytes              also list the aligned FIFO bytes\n"
		"  -o FILE              write the byte-aligned FIFO stream (from the first TFO\n"
		"                       header on) to FILE ('-' = stdout)\n"
		"  --capture-out FILE   write the capture again, in the form --capture-format\n"
		"  --capture-format text|bin   (default: the other form than the input)\n"
		"  -h, --help           this help\n"
		"\n"
		"Exit status: 0 capture read cleanly, 1 the capture has errors (listed, and\n"
		"counted on stderr), 2 usage or file error.\n");
}

struct opts {
	const char *input, *out, *capture_out;
	int json, no_status, bytes, width, capture_format; /* 0 auto, 1 text, 2 bin */
};

struct run {
	struct opts o;
	FILE *list, *out, *cap;
	struct pft_tfo_port port;
	struct pft_tfo_decoder *dec;
	int binary;
	uint64_t cycles, tfos, nbytes, errors, reader_errors, skipped;
};

static const char *err_code(unsigned detail)
{
	static const char *const codes[] = { "none", "reserved", "td_in_tfo", "td_fifo", "gap",
					     "header", "too_long", "truncated", "range",
					     "tfo_in_tfo", "order" };

	return detail < sizeof(codes) / sizeof(codes[0]) ? codes[detail] : "unknown";
}

static void print_item(struct run *r, const struct pft_tfo_item *it)
{
	FILE *f = r->list;
	unsigned i;

	switch (it->kind) {
	case PFT_TFO_ITEM_STATUS:
		if (r->o.no_status)
			return;
		if (r->o.json)
			fprintf(f, "{\"type\":\"status\",\"cycle\":%llu,\"status\":\"%s\"%s%s%s}\n",
				(unsigned long long)it->cycle, pft_tfo_ps_name(it->status),
				it->flags & PFT_TFO_F_IMPLIED ? ",\"implied\":true" : "",
				it->flags & PFT_TFO_F_TRIGGER ? ",\"trigger\":true" : "",
				it->flags & PFT_TFO_F_CA ? ",\"cycle_accurate\":true" : "");
		else
			fprintf(f, "%llu status %s%s%s%s\n", (unsigned long long)it->cycle,
				pft_tfo_ps_name(it->status),
				it->flags & PFT_TFO_F_IMPLIED ? " implied" : "",
				it->flags & PFT_TFO_F_TRIGGER ? " replaced-by-trigger" : "",
				it->flags & PFT_TFO_F_CA ? " cycle-accurate" : "");
		return;
	case PFT_TFO_ITEM_BYTES:
		if (r->out && fwrite(it->bytes, 1, it->nbytes, r->out) != it->nbytes)
			r->reader_errors++;
		r->nbytes += it->nbytes;
		if (!r->o.bytes)
			return;
		if (r->o.json)
			fprintf(f, "{\"type\":\"bytes\",\"cycle\":%llu,\"offset\":%llu,\"hex\":\"",
				(unsigned long long)it->cycle, (unsigned long long)it->offset);
		else
			fprintf(f, "%llu bytes offset=%llu", (unsigned long long)it->cycle,
				(unsigned long long)it->offset);
		for (i = 0; i < it->nbytes; i++)
			fprintf(f, r->o.json ? "%02x" : " %02x", it->bytes[i]);
		fprintf(f, r->o.json ? "\"}\n" : "\n");
		return;
	case PFT_TFO_ITEM_TFO:
		r->tfos++;
		if (r->o.json) {
			fprintf(f, "{\"type\":\"tfo\",\"cycle\":%llu,\"value\":%u",
				(unsigned long long)it->cycle, it->value);
			if (it->flags & PFT_TFO_F_NO_HEADER)
				fprintf(f, ",\"header_found\":false");
			else
				fprintf(f, ",\"reason\":\"%s\",\"header\":%u,\"offset\":%llu,\"lsm\":%s",
					pft_tfo_reason_name(it->reason), it->header,
					(unsigned long long)it->offset,
					it->flags & PFT_TFO_F_LSM ? "true" : "false");
			fprintf(f, ",\"gap\":%s,\"trigger\":%s,\"resync\":%s}\n",
				it->flags & PFT_TFO_F_GAP ? "true" : "false",
				it->flags & PFT_TFO_F_TRIGGER ? "true" : "false",
				it->flags & PFT_TFO_F_RESYNC ? "true" : "false");
		} else {
			fprintf(f, "%llu TFO value=%u", (unsigned long long)it->cycle, it->value);
			if (it->flags & PFT_TFO_F_NO_HEADER)
				fprintf(f, " header-not-found");
			else
				fprintf(f, " reason=%s header=0x%02x offset=%llu%s",
					pft_tfo_reason_name(it->reason), it->header,
					(unsigned long long)it->offset,
					it->flags & PFT_TFO_F_LSM ? " lsm" : "");
			fprintf(f, "%s%s%s\n", it->flags & PFT_TFO_F_GAP ? " gap" : "",
				it->flags & PFT_TFO_F_TRIGGER ? " trigger" : "",
				it->flags & PFT_TFO_F_RESYNC ? " sync" : "");
		}
		return;
	case PFT_TFO_ITEM_TRIGGER:
		if (r->o.json)
			fprintf(f, "{\"type\":\"trigger\",\"cycle\":%llu}\n", (unsigned long long)it->cycle);
		else
			fprintf(f, "%llu trigger\n", (unsigned long long)it->cycle);
		return;
	case PFT_TFO_ITEM_SKIPPED:
		r->skipped += it->count;
		if (r->o.json)
			fprintf(f, "{\"type\":\"skipped\",\"cycle\":%llu,\"cycle_end\":%llu,\"count\":%llu,\"unit\":\"%s\"}\n",
				(unsigned long long)it->cycle, (unsigned long long)it->cycle_end,
				(unsigned long long)it->count,
				it->flags & PFT_TFO_F_NIBBLES ? "nibbles" : "bytes");
		else
			fprintf(f, "%llu-%llu skipped %llu %s (not synchronised)\n",
				(unsigned long long)it->cycle, (unsigned long long)it->cycle_end,
				(unsigned long long)it->count,
				it->flags & PFT_TFO_F_NIBBLES ? "nibbles" : "bytes");
		return;
	case PFT_TFO_ITEM_ERROR:
		r->errors++;
		if (r->o.json) {
			fprintf(f, "{\"type\":\"error\",\"cycle\":%llu,\"code\":\"%s\",\"message\":\"%s\"",
				(unsigned long long)it->cycle, err_code(it->detail),
				pft_tfo_err_name(it->detail));
			if (r->binary)
				fprintf(f, ",\"file_offset\":%llu",
					(unsigned long long)(PFT_TFO_BIN_HEADER_SIZE +
							     it->cycle * pft_tfo_bin_record_size(r->port.width)));
			fprintf(f, "}\n");
		} else {
			fprintf(f, "%llu error: %s", (unsigned long long)it->cycle,
				pft_tfo_err_name(it->detail));
			if (r->binary)
				fprintf(f, " (file offset %llu)",
					(unsigned long long)(PFT_TFO_BIN_HEADER_SIZE +
							     it->cycle * pft_tfo_bin_record_size(r->port.width)));
			fprintf(f, "\n");
		}
		return;
	}
}

static void drain(struct run *r)
{
	struct pft_tfo_item it;

	while (pft_tfo_decoder_next(r->dec, &it, sizeof(it)) == 0)
		print_item(r, &it);
}

/* A problem the reader found (bad record or line): listed and counted. */
static void reader_error(struct run *r, const char *what, unsigned long long where)
{
	r->reader_errors++;
	if (r->o.json)
		fprintf(r->list, "{\"type\":\"error\",\"cycle\":%llu,\"code\":\"capture\",\"message\":\"%s\",\"%s\":%llu}\n",
			(unsigned long long)r->cycles, what, r->binary ? "file_offset" : "line", where);
	else
		fprintf(r->list, "%llu error: %s (%s %llu)\n", (unsigned long long)r->cycles, what,
			r->binary ? "file offset" : "line", where);
}

static int start(struct run *r)
{
	r->dec = pft_tfo_decoder_alloc(&r->port);
	if (!r->dec) {
		cli_error("tfo", "out of memory");
		return -1;
	}
	if (r->cap) {
		char line[64];
		uint8_t hdr[PFT_TFO_BIN_HEADER_SIZE];

		if (r->o.capture_format == 1) {
			pft_tfo_text_format_header(line, sizeof(line), &r->port);
			fputs(line, r->cap);
		} else {
			pft_tfo_bin_write_header(hdr, sizeof(hdr), &r->port);
			fwrite(hdr, 1, sizeof(hdr), r->cap);
		}
	}
	return 0;
}

static void cycle(struct run *r, const struct pft_tfo_cycle *c)
{
	if (r->cap) {
		char line[64];
		uint8_t rec[3];
		int n;

		if (r->o.capture_format == 1) {
			if (pft_tfo_text_format_cycle(line, sizeof(line), r->port.width, c) > 0)
				fputs(line, r->cap);
		} else if ((n = pft_tfo_bin_write_record(rec, sizeof(rec), r->port.width, c)) > 0) {
			fwrite(rec, 1, (size_t)n, r->cap);
		}
	}
	while (pft_tfo_decoder_feed(r->dec, c) == -PFT_E_AGAIN)
		drain(r);
	drain(r);
	r->cycles++;
}

static int read_binary(struct run *r, FILE *in)
{
	static uint8_t buf[65536];
	size_t have = 0, pos, rec;
	unsigned long long file_off = 0;
	int rc, started = 0;

	for (;;) {
		size_t got = fread(buf + have, 1, sizeof(buf) - have, in);

		have += got;
		pos = 0;
		if (!started) {
			rc = pft_tfo_bin_read_header(buf, have, &r->port);
			if (rc == -PFT_E_AGAIN && got)
				continue;
			if (rc < 0) {
				cli_error("tfo", "%s: not an ETMv2 port capture (%s)", r->o.input,
					  rc == -PFT_E_AGAIN ? "file too short" : pft_errstr(rc));
				return PFT_EXIT_USAGE;
			}
			if (r->o.width && r->o.width != r->port.width) {
				cli_error("tfo", "%s: capture is for a %u-bit port, not %d-bit",
					  r->o.input, r->port.width, r->o.width);
				return PFT_EXIT_USAGE;
			}
			if (r->cap && !r->o.capture_format)
				r->o.capture_format = 1;
			if (start(r))
				return PFT_EXIT_USAGE;
			pos = (size_t)rc;
			file_off = (unsigned long long)rc;
			started = 1;
		}
		rec = pft_tfo_bin_record_size(r->port.width);
		while (have - pos >= rec) {
			struct pft_tfo_cycle c;

			rc = pft_tfo_bin_read_record(buf + pos, have - pos, r->port.width, &c);
			if (rc == -PFT_E_BAD_FRAME)
				reader_error(r, "record has bits set that must be 0", file_off);
			cycle(r, &c);
			pos += rec;
			file_off += rec;
		}
		memmove(buf, buf + pos, have - pos);
		have -= pos;
		if (!got)
			break;
	}
	if (ferror(in)) {
		cli_error("tfo", "%s: read error: %s", r->o.input, strerror(errno));
		return PFT_EXIT_USAGE;
	}
	if (have)
		reader_error(r, "capture ends inside a record", file_off);
	return 0;
}

static int read_text(struct run *r, FILE *in)
{
	char line[512];
	unsigned long long lineno = 0;
	int started = 0;
	size_t len;

	r->port.width = (uint8_t)r->o.width;
	while (fgets(line, sizeof(line), in)) {
		struct pft_tfo_cycle c;
		struct pft_tfo_port p;
		int rc;

		lineno++;
		len = strlen(line);
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			int ch;

			while ((ch = fgetc(in)) != EOF && ch != '\n')
				;
			reader_error(r, "line too long", lineno);
			continue;
		}
		rc = pft_tfo_text_parse_line(line, len, started ? r->port.width : 0, &c, &p);
		if (rc == 0)
			continue;
		if (rc == 2) {
			if (started) {
				reader_error(r, "second etmv2-port line", lineno);
				continue;
			}
			if (r->o.width && r->o.width != p.width) {
				cli_error("tfo", "%s: capture is for a %u-bit port, not %d-bit",
					  r->o.input, p.width, r->o.width);
				return PFT_EXIT_USAGE;
			}
			r->port = p;
		} else if (!started) {
			if (!r->o.width) {
				cli_error("tfo", "%s:%llu: no 'etmv2-port' line and no --port-width",
					  r->o.input, lineno);
				return PFT_EXIT_USAGE;
			}
			/* parse the cycle now that the width is known */
			rc = pft_tfo_text_parse_line(line, len, r->port.width, &c, &p);
		}
		if (!started) {
			if (r->cap && !r->o.capture_format)
				r->o.capture_format = 2;
			if (start(r))
				return PFT_EXIT_USAGE;
			started = 1;
		}
		if (rc == 1)
			cycle(r, &c);
		else if (rc < 0)
			reader_error(r, "bad capture line", lineno);
	}
	if (ferror(in)) {
		cli_error("tfo", "%s: read error: %s", r->o.input, strerror(errno));
		return PFT_EXIT_USAGE;
	}
	if (!started) {
		if (!r->o.width) {
			cli_error("tfo", "%s: empty capture and no --port-width", r->o.input);
			return PFT_EXIT_USAGE;
		}
		if (start(r))
			return PFT_EXIT_USAGE;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 1;
		} else if (!strcmp(a, "--json")) {
			o->json = 1;
		} else if (!strcmp(a, "--no-status")) {
			o->no_status = 1;
		} else if (!strcmp(a, "--bytes")) {
			o->bytes = 1;
		} else if (!strcmp(a, "--port-width") || !strcmp(a, "-o") ||
			   !strcmp(a, "--capture-out") || !strcmp(a, "--capture-format")) {
			if (i + 1 >= argc) {
				cli_error("tfo", "%s needs an argument", a);
				return -1;
			}
			i++;
			if (!strcmp(a, "-o")) {
				o->out = argv[i];
			} else if (!strcmp(a, "--capture-out")) {
				o->capture_out = argv[i];
			} else if (!strcmp(a, "--capture-format")) {
				if (!strcmp(argv[i], "text"))
					o->capture_format = 1;
				else if (!strcmp(argv[i], "bin"))
					o->capture_format = 2;
				else {
					cli_error("tfo", "--capture-format: 'text' or 'bin', not '%s'", argv[i]);
					return -1;
				}
			} else {
				if (strcmp(argv[i], "4") && strcmp(argv[i], "8") && strcmp(argv[i], "16")) {
					cli_error("tfo", "--port-width: 4, 8 or 16, not '%s'", argv[i]);
					return -1;
				}
				o->width = atoi(argv[i]);
			}
		} else if (a[0] == '-' && a[1]) {
			cli_error("tfo", "unknown option '%s' (see 'pft tfo --help')", a);
			return -1;
		} else if (o->input) {
			cli_error("tfo", "more than one capture ('%s' and '%s')", o->input, a);
			return -1;
		} else {
			o->input = a;
		}
	}
	if (!o->input) {
		cli_error("tfo", "no capture given (see 'pft tfo --help')");
		return -1;
	}
	return 0;
}

int cmd_tfo(int argc, char **argv)
{
	struct run r;
	FILE *in;
	int rc, ch, binary;

	memset(&r, 0, sizeof(r));
	rc = parse_args(argc, argv, &r.o);
	if (rc)
		return rc > 0 ? PFT_EXIT_OK : PFT_EXIT_USAGE;
	in = strcmp(r.o.input, "-") ? fopen(r.o.input, "rb") : stdin;
	if (!in) {
		cli_error("tfo", "cannot read '%s': %s", r.o.input, strerror(errno));
		return PFT_EXIT_USAGE;
	}
	ch = fgetc(in);
	binary = ch == 'E';
	if (ch != EOF && ungetc(ch, in) == EOF) {
		cli_error("tfo", "cannot read '%s'", r.o.input);
		rc = PFT_EXIT_USAGE;
		goto out_in;
	}
	/* "E" starts the binary magic "ETM2"; text starts with "etmv2-port",
	 * a comment or a status mnemonic */
	r.binary = binary;
	r.list = stdout;
	if (r.o.out) {
		r.out = cli_open_output("tfo", r.o.out);
		if (!r.out) {
			rc = PFT_EXIT_USAGE;
			goto out_in;
		}
		if (r.out == stdout)
			r.list = stderr; /* keep the byte stream clean */
	}
	if (r.o.capture_out) {
		r.cap = cli_open_output("tfo", r.o.capture_out);
		if (!r.cap) {
			rc = PFT_EXIT_USAGE;
			goto out_files;
		}
		if (r.cap == stdout)
			r.list = stderr;
	}
	rc = binary ? read_binary(&r, in) : read_text(&r, in);
	if (rc == 0 && r.dec) {
		pft_tfo_decoder_end(r.dec);
		drain(&r);
		if (r.o.json)
			fprintf(r.list, "{\"type\":\"summary\",\"cycles\":%llu,\"tfos\":%llu,\"bytes\":%llu,\"skipped\":%llu,\"errors\":%llu}\n",
				(unsigned long long)r.cycles, (unsigned long long)r.tfos,
				(unsigned long long)r.nbytes, (unsigned long long)r.skipped,
				(unsigned long long)(r.errors + r.reader_errors));
		else
			fprintf(r.list, "# %llu cycles, %llu TFOs, %llu FIFO bytes aligned, %llu lanes skipped, %llu errors\n",
				(unsigned long long)r.cycles, (unsigned long long)r.tfos,
				(unsigned long long)r.nbytes, (unsigned long long)r.skipped,
				(unsigned long long)(r.errors + r.reader_errors));
		if (r.errors + r.reader_errors) {
			cli_error("tfo", "%s: %llu errors in the capture", r.o.input,
				  (unsigned long long)(r.errors + r.reader_errors));
			rc = PFT_EXIT_DATA;
		}
	}
	if ((r.list == stdout && cli_output_done("tfo", r.list, NULL)) ||
	    (r.out && r.out != stdout && cli_output_done("tfo", r.out, r.o.out)) ||
	    (r.cap && cli_output_done("tfo", r.cap, r.o.capture_out)))
		rc = PFT_EXIT_USAGE;
	pft_tfo_decoder_free(r.dec);
	if (r.cap && r.cap != stdout)
		fclose(r.cap);
out_files:
	if (r.out && r.out != stdout)
		fclose(r.out);
out_in:
	if (in != stdin)
		fclose(in);
	return rc;
}
