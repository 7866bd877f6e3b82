/* SPDX-License-Identifier: BSD-3-Clause */
/* Snapshot reader on the two real snapshot folders (values checked against
 * the ini files as shipped and data/README.md) and on broken
 * folders made here (every error names the file and line). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pft/snapshot.h"

/* The snapshot folder data/NAME opened (checked), or NULL after a message. */
static struct pft_snapshot *open_data(const char *name)
{
	char dir[1024], msg[600];
	struct pft_snapshot *sn = NULL;

	check_data_path(dir, sizeof dir, name);
	CHECK_EQ(pft_snapshot_open(dir, &sn, msg, sizeof msg), 0);
	if (!sn)
		fprintf(stderr, "%s\n", msg);
	return sn;
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = s ? strlen(s) : 0, b = strlen(tail);
	return s && a >= b && !strcmp(s + a - b, tail);
}

static void test_tc2(void)
{
	char msg[600];
	struct pft_snapshot *sn;
	struct pft_snapshot_source s;
	struct pft_snapshot_dump d;
	struct pft_snapshot_device dev;
	uint64_t v;
	int i;

	sn = open_data("TC2");
	if (!sn)
		return;
	CHECK_EQ(pft_snapshot_device_count(sn), 11);
	CHECK_EQ(pft_snapshot_source_count(sn), 6);
	CHECK(ends_with(pft_snapshot_ini_path(sn), "TC2/snapshot.ini"));
	CHECK(ends_with(pft_snapshot_trace_ini_path(sn), "TC2/trace.ini"));
	CHECK(pft_snapshot_ini_path(NULL) == NULL && pft_snapshot_trace_ini_path(NULL) == NULL);
	CHECK_EQ(pft_snapshot_device(sn, 3, &dev), 0);
	CHECK(strcmp(dev.name, "cpu_3") == 0 && strcmp(dev.dclass, "core") == 0 &&
	      strcmp(dev.type, "Cortex-A15") == 0 && ends_with(dev.ini, "/cpu_3.ini"));
	i = pft_snapshot_find_source(sn, "PTM_0");
	CHECK(i >= 0);
	CHECK_EQ(pft_snapshot_find_trace_id(sn, 0x13), i);
	CHECK_EQ(pft_snapshot_source(sn, (size_t)i, &s), 0);
	CHECK(strcmp(s.name, "PTM_0") == 0 && strcmp(s.type, "PTM1.1") == 0);
	CHECK(s.core && strcmp(s.core, "cpu_3") == 0);
	CHECK(s.buffer_name && strcmp(s.buffer_name, "ETB_0") == 0);
	CHECK(ends_with(s.buffer_file, "TC2/cstrace.bin"));
	CHECK(s.buffer_format && strcmp(s.buffer_format, "coresight") == 0);
	CHECK_EQ(pft_snapshot_buffer_format(s.buffer_format), PFT_FRAME_CORESIGHT);
	CHECK_EQ(s.is_ptm, 1);
	CHECK_EQ(s.trace_id, 0x13);
	CHECK_EQ(s.regs_present, PFT_SNAPSHOT_REG_ETMCR | PFT_SNAPSHOT_REG_ETMIDR |
				 PFT_SNAPSHOT_REG_ETMCCER | PFT_SNAPSHOT_REG_ETMTRACEIDR);
	CHECK_EQ(s.config.etmcr, 0x10001000);
	CHECK_EQ(s.config.etmidr, 0x411CF312);
	CHECK_EQ(s.config.etmccer, 0x34C01AC2);
	CHECK_EQ(s.config.etmtraceidr, 0x13);
	CHECK_EQ(s.config.size, sizeof(struct pft_config));
	CHECK_EQ(pft_config_check(&s.config, msg, sizeof msg), 0);

	/* An ETMv3.5 source is not a PTM. */
	CHECK_EQ(pft_snapshot_source(sn, (size_t)pft_snapshot_find_source(sn, "ETM_1"), &s), 0);
	CHECK_EQ(s.is_ptm, 0);
	CHECK_EQ(s.trace_id, 0x11);
	CHECK(s.core && strcmp(s.core, "cpu_1") == 0);
	CHECK_EQ(pft_snapshot_find_trace_id(sn, 0x42), -PFT_E_NOTFOUND);
	CHECK_EQ(pft_snapshot_find_source(sn, "PTM_9"), -PFT_E_NOTFOUND);
	CHECK_EQ(pft_snapshot_source(sn, 6, &s), -PFT_E_INVAL);

	CHECK_EQ(pft_snapshot_reg(sn, "PTM_0", "etmidr", &v), 0);
	CHECK_EQ(v, 0x411CF312);
	CHECK_EQ(pft_snapshot_reg(sn, "PTM_0", "0x079", &v), 0);
	CHECK_EQ(v, 0x411CF312);
	CHECK_EQ(pft_snapshot_reg(sn, "cpu_3", "CPSR", &v), 0);
	CHECK_EQ(v, 0x1D3);
	CHECK_EQ(pft_snapshot_reg(sn, "PTM_0", "ETMIDR2", &v), -PFT_E_NOTFOUND);
	CHECK_EQ(pft_snapshot_reg(sn, "nobody", "ETMCR", &v), -PFT_E_NOTFOUND);

	CHECK_EQ(pft_snapshot_dump_count(sn, "cpu_3"), 1);
	CHECK_EQ(pft_snapshot_dump(sn, "cpu_3", 0, &d), 0);
	CHECK(ends_with(d.path, "TC2/kernel_dump.bin"));
	CHECK_EQ(d.address, 0xC0008000);
	CHECK_EQ(d.length, 0x50000);
	CHECK_EQ(d.offset, 0);
	CHECK(d.space == NULL);
	CHECK_EQ(pft_snapshot_dump(sn, "cpu_3", 1, &d), -PFT_E_INVAL);
	CHECK_EQ(pft_snapshot_dump_count(sn, "PTM_0"), 0);
	pft_snapshot_close(sn);
}

static void test_cov(void)
{
	struct pft_snapshot *sn;
	struct pft_snapshot_source s;
	struct pft_snapshot_dump d;
	uint64_t v;
	int i;

	sn = open_data("trace_cov_a15");
	if (!sn)
		return;
	CHECK_EQ(pft_snapshot_device_count(sn), 6);
	CHECK_EQ(pft_snapshot_source_count(sn), 5);
	i = pft_snapshot_find_source(sn, "PTM_0_2");
	CHECK_EQ(pft_snapshot_find_trace_id(sn, 2), i);
	CHECK_EQ(pft_snapshot_source(sn, (size_t)i, &s), 0);
	CHECK_EQ(s.is_ptm, 1);
	CHECK(strcmp(s.type, "PFT1.1") == 0);
	CHECK(s.core && strcmp(s.core, "Cortex-A15_0") == 0);
	CHECK(ends_with(s.buffer_file, "trace_cov_a15/PTM_0_2.bin"));
	CHECK_EQ(pft_snapshot_buffer_format(s.buffer_format), PFT_FRAME_RAW);
	CHECK_EQ(s.config.etmcr, 0x20000400);
	CHECK_EQ(s.config.etmccr, 0x8D294004);
	CHECK_EQ(s.config.etmidr, 0x411CF312);
	CHECK_EQ(s.config.etmccer, 0x34C01AC2);
	CHECK_EQ(s.config.etmsyncfr, 0x400);
	CHECK_EQ(s.trace_id, 2);
	CHECK_EQ(s.regs_present, 0x3F);
	/* PTM_1_3 has no buffer of its own in [source_buffers]: the only buffer */
	CHECK_EQ(pft_snapshot_source(sn, (size_t)pft_snapshot_find_source(sn, "PTM_1_3"), &s), 0);
	CHECK(s.core && strcmp(s.core, "Cortex-A15_1") == 0);
	CHECK(s.buffer_name && strcmp(s.buffer_name, "PTM_0_2") == 0);

	/* (id:0x..) numbers and (size:64) registers */
	CHECK_EQ(pft_snapshot_reg(sn, "PTM_0_2", "0x7A", &v), 0);
	CHECK_EQ(v, 0x34C01AC2);
	CHECK_EQ(pft_snapshot_reg(sn, "Cortex-A15_0", "CNTPCT", &v), 0);
	CHECK_EQ(v, 0x0000042492EE776Dull);

	CHECK_EQ(pft_snapshot_dump_count(sn, "Cortex-A15_0"), 9);
	CHECK_EQ(pft_snapshot_dump(sn, "Cortex-A15_0", 1, &d), 0);
	CHECK(ends_with(d.path, "/mem_Cortex-A15_0_1_RO_CODE.bin"));
	CHECK_EQ(d.address, 0x80000278);
	CHECK_EQ(d.length, 0);
	CHECK(d.space && strcmp(d.space, "S") == 0);
	pft_snapshot_close(sn);
}

/* Broken folders. */
static char tmp[64];

static void put(const char *name, const char *text)
{
	check_write_in(tmp, name, text);
}

static int open_msg(char *msg, size_t cap)
{
	struct pft_snapshot *sn = NULL;
	int r = pft_snapshot_open(tmp, &sn, msg, cap);

	pft_snapshot_close(sn);
	if (r == 0)
		CHECK(sn != NULL);
	else
		CHECK(sn == NULL);
	return r;
}

static const char snap_ini[] =
	"[snapshot]\nversion=1.0\n[device_list]\ndevice0=core.ini\ndevice1=ptm.ini\n"
	"[trace]\nmetadata=trace.ini\n";
static const char core_ini[] = "[device]\nname=cpu_0\nclass=core\ntype=Cortex-A15\n";
static const char ptm_ini[] = "[device]\nname=PTM_0\nclass=trace_source\ntype=PTM1.1\n"
			      "[regs]\nETMCR(0x000)=0x1000\nETMTRACEIDR=0x13\n";
static const char trace_ini[] = "[trace_buffers]\nbuffers=buffer0\n[buffer0]\nname=B\n"
				"file=t.bin\nformat=source_data\n";

static void test_broken(void)
{
	char msg[600];

	strcpy(tmp, "/tmp/pft_snapXXXXXX");
	CHECK(mkdtemp(tmp) != NULL);

	CHECK_EQ(open_msg(msg, sizeof msg), -PFT_E_IO);
	CHECK(strstr(msg, "snapshot.ini") != NULL);
	put("snapshot.ini", "[snapshot]\nversion=1.0\n");
	CHECK_EQ(open_msg(msg, sizeof msg), -PFT_E_FORMAT);
	CHECK(strstr(msg, "device_list") != NULL);
	put("snapshot.ini", snap_ini);
	CHECK_EQ(open_msg(msg, sizeof msg), -PFT_E_IO);
	CHECK(strstr(msg, "snapshot.ini:4:") != NULL && strstr(msg, "core.ini") != NULL);
	put("core.ini", core_ini);
	put("ptm.ini", "[device]\nname=PTM_0\nclass=trace_source\n[regs]\nETMCR=banana\n");
	CHECK_EQ(open_msg(msg, sizeof msg), -PFT_E_FORMAT);
	CHECK(strstr(msg, "ptm.ini:5:") != NULL && strstr(msg, "banana") != NULL);
	put("ptm.ini", "[device]\nclass=trace_source\n");
	CHECK_EQ(open_msg(msg, sizeof msg), -PFT_E_FORMAT);
	CHECK(strstr(msg, "ptm.ini:1:") != NULL && strstr(msg, "name") != NULL);
	put("ptm.ini", "[regs]\nETMCR=1\n");
	CHECK_EQ(open_msg(msg, sizeof msg), -PFT_E_FORMAT);
	CHECK(strstr(msg, "[device]") != NULL);
	put("ptm.ini", "[device]\nname=cpu_0\n");
	CHECK_EQ(open_msg(msg, sizeof msg), -PFT_E_FORMAT);
	CHECK(strstr(msg, "twice") != NULL);
	put("ptm.ini", "[device]\nname=PTM_0\nclass=trace_source\n[dump]\naddress=0x10\n");
	CHECK_EQ(open_msg(msg, sizeof msg), -PFT_E_FORMAT);
	CHECK(strstr(msg, "ptm.ini:4:") != NULL);
	put("ptm.ini", ptm_ini);
	CHECK_EQ(open_msg(msg, sizeof msg), -PFT_E_IO);
	CHECK(strstr(msg, "trace.ini") != NULL);
	put("trace.ini", "[trace_buffers]\nbuffers=buffer0, buffer1\n[buffer0]\nfile=t.bin\n");
	CHECK_EQ(open_msg(msg, sizeof msg), -PFT_E_FORMAT);
	CHECK(strstr(msg, "trace.ini:2:") != NULL && strstr(msg, "buffer1") != NULL);
	put("trace.ini", "; no buffers\n");
	CHECK_EQ(open_msg(msg, sizeof msg), -PFT_E_FORMAT);
	CHECK(strstr(msg, "trace_buffers") != NULL);
	put("trace.ini", trace_ini);
	CHECK_EQ(open_msg(msg, sizeof msg), 0);
	{
		struct pft_snapshot *sn = NULL;
		struct pft_snapshot_source s;

		CHECK_EQ(pft_snapshot_open(tmp, &sn, NULL, 0), 0);
		CHECK_EQ(pft_snapshot_source(sn, 0, &s), 0);
		CHECK_EQ(s.config.etmcr, 0x1000);
		CHECK_EQ(s.config.etmidr, 0x411CF312); /* default */
		CHECK_EQ(s.regs_present, PFT_SNAPSHOT_REG_ETMCR | PFT_SNAPSHOT_REG_ETMTRACEIDR);
		CHECK(s.buffer_name && strcmp(s.buffer_name, "B") == 0); /* the only buffer */
		CHECK(s.core == NULL);
		CHECK(pft_snapshot_trace_ini_path(sn) != NULL);
		pft_snapshot_close(sn);
		/* no [trace] section: no trace metadata, no buffer */
		put("snapshot.ini", "[snapshot]\nversion=1.0\n[device_list]\ndevice0=core.ini\n"
		    "device1=ptm.ini\n");
		CHECK_EQ(pft_snapshot_open(tmp, &sn, NULL, 0), 0);
		CHECK(pft_snapshot_trace_ini_path(sn) == NULL);
		CHECK(pft_snapshot_ini_path(sn) != NULL &&
		      strstr(pft_snapshot_ini_path(sn), "snapshot.ini") != NULL);
		CHECK_EQ(pft_snapshot_source(sn, 0, &s), 0);
		CHECK(s.buffer_file == NULL);
		pft_snapshot_close(sn);
		put("snapshot.ini", snap_ini);
	}
	CHECK_EQ(pft_snapshot_open(NULL, NULL, msg, sizeof msg), -PFT_E_INVAL);
	CHECK_EQ(pft_snapshot_buffer_format("dstream_coresight"), -PFT_E_UNSUPPORTED);
	check_remove_dir(tmp);
}

int main(void)
{
	test_tc2();
	test_cov();
	test_broken();
	return check_report();
}
