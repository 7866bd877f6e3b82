/* SPDX-License-Identifier: BSD-3-Clause */
/* The flow decoder on real hardware trace: TC2, trace ID 0x13 (PTM, cycle
 * accurate), against ARM DS-5's own instruction-by-instruction decode
 * (ds5-dumps/ptmv1_0x13.txt).  Row by row: the same addresses in the same
 * order, the same cycle count on every row, the same "fail" marks, and an
 * event wherever DS-5 prints "Cannot access target memory" (our
 * memory_not_readable) or "Unknown instruction address" (our
 * unknown_address).  Also the I-sync cycle counts ("Cycle Count" rows) and
 * the timestamps.  The library is fed the stream in small chunks to cross
 * chunk boundaries everywhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/pft.h"
#include "tc2.h"

struct row {
	char kind;        /* 'I' instruction, 'N' not readable, 'U' unknown, 'C' I-sync cycles, 'T' timestamp */
	uint64_t addr;
	uint64_t value;   /* cycles, or timestamp */
	int fail;
};

static struct row *ds5, *ours;
static size_t nds5, nours, cap_ours;

static void add(char kind, uint64_t addr, uint64_t value, int fail)
{
	if (nours == cap_ours) {
		cap_ours = cap_ours ? cap_ours * 2 : 4096;
		ours = realloc(ours, cap_ours * sizeof(*ours));
	}
	ours[nours].kind = kind;
	ours[nours].addr = addr;
	ours[nours].value = value;
	ours[nours].fail = fail;
	nours++;
}

static void load_ds5(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t cap = 0;

	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *fl[8] = { 0 };
		char *p = line;
		int n = 0;
		struct row r = { 0, 0, 0, 0 };

		line[strcspn(line, "\r\n")] = '\0';
		while (n < 8) {
			fl[n++] = p;
			p = strchr(p, '\t');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (!strcmp(fl[0], "Instruction") && n >= 6) {
			const char *a = strchr(fl[2], ':');

			r.kind = 'I';
			if (strstr(fl[5], "Cannot access target memory"))
				r.kind = 'N';
			else if (strstr(fl[5], "Unknown instruction address"))
				r.kind = 'U';
			r.addr = a && a[1] != '?' ? strtoull(a + 1, NULL, 16) : 0;
			r.value = strtoull(fl[4], NULL, 10);
			r.fail = n >= 8 && !strcmp(fl[7], "fail");
		} else if (!strcmp(fl[0], "Cycle Count") && n >= 5) {
			r.kind = 'C';
			r.value = strtoull(fl[4], NULL, 10);
		} else if (!strcmp(fl[0], "Timestamp") && n >= 6 && strstr(fl[5], "Timestamp: ")) {
			r.kind = 'T';
			r.value = strtoull(strstr(fl[5], ": ") + 2, NULL, 10);
		} else {
			continue;
		}
		if (nds5 == cap) {
			cap = cap ? cap * 2 : 4096;
			ds5 = realloc(ds5, cap * sizeof(*ds5));
		}
		ds5[nds5++] = r;
	}
	fclose(f);
}

static void item(const struct pft_flow_item *it)
{
	uint32_t i;

	if (it->kind == PFT_FLOW_RANGE) {
		for (i = 0; i < it->ninsns; i++) {
			int last = i + 1 == it->ninsns;
			int cc = last && (it->flags & PFT_FLOW_F_CC);

			add('I', it->insns[i].addr, cc ? it->cycles : 0,
			    last && it->end_kind == PFT_RANGE_NOT_TAKEN);
		}
		return;
	}
	switch (it->type) {
	case PFT_EV_MEM_NACC:
		add('N', it->addr, it->cycles, !(it->flags & PFT_FLOW_F_TAKEN));
		break;
	case PFT_EV_NO_ADDRESS:
		add('U', 0, it->cycles, !(it->flags & PFT_FLOW_F_TAKEN));
		break;
	case PFT_EV_TRACE_ON:
		/* DS-5 prints the I-sync cycle count of trace-on I-syncs */
		if (it->flags & PFT_FLOW_F_CC)
			add('C', 0, it->cycles, 0);
		break;
	case PFT_EV_TIMESTAMP:
		add('T', 0, it->value, 0);
		break;
	default:
		break;
	}
}

int main(void)
{
	char path[512];
	size_t slen = 0, i, bad = 0, ninsn = 0, nnacc = 0, nunk = 0;
	uint8_t *s;
	struct pft_config cfg;
	struct pft_image *img = pft_image_alloc();
	struct pft_flow_decoder *d;
	struct pft_flow_item it;
	struct pft_flow_stats st;
	int err;

	check_data_path(path, sizeof(path), "TC2/ds5-dumps/ptmv1_0x13.txt");
	load_ds5(path);
	s = tc2_stream(0x13, &slen);
	if (!s)
		return check_report();
	CHECK_EQ(slen, 4533);
	tc2_add_kernel(img);
	cfg = tc2_ptm_config();
	d = pft_flow_decoder_alloc(&cfg, img);
	CHECK(d != NULL);
	for (i = 0; i < slen; i += 7) {
		size_t n = slen - i < 7 ? slen - i : 7;

		CHECK_EQ(pft_flow_decoder_feed(d, s + i, n), 0);
		while ((err = pft_flow_decoder_next(d, &it, sizeof(it))) == 0)
			item(&it);
		CHECK_EQ(err, -PFT_E_AGAIN);
	}
	pft_flow_decoder_end(d);
	while ((err = pft_flow_decoder_next(d, &it, sizeof(it))) == 0)
		item(&it);
	CHECK_EQ(err, -PFT_E_EOS);

	CHECK_EQ(nours, nds5);
	for (i = 0; i < nours && i < nds5; i++) {
		const struct row *a = &ds5[i], *b = &ours[i];

		if (a->kind == 'I')
			ninsn++;
		nnacc += a->kind == 'N';
		nunk += a->kind == 'U';
		if (a->kind != b->kind || a->addr != b->addr || a->value != b->value ||
		    a->fail != b->fail) {
			if (bad++ < 10)
				fprintf(stderr, "row %zu: DS-5 %c %08llx %llu%s, pft %c %08llx %llu%s\n", i,
					a->kind, (unsigned long long)a->addr,
					(unsigned long long)a->value, a->fail ? " fail" : "", b->kind,
					(unsigned long long)b->addr, (unsigned long long)b->value,
					b->fail ? " fail" : "");
		}
	}
	CHECK_EQ(bad, 0);
	/* the file holds 9592 Instruction rows: 16 + 28 of them are gaps */
	CHECK_EQ(ninsn + nnacc + nunk, 9592);
	CHECK_EQ(nnacc, 16);
	CHECK_EQ(nunk, 28);
	CHECK_EQ(pft_flow_decoder_get_stats(d, &st, sizeof(st)), 0);
	CHECK_EQ(st.bytes, 4533);
	CHECK_EQ(st.insns, ninsn);
	printf("TC2 0x13: %zu rows compared with DS-5 (%zu instructions, %zu not readable, "
	       "%zu unknown address), %zu differences\n", nds5, ninsn, nnacc, nunk, bad);
	pft_flow_decoder_free(d);
	pft_image_free(img);
	free(s);
	free(ds5);
	free(ours);
	return check_report();
}
