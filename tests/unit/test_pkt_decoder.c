/* SPDX-License-Identifier: BSD-3-Clause */
/* Packet decoder: every packet vector (the text vectors of
 * tests/vectors/packet: real packets from four hardware captures and
 * synthetic ones; with file arguments, only those files) decodes to the
 * fields trc_pkt_lister gives for it, plus the raw cov stream of
 * trace_cov_a15 against its trc_pkt_lister listing.  Layouts:
 * doc/packets.md. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/frame.h"
#include "pkt_util.h"
#include "pkt_vec.h"

#define NA (-1)

/* One vector: A-sync, prefix, bytes decode to packets none of which is an
 * error, the last of them exactly the vector's bytes with its fields. */
static void check_vector(const struct pkt_vec *v)
{
	uint8_t buf[256];
	size_t n = pkt_vec_stream(v, 0, buf, sizeof(buf)), nb = v->nbytes;
	struct pft_packet out[64];
	const struct pft_packet *p;
	int k, i, failures = check_failures;
	char atoms[32];

	check_case("%s (%s)", v->name, v->where);
	k = pkt_decode_all(&v->cfg, buf, n, out, 64);
	CHECK(k > 0);
	if (k <= 0)
		return;
	for (i = 0; i < k; i++)
		CHECK(out[i].type != PFT_PKT_ERROR && out[i].type != PFT_PKT_UNSYNCED);
	p = &out[k - 1];
	CHECK_EQ(p->type, v->type);
	CHECK_EQ(p->size, nb);
	CHECK_EQ(p->nbytes, nb < PFT_PKT_MAX_BYTES ? nb : PFT_PKT_MAX_BYTES);
	CHECK(!memcmp(p->bytes, buf + n - nb, p->nbytes));
	if (v->address != PKT_VEC_NA)
		CHECK_EQ(p->address, (uint64_t)v->address);
	if (v->isa != PKT_VEC_NA)
		CHECK_EQ(p->isa, v->isa);
	if (v->exception != PKT_VEC_NA)
		CHECK_EQ(p->exception, v->exception);
	if (v->ns != PKT_VEC_NA)
		CHECK_EQ(!!(p->flags & PFT_PKT_F_NS), v->ns);
	if (v->hyp != PKT_VEC_NA)
		CHECK_EQ(!!(p->flags & PFT_PKT_F_HYP), v->hyp);
	if (v->cycles != PKT_VEC_NA) {
		CHECK(p->flags & PFT_PKT_F_CC);
		CHECK_EQ(p->cycles, (uint64_t)v->cycles);
	} else if (v->type == PFT_PKT_ISYNC) {
		CHECK(!(p->flags & PFT_PKT_F_CC));
	}
	if (v->atoms[0])
		CHECK(!strcmp(pkt_atoms(p, atoms), v->atoms));
	if (v->timestamp != PKT_VEC_NA)
		CHECK_EQ(p->timestamp, (uint64_t)v->timestamp);
	if (v->context_id != PKT_VEC_NA)
		CHECK_EQ(p->context_id, (uint64_t)v->context_id);
	if (v->reason != PKT_VEC_NA)
		CHECK_EQ(p->reason, v->reason);
	if (v->vmid != PKT_VEC_NA)
		CHECK_EQ(p->vmid, v->vmid);
	if (check_failures != failures) {
		fprintf(stderr, "  decoded: ");
		pkt_print(stderr, p);
	}
}

/* trace_cov_a15/PTM_0_2.bin, as listed by trc_pkt_lister (libopencsd 1.3.3). */
static void check_cov(void)
{
	static const struct {
		uint64_t off;
		int type;
		uint64_t addr;
		const char *atoms;
		int exc;
	} want[] = {
		{ 0, PFT_PKT_ASYNC, 0, NULL, 0 },
		{ 6, PFT_PKT_ISYNC, 0x80000558, NULL, 0 },
		{ 12, PFT_PKT_ATOM, 0, "E", 0 },
		{ 13, PFT_PKT_BRANCH, 0, NULL, PFT_EXC_DEBUG_HALT },
		{ 19, PFT_PKT_ISYNC, 0x80000504, NULL, 0 },
		{ 25, PFT_PKT_ATOM, 0, "ENEEE", 0 },
		{ 26, PFT_PKT_ATOM, 0, "ENEEN", 0 },
		{ 27, PFT_PKT_ATOM, 0, "NEEEN", 0 },
		{ 28, PFT_PKT_ATOM, 0, "NNE", 0 },
		{ 29, PFT_PKT_BRANCH, 0x8000055C, NULL, 0 },
		{ 30, PFT_PKT_BRANCH, 0, NULL, PFT_EXC_DEBUG_HALT },
	};
	struct pft_config c = pkt_cfg(C_RSTK);
	char path[512], atoms[32];
	size_t len;
	uint8_t *buf = check_read_file(check_data_path(path, sizeof(path),
							 "trace_cov_a15/PTM_0_2.bin"), &len);
	struct pft_packet out[32];
	int k, i;

	CHECK(buf != NULL);
	if (!buf)
		return;
	CHECK_EQ(len, 36);
	k = pkt_decode_all(&c, buf, len, out, 32);
	CHECK_EQ(k, 11);
	for (i = 0; i < k && i < 11; i++) {
		CHECK_EQ(out[i].offset, want[i].off);
		CHECK_EQ(out[i].type, want[i].type);
		if (want[i].type == PFT_PKT_ISYNC || want[i].type == PFT_PKT_BRANCH) {
			CHECK_EQ(out[i].address, want[i].addr);
			CHECK_EQ(out[i].isa, PFT_ISA_ARM);
		}
		if (want[i].type == PFT_PKT_BRANCH)
			CHECK_EQ(out[i].exception, want[i].exc);
		if (want[i].atoms)
			CHECK(!strcmp(pkt_atoms(&out[i], atoms), want[i].atoms));
	}
	free(buf);
}

/* A branch or WPU before any I-sync has no base ISA: it is reported with
 * PFT_ISA_UNKNOWN (the bytes are laid out as for ARM). */
static void check_unknown_base(void)
{
	struct pft_config c = pkt_cfg(C_S4);
	uint8_t buf[32];
	struct pft_packet out[8];
	size_t n = pkt_hex("00 00 00 00 00 80 2f 72 79 08 00 10 00 80 01 2f", buf, sizeof(buf));
	int k = pkt_decode_all(&c, buf, n, out, 8);

	CHECK_EQ(k, 5);
	if (k != 5)
		return;
	CHECK_EQ(out[1].type, PFT_PKT_BRANCH);
	CHECK_EQ(out[1].isa, PFT_ISA_UNKNOWN);
	CHECK_EQ(out[1].address, 0x5C);
	CHECK_EQ(out[2].type, PFT_PKT_WAYPOINT_UPDATE);
	CHECK_EQ(out[2].isa, PFT_ISA_UNKNOWN);
	CHECK_EQ(out[4].isa, PFT_ISA_ARM);
	CHECK_EQ(out[4].address, 0x8000105C);
}

/* TC2 trace ID 0x13 (de-formatted by the frame layer): packet counts per
 * type as listed by trc_pkt_lister (pkt_proc_logs/trc_pkt_lister_0x13.ppl),
 * and known values at given stream offsets (timestamps, cycle counts,
 * addresses, as trc_pkt_lister and DS-5 print them). */
static void check_tc2(void)
{
	static const struct {
		uint64_t s;
		int type;
		uint64_t value; /* address or timestamp */
		int64_t cycles;
	} spots[] = {
		{ 121, PFT_PKT_ASYNC, 0, NA },
		{ 127, PFT_PKT_ISYNC, 0xC0018D82, NA },
		{ 133, PFT_PKT_TIMESTAMP, 0x82F9D18BCCull, 0 },
		{ 149, PFT_PKT_ISYNC, 0xC0018DDE, 51 },
		{ 187, PFT_PKT_BRANCH, 0xC00185A2, 378 },
		{ 191, PFT_PKT_BRANCH, 0xC02F5B3A, 1 },
		{ 212, PFT_PKT_BRANCH, 0xC00546A8, 142 },
		{ 990, PFT_PKT_BRANCH, 0xC00083DA, 2 },
		{ 1503, PFT_PKT_BRANCH, 0xC02F5B4E, 68 },
		{ 1509, PFT_PKT_EXCEPTION_RETURN, 0, NA },
		{ 1510, PFT_PKT_TIMESTAMP, 0x82F9D18E80ull, 0 },
		{ 2574, PFT_PKT_ISYNC, 0xC003923C, 3701 },
		{ 2658, PFT_PKT_BRANCH, 0xB6EF6A1C, 397 },
		{ 4406, PFT_PKT_ASYNC, 0, NA },
		{ 4530, PFT_PKT_TIMESTAMP, 0x82F9D19948ull, 0 },
	};
	static struct pft_packet out[2000];
	struct pft_config c = pkt_cfg(C_TC2);
	char path[512];
	size_t len, i;
	uint8_t *cap = check_read_file(check_data_path(path, sizeof(path),
							 "TC2/cstrace.bin"), &len);
	uint8_t *s;
	int64_t sl;
	int k, j, count[PFT_PKT_NR_TYPES] = { 0 };

	CHECK(cap != NULL);
	if (!cap)
		return;
	s = malloc(len);
	sl = pft_frame_extract(PFT_FRAME_CORESIGHT, 0x13, cap, len, s, len, NULL);
	CHECK_EQ(sl, 4533);
	k = sl > 0 ? pkt_decode_all(&c, s, (size_t)sl, out, 2000) : -1;
	CHECK_EQ(k, 1790);
	for (j = 0; j < k; j++)
		count[out[j].type]++;
	CHECK_EQ(out[0].type, PFT_PKT_UNSYNCED);
	CHECK_EQ(out[0].size, 121);
	CHECK_EQ(count[PFT_PKT_UNSYNCED], 1);
	CHECK_EQ(count[PFT_PKT_ERROR], 0);
	CHECK_EQ(count[PFT_PKT_ATOM], 1283);
	CHECK_EQ(count[PFT_PKT_BRANCH], 315);
	CHECK_EQ(count[PFT_PKT_ISYNC], 140);
	CHECK_EQ(count[PFT_PKT_TIMESTAMP], 42);
	CHECK_EQ(count[PFT_PKT_ASYNC], 5);
	CHECK_EQ(count[PFT_PKT_EXCEPTION_RETURN], 4);
	for (i = 0; i < sizeof(spots) / sizeof(spots[0]); i++) {
		const struct pft_packet *p = NULL;
		for (j = 0; j < k; j++)
			if (out[j].offset == spots[i].s)
				p = &out[j];
		CHECK(p != NULL);
		if (!p)
			continue;
		CHECK_EQ(p->type, spots[i].type);
		if (p->type == PFT_PKT_TIMESTAMP)
			CHECK_EQ(p->timestamp, spots[i].value);
		else if (p->type == PFT_PKT_ISYNC || p->type == PFT_PKT_BRANCH)
			CHECK_EQ(p->address, spots[i].value);
		if (spots[i].cycles != NA)
			CHECK_EQ(p->cycles, (uint64_t)spots[i].cycles);
	}
	free(s);
	free(cap);
}

int main(int argc, char **argv)
{
	size_t i, n;
	struct pkt_vec *v = pkt_vec_load(argv + 1, argc - 1, &n);

	for (i = 0; i < n; i++)
		check_vector(&v[i]);
	check_case(NULL);
	printf("%zu packet vectors\n", n);
	free(v);
	if (argc > 1)
		return check_report();
	check_cov();
	check_unknown_base();
	check_tc2();
	return check_report();
}
