/* SPDX-License-Identifier: BSD-3-Clause */
/* Test helper: the ETMv3 packets of one trace ID of a CoreSight-framed
 * capture as JSON Lines, for tests/scripts/etm3_oracle.py (until pft dump
 * reads ETMv3 sources).
 *
 * Usage: etm3_dump [--flow IMAGE ADDR] CAPTURE ID ETMCR ETMIDR ETMCCER [CHUNK]
 * Prints one object per item: offset (in the de-formatted stream), size,
 * type, bytes and the decoded fields.  CHUNK feeds the decoder that many
 * bytes at a time (default: all at once).  With --flow, the packets go
 * through the ETMv3 instruction flow against IMAGE (a memory dump loaded at
 * ADDR) and the flow items are printed instead: {"range":[addr,end],
 * "e":0|1,"cycles":N} for each instruction of a range, or
 * {"event":"name","cycles":N}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft/etm3flow.h"
#include "pft/image.h"
#include "pft/frame.h"

static void print(const struct pft_etm3_packet *p)
{
	unsigned i;

	printf("{\"offset\":%llu,\"size\":%u,\"type\":\"%s\",\"bytes\":\"",
	       (unsigned long long)p->offset, p->size, pft_etm3_pkt_type_name(p->type));
	for (i = 0; i < p->nbytes; i++)
		printf("%02x", p->bytes[i]);
	printf("\",\"flags\":%u", p->flags);
	switch (p->type) {
	case PFT_ETM3_ISYNC:
		printf(",\"address\":%llu,\"isa\":\"%s\",\"reason\":%u,\"ns\":%d,\"hyp\":%d",
		       (unsigned long long)p->address, pft_isa_name(p->isa), p->reason,
		       !!(p->flags & PFT_E3F_NS), !!(p->flags & PFT_E3F_HYP));
		if (p->flags & PFT_E3F_CC)
			printf(",\"cycles\":%u", p->cycles);
		if (p->flags & PFT_E3F_CID)
			printf(",\"context_id\":%u", p->context_id);
		if (p->flags & PFT_E3F_LSIP)
			printf(",\"lsip_address\":%u", p->lsip_address);
		break;
	case PFT_ETM3_BRANCH:
		printf(",\"address\":%llu,\"isa\":\"%s\",\"addr_bytes\":%u",
		       (unsigned long long)p->address, pft_isa_name(p->isa), p->addr_bytes);
		if (p->flags & PFT_E3F_EXC)
			printf(",\"exception\":%u,\"ns\":%d,\"hyp\":%d,\"cancel\":%d,\"exc_bytes\":%u",
			       p->exception, !!(p->flags & PFT_E3F_NS), !!(p->flags & PFT_E3F_HYP),
			       !!(p->flags & PFT_E3F_CANCEL), p->exc_bytes);
		break;
	case PFT_ETM3_PHDR:
		printf(",\"format\":%u,\"atom_count\":%u,\"atoms\":%u,\"cycles\":%u", p->format,
		       p->atom_count, p->atoms, p->cycles);
		break;
	case PFT_ETM3_CYCLE_COUNT:
		printf(",\"cycles\":%u", p->cycles);
		break;
	case PFT_ETM3_CONTEXT_ID:
		printf(",\"context_id\":%u", p->context_id);
		break;
	case PFT_ETM3_VMID:
		printf(",\"vmid\":%u", p->vmid);
		break;
	case PFT_ETM3_TIMESTAMP:
		printf(",\"timestamp\":%llu", (unsigned long long)p->timestamp);
		break;
	case PFT_ETM3_DATA:
	case PFT_ETM3_OOO_DATA:
	case PFT_ETM3_OOO_PLACEHOLDER:
	case PFT_ETM3_VALUE_NOT_TRACED:
		if (p->flags & PFT_E3F_DADDR)
			printf(",\"data_address\":%llu", (unsigned long long)p->address);
		printf(",\"data_value\":%u,\"data_size\":%u,\"tag\":%u", p->data_value,
		       p->data_size, p->tag);
		break;
	case PFT_ETM3_ERROR:
		printf(",\"reason\":\"%s\"", pft_etm3_error_name(p->reason));
		break;
	default:
		break;
	}
	printf("}\n");
}

static void print_flow(struct pft_etm3_flow_decoder *fl, const struct pft_etm3_packet *p)
{
	struct pft_flow_item it;

	if (p)
		pft_etm3_flow_decoder_put_packet(fl, p);
	else
		pft_etm3_flow_decoder_end(fl);
	while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0) {
		if (it.kind == PFT_FLOW_RANGE) {
			/* one line per instruction: OpenCSD's ETMv3 ranges are */
			uint32_t i;

			for (i = 0; i < it.ninsns; i++) {
				const struct pft_insn *in = &it.insns[i];
				int last = i + 1 == it.ninsns;

				printf("{\"range\":[%llu,%llu],\"e\":%d,\"cycles\":%u}\n",
				       (unsigned long long)in->addr,
				       (unsigned long long)(in->addr + in->size),
				       !last || it.end_kind != PFT_RANGE_NOT_TAKEN,
				       it.insn_cycles ? it.insn_cycles[i] : last ? it.cycles : 0);
			}
		} else
			printf("{\"event\":\"%s\",\"cycles\":%u,\"periodic\":%d}\n",
			       pft_flow_event_name(it.type), it.cycles, it.reason == 0);
	}
}

int main(int argc, char **argv)
{
	struct pft_image *img = NULL;
	struct pft_etm3_flow_decoder *fl = NULL;
	struct pft_config cfg;
	struct pft_etm3_decoder *d;
	struct pft_etm3_packet p;
	uint8_t *cap, *stream;
	size_t len, chunk, pos = 0;
	int64_t slen;
	FILE *fp;
	long sz;
	int r, id;

	if (argc > 3 && !strcmp(argv[1], "--flow")) {
		img = pft_image_alloc();
		if (!img || pft_image_add_file(img, argv[2], strtoull(argv[3], NULL, 0), 0, 0) <= 0) {
			fprintf(stderr, "etm3_dump: cannot load %s\n", argv[2]);
			return 2;
		}
		argv += 3;
		argc -= 3;
	}
	if (argc < 6) {
		fprintf(stderr, "usage: etm3_dump CAPTURE ID ETMCR ETMIDR ETMCCER [CHUNK]\n");
		return 2;
	}
	fp = fopen(argv[1], "rb");
	if (!fp || fseek(fp, 0, SEEK_END) || (sz = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET)) {
		perror(argv[1]);
		return 2;
	}
	cap = malloc((size_t)sz + 1);
	if (!cap || fread(cap, 1, (size_t)sz, fp) != (size_t)sz) {
		perror(argv[1]);
		return 2;
	}
	fclose(fp);
	id = (int)strtol(argv[2], NULL, 0);
	stream = malloc((size_t)sz + 1);
	slen = pft_frame_extract(PFT_FRAME_CORESIGHT, (uint8_t)id, cap, (size_t)sz, stream,
				 (size_t)sz, NULL);
	if (!stream || slen < 0) {
		fprintf(stderr, "etm3_dump: cannot de-format %s\n", argv[1]);
		return 2;
	}
	len = (size_t)slen;
	pft_config_init(&cfg);
	cfg.etmcr = (uint32_t)strtoul(argv[3], NULL, 0);
	cfg.etmidr = (uint32_t)strtoul(argv[4], NULL, 0);
	cfg.etmccer = (uint32_t)strtoul(argv[5], NULL, 0);
	cfg.etmtraceidr = (uint32_t)id;
	chunk = argc > 6 ? strtoul(argv[6], NULL, 0) : len;
	if (!chunk)
		chunk = 1;
	d = pft_etm3_decoder_alloc(&cfg);
	if (!d) {
		char msg[200];
		struct pft_etm3_features f;
		pft_etm3_config_features(&cfg, &f, msg, sizeof(msg));
		fprintf(stderr, "etm3_dump: %s\n", msg);
		return 2;
	}
	for (;;) {
		size_t n = len - pos < chunk ? len - pos : chunk;
		pft_etm3_decoder_feed(d, stream + pos, n);
		pos += n;
		if (pos == len)
			pft_etm3_decoder_end(d);
		while ((r = pft_etm3_decoder_next(d, &p, sizeof(p))) == 0) {
			if (img) {
				if (!fl)
					fl = pft_etm3_flow_decoder_alloc(&cfg, img);
				if (!fl)
					return 2;
				print_flow(fl, &p);
			} else {
				print(&p);
			}
		}
		if (r != -PFT_E_AGAIN)
			break;
	}
	if (fl)
		print_flow(fl, NULL);
	pft_etm3_decoder_free(d);
	pft_etm3_flow_decoder_free(fl);
	pft_image_free(img);
	free(cap);
	free(stream);
	return r == -PFT_E_EOS ? 0 : 1;
}
