/* SPDX-License-Identifier: BSD-3-Clause */
/* Writers of a probe report: text, JSON, and the options that follow. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "pft/etm3.h"
#include "probe_out.h"

void probe_cat(char *buf, size_t cap, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= cap)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, cap - n, fmt, ap);
	va_end(ap);
}

static struct pft_features feats(const struct pft_probe_stream *s)
{
	struct pft_features f;
	pft_config_features(&s->config, &f);
	return f;
}

static struct pft_etm3_features feats3(const struct pft_probe_stream *s)
{
	struct pft_etm3_features f;
	pft_etm3_config_features(&s->config, &f, NULL, 0);
	return f;
}

static int readable(const struct pft_probe_stream *s)
{
	return s->protocol == PFT_PROBE_PROTO_PFT || s->protocol == PFT_PROBE_PROTO_ETM3;
}

unsigned probe_readable_count(const struct pft_probe_report *rep)
{
	unsigned i, n = 0;

	for (i = 0; i < rep->nstreams; i++)
		n += readable(&rep->streams[i]);
	return n;
}

int probe_opt_shown(const struct pft_probe_stream *s, enum pft_probe_opt o)
{
	if (s->protocol == PFT_PROBE_PROTO_ETM3)
		return o == PFT_PROBE_OPT_CYCLE_ACCURATE || o == PFT_PROBE_OPT_CONTEXTID ||
		       o == PFT_PROBE_OPT_ALT_BRANCH || o == PFT_PROBE_OPT_DATA_TRACE ||
		       o == PFT_PROBE_OPT_TIMESTAMPS || o == PFT_PROBE_OPT_VMID;
	return s->protocol == PFT_PROBE_PROTO_PFT && o != PFT_PROBE_OPT_ALT_BRANCH &&
	       o != PFT_PROBE_OPT_DATA_TRACE;
}

static const char *const data_trace_names[4] = { "off", "values", "addresses", "values+addresses" };

/* The options of PFT and ETMv3 alike, as pft dump and decode take them. */
static void both_options(char *buf, size_t cap, unsigned cycle_accurate, unsigned contextid_bytes,
			 unsigned timestamps, unsigned vmid)
{
	if (cycle_accurate)
		probe_cat(buf, cap, " --cycle-accurate");
	if (contextid_bytes)
		probe_cat(buf, cap, " --contextid-bytes %u", contextid_bytes);
	if (timestamps)
		probe_cat(buf, cap, " --timestamps");
	if (vmid)
		probe_cat(buf, cap, " --vmid");
}

char *probe_options(const struct pft_probe_report *rep, const struct pft_probe_stream *s,
                    char *buf, size_t cap)
{
	struct pft_features f = feats(s);

	buf[0] = 0;
	probe_cat(buf, cap, "--format %s", pft_probe_layout_name((enum pft_probe_layout)rep->layout));
	if (rep->layout == PFT_PROBE_LAYOUT_FRAMES || rep->layout == PFT_PROBE_LAYOUT_TPIU)
		probe_cat(buf, cap, " --id 0x%02x", s->id);
	if (s->protocol == PFT_PROBE_PROTO_ETM3) {
		struct pft_etm3_features e = feats3(s);

		/* the ETMIDR says ETMv3 (and the branch encoding) */
		probe_cat(buf, cap, " --etmidr 0x%08x", (unsigned)s->config.etmidr);
		if (s->config.etmcr & (PFT_ETM3_ETMCR_DATA_VALUE | PFT_ETM3_ETMCR_DATA_ADDRESS))
			probe_cat(buf, cap, " --etmcr 0x%x", (unsigned)(s->config.etmcr & (PFT_ETM3_ETMCR_DATA_VALUE |
											PFT_ETM3_ETMCR_DATA_ADDRESS)));
		both_options(buf, cap, e.cycle_accurate, e.contextid_bytes, e.timestamps, e.vmid);
		return buf;
	}
	if (s->protocol != PFT_PROBE_PROTO_PFT)
		return buf;
	if (f.minor == 0)
		probe_cat(buf, cap, " --pft-version 1.0");
	both_options(buf, cap, f.cycle_accurate, f.contextid_bytes, f.timestamps, f.vmid);
	if (f.branch_broadcast)
		probe_cat(buf, cap, " --branch-broadcast");
	return buf;
}

static const char *id_name(const struct pft_probe_stream *s, char *b, size_t cap)
{
	if (s->id == PFT_PROBE_ID_RAW)
		snprintf(b, cap, "raw");
	else
		snprintf(b, cap, "0x%02x", s->id);
	return b;
}

void probe_evidence(const struct pft_probe_stream *s, char *buf, size_t cap)
{
	uint64_t after = s->first_async == PFT_PROBE_NO_ASYNC ? 0 : s->probed - s->first_async;

	buf[0] = 0;
	switch (s->protocol) {
	case PFT_PROBE_PROTO_STM:
		probe_cat(buf, cap, "%u STPv2 ASYNC patterns (0xFF x10+ then 0x0F/0xF0), no PFT A-sync",
			  s->stm_asyncs);
		return;
	case PFT_PROBE_PROTO_ETM4:
		probe_cat(buf, cap, "%u A-syncs of 11+ zero bytes then 0x80 (ETMv4/ETE), %u of 5-10 zeros (PFT)",
			  s->etm4_asyncs, s->asyncs);
		return;
	case PFT_PROBE_PROTO_UNKNOWN:
		if (s->asyncs == 0) {
			probe_cat(buf, cap, "no sync pattern of PFT, ETMv3, ETMv4 or STM in %llu bytes",
				  (unsigned long long)s->probed);
			return;
		}
		break;
	default:
		break;
	}
	probe_cat(buf, cap, "%u A-sync (5x 0x00, 0x80)", s->asyncs);
	if (s->protocol == PFT_PROBE_PROTO_PFT) {
		probe_cat(buf, cap, "; as PFT: %llu packets, %llu I-syncs, %llu of %llu bytes after the first "
			  "A-sync lost, %llu errors", (unsigned long long)s->packets,
			  (unsigned long long)s->isyncs, (unsigned long long)s->lost,
			  (unsigned long long)after, (unsigned long long)s->errors);
		return;
	}
	probe_cat(buf, cap, "; read as PFT under every configuration the best loses %llu of %llu bytes "
		  "after the first A-sync in %llu errors", (unsigned long long)s->lost,
		  (unsigned long long)after, (unsigned long long)s->errors);
	if (s->etm3_isyncs)
		probe_cat(buf, cap, "; 0x70 (ETMv3 cycle-accurate I-sync, reserved in PFT) after %u A-syncs",
			  s->etm3_isyncs);
	if (s->etm3_lost != UINT64_MAX)
		probe_cat(buf, cap, "; as ETMv3: %llu of those bytes lost, %llu errors, %llu I-syncs",
			  (unsigned long long)s->etm3_lost, (unsigned long long)s->etm3_errors,
			  (unsigned long long)s->etm3_isync_packets);
	if (s->itm_packets != UINT64_MAX)
		probe_cat(buf, cap, "; as ITM: %llu packets (%llu instrumentation), %llu reserved headers",
			  (unsigned long long)s->itm_packets, (unsigned long long)s->itm_swit,
			  (unsigned long long)s->itm_reserved);
}

/* value of option o as text */
static const char *opt_value(const struct pft_probe_stream *s, enum pft_probe_opt o, char *b,
                             size_t cap)
{
	struct pft_features f = feats(s);

	if (s->protocol == PFT_PROBE_PROTO_ETM3) {
		struct pft_etm3_features e = feats3(s);

		switch (o) {
		case PFT_PROBE_OPT_VERSION: snprintf(b, cap, "3.%u", e.minor); break;
		case PFT_PROBE_OPT_CYCLE_ACCURATE: snprintf(b, cap, "%s", e.cycle_accurate ? "yes" : "no"); break;
		case PFT_PROBE_OPT_CONTEXTID: snprintf(b, cap, "%u", e.contextid_bytes); break;
		case PFT_PROBE_OPT_TIMESTAMPS: snprintf(b, cap, "%s", e.timestamps ? "yes" : "no"); break;
		case PFT_PROBE_OPT_VMID: snprintf(b, cap, "%s", e.vmid ? "yes" : "no"); break;
		case PFT_PROBE_OPT_ALT_BRANCH: snprintf(b, cap, "%s", e.alt_branch ? "yes" : "no"); break;
		case PFT_PROBE_OPT_DATA_TRACE:
			snprintf(b, cap, "%s", data_trace_names[(e.data_value ? 1 : 0) | (e.data_address ? 2 : 0)]);
			break;
		default: snprintf(b, cap, "?"); break;
		}
		return b;
	}
	switch (o) {
	case PFT_PROBE_OPT_VERSION: snprintf(b, cap, "1.%u", f.minor); break;
	case PFT_PROBE_OPT_CYCLE_ACCURATE: snprintf(b, cap, "%s", f.cycle_accurate ? "yes" : "no"); break;
	case PFT_PROBE_OPT_CONTEXTID: snprintf(b, cap, "%u", f.contextid_bytes); break;
	case PFT_PROBE_OPT_TIMESTAMPS: snprintf(b, cap, "%s", f.timestamps ? "yes" : "no"); break;
	case PFT_PROBE_OPT_VMID: snprintf(b, cap, "%s", f.vmid ? "yes" : "no"); break;
	case PFT_PROBE_OPT_RETURN_STACK: snprintf(b, cap, "%s", f.return_stack ? "yes" : "no"); break;
	case PFT_PROBE_OPT_BRANCH_BROADCAST: snprintf(b, cap, "%s", f.branch_broadcast ? "yes" : "no"); break;
	default: snprintf(b, cap, "?"); break;
	}
	return b;
}

/* why the probe holds option o */
static const char *opt_why(const struct pft_probe_stream *s, enum pft_probe_opt o, char *b, size_t cap)
{
	int e3 = s->protocol == PFT_PROBE_PROTO_ETM3;
	uint64_t lost = e3 ? s->etm3_lost : s->lost;

	b[0] = 0;
	if (e3 && o == PFT_PROBE_OPT_DATA_TRACE && s->conf[o] != PFT_PROBE_CONF_NONE &&
	    s->alt_lost[o] == UINT64_MAX) {
		if (s->conf[o] == PFT_PROBE_CONF_LOW)
			probe_cat(b, cap, "no data header in the stream: off, or on with nothing traced");
		else
			probe_cat(b, cap, "other data settings read as well; what the %llu data packets "
				  "hold (value bytes, addresses) decides", (unsigned long long)s->etm3_data);
		return b;
	}
	if (s->conf[o] == PFT_PROBE_CONF_NONE) {
		if (o == PFT_PROBE_OPT_RETURN_STACK)
			probe_cat(b, cap, "the bytes cannot tell: needs the program image");
		else if (o == PFT_PROBE_OPT_VERSION)
			probe_cat(b, cap, "the bytes cannot tell (no VMID packet, timestamps do not decide): "
				  "1.1 assumed");
		else
			probe_cat(b, cap, "the bytes cannot tell: default assumed");
		return b;
	}
	switch (o) {
	case PFT_PROBE_OPT_VERSION:
	case PFT_PROBE_OPT_CYCLE_ACCURATE:
	case PFT_PROBE_OPT_CONTEXTID:
	case PFT_PROBE_OPT_ALT_BRANCH:
	case PFT_PROBE_OPT_DATA_TRACE:
		if (e3 && o == PFT_PROBE_OPT_CYCLE_ACCURATE && s->alt_lost[o] == UINT64_MAX)
			probe_cat(b, cap, "I-syncs with a cycle count (0x70)");
		else if (s->alt_lost[o] == UINT64_MAX)
			probe_cat(b, cap, "larger sizes decode as well: the smallest that decodes");
		else if (s->alt_lost[o] > lost)
			probe_cat(b, cap, "any other value loses %llu more bytes to errors",
				  (unsigned long long)(s->alt_lost[o] - lost));
		else
			probe_cat(b, cap, "any other value decodes worse (odd I-syncs, errors, "
				  "timestamps going backwards)");
		break;
	case PFT_PROBE_OPT_TIMESTAMPS:
		probe_cat(b, cap, "%llu timestamp packets",
			  (unsigned long long)(e3 ? s->etm3_timestamps : s->timestamps));
		break;
	case PFT_PROBE_OPT_VMID:
		probe_cat(b, cap, "%llu VMID packets", (unsigned long long)(e3 ? s->etm3_vmids : s->vmids));
		break;
	case PFT_PROBE_OPT_BRANCH_BROADCAST:
		probe_cat(b, cap, "%llu E atoms, %llu branch packets", (unsigned long long)s->e_atoms,
			  (unsigned long long)s->branches);
		break;
	default:
		break;
	}
	return b;
}

void probe_print_text(FILE *out, const char *path, const struct pft_probe_report *rep)
{
	char b[1024], v[32], w[256], idb[8];
	unsigned i, o, nread = 0;

	fprintf(out, "capture %s: %llu bytes\n", path, (unsigned long long)rep->capture_len);
	fprintf(out, "layout: %s (confidence %s)", pft_probe_layout_name((enum pft_probe_layout)rep->layout),
		pft_probe_conf_name((enum pft_probe_conf)rep->layout_conf));
	switch (rep->layout) {
	case PFT_PROBE_LAYOUT_FRAMES:
		fprintf(out, ": CoreSight 16-byte frames, %llu frames, %llu bytes in frame errors\n",
			(unsigned long long)rep->frames, (unsigned long long)rep->frame_errors);
		break;
	case PFT_PROBE_LAYOUT_TPIU:
		fprintf(out, ": TPIU port capture, %llu FSYNCs, %s, %llu frames, %llu bytes in frame errors\n",
			(unsigned long long)rep->fsyncs,
			rep->aligned ? "starts on an FSYNC" : "not aligned (bytes before the first FSYNC skipped)",
			(unsigned long long)rep->frames, (unsigned long long)rep->frame_errors);
		break;
	case PFT_PROBE_LAYOUT_RAW:
		fprintf(out, ": one source's bytes, no frames\n");
		break;
	default:
		fprintf(out, ": neither CoreSight frames nor a stream of a known trace protocol\n");
		break;
	}
	if (rep->wrapped)
		fprintf(out, "wrapped: %s\n",
			rep->unknown_id ? "frame data before the first trace ID: a circular buffer that wrapped"
					: "the trace starts mid-packet (a wrapped buffer, or capture began late)");
	fprintf(out, "streams:\n");
	for (i = 0; i < rep->nstreams; i++) {
		const struct pft_probe_stream *s = &rep->streams[i];
		probe_evidence(s, b, sizeof b);
		fprintf(out, "  %-4s %8llu bytes  %s", id_name(s, idb, sizeof idb),
			(unsigned long long)s->bytes, pft_probe_proto_name((enum pft_probe_proto)s->protocol));
		if (s->protocol == PFT_PROBE_PROTO_PFT)
			fprintf(out, " %s", opt_value(s, PFT_PROBE_OPT_VERSION, v, sizeof v));
		fprintf(out, " (confidence %s): %s\n",
			pft_probe_conf_name((enum pft_probe_conf)s->proto_conf), b);
		if (!readable(s))
			continue;
		nread++;
		for (o = 0; o < PFT_PROBE_NR_OPTS; o++)
			if (probe_opt_shown(s, (enum pft_probe_opt)o))
				fprintf(out, "       %-17s %-4s %-6s %s\n", pft_probe_opt_name((enum pft_probe_opt)o),
				opt_value(s, (enum pft_probe_opt)o, v, sizeof v),
				pft_probe_conf_name((enum pft_probe_conf)s->conf[o]),
				opt_why(s, (enum pft_probe_opt)o, w, sizeof w));
	}
	if (!nread) {
		fprintf(out, "no PFT or ETMv3 stream found: nothing for pft dump or pft decode\n");
		return;
	}
	fprintf(out, "to read it:\n");
	for (i = 0; i < rep->nstreams; i++) {
		const struct pft_probe_stream *s = &rep->streams[i];
		if (!readable(s))
			continue;
		probe_options(rep, s, b, sizeof b);
		fprintf(out, "  pft dump %s %s\n", path, b);
		fprintf(out, "  pft decode %s %s --elf PROGRAM   (or --image FILE@ADDR)\n", path, b);
	}
}

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void probe_print_json(FILE *out, const char *path, const struct pft_probe_report *rep)
{
	char b[1024], v[32];
	unsigned i, o;

	fprintf(out, "{\"capture\":");
	json_str(out, path);
	fprintf(out, ",\"bytes\":%llu,\"layout\":\"%s\",\"layout_confidence\":\"%s\","
		"\"frames\":%llu,\"frame_error_bytes\":%llu,\"fsyncs\":%llu,\"aligned\":%s,"
		"\"lead_bytes\":%llu,\"wrapped\":%s,\"streams\":[",
		(unsigned long long)rep->capture_len, pft_probe_layout_name((enum pft_probe_layout)rep->layout),
		pft_probe_conf_name((enum pft_probe_conf)rep->layout_conf), (unsigned long long)rep->frames,
		(unsigned long long)rep->frame_errors, (unsigned long long)rep->fsyncs,
		rep->aligned ? "true" : "false", (unsigned long long)rep->lead_bytes,
		rep->wrapped ? "true" : "false");
	for (i = 0; i < rep->nstreams; i++) {
		const struct pft_probe_stream *s = &rep->streams[i];
		if (i)
			fputc(',', out);
		if (s->id == PFT_PROBE_ID_RAW)
			fprintf(out, "{\"id\":null");
		else
			fprintf(out, "{\"id\":%u", s->id);
		fprintf(out, ",\"bytes\":%llu,\"probed\":%llu,\"protocol\":\"%s\",\"confidence\":\"%s\",",
			(unsigned long long)s->bytes, (unsigned long long)s->probed,
			pft_probe_proto_name((enum pft_probe_proto)s->protocol),
			pft_probe_conf_name((enum pft_probe_conf)s->proto_conf));
		probe_evidence(s, b, sizeof b);
		fprintf(out, "\"evidence\":");
		json_str(out, b);
		fprintf(out, ",\"asyncs\":%u,\"etm4_asyncs\":%u,\"stm_asyncs\":%u,\"lost\":%llu,"
			"\"errors\":%llu,\"packets\":%llu,\"isyncs\":%llu",
			s->asyncs, s->etm4_asyncs, s->stm_asyncs, (unsigned long long)s->lost,
			(unsigned long long)s->errors, (unsigned long long)s->packets,
			(unsigned long long)s->isyncs);
		if (s->etm3_lost != UINT64_MAX)
			fprintf(out, ",\"etm3_lost\":%llu,\"etm3_errors\":%llu,\"etm3_isyncs\":%llu",
				(unsigned long long)s->etm3_lost, (unsigned long long)s->etm3_errors,
				(unsigned long long)s->etm3_isync_packets);
		if (readable(s)) {
			int first = 1;

			fprintf(out, ",\"etmcr\":\"0x%08x\",\"etmidr\":\"0x%08x\",\"options\":{",
				(unsigned)s->config.etmcr, (unsigned)s->config.etmidr);
			for (o = 0; o < PFT_PROBE_NR_OPTS; o++) {
				if (!probe_opt_shown(s, (enum pft_probe_opt)o))
					continue;
				opt_value(s, (enum pft_probe_opt)o, v, sizeof v);
				fprintf(out, "%s\"%s\":{\"value\":", first ? "" : ",",
					pft_probe_opt_name((enum pft_probe_opt)o));
				first = 0;
				if (!strcmp(v, "yes") || !strcmp(v, "no"))
					fprintf(out, "%s", v[0] == 'y' ? "true" : "false");
				else if (o == PFT_PROBE_OPT_VERSION || o == PFT_PROBE_OPT_DATA_TRACE)
					json_str(out, v);
				else
					fprintf(out, "%s", v);
				fprintf(out, ",\"confidence\":\"%s\"}",
					pft_probe_conf_name((enum pft_probe_conf)s->conf[o]));
			}
			{
				char opts[512], cmdl[1400];
				probe_options(rep, s, opts, sizeof opts);
				snprintf(cmdl, sizeof cmdl, "pft dump %s %s", path, opts);
				fprintf(out, "},\"dump\":");
				json_str(out, cmdl);
				snprintf(cmdl, sizeof cmdl, "pft decode %s %s", path, opts);
				fprintf(out, ",\"decode\":");
				json_str(out, cmdl);
				fprintf(out, ",\"options_line\":");
				json_str(out, opts);
			}
		}
		fputc('}', out);
	}
	fprintf(out, "]}\n");
}

int probe_read_file(const char *cmd, const char *path, size_t max, unsigned char **buf,
                    size_t *len, unsigned long long *total)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	struct stat sb;
	size_t cap = 1 << 16, n = 0, k;
	unsigned char *p;

	*buf = NULL;
	*len = 0;
	if (!f) {
		cli_error(cmd, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	p = malloc(cap);
	while (p && n < max && (k = fread(p + n, 1, (cap - n < max - n ? cap - n : max - n), f)) > 0) {
		n += k;
		if (n == cap && cap < max) {
			unsigned char *q = realloc(p, cap * 2);
			if (!q) {
				free(p);
				p = NULL;
				break;
			}
			p = q;
			cap *= 2;
		}
	}
	if (!p || ferror(f)) {
		cli_error(cmd, "cannot read '%s': %s", path, p ? strerror(errno) : "out of memory");
		free(p);
		if (f != stdin)
			fclose(f);
		return -1;
	}
	*total = n;
	if (f != stdin && fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode))
		*total = (unsigned long long)sb.st_size;
	if (f != stdin)
		fclose(f);
	*buf = p;
	*len = n;
	return 0;
}
