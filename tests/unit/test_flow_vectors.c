/* SPDX-License-Identifier: BSD-3-Clause */
/* Text test vectors for the flow decoder: tests/vectors/flow/<name>.txt hold
 * programs as labelled hex instruction words, packet directives and the
 * expected decode, written by hand from the spec.  Each case is assembled by
 * our own packet encoder (A-sync first), fed to the flow decoder as bytes,
 * and its output, in the compact form below, must equal the expect lines.
 * Every case is run a second time through pft_flow_decoder_put_packet with the
 * packets the packet decoder reads back from the bytes.
 *
 * File syntax (one directive per line, '#' starts a comment):
 *   case NAME
 *   config etmcr=X [etmccer=X] [etmidr=X]
 *   code ADDR A32 WORD ...          (32-bit words, little-endian in memory)
 *   code ADDR T32 HALFWORD ...      (a 32-bit T32 instruction is two halfwords)
 *   fill ADDR A32|T32 WORD COUNT    (COUNT copies of one word / halfword)
 *   isync ADDR ISA [periodic|trace_on|overflow|debug_exit] [ns] [hyp] [cc=N] [cid=X]
 *   atom E|N... [cc=N]
 *   branch ADDR ISA [exc=N] [ns] [hyp] [cc=N]
 *   wpu ADDR ISA
 *   cid X | vmid X | ts X [cc=N] | eret | trigger | ignore | raw HEXBYTES
 *   expect LINE                     (exactly as the decoder output is printed)
 *   end
 * Output lines:
 *   R START-END ISA N END [cc=N] [rs] [next=ADDR ISA]   (runs continued over
 *       block boundaries are merged)
 *   E NAME [reason] [addr=A ISA] [val=X] [next=A ISA] [atom=E|N] [branch] [wpu]
 *       [cc=N] [ns] [hyp]        (ns/hyp only for trace_on, exception, security) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/pft.h"
#include "vec_files.h"

#define MAXLINES 512
#define MAXPKTS 256
#define MAXBYTES 8192
#define MAXCODE 16

struct code_seg {
	uint64_t addr;
	size_t len, cap;
	uint8_t *bytes;
};

struct tcase {
	char name[128];
	struct pft_config cfg;
	struct code_seg code[MAXCODE];
	int ncode;
	struct pft_packet pkts[MAXPKTS];
	int npkts;
	char *expect[MAXLINES];
	int nexpect;
	const char *file;
	int line;
};

/* ---- output in compact form ---- */

struct outbuf {
	char *lines[4096];
	int n;
	/* merging of MORE ranges */
	int pending;
	struct pft_flow_item run;
	uint64_t run_n;
};

static void out_add(struct outbuf *o, const char *s)
{
	if (o->n < 4096)
		o->lines[o->n++] = strdup(s);
}

static void out_flush(struct outbuf *o)
{
	char buf[256];
	int k;
	const struct pft_flow_item *r = &o->run;

	if (!o->pending)
		return;
	o->pending = 0;
	k = snprintf(buf, sizeof(buf), "R %llx-%llx %s %llu %s", (unsigned long long)r->addr,
		     (unsigned long long)r->end, pft_isa_name(r->isa),
		     (unsigned long long)o->run_n,
		     pft_range_end_name((enum pft_range_end)r->end_kind));
	if (r->flags & PFT_FLOW_F_CC)
		k += snprintf(buf + k, sizeof(buf) - k, " cc=%u", r->cycles);
	if (r->flags & PFT_FLOW_F_RSTACK)
		k += snprintf(buf + k, sizeof(buf) - k, " rs");
	if (r->flags & PFT_FLOW_F_NEXT)
		snprintf(buf + k, sizeof(buf) - k, " next=%llx %s", (unsigned long long)r->next,
			 pft_isa_name(r->next_isa));
	out_add(o, buf);
}

static void out_item(struct outbuf *o, const struct pft_flow_item *it)
{
	char buf[256];
	int k;

	if (it->kind == PFT_FLOW_RANGE) {
		if (o->pending && (o->run.end != it->addr || o->run.isa != it->isa))
			out_flush(o);
		if (o->pending) {
			uint64_t a = o->run.addr;

			o->run = *it;
			o->run.addr = a;
			o->run_n += it->ninsns;
		} else {
			o->run = *it;
			o->run_n = it->ninsns;
			o->pending = 1;
		}
		if (it->end_kind != PFT_RANGE_MORE)
			out_flush(o);
		return;
	}
	out_flush(o);
	k = snprintf(buf, sizeof(buf), "E %s", pft_flow_event_name((enum pft_flow_event)it->type));
	switch (it->type) {
	case PFT_EV_TRACE_ON:
	case PFT_EV_SYNC_MISMATCH:
		k += snprintf(buf + k, sizeof(buf) - k, " %s",
			      pft_isync_reason_name((enum pft_isync_reason)it->reason));
		break;
	case PFT_EV_LOST:
		k += snprintf(buf + k, sizeof(buf) - k, " %s",
			      pft_flow_lost_name((enum pft_flow_lost)it->reason));
		break;
	case PFT_EV_INCONSISTENT:
		k += snprintf(buf + k, sizeof(buf) - k, " %s",
			      pft_flow_inconsistent_name((enum pft_flow_inconsistent)it->reason));
		break;
	case PFT_EV_PACKET_ERROR:
		k += snprintf(buf + k, sizeof(buf) - k, " %s",
			      pft_pkt_error_name((enum pft_pkt_error)it->reason));
		break;
	default:
		break;
	}
	if (it->flags & PFT_FLOW_F_ADDR)
		k += snprintf(buf + k, sizeof(buf) - k, " addr=%llx %s",
			      (unsigned long long)it->addr, pft_isa_name(it->isa));
	if (it->type == PFT_EV_EXCEPTION || it->type == PFT_EV_CONTEXT_ID ||
	    it->type == PFT_EV_VMID || it->type == PFT_EV_TIMESTAMP)
		k += snprintf(buf + k, sizeof(buf) - k, " val=%llx", (unsigned long long)it->value);
	if (it->flags & PFT_FLOW_F_NEXT)
		k += snprintf(buf + k, sizeof(buf) - k, " next=%llx %s",
			      (unsigned long long)it->next, pft_isa_name(it->next_isa));
	if (it->flags & PFT_FLOW_F_ATOM)
		k += snprintf(buf + k, sizeof(buf) - k, " atom=%s",
			      (it->flags & PFT_FLOW_F_TAKEN) ? "E" : "N");
	if (it->flags & PFT_FLOW_F_BRANCH)
		k += snprintf(buf + k, sizeof(buf) - k, " branch");
	if (it->flags & PFT_FLOW_F_WPU)
		k += snprintf(buf + k, sizeof(buf) - k, " wpu");
	if (it->flags & PFT_FLOW_F_CC)
		k += snprintf(buf + k, sizeof(buf) - k, " cc=%u", it->cycles);
	if (it->type == PFT_EV_TRACE_ON || it->type == PFT_EV_EXCEPTION ||
	    it->type == PFT_EV_SECURITY) {
		if (it->flags & PFT_FLOW_F_NS)
			k += snprintf(buf + k, sizeof(buf) - k, " ns");
		if (it->flags & PFT_FLOW_F_HYP)
			snprintf(buf + k, sizeof(buf) - k, " hyp");
	}
	out_add(o, buf);
}

static void out_free(struct outbuf *o)
{
	int i;

	for (i = 0; i < o->n; i++)
		free(o->lines[i]);
	o->n = 0;
}

/* ---- parsing ---- */

static int parse_isa(const char *s, uint8_t *isa)
{
	if (!strcmp(s, "A32"))
		*isa = PFT_ISA_ARM;
	else if (!strcmp(s, "T32"))
		*isa = PFT_ISA_THUMB;
	else if (!strcmp(s, "T32EE"))
		*isa = PFT_ISA_THUMBEE;
	else if (!strcmp(s, "JAZ"))
		*isa = PFT_ISA_JAZELLE;
	else
		return -1;
	return 0;
}

static uint64_t num(const char *s)
{
	return strtoull(s, NULL, 0);
}

/* Options common to packet directives: [ns] [hyp] [cc=N] [cid=X] [exc=N] and
 * an I-sync reason. */
static void pkt_opts(struct pft_packet *p, char **tok, int ntok)
{
	int i;

	for (i = 0; i < ntok; i++) {
		if (!strcmp(tok[i], "ns"))
			p->flags |= PFT_PKT_F_NS;
		else if (!strcmp(tok[i], "hyp"))
			p->flags |= PFT_PKT_F_HYP;
		else if (!strncmp(tok[i], "cc=", 3)) {
			p->flags |= PFT_PKT_F_CC;
			p->cycles = (uint32_t)num(tok[i] + 3);
		} else if (!strncmp(tok[i], "cid=", 4)) {
			p->flags |= PFT_PKT_F_CID;
			p->context_id = (uint32_t)num(tok[i] + 4);
		} else if (!strncmp(tok[i], "exc=", 4))
			p->exception = (uint16_t)num(tok[i] + 4);
		else if (!strcmp(tok[i], "periodic"))
			p->reason = PFT_ISYNC_PERIODIC;
		else if (!strcmp(tok[i], "trace_on"))
			p->reason = PFT_ISYNC_TRACE_ON;
		else if (!strcmp(tok[i], "overflow"))
			p->reason = PFT_ISYNC_OVERFLOW;
		else if (!strcmp(tok[i], "debug_exit"))
			p->reason = PFT_ISYNC_DEBUG_EXIT;
	}
}

static int parse_line(struct tcase *tc, char *line)
{
	char *tok[64];
	int ntok = 0, i;
	char *save = NULL, *t;
	struct pft_packet *p;

	for (t = strtok_r(line, " \t", &save); t && ntok < 64; t = strtok_r(NULL, " \t", &save))
		tok[ntok++] = t;
	if (!ntok)
		return 0;
	if (!strcmp(tok[0], "config")) {
		for (i = 1; i < ntok; i++) {
			if (!strncmp(tok[i], "etmcr=", 6))
				tc->cfg.etmcr = (uint32_t)num(tok[i] + 6);
			else if (!strncmp(tok[i], "etmccer=", 8))
				tc->cfg.etmccer = (uint32_t)num(tok[i] + 8);
			else if (!strncmp(tok[i], "etmidr=", 7))
				tc->cfg.etmidr = (uint32_t)num(tok[i] + 7);
			else
				return -1;
		}
		return 0;
	}
	if (!strcmp(tok[0], "code") || !strcmp(tok[0], "fill")) {
		struct code_seg *c;
		uint8_t isa;
		size_t count = 1, k, n;
		int fill = tok[0][0] == 'f';

		if (ntok < 3 || tc->ncode == MAXCODE || parse_isa(tok[2], &isa) ||
		    (fill && ntok != 5))
			return -1;
		n = isa == PFT_ISA_ARM ? 4 : 2;
		if (fill)
			count = (size_t)num(tok[4]);
		c = &tc->code[tc->ncode++];
		c->addr = num(tok[1]);
		c->len = 0;
		c->cap = n * (fill ? count : (size_t)(ntok - 3));
		c->bytes = malloc(c->cap ? c->cap : 1);
		if (!c->bytes)
			return -1;
		for (i = 3; i < (fill ? 4 : ntok); i++) {
			uint32_t v = (uint32_t)strtoul(tok[i], NULL, 16);
			size_t j;

			for (k = 0; k < count; k++)
				for (j = 0; j < n; j++)
					c->bytes[c->len++] = (uint8_t)(v >> (8 * j));
		}
		return 0;
	}
	if (!strcmp(tok[0], "expect")) {
		char buf[256] = "";
		int k = 0;

		for (i = 1; i < ntok; i++)
			k += snprintf(buf + k, sizeof(buf) - k, "%s%s", i > 1 ? " " : "", tok[i]);
		if (tc->nexpect < MAXLINES)
			tc->expect[tc->nexpect++] = strdup(buf);
		return 0;
	}
	if (tc->npkts == MAXPKTS)
		return -1;
	p = &tc->pkts[tc->npkts];
	memset(p, 0, sizeof(*p));
	if (!strcmp(tok[0], "isync") && ntok >= 3) {
		p->type = PFT_PKT_ISYNC;
		p->address = num(tok[1]);
		p->reason = PFT_ISYNC_TRACE_ON;
		if (parse_isa(tok[2], &p->isa))
			return -1;
		pkt_opts(p, tok + 3, ntok - 3);
	} else if (!strcmp(tok[0], "atom") && ntok >= 2) {
		size_t n = strlen(tok[1]), j;

		p->type = PFT_PKT_ATOM;
		p->atom_count = (uint8_t)n;
		for (j = 0; j < n; j++)
			if (tok[1][j] == 'E')
				p->atoms |= 1u << j;
		pkt_opts(p, tok + 2, ntok - 2);
	} else if (!strcmp(tok[0], "branch") && ntok >= 3) {
		p->type = PFT_PKT_BRANCH;
		p->address = num(tok[1]);
		if (parse_isa(tok[2], &p->isa))
			return -1;
		pkt_opts(p, tok + 3, ntok - 3);
	} else if (!strcmp(tok[0], "wpu") && ntok >= 3) {
		p->type = PFT_PKT_WAYPOINT_UPDATE;
		p->address = num(tok[1]);
		if (parse_isa(tok[2], &p->isa))
			return -1;
	} else if (!strcmp(tok[0], "cid") && ntok == 2) {
		p->type = PFT_PKT_CONTEXT_ID;
		p->context_id = (uint32_t)num(tok[1]);
	} else if (!strcmp(tok[0], "vmid") && ntok == 2) {
		p->type = PFT_PKT_VMID;
		p->vmid = (uint8_t)num(tok[1]);
	} else if (!strcmp(tok[0], "ts") && ntok >= 2) {
		p->type = PFT_PKT_TIMESTAMP;
		p->timestamp = num(tok[1]);
		pkt_opts(p, tok + 2, ntok - 2);
	} else if (!strcmp(tok[0], "eret")) {
		p->type = PFT_PKT_EXCEPTION_RETURN;
	} else if (!strcmp(tok[0], "trigger")) {
		p->type = PFT_PKT_TRIGGER;
	} else if (!strcmp(tok[0], "ignore")) {
		p->type = PFT_PKT_IGNORE;
	} else if (!strcmp(tok[0], "raw")) {
		/* raw bytes, copied into the stream as they are (bytes[]) */
		p->type = PFT_PKT_NONE;
		for (i = 1; i < ntok && p->nbytes < PFT_PKT_MAX_BYTES; i++)
			p->bytes[p->nbytes++] = (uint8_t)strtoul(tok[i], NULL, 16);
	} else {
		return -1;
	}
	tc->npkts++;
	return 0;
}

/* ---- running ---- */

static int run_stream(struct tcase *tc, struct pft_image *img, const uint8_t *s, size_t n,
		      struct outbuf *o)
{
	struct pft_flow_decoder *d = pft_flow_decoder_alloc(&tc->cfg, img);
	struct pft_flow_item it;
	int err;

	if (!d)
		return -1;
	/* feed in two pieces, to cross a chunk boundary */
	CHECK_EQ(pft_flow_decoder_feed(d, s, n / 2), 0);
	while ((err = pft_flow_decoder_next(d, &it, sizeof(it))) == 0)
		out_item(o, &it);
	CHECK_EQ(err, -PFT_E_AGAIN);
	CHECK_EQ(pft_flow_decoder_feed(d, s + n / 2, n - n / 2), 0);
	while ((err = pft_flow_decoder_next(d, &it, sizeof(it))) == 0)
		out_item(o, &it);
	CHECK_EQ(err, -PFT_E_AGAIN);
	pft_flow_decoder_end(d);
	while ((err = pft_flow_decoder_next(d, &it, sizeof(it))) == 0)
		out_item(o, &it);
	CHECK_EQ(err, -PFT_E_EOS);
	out_flush(o);
	pft_flow_decoder_free(d);
	return 0;
}

static int run_packets(struct tcase *tc, struct pft_image *img, const uint8_t *s, size_t n,
		       struct outbuf *o)
{
	struct pft_flow_decoder *d = pft_flow_decoder_alloc(&tc->cfg, img);
	struct pft_pkt_decoder *pd = pft_pkt_decoder_alloc(&tc->cfg);
	struct pft_packet pkt;
	struct pft_flow_item it;
	int err;

	pft_pkt_decoder_feed(pd, s, n);
	pft_pkt_decoder_end(pd);
	while (pft_pkt_decoder_next(pd, &pkt, sizeof(pkt)) == 0) {
		CHECK_EQ(pft_flow_decoder_put_packet(d, &pkt), 0);
		while ((err = pft_flow_decoder_next(d, &it, sizeof(it))) == 0)
			out_item(o, &it);
		CHECK_EQ(err, -PFT_E_AGAIN);
	}
	pft_flow_decoder_end(d);
	CHECK_EQ(pft_flow_decoder_next(d, &it, sizeof(it)), -PFT_E_EOS);
	out_flush(o);
	pft_pkt_decoder_free(pd);
	pft_flow_decoder_free(d);
	return 0;
}

static void compare(struct tcase *tc, struct outbuf *o, const char *how)
{
	int i, bad = 0;

	for (i = 0; i < tc->nexpect || i < o->n; i++) {
		const char *e = i < tc->nexpect ? tc->expect[i] : "(nothing)";
		const char *g = i < o->n ? o->lines[i] : "(nothing)";

		if (strcmp(e, g)) {
			if (!bad)
				fprintf(stderr, "%s: case '%s' (%s), line %d of output:\n", tc->file,
					tc->name, how, i + 1);
			fprintf(stderr, "  expected: %s\n  got:      %s\n", e, g);
			if (++bad > 5)
				break;
		}
	}
	CHECK(bad == 0);
}

static void run_case(struct tcase *tc)
{
	static uint8_t s[MAXBYTES];
	struct pft_pkt_encoder *enc = pft_pkt_encoder_alloc(&tc->cfg);
	struct pft_image *img = pft_image_alloc();
	struct pft_packet as;
	struct outbuf o1, o2;
	size_t n = 0;
	int i, w;

	CHECK(enc != NULL);
	if (!enc)
		return;
	for (i = 0; i < tc->ncode; i++)
		if (tc->code[i].len)
			CHECK_EQ(pft_image_add_buffer(img, tc->code[i].addr, tc->code[i].bytes,
					      tc->code[i].len), 0);
	memset(&as, 0, sizeof(as));
	as.type = PFT_PKT_ASYNC;
	w = pft_pkt_encoder_encode(enc, &as, s, sizeof(s));
	CHECK(w > 0);
	n = w > 0 ? (size_t)w : 0;
	for (i = 0; i < tc->npkts; i++) {
		const struct pft_packet *p = &tc->pkts[i];

		if (p->type == PFT_PKT_NONE) {
			memcpy(s + n, p->bytes, p->nbytes);
			n += p->nbytes;
			continue;
		}
		w = pft_pkt_encoder_encode(enc, p, s + n, sizeof(s) - n);
		if (w <= 0) {
			fprintf(stderr, "%s: case '%s': packet %d cannot be encoded (%d)\n", tc->file,
				tc->name, i + 1, w);
			CHECK(w > 0);
			pft_pkt_encoder_free(enc);
			pft_image_free(img);
			return;
		}
		n += (size_t)w;
	}
	pft_pkt_encoder_free(enc);
	memset(&o1, 0, sizeof(o1));
	memset(&o2, 0, sizeof(o2));
	run_stream(tc, img, s, n, &o1);
	compare(tc, &o1, "bytes");
	run_packets(tc, img, s, n, &o2);
	compare(tc, &o2, "packets");
	out_free(&o1);
	out_free(&o2);
	pft_image_free(img);
}

static void reset_case(struct tcase *tc, const char *name)
{
	int i;

	for (i = 0; i < tc->nexpect; i++)
		free(tc->expect[i]);
	for (i = 0; i < tc->ncode; i++)
		free(tc->code[i].bytes);
	memset(tc, 0, sizeof(*tc));
	snprintf(tc->name, sizeof(tc->name), "%s", name);
	pft_config_init(&tc->cfg);
}

static int run_file(const char *path)
{
	static struct tcase tc;
	char line[1024];
	FILE *f = fopen(path, "r");
	int in_case = 0, ln = 0, ncases = 0;

	CHECK(f != NULL);
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *s = vec_line(line);

		ln++;
		if (!s)
			continue;
		if (!strncmp(s, "case ", 5)) {
			reset_case(&tc, s + 5);
			tc.file = path;
			in_case = 1;
			continue;
		}
		if (!strcmp(s, "end")) {
			if (in_case) {
				check_case("%s (%s)", tc.name, path);
				run_case(&tc);
				check_case(NULL);
				ncases++;
			}
			in_case = 0;
			continue;
		}
		if (!in_case || parse_line(&tc, s) != 0) {
			fprintf(stderr, "%s:%d: cannot parse: %s\n", path, ln, s);
			CHECK(0);
		}
	}
	fclose(f);
	reset_case(&tc, "");
	return ncases;
}

int main(int argc, char **argv)
{
	char **files = argc > 1 ? NULL : vec_files("flow");
	int i, total = 0;

	if (argc > 1) {
		for (i = 1; i < argc; i++)
			total += run_file(argv[i]);
		printf("%d cases\n", total);
		return check_report();
	}
	for (i = 0; files && files[i]; i++) {
		int c = run_file(files[i]);

		printf("%s: %d cases\n", strrchr(files[i], '/') + 1, c);
		total += c;
	}
	vec_files_free(files);
	CHECK(total >= 20);
	printf("%d cases\n", total);
	return check_report();
}
