/* SPDX-License-Identifier: BSD-3-Clause */
/* Oracle: the ISA classifier against ARM DS-5's decode of real trace
 * (data/TC2/ds5-dumps/ptmv1_0x13.txt: a Thumb-2 Linux kernel on a
 * Cortex-A15).  For every executed instruction DS-5 lists the opcode, its
 * disassembly, whether it is a branch and whether it failed its condition.
 * Checked here, row by row:
 *   - size (DS-5 prints 16-bit opcodes as 4 hex digits),
 *   - branch or not (DS-5 "Branch" column) = our DIRECT/INDIRECT,
 *   - the direct target DS-5 prints after ';',
 *   - link = BL/BLX, barriers = ISB/DMB/DSB (and CP15 c7 MCR forms),
 *   - the flow: when the next row is also an instruction, a nonbranch or a
 *     failed branch falls through to address + size, and a taken direct
 *     branch lands on our target. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pft/isa.h"

#define MAXF 8

static int split(char *line, char **f)
{
	int n = 0;
	f[n++] = line;
	for (char *p = line; *p && n < MAXF; p++)
		if (*p == '\t') {
			*p = 0;
			f[n++] = p + 1;
		}
	return n;
}

struct row {
	int valid;
	uint64_t addr;
	uint32_t op;
	int branch, fail;
	struct pft_insn_info in;
};

int main(void)
{
	char path[512];
	size_t len, i;
	uint8_t *buf = check_read_file(check_data_path(path, sizeof path,
	                               "TC2/ds5-dumps/ptmv1_0x13.txt"), &len);
	char *p, *next;
	struct row prev = { 0 };
	unsigned long rows = 0, branches = 0, directs = 0, flow_checked = 0, it_seen = 0;
	unsigned long mism_size = 0, mism_branch = 0, mism_target = 0, mism_link = 0;
	unsigned long mism_barrier = 0, mism_flow = 0;

	CHECK(buf != NULL);
	if (!buf)
		return check_report();
	buf = realloc(buf, len + 1);
	buf[len] = 0;

	for (p = (char *)buf; p && *p; p = next) {
		char *f[MAXF];
		int n;
		struct row r = { 0 };
		uint8_t b[4];
		char mnem[16];
		const char *semi;

		next = strchr(p, '\n');
		if (next)
			*next++ = 0;
		n = split(p, f);
		if (n < 7 || strcmp(f[0], "Instruction") != 0 || strncmp(f[3], "0x?", 3) == 0 ||
		    strchr(f[2], '?')) {
			prev.valid = 0; /* anything between two rows breaks the flow check */
			continue;
		}
		r.valid = 1;
		r.addr = strtoull(f[2] + 2, NULL, 16);
		r.op = (uint32_t)strtoul(f[3], NULL, 16);
		r.branch = strcmp(f[6], "true") == 0;
		r.fail = n > 7 && strcmp(f[7], "fail") == 0;
		sscanf(f[5], "%15s", mnem);
		rows++;

		if (strlen(f[3]) <= 6) { /* 0xXXXX: 16-bit */
			b[0] = (uint8_t)r.op; b[1] = (uint8_t)(r.op >> 8);
			CHECK_EQ(pft_isa_decode(PFT_ISA_THUMB, r.addr, b, 2, 0, &r.in), 0);
			if (r.in.size != 2)
				mism_size++;
		} else {
			b[0] = (uint8_t)(r.op >> 16); b[1] = (uint8_t)(r.op >> 24);
			b[2] = (uint8_t)r.op; b[3] = (uint8_t)(r.op >> 8);
			CHECK_EQ(pft_isa_decode(PFT_ISA_THUMB, r.addr, b, 4, 0, &r.in), 0);
			if (r.in.size != 4)
				mism_size++;
		}
		if (r.in.flags & PFT_INSN_F_IT)
			it_seen++;

		{
			int ours = r.in.wp_class == PFT_WP_DIRECT || r.in.wp_class == PFT_WP_INDIRECT;
			if (ours != r.branch) {
				mism_branch++;
				fprintf(stderr, "branch: %s %08x %s: ours %s, DS-5 %s\n", f[2], (unsigned)r.op,
				        f[5], pft_wp_class_name((enum pft_wp_class)r.in.wp_class), f[6]);
			}
			branches += r.branch;
		}
		semi = strstr(f[5], "; 0x");
		if (r.in.wp_class == PFT_WP_DIRECT) {
			directs++;
			if (!semi || strtoull(semi + 2, NULL, 16) != r.in.target) {
				mism_target++;
				fprintf(stderr, "target: %s %08x %s: ours %llx\n", f[2], (unsigned)r.op, f[5],
				        (unsigned long long)r.in.target);
			}
		}
		{
			int link = !strcmp(mnem, "BL") || !strcmp(mnem, "BLX");
			if (link != !!(r.in.flags & PFT_INSN_F_LINK)) {
				mism_link++;
				fprintf(stderr, "link: %s %08x %s\n", f[2], (unsigned)r.op, f[5]);
			}
		}
		{
			int want_isb = !strcmp(mnem, "ISB") ||
			               (!strcmp(mnem, "MCR") && strstr(f[5], "p15,#0x0,") && strstr(f[5], ",c7,c5,#4"));
			int want_bar = !strcmp(mnem, "DMB") || !strcmp(mnem, "DSB") ||
			               (!strcmp(mnem, "MCR") && strstr(f[5], "p15,#0x0,") &&
			                (strstr(f[5], ",c7,c10,#4") || strstr(f[5], ",c7,c10,#5")));
			if (want_isb != (r.in.wp_class == PFT_WP_ISB) ||
			    want_bar != (r.in.wp_class == PFT_WP_BARRIER)) {
				mism_barrier++;
				fprintf(stderr, "barrier: %s %08x %s: ours %s\n", f[2], (unsigned)r.op, f[5],
				        pft_wp_class_name((enum pft_wp_class)r.in.wp_class));
			}
		}
		if (prev.valid) {
			uint64_t want = 0;
			int known = 1;
			if (prev.in.wp_class == PFT_WP_DIRECT && !prev.fail)
				want = prev.in.target;
			else if (prev.in.wp_class == PFT_WP_INDIRECT && !prev.fail)
				known = 0;
			else
				want = prev.addr + prev.in.size;
			if (known) {
				flow_checked++;
				if (want != r.addr) {
					mism_flow++;
					fprintf(stderr, "flow: after %llx %08x (%s) came %llx, expected %llx\n",
					        (unsigned long long)prev.addr, (unsigned)prev.op,
					        pft_wp_class_name((enum pft_wp_class)prev.in.wp_class),
					        (unsigned long long)r.addr, (unsigned long long)want);
				}
			}
		}
		prev = r;
	}
	(void)i;
	printf("DS-5 rows %lu: %lu branches (%lu direct here), %lu IT, %lu flow steps checked\n",
	       rows, branches, directs, it_seen, flow_checked);
	printf("mismatches: size %lu, branch %lu, target %lu, link %lu, barrier %lu, flow %lu\n",
	       mism_size, mism_branch, mism_target, mism_link, mism_barrier, mism_flow);
	CHECK(rows > 9000);
	CHECK(flow_checked > 8000);
	CHECK_EQ(mism_size, 0);
	CHECK_EQ(mism_branch, 0);
	CHECK_EQ(mism_target, 0);
	CHECK_EQ(mism_link, 0);
	CHECK_EQ(mism_barrier, 0);
	CHECK_EQ(mism_flow, 0);
	free(buf);
	return check_report();
}
