/* SPDX-License-Identifier: BSD-3-Clause */
/* pft dump for ETMv3 trace sources (device type ETM3.x, or ETMIDR[11:8] =
 * 2): the packets of libpft's ETMv3 packet layer, one per line (text or JSON
 * Lines), or a per-type summary.  Fields: doc/etm3.md; the line layout is
 * that of the PFT listing (doc/dump.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dump_etm3.h"
#include "par_run.h"
#include "rec_pipe.h"
#include "pft/etm3.h"

struct dump_etm3 {
	FILE *out;
	struct input *in;
	int json, stats;
	int tag;                 /* --id all: the trace ID on every line (0: none) */
	const char *tag_name;    /* and the source name (NULL: none) */
	uint64_t count[PFT_ETM3_NR_TYPES], bytes[PFT_ETM3_NR_TYPES];
	uint64_t errors, first_error;
	struct rec_pipe *pipe; /* --jobs N, a listing: lines made on N threads */
	int pipe_err;          /* the pipe failed (out of memory): stop */
	int werrno;            /* its first write error */
};

static const char *const reasons[4] = { "periodic", "trace_on", "overflow", "debug_exit" };

static void atoms_str(const struct pft_etm3_packet *p, char *s)
{
	unsigned i;

	for (i = 0; i < p->atom_count && i < 32; i++)
		s[i] = (p->atoms >> i) & 1 ? 'E' : 'N';
	s[i] = '\0';
}

/* The decoded fields as " key=value" (text) or ,"key":value (JSON). */
static void fields(FILE *o, const struct pft_etm3_packet *p, int json)
{
	char at[40];
#define NUM(k, fmt, v) fprintf(o, json ? ",\"" k "\":%" fmt : " " k "=%" fmt, v)
#define HEX(k, v) (json ? fprintf(o, ",\"" k "\":%" PRIu64, (uint64_t)(v)) \
		       : fprintf(o, " " k "=0x%08" PRIx64, (uint64_t)(v)))
#define STR(k, v) fprintf(o, json ? ",\"" k "\":\"%s\"" : " " k "=%s", v)
#define BOOL(k, v) (json ? fprintf(o, ",\"" k "\":%s", (v) ? "true" : "false") \
			: fprintf(o, " " k "=%d", (v) ? 1 : 0))
	switch (p->type) {
	case PFT_ETM3_ISYNC:
		if (!(p->flags & PFT_E3F_NOADDR)) {
			HEX("address", p->address);
			STR("isa", pft_isa_name(p->isa));
		}
		STR("reason", reasons[p->reason & 3]);
		BOOL("ns", p->flags & PFT_E3F_NS);
		BOOL("hyp", p->flags & PFT_E3F_HYP);
		BOOL("altis", p->flags & PFT_E3F_ALTIS);
		if (p->flags & PFT_E3F_CID)
			HEX("context_id", p->context_id);
		if (p->flags & PFT_E3F_LSIP)
			HEX("lsip_address", p->lsip_address);
		if (p->flags & PFT_E3F_CC)
			NUM("cycles", PRIu32, p->cycles);
		break;
	case PFT_ETM3_PHDR:
		atoms_str(p, at);
		STR("atoms", at);
		NUM("format", "u", p->format);
		if (p->format != 0 && p->cycles)
			NUM("cycles", PRIu32, p->cycles);
		break;
	case PFT_ETM3_BRANCH:
		HEX("address", p->address);
		STR("isa", pft_isa_name(p->isa));
		if (p->flags & PFT_E3F_EXC) {
			NUM("exception", "u", p->exception);
			if (!(p->flags & PFT_E3F_EXC_OLD)) {
				BOOL("ns", p->flags & PFT_E3F_NS);
				BOOL("altis", p->flags & PFT_E3F_ALTIS);
			} else {
				BOOL("original_form", 1);
			}
			BOOL("cancel", p->flags & PFT_E3F_CANCEL);
			if (p->flags & PFT_E3F_E1)
				BOOL("hyp", p->flags & PFT_E3F_HYP);
			if (p->resume)
				NUM("resume", "u", p->resume);
		}
		break;
	case PFT_ETM3_CYCLE_COUNT:
		NUM("cycles", PRIu32, p->cycles);
		break;
	case PFT_ETM3_TIMESTAMP:
		NUM("timestamp", PRIu64, p->timestamp);
		if (p->flags & PFT_E3F_TS_R)
			BOOL("r", 1);
		break;
	case PFT_ETM3_CONTEXT_ID:
		HEX("context_id", p->context_id);
		break;
	case PFT_ETM3_VMID:
		NUM("vmid", "u", p->vmid);
		break;
	case PFT_ETM3_DATA:
	case PFT_ETM3_OOO_DATA:
	case PFT_ETM3_OOO_PLACEHOLDER:
	case PFT_ETM3_VALUE_NOT_TRACED:
		if (p->flags & PFT_E3F_DADDR)
			HEX("data_address", p->address);
		else if (p->flags & PFT_E3F_VARIANT)
			BOOL("a", 1); /* A bit set, data addresses not traced */
		if (p->type == PFT_ETM3_DATA || p->type == PFT_ETM3_OOO_DATA) {
			HEX("data_value", p->data_value);
			NUM("data_size", "u", p->data_size);
		}
		if (p->tag)
			NUM("tag", "u", p->tag);
		break;
	case PFT_ETM3_ERROR:
		STR("reason", pft_etm3_error_name(p->reason));
		break;
	default:
		break;
	}
#undef NUM
#undef HEX
#undef STR
#undef BOOL
}

void dump_json_begin(FILE *o, int tag, const char *name, uint64_t off, uint64_t cap,
		     uint32_t size, const char *type, const uint8_t *bytes, unsigned n)
{
	unsigned i;

	if (tag && name)
		fprintf(o, "{\"trace_id\":%d,\"source\":\"%s\",", tag, name);
	else if (tag)
		fprintf(o, "{\"trace_id\":%d,", tag);
	else
		fputc('{', o);
	fprintf(o, "\"offset\":%" PRIu64 ",\"capture_offset\":%" PRIu64 ",\"size\":%" PRIu32
		   ",\"type\":\"%s\",\"bytes\":\"", off, cap, size, type);
	for (i = 0; i < n; i++)
		fprintf(o, "%02x", bytes[i]);
	fputc('"', o);
}

static void line(const struct dump_etm3 *d, FILE *o, const struct pft_etm3_packet *p,
		 uint64_t cap)
{
	char hex[3 * PFT_ETM3_MAX_BYTES + 1];
	unsigned i, n = 0;

	if (d->json) {
		dump_json_begin(o, d->tag, d->tag_name, p->offset, cap, p->size,
				pft_etm3_pkt_type_name(p->type), p->bytes, p->nbytes);
		fields(o, p, 1);
		fputs("}\n", o);
		return;
	}
	for (i = 0; i < p->nbytes && i < 16; i++)
		n += (unsigned)snprintf(hex + n, sizeof hex - n, i ? " %02x" : "%02x", p->bytes[i]);
	hex[n] = '\0';
	if (d->tag)
		fprintf(o, "0x%02X %s%s", (unsigned)d->tag, d->tag_name ? d->tag_name : "",
			d->tag_name ? " " : "");
	fprintf(o, "%8" PRIu64 "  %-47s  %-16s", p->offset, hex, pft_etm3_pkt_type_name(p->type));
	if (p->size > 16 || p->type == PFT_ETM3_UNSYNCED || p->type == PFT_ETM3_ERROR)
		fprintf(o, " size=%" PRIu32, p->size);
	fields(o, p, 0);
	fputc('\n', o);
}

/* --jobs N: a packet and its capture offset, for the lines made on other
 * threads (rec_pipe.h) */
struct d3_rec {
	struct pft_etm3_packet p;
	uint64_t cap;
};

static void rec_line(const void *ctx, FILE *f, const void *rec)
{
	const struct d3_rec *x = rec;

	line(ctx, f, &x->p, x->cap);
}

void dump_etm3_packet(struct dump_etm3 *d, const struct pft_etm3_packet *p, uint64_t cap)
{
	if (p->type < PFT_ETM3_NR_TYPES) {
		d->count[p->type]++;
		d->bytes[p->type] += p->size;
	}
	if (p->type == PFT_ETM3_ERROR && !d->errors++)
		d->first_error = p->offset;
	if (d->stats)
		return;
	if (d->pipe) {
		struct d3_rec x;

		x.p = *p;
		x.cap = cap;
		if (rec_pipe_add(d->pipe, &x))
			d->pipe_err = 1;
	} else {
		line(d, d->out, p, cap);
	}
}

/* One source alone: the capture offset from the input's map. */
static void put(struct dump_etm3 *d, const struct pft_etm3_packet *p)
{
	uint64_t cap = 0;

	if (d->json) {
		cap = input_capture_offset(d->in, p->offset);
		input_release(d->in, p->offset + p->size);
	}
	dump_etm3_packet(d, p, cap);
}

/* --stats: every item the decoder holds counted (pft_etm3_decoder_count:
 * no packet is built for the one-byte P-headers).  The decoder's status. */
static int count_all(struct dump_etm3 *d, struct pft_etm3_decoder *dec)
{
	struct pft_etm3_counts k;
	unsigned t;
	int r;

	memset(&k, 0, sizeof k);
	r = pft_etm3_decoder_count(dec, &k, sizeof k);
	for (t = 0; t < PFT_ETM3_NR_TYPES; t++) {
		d->count[t] += k.items[t];
		d->bytes[t] += k.bytes[t];
	}
	if (k.items[PFT_ETM3_ERROR] && !d->errors)
		d->first_error = k.first_error;
	d->errors += k.items[PFT_ETM3_ERROR];
	return r;
}

static void stats(struct dump_etm3 *d)
{
	const struct input *in = d->in;
	uint64_t np = 0, nb = 0;
	unsigned t;

	for (t = 1; t < PFT_ETM3_NR_TYPES; t++) {
		np += d->count[t];
		nb += d->bytes[t];
	}
	if (d->json) {
		fprintf(d->out, "{\"stats\":{\"protocol\":\"etm3\",\"trace_id\":%u,\"stream_bytes\":%" PRIu64
			",\"accounted_bytes\":%" PRIu64 ",\"items\":%" PRIu64 ",\"types\":{",
			in->trace_id, in->delivered, nb, np);
		for (t = 1; t < PFT_ETM3_NR_TYPES; t++)
			fprintf(d->out, "%s\"%s\":{\"count\":%" PRIu64 ",\"bytes\":%" PRIu64 "}",
				t > 1 ? "," : "", pft_etm3_pkt_type_name((enum pft_etm3_pkt_type)t),
				d->count[t], d->bytes[t]);
		fprintf(d->out, "}}}\n");
		return;
	}
	fprintf(d->out, "# pft dump --stats %s", in->path);
	if (in->source_name)
		fprintf(d->out, " source %s", in->source_name);
	fprintf(d->out, " trace ID 0x%02X format %s (ETMv3)\n", in->trace_id,
		pft_frame_format_name(in->format));
	fprintf(d->out, "%-18s %10s %10s\n", "type", "items", "bytes");
	for (t = 1; t < PFT_ETM3_NR_TYPES; t++)
		fprintf(d->out, "%-18s %10" PRIu64 " %10" PRIu64 "\n",
			pft_etm3_pkt_type_name((enum pft_etm3_pkt_type)t), d->count[t], d->bytes[t]);
	fprintf(d->out, "%-18s %10" PRIu64 " %10" PRIu64 "\n", "total", np, nb);
	fprintf(d->out, "stream bytes %" PRIu64 ", accounted for %" PRIu64 " (%s)\n", in->delivered, nb,
		nb == in->delivered ? "all" : "MISMATCH");
}

static int put_item(void *arg, const void *p)
{
	struct dump_etm3 *d = arg;

	put(d, p);
	return d->pipe_err;
}

/* --jobs N (par_run.h): the same items on N threads.  The decoder's last
 * status (-PFT_E_EOS when all went through), or -1 after a read error. */
static int dump_jobs(struct dump_etm3 *d, unsigned jobs, size_t segment)
{
	struct par_run r;
	struct pft_etm3_counts c;
	unsigned t;
	int k;

	memset(&r, 0, sizeof r);
	r.jobs = jobs;
	r.segment = segment;
	r.kind = PFT_PAR_PACKETS;
	r.keep = !d->stats;
	r.item = put_item;
	r.arg = d;
	k = -PFT_E_NOMEM;
	if (!d->stats) /* the lines made on N threads too */
		d->pipe = rec_pipe_open(d->out, jobs, sizeof(struct d3_rec),
					REC_PIPE_RECS(segment ? segment : PAR_RUN_SEGMENT_ITEMS),
					rec_line, d);
	if (d->stats || d->pipe)
		k = par_run_stream(d->in, &d->in->config, NULL, d->in->isync_resync, &r);
	if (d->pipe) {
		if (rec_pipe_end(d->pipe))
			d->pipe_err = 1;
		d->werrno = rec_pipe_write_errno(d->pipe);
		rec_pipe_close(d->pipe);
		d->pipe = NULL;
	}
	if (d->stats && r.par && !pft_par_get_etm3_counts(r.par, &c, sizeof c)) {
		for (t = 0; t < PFT_ETM3_NR_TYPES; t++) {
			d->count[t] = c.items[t];
			d->bytes[t] = c.bytes[t];
		}
		d->errors = c.items[PFT_ETM3_ERROR];
		d->first_error = c.first_error;
	}
	pft_par_free(r.par);
	if (k == -PFT_E_NOMEM)
		cli_error("dump", "out of memory");
	return k == 1 ? -1 : k;
}

/* Every chunk through one decoder (a gap: it resyncs, as the PFT dump's).
 * The decoder's last status, or -1 after a read error. */
static int dump_serial(struct dump_etm3 *d, struct pft_etm3_decoder *dec)
{
	struct input *in = d->in;
	struct pft_etm3_packet p;
	const uint8_t *buf = NULL;
	size_t len = 0;
	int k, r = -PFT_E_AGAIN;

	for (;;) {
		k = input_read(in, &buf, &len);
		if (k < 0)
			return -1;
		if (k == 0) {
			pft_etm3_decoder_end(dec);
		} else {
			if (in->gap) {
				pft_etm3_decoder_resync(dec);
				while ((r = pft_etm3_decoder_next(dec, &p, sizeof p)) == 0)
					put(d, &p);
			}
			pft_etm3_decoder_feed(dec, buf, len);
		}
		if (d->stats)
			r = count_all(d, dec);
		else
			while ((r = pft_etm3_decoder_next(dec, &p, sizeof p)) == 0)
				put(d, &p);
		if (k == 0 || r != -PFT_E_AGAIN)
			return r;
	}
}

struct dump_etm3 *dump_etm3_new(struct input *in, FILE *out, int json, int want_stats)
{
	struct dump_etm3 *d = calloc(1, sizeof *d);

	if (!d) {
		cli_error("dump", "out of memory");
		return NULL;
	}
	d->out = out;
	d->in = in;
	d->json = json;
	d->stats = want_stats;
	return d;
}

void dump_etm3_tag(struct dump_etm3 *d, int tag, const char *name)
{
	d->tag = tag;
	d->tag_name = name;
}

void dump_etm3_header(struct dump_etm3 *d, int columns)
{
	const struct input *in = d->in;
	const struct pft_config *c = &in->config;
	FILE *out = d->out;

	fprintf(out, "# pft dump %s", in->path);
	if (in->source_name)
		fprintf(out, " source %s", in->source_name);
	fprintf(out, " trace ID 0x%02X format %s (ETMv3.%u)\n", in->trace_id,
		pft_frame_format_name(in->format), (unsigned)(c->etmidr >> 4) & 0xF);
	fprintf(out, "# ETMCR=0x%08" PRIX32 " ETMCCER=0x%08" PRIX32 " ETMIDR=0x%08" PRIX32
		" ETMTRACEIDR=0x%08" PRIX32 "\n", c->etmcr, c->etmccer, c->etmidr, c->etmtraceidr);
	if (columns)
		fprintf(out, "#  offset  bytes                                            type             fields\n");
}

int dump_etm3_end(struct dump_etm3 *d, int r)
{
	struct input *in = d->in;

	if (d->stats)
		stats(d);
	if (r != -PFT_E_EOS || in->frame_errors || d->errors) {
		if (in->frame_errors)
			cli_error("dump", "%s: %s", in->buffer_path ? in->buffer_path : in->path,
				  in->frame_error_msg);
		if (d->errors)
			cli_error("dump", "%" PRIu64 " malformed packet%s in the trace ID 0x%02X ETMv3 stream (first at offset %" PRIu64 ")",
				  d->errors, d->errors > 1 ? "s" : "", in->trace_id, d->first_error);
		if (r != -PFT_E_EOS)
			cli_error("dump", "packet decoder stopped: %s", pft_errstr(r));
		return PFT_EXIT_DATA;
	}
	return PFT_EXIT_OK;
}

void dump_etm3_free(struct dump_etm3 *d)
{
	free(d);
}

int dump_etm3_read(struct dump_etm3 *d, unsigned jobs, size_t segment, int *r)
{
	struct pft_etm3_decoder *dec = pft_etm3_decoder_alloc(&d->in->config);

	if (!dec) {
		cli_error("dump", "cannot create the ETMv3 packet decoder (out of memory)");
		return PFT_EXIT_USAGE;
	}
	*r = jobs > 1 ? dump_jobs(d, jobs, segment) : dump_serial(d, dec);
	pft_etm3_decoder_free(dec);
	return PFT_EXIT_OK;
}

int dump_etm3_finish(struct dump_etm3 *d, int r, int *werrno)
{
	int rc;

	if (werrno)
		*werrno = d->werrno;
	if (r == -1) {
		rc = d->in->exit_code;
	} else if (!(rc = input_finish(d->in, "dump")) && d->pipe_err) {
		cli_error("dump", "out of memory");
		rc = PFT_EXIT_USAGE;
	} else if (!rc) {
		rc = dump_etm3_end(d, r);
	}
	return rc;
}

int dump_etm3(struct input *in, FILE *out, int json, int want_stats, unsigned jobs,
	      size_t segment, int *werrno)
{
	struct dump_etm3 *d = dump_etm3_new(in, out, json, want_stats);
	int r = 0, rc;

	if (!d)
		return PFT_EXIT_USAGE;
	if (!want_stats && !json)
		dump_etm3_header(d, 1);
	rc = dump_etm3_read(d, jobs, segment, &r);
	if (!rc)
		rc = dump_etm3_finish(d, r, werrno);
	dump_etm3_free(d);
	return rc;
}
