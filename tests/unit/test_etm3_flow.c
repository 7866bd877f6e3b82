/* SPDX-License-Identifier: BSD-3-Clause */
/* The ETMv3 instruction flow against ARM DS-5's decode of the same trace:
 * TC2 (data/TC2) trace IDs 0x10, 0x11, 0x12, three Cortex-A7 ETMv3.5
 * sources, cycle-accurate.  DS-5's rows (data/TC2/ds5-dumps/etmv3_0xNN.txt)
 * are compared one by one with the flow's ranges (one instruction each):
 * address, cycle count and condition-fail mark; the instruction count must
 * be equal too. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/etm3flow.h"
#include "pft/frame.h"
#include "pft/image.h"
#include "pft/etm3.h"

struct row {
	uint32_t addr, cycles;
	int fail;
};

/* DS-5's other rows: 'c' Cycle Count (value), 'o' Tracing enabled, 'r'
 * Return from exception, 't' Timestamp (value); at = instruction rows
 * before it. */
struct ev {
	char kind;
	uint64_t value, at;
};

struct evs {
	struct ev v[1024];
	size_t n;
};

static void ev_add(struct evs *e, char kind, uint64_t value, uint64_t at)
{
	if (e->n < 1024)
		e->v[e->n++] = (struct ev){ kind, value, at };
}

static size_t ds5_rows(const char *path, struct row **out, struct evs *ev)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t n = 0, cap = 0;
	struct row *v = NULL;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		char *fld[8] = { 0 }, *p = line;
		int k = 0;
		if (!strncmp(line, "Cycle Count\t", 12))
			ev_add(ev, 'c', strtoull(line + 15, NULL, 10), n);
		else if (strstr(line, "\tTracing enabled"))
			ev_add(ev, 'o', 0, n);
		else if (strstr(line, "\tReturn from exception"))
			ev_add(ev, 'r', 0, n);
		else if (!strncmp(line, "Timestamp\t", 10) && strstr(line, "Timestamp: "))
			ev_add(ev, 't', strtoull(strstr(line, "Timestamp: ") + 11, NULL, 10), n);
		if (strncmp(line, "Instruction\t", 12))
			continue;
		while (k < 8 && p) {
			fld[k++] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (k < 7 || (strncmp(fld[2], "S:0x", 4) && strncmp(fld[2], "N:0x", 4)))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				exit(2);
		}
		v[n].addr = (uint32_t)strtoul(fld[2] + 4, NULL, 16);
		v[n].cycles = (uint32_t)strtoul(fld[4], NULL, 10);
		v[n].fail = k >= 8 && !strncmp(fld[7], "fail", 4);
		n++;
	}
	fclose(f);
	*out = v;
	return n;
}

/* A packet in a caller's longer struct (a newer pft/etm3.h): the stride
 * differs from sizeof(struct pft_etm3_packet). */
struct wide_packet {
	struct pft_etm3_packet p;
	uint8_t more[24];
};

/* mode 0: pft_etm3_flow_decoder_put_packet on each packet; 1:
 * pft_etm3_flow_decoder_put_packets on batches of 64; 2: the same with the
 * stride of a longer struct; 3: pft_etm3_flow_decoder_put_from (P-headers
 * read in place) on the stream in one chunk; 4: the same in chunks of 1 to
 * 40 bytes (packets cut by a chunk's end). */
static void check_id(const uint8_t *cap, size_t caplen, struct pft_image *img, unsigned id,
		     size_t min_rows, int mode)
{
	static struct pft_etm3_packet pk[64];
	static struct wide_packet wk[64];
	int np = 0, ip = 0;
	char path[1024], name[64];
	struct row *ds5 = NULL;
	size_t nds5, nmine = 0, bad = 0;
	uint8_t *stream = malloc(caplen);
	int64_t slen;
	struct pft_config cfg;
	struct pft_etm3_decoder *d;
	struct pft_etm3_flow_decoder *fl;
	struct pft_etm3_packet p;
	struct pft_flow_item it;
	uint64_t events[PFT_EV_NR] = { 0 };
	static struct evs dev, mev;
	size_t i, evbad = 0, ranges = 0, fpos = 0;
	uint32_t k, sum, seed = 0x1234567u + id;
	struct pft_flow_stats st;

	snprintf(name, sizeof name, "TC2/ds5-dumps/etmv3_0x%02x.txt", id);
	dev.n = mev.n = 0;
	nds5 = ds5_rows(check_data_path(path, sizeof path, name), &ds5, &dev);
	CHECK(nds5 >= min_rows);
	slen = pft_frame_extract(PFT_FRAME_CORESIGHT, (uint8_t)id, cap, caplen, stream, caplen, NULL);
	CHECK(slen > 0);
	pft_config_init(&cfg);
	cfg.etmcr = 0x10001860u;
	cfg.etmidr = 0x410CF250u;
	cfg.etmccer = 0x344008F2u;
	cfg.etmtraceidr = id;
	d = pft_etm3_decoder_alloc(&cfg);
	fl = pft_etm3_flow_decoder_alloc(&cfg, img);
	CHECK(d && fl);
	if (!d || !fl || slen <= 0)
		return;
	if (mode == 4) {
		fpos = 0;
	} else {
		pft_etm3_decoder_feed(d, stream, (size_t)slen);
		pft_etm3_decoder_end(d);
	}
	for (;;) {
		int more;

		if (mode >= 3) {
			int r = pft_etm3_flow_decoder_put_from(fl, d);

			if (r == -PFT_E_AGAIN) {
				size_t n;

				seed = seed * 1103515245u + 12345u;
				n = 1 + (seed >> 16) % 40;
				if (mode == 4 && fpos < (size_t)slen) {
					if (n > (size_t)slen - fpos)
						n = (size_t)slen - fpos;
					CHECK_EQ(pft_etm3_decoder_feed(d, stream + fpos, n), 0);
					fpos += n;
				} else {
					CHECK_EQ(pft_etm3_decoder_end(d), 0);
				}
				continue;
			}
			CHECK(r == 0 || r == -PFT_E_EOS);
			if (r != 0 && r != -PFT_E_EOS)
				break;
			more = r == 0;
		} else if (mode == 0) {
			more = pft_etm3_decoder_next(d, &p, sizeof p) == 0;
			if (more)
				CHECK_EQ(pft_etm3_flow_decoder_put_packet(fl, &p), 0);
		} else {
			if (ip == np) {
				np = mode == 1 ? pft_etm3_decoder_next_batch(d, pk, 64, sizeof pk[0]) :
						 pft_etm3_decoder_next_batch(d, &wk[0].p, 64, sizeof wk[0]);
				ip = 0;
				if (np < 0)
					np = 0;
			}
			more = np > 0;
			if (more) {
				int took = mode == 1 ? pft_etm3_flow_decoder_put_packets(fl, &pk[ip], (size_t)(np - ip),
										    sizeof pk[0]) :
					pft_etm3_flow_decoder_put_packets(fl, &wk[ip].p, (size_t)(np - ip),
									  sizeof wk[0]);
				CHECK(took > 0 && took <= np - ip);
				if (took <= 0)
					break;
				ip += took;
			}
		}
		if (!more)
			pft_etm3_flow_decoder_end(fl);
		while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0) {
			if (it.kind != PFT_FLOW_RANGE) {
				events[it.type]++;
				if (it.type == PFT_EV_TRACE_ON && it.reason != PFT_ISYNC_PERIODIC) {
					ev_add(&mev, 'c', it.cycles, it.index);
					ev_add(&mev, 'o', 0, it.index);
				} else if (it.type == PFT_EV_EXCEPTION_RETURN) {
					ev_add(&mev, 'r', 0, it.index);
				} else if (it.type == PFT_EV_TIMESTAMP && events[PFT_EV_TRACE_ON]) {
					/* DS-5 lists no timestamp before the first I-sync */
					ev_add(&mev, 't', it.value, it.index);
				}
				continue;
			}
			CHECK(it.insn_cycles != NULL);
			CHECK(it.ninsns >= 1);
			if (!it.insn_cycles)
				continue;
			ranges++;
			for (k = 0, sum = 0; k < it.ninsns; k++) {
				/* only the last instruction of a range can be N */
				int fail = k + 1 == it.ninsns && it.end_kind == PFT_RANGE_NOT_TAKEN;
				uint32_t a = (uint32_t)it.insns[k].addr, c = it.insn_cycles[k];

				sum += c;
				if (nmine < nds5 && (ds5[nmine].addr != a || ds5[nmine].cycles != c ||
						     ds5[nmine].fail != fail)) {
					if (bad++ < 5)
						fprintf(stderr, "0x%02x row %zu: DS-5 %08x cycles %u%s, pft %08x cycles %u%s (offset %llu)\n",
							id, nmine, ds5[nmine].addr, ds5[nmine].cycles,
							ds5[nmine].fail ? " fail" : "", a, c, fail ? " fail" : "",
							(unsigned long long)it.offset);
				}
				nmine++;
			}
			CHECK_EQ(sum, it.cycles);
			CHECK_EQ(it.addr, it.insns[0].addr);
			CHECK_EQ(it.end, it.insns[it.ninsns - 1].addr + it.insns[it.ninsns - 1].size);
		}
		if (!more)
			break;
	}
	printf("trace ID 0x%02x (mode %d): DS-5 %zu instructions, pft %zu in %zu ranges, %zu differ; events: trace_on %llu, "
	       "no_address %llu, mem_nacc %llu, exception_return %llu, timestamp %llu\n",
	       id, mode, nds5, nmine, ranges, bad, (unsigned long long)events[PFT_EV_TRACE_ON],
	       (unsigned long long)events[PFT_EV_NO_ADDRESS], (unsigned long long)events[PFT_EV_MEM_NACC],
	       (unsigned long long)events[PFT_EV_EXCEPTION_RETURN],
	       (unsigned long long)events[PFT_EV_TIMESTAMP]);
	for (i = 0; i < dev.n && i < mev.n; i++) {
		if (dev.v[i].kind != mev.v[i].kind || dev.v[i].value != mev.v[i].value ||
		    dev.v[i].at != mev.v[i].at) {
			if (evbad++ < 5)
				fprintf(stderr, "0x%02x event %zu: DS-5 %c %llu after %llu instructions, pft %c %llu after %llu\n",
					id, i, dev.v[i].kind, (unsigned long long)dev.v[i].value,
					(unsigned long long)dev.v[i].at, mev.v[i].kind,
					(unsigned long long)mev.v[i].value, (unsigned long long)mev.v[i].at);
		}
	}
	CHECK_EQ(pft_etm3_flow_decoder_get_stats(fl, &st, sizeof st), 0);
	CHECK_EQ(st.insns, nmine);
	CHECK_EQ(st.ranges, ranges);
	for (i = 0; i < PFT_EV_NR; i++)
		CHECK_EQ(st.events[i], events[i]);
	CHECK_EQ(st.bytes, (uint64_t)slen);
	printf("trace ID 0x%02x: DS-5 %zu events (trace on with its cycle count, exception return, "
	       "timestamp), pft %zu, %zu differ\n", id, dev.n, mev.n, evbad);
	CHECK_EQ(nmine, nds5);
	CHECK_EQ(bad, 0);
	CHECK_EQ(dev.n, mev.n);
	CHECK_EQ(evbad, 0);
	pft_etm3_flow_decoder_free(fl);
	pft_etm3_decoder_free(d);
	free(stream);
	free(ds5);
}

/* An exception that cancels the last traced instruction: that instruction
 * is not output and is the exception's return address; without the cancel
 * bit it stays.  ARM NOPs at 0..0x2000, non-cycle-accurate.  Variant 0: no
 * cancel, one range of two instructions; 1: cancel, the range loses its
 * last instruction; 2: cancel, a timestamp between the two atoms makes the
 * cancelled instruction a range of its own, which goes. */
static void test_cancel(void)
{
	static uint8_t nops[0x2000];
	struct pft_config cfg;
	struct pft_image *img = pft_image_alloc();
	int v;
	size_t i;

	for (i = 0; i < sizeof nops; i += 4) {
		nops[i] = 0x00; nops[i + 1] = 0xF0; nops[i + 2] = 0x20; nops[i + 3] = 0xE3;
	}
	pft_image_add_buffer(img, 0, nops, sizeof nops);
	pft_config_init(&cfg);
	cfg.etmidr = 0x410CF250u;
	cfg.etmcr = 0;
	for (v = 0; v < 3; v++) {
		struct pft_etm3_encoder *e = pft_etm3_encoder_alloc(&cfg);
		struct pft_etm3_decoder *d = pft_etm3_decoder_alloc(&cfg);
		struct pft_etm3_flow_decoder *fl = pft_etm3_flow_decoder_alloc(&cfg, img);
		struct pft_etm3_packet pk[8], p;
		struct pft_flow_item it;
		uint8_t buf[64];
		size_t n = 0;
		uint64_t ranges[8], ends[8], exc_next = 0, exc = 0, insns = 0;
		uint32_t nins[8];
		unsigned nr = 0, k, np = 0;

		memset(pk, 0, sizeof pk);
		pk[np++].type = PFT_ETM3_ASYNC;
		pk[np].type = PFT_ETM3_ISYNC;
		pk[np].address = 0x1000;
		pk[np].isa = PFT_ISA_ARM;
		pk[np++].reason = 1;
		pk[np].type = PFT_ETM3_PHDR; /* E E, or E (timestamp) E */
		pk[np].format = 1;
		pk[np].atom_count = v == 2 ? 1 : 2;
		pk[np++].atoms = v == 2 ? 1 : 3;
		if (v == 2) {
			pk[np].type = PFT_ETM3_TIMESTAMP;
			pk[np++].timestamp = 5;
			pk[np].type = PFT_ETM3_PHDR;
			pk[np].format = 1;
			pk[np].atom_count = 1;
			pk[np++].atoms = 1;
		}
		pk[np].type = PFT_ETM3_BRANCH; /* IRQ to 0x18 */
		pk[np].address = 0x18;
		pk[np].isa = PFT_ISA_ARM;
		pk[np].flags = PFT_E3F_EXC | (v ? PFT_E3F_CANCEL : 0);
		pk[np++].exception = 14;
		pk[np].type = PFT_ETM3_PHDR; /* E */
		pk[np].format = 1;
		pk[np].atom_count = 1;
		pk[np++].atoms = 1;
		for (k = 0; k < np; k++)
			n += (size_t)pft_etm3_encoder_encode(e, &pk[k], buf + n, sizeof buf - n);
		pft_etm3_decoder_feed(d, buf, n);
		pft_etm3_decoder_end(d);
		for (;;) {
			int more = pft_etm3_decoder_next(d, &p, sizeof p) == 0;
			if (more)
				CHECK_EQ(pft_etm3_flow_decoder_put_packet(fl, &p), 0);
			else
				CHECK_EQ(pft_etm3_flow_decoder_end(fl), 0);
			while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0) {
				if (it.kind == PFT_FLOW_RANGE && nr < 8) {
					CHECK_EQ(it.index, insns);
					insns += it.ninsns;
					ends[nr] = it.end;
					nins[nr] = it.ninsns;
					ranges[nr++] = it.addr;
				}
				if (it.kind == PFT_FLOW_EVENT && it.type == PFT_EV_EXCEPTION) {
					exc = it.value;
					exc_next = it.next;
				}
			}
			if (!more)
				break;
		}
		CHECK_EQ(pft_etm3_flow_decoder_next(fl, &it, sizeof it), -PFT_E_EOS);
		CHECK_EQ(exc, 14);
		CHECK_EQ(nr, 2);
		CHECK_EQ(ranges[0], 0x1000);
		CHECK_EQ(ranges[1], 0x18);
		CHECK_EQ(nins[1], 1);
		if (v) {
			CHECK_EQ(nins[0], 1);
			CHECK_EQ(ends[0], 0x1004);
			CHECK_EQ(exc_next, 0x1004); /* the cancelled instruction */
		} else {
			CHECK_EQ(nins[0], 2);
			CHECK_EQ(ends[0], 0x1008);
			CHECK_EQ(exc_next, 0x1008);
		}
		pft_etm3_flow_decoder_free(fl);
		pft_etm3_decoder_free(d);
		pft_etm3_encoder_free(e);
	}
	pft_image_free(img);
}

/* Ranges queued while the blocks they point into are replaced in the
 * cache: 1 MiB of ARM code where every word is a B to a pseudo-random word,
 * P-headers of 15 E atoms (15 one-instruction ranges queued per packet):
 * 150,000 branches around a loop of 16 blocks in one set of the cache,
 * then 150,000 through far more blocks than the cache holds.  Every range
 * must still show its own instruction and go where it says. */
static void test_evict(void)
{
	enum { BASE = 0x100000, WORDS = 1 << 18 };
	uint32_t *code = malloc(WORDS * 4), x = 12345, cur = BASE, bad = 0, loop[16];
	struct pft_image *img = pft_image_alloc();
	struct pft_etm3_flow_decoder *fl;
	struct pft_etm3_packet pk;
	struct pft_flow_item it;
	struct pft_config cfg;
	unsigned i, n, ranges = 0;

	CHECK(code && img);
	if (!code || !img)
		return;
	for (i = 0; i < WORDS; i++) {
		uint32_t a = BASE + 4 * i, t;

		x = x * 1103515245u + 12345u;
		t = BASE + 4 * ((x >> 8) % WORDS);
		code[i] = 0xEA000000u | (((t - a - 8) >> 2) & 0xFFFFFFu);
	}
	/* and a loop through 16 blocks that share a set of the cache (its hash,
	 * as lookup() in etm3_flow.c has it): each packet's ranges then point
	 * into blocks that the next lookups replace */
	for (i = 0, n = 0; i < WORDS && n < 16; i++) {
		uint32_t a = BASE + 4 * i;

		if ((((a >> 1) * 2654435761u) >> 20) == (((BASE >> 1) * 2654435761u) >> 20))
			loop[n++] = a;
	}
	CHECK_EQ(n, 16);
	for (i = 0; i < n; i++) {
		uint32_t a = loop[i], t = loop[(i + 1) % n];

		code[(a - BASE) / 4] = 0xEA000000u | (((t - a - 8) >> 2) & 0xFFFFFFu);
	}
	pft_image_add_buffer(img, BASE, (const uint8_t *)code, WORDS * 4);
	pft_config_init(&cfg);
	cfg.etmidr = 0x410CF250u;
	cfg.etmcr = 0;
	fl = pft_etm3_flow_decoder_alloc(&cfg, img);
	CHECK(fl != NULL);
	if (!fl)
		return;
	memset(&pk, 0, sizeof pk);
	pk.type = PFT_ETM3_ISYNC;
	pk.address = BASE;
	pk.isa = PFT_ISA_ARM;
	pk.reason = 1;
	CHECK_EQ(pft_etm3_flow_decoder_put_packet(fl, &pk), 0);
	while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0)
		CHECK_EQ(it.type, PFT_EV_TRACE_ON);
	for (i = 0; i <= 20000; i++) {
		if (i == 10000) {
			/* out of the loop: trace on again at a word of the random part */
			memset(&pk, 0, sizeof pk);
			pk.type = PFT_ETM3_ISYNC;
			pk.address = BASE + 4;
			pk.isa = PFT_ISA_ARM;
			pk.reason = 1;
			CHECK_EQ(pft_etm3_flow_decoder_put_packet(fl, &pk), 0);
			while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0)
				if (it.kind == PFT_FLOW_RANGE) {
					ranges++;
					cur = (uint32_t)it.next;
				}
			cur = BASE + 4;
		}
		if (i < 20000) {
			memset(&pk, 0, sizeof pk);
			pk.type = PFT_ETM3_PHDR;
			pk.offset = i;
			pk.format = 1;
			pk.atom_count = 15;
			pk.atoms = 0x7FFF;
			CHECK_EQ(pft_etm3_flow_decoder_put_packet(fl, &pk), 0);
		} else {
			pft_etm3_flow_decoder_end(fl);
		}
		while (pft_etm3_flow_decoder_next(fl, &it, sizeof it) == 0) {
			uint32_t w;

			if (it.kind != PFT_FLOW_RANGE)
				continue;
			ranges++;
			w = code[(it.addr - BASE) / 4];
			if (it.addr != cur || it.ninsns != 1 || it.insns[0].addr != it.addr ||
			    it.insns[0].opcode != w || it.end_kind != PFT_RANGE_TAKEN ||
			    it.next != (uint32_t)(it.addr + 8 + (uint32_t)(((int32_t)(w << 8)) >> 6))) {
				if (bad++ < 3)
					fprintf(stderr, "range %u at %08llx (expected %08x): opcode %08x, image %08x\n",
						ranges, (unsigned long long)it.addr, cur,
						(unsigned)it.insns[0].opcode, w);
			}
			cur = (uint32_t)it.next;
		}
	}
	CHECK_EQ(ranges, 300000);
	CHECK_EQ(bad, 0);
	pft_etm3_flow_decoder_free(fl);
	pft_image_free(img);
	free(code);
}

int main(void)
{
	char path[1024];
	size_t len = 0;
	int mode;
	uint8_t *cap = check_read_file(check_data_path(path, sizeof path, "TC2/cstrace.bin"), &len);
	struct pft_image *img = pft_image_alloc();

	CHECK(cap && img);
	if (!cap || !img)
		return check_report();
	CHECK(pft_image_add_file(img, check_data_path(path, sizeof path, "TC2/kernel_dump.bin"),
				 0xC0008000u, 0, 0) > 0);
	for (mode = 0; mode < 5; mode++) {
		check_id(cap, len, img, 0x10, 6000, mode);
		check_id(cap, len, img, 0x11, 6000, mode);
		check_id(cap, len, img, 0x12, 1000, mode);
	}
	test_cancel();
	test_evict();
	pft_image_free(img);
	free(cap);
	return check_report();
}
