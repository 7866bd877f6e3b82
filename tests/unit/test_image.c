/* SPDX-License-Identifier: BSD-3-Clause */
/* Program image: buffers, overlap (last added wins), holes, files with
 * offset/length (as snapshot [dump] sections give them), ELF PT_LOAD
 * segments with a load offset, the read callback, and the snapshot image of
 * TC2 compared byte for byte with the dump file. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "pft/image.h"

static void test_buffers(void)
{
	struct pft_image *img = pft_image_alloc();
	uint8_t a[16], b[8], out[32];
	int i;

	for (i = 0; i < 16; i++)
		a[i] = (uint8_t)i;
	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(0xB0 + i);
	CHECK_EQ(pft_image_add_buffer(img, 0x1000, a, sizeof(a)), 0);
	CHECK_EQ(pft_image_read(img, 0x1004, out, 4), 4);
	CHECK_EQ(out[0], 4);
	CHECK_EQ(out[3], 7);
	/* hole before and after */
	CHECK_EQ(pft_image_read(img, 0xFFF, out, 4), -PFT_E_NOMAP);
	CHECK_EQ(pft_image_read(img, 0x1010, out, 4), -PFT_E_NOMAP);
	/* partial read at the end */
	CHECK_EQ(pft_image_read(img, 0x100E, out, 4), 2);
	CHECK_EQ(out[1], 15);
	/* overlap in the middle: the newer region wins, the older shows around it */
	CHECK_EQ(pft_image_add_buffer(img, 0x1004, b, 4), 0);
	CHECK_EQ(pft_image_read(img, 0x1000, out, 16), 16);
	CHECK_EQ(out[3], 3);
	CHECK_EQ(out[4], 0xB0);
	CHECK_EQ(out[7], 0xB3);
	CHECK_EQ(out[8], 8);
	CHECK_EQ(out[15], 15);
	/* adjacent region: a read spans both */
	CHECK_EQ(pft_image_add_buffer(img, 0x1010, b, 8), 0);
	CHECK_EQ(pft_image_read(img, 0x100C, out, 12), 12);
	CHECK_EQ(out[3], 15);
	CHECK_EQ(out[4], 0xB0);
	CHECK_EQ(out[11], 0xB7);
	CHECK_EQ(pft_image_region_count(img), 3);
	/* bad arguments */
	CHECK_EQ(pft_image_add_buffer(img, 0x2000, NULL, 4), -PFT_E_INVAL);
	CHECK_EQ(pft_image_add_buffer(img, UINT64_MAX - 2, a, 8), -PFT_E_INVAL);
	CHECK_EQ(pft_image_add_buffer(img, UINT64_MAX - 7, a, 8), 0);
	CHECK_EQ(pft_image_read(img, UINT64_MAX - 1, out, 4), 2);
	pft_image_free(img);
}

static int cb_calls;
static int read_cb(void *arg, uint64_t addr, uint8_t *buf, size_t len)
{
	size_t i;

	(void)arg;
	cb_calls++;
	if (addr < 0x8000 || addr >= 0x9000)
		return -1;
	for (i = 0; i < len && addr + i < 0x9000; i++)
		buf[i] = (uint8_t)(addr + i);
	return (int)i;
}

static void test_callback(void)
{
	struct pft_image *img = pft_image_alloc();
	uint8_t buf[4] = { 0xAA, 0xAA, 0xAA, 0xAA }, out[8];
	uint64_t g0;

	g0 = pft_image_generation(img);
	CHECK_EQ(pft_image_set_callback(img, read_cb, NULL), 0);
	CHECK(pft_image_generation(img) != g0);
	CHECK_EQ(pft_image_add_buffer(img, 0x8002, buf, 4), 0);
	/* callback, buffer, callback in one read */
	CHECK_EQ(pft_image_read(img, 0x8000, out, 8), 8);
	CHECK_EQ(out[0], 0x00);
	CHECK_EQ(out[1], 0x01);
	CHECK_EQ(out[2], 0xAA);
	CHECK_EQ(out[5], 0xAA);
	CHECK_EQ(out[6], 0x06);
	CHECK_EQ(out[7], 0x07);
	/* callback memory ends */
	CHECK_EQ(pft_image_read(img, 0x8FFE, out, 4), 2);
	CHECK_EQ(pft_image_read(img, 0x9000, out, 4), -PFT_E_NOMAP);
	CHECK(cb_calls > 0);
	pft_image_free(img);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* A minimal ELF32 LE ARM executable: two PT_LOAD segments and a PT_NOTE. */
static size_t make_elf(uint8_t *f)
{
	uint8_t *ph;

	memset(f, 0, 0x200);
	memcpy(f, "\177ELF", 4);
	f[4] = 1; /* ELFCLASS32 */
	f[5] = 1; /* little endian */
	f[6] = 1;
	put16(f + 16, 2);    /* ET_EXEC */
	put16(f + 18, 40);   /* EM_ARM */
	put32(f + 20, 1);
	put32(f + 24, 0x8000);
	put32(f + 28, 52);   /* e_phoff */
	put16(f + 40, 52);   /* e_ehsize */
	put16(f + 42, 32);   /* e_phentsize */
	put16(f + 44, 3);    /* e_phnum */
	ph = f + 52;
	/* PT_LOAD: file 0x100..0x110 -> 0x8000, memsz larger (bss) */
	put32(ph + 0, 1); put32(ph + 4, 0x100); put32(ph + 8, 0x8000); put32(ph + 12, 0x8000);
	put32(ph + 16, 0x10); put32(ph + 20, 0x40); put32(ph + 24, 5); put32(ph + 28, 4);
	ph += 32;
	/* PT_NOTE: not loaded */
	put32(ph + 0, 4); put32(ph + 4, 0x110); put32(ph + 8, 0x5000); put32(ph + 16, 8);
	ph += 32;
	/* PT_LOAD: file 0x180..0x188 -> 0x20000 */
	put32(ph + 0, 1); put32(ph + 4, 0x180); put32(ph + 8, 0x20000); put32(ph + 12, 0x20000);
	put32(ph + 16, 8); put32(ph + 20, 8); put32(ph + 24, 6); put32(ph + 28, 4);
	for (int i = 0; i < 0x10; i++)
		f[0x100 + i] = (uint8_t)(0x10 + i);
	for (int i = 0; i < 8; i++)
		f[0x180 + i] = (uint8_t)(0x80 + i);
	return 0x200;
}

static void test_files(void)
{
	char path[] = "/tmp/pft_test_image_XXXXXX";
	uint8_t f[0x200], out[16];
	struct pft_image *img;
	FILE *fp;
	size_t n = make_elf(f);
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	fp = fdopen(fd, "wb");
	CHECK_EQ(fwrite(f, 1, n, fp), n);
	fclose(fp);

	img = pft_image_alloc();
	CHECK_EQ(pft_image_add_elf(img, path, 0), 2);
	CHECK_EQ(pft_image_read(img, 0x8000, out, 16), 16);
	CHECK_EQ(out[0], 0x10);
	CHECK_EQ(out[15], 0x1F);
	/* only p_filesz bytes are mapped */
	CHECK_EQ(pft_image_read(img, 0x8010, out, 4), -PFT_E_NOMAP);
	CHECK_EQ(pft_image_read(img, 0x5000, out, 4), -PFT_E_NOMAP);
	CHECK_EQ(pft_image_read(img, 0x20004, out, 8), 4);
	CHECK_EQ(out[0], 0x84);
	pft_image_free(img);

	/* load offset */
	img = pft_image_alloc();
	CHECK_EQ(pft_image_add_elf(img, path, 0x100000), 2);
	CHECK_EQ(pft_image_read(img, 0x108000, out, 1), 1);
	CHECK_EQ(out[0], 0x10);
	CHECK_EQ(pft_image_read(img, 0x8000, out, 1), -PFT_E_NOMAP);
	/* raw file part, as a [dump] section with offset and length */
	CHECK_EQ(pft_image_add_file(img, path, 0x40000, 0x180, 4), 4);
	CHECK_EQ(pft_image_read(img, 0x40000, out, 8), 4);
	CHECK_EQ(out[3], 0x83);
	CHECK_EQ(pft_image_add_file(img, path, 0x50000, 0x1F0, 0), 0x10);
	CHECK_EQ(pft_image_add_file(img, path, 0x50000, 0x200, 0), -PFT_E_FORMAT);
	CHECK_EQ(pft_image_add_file(img, path, 0x50000, 0x1F0, 0x11), -PFT_E_FORMAT);
	CHECK_EQ(pft_image_add_file(img, "/nonexistent/file", 0, 0, 0), -PFT_E_IO);
	/* not an ELF */
	f[1] = 'X';
	fp = fopen(path, "wb");
	fwrite(f, 1, n, fp);
	fclose(fp);
	CHECK_EQ(pft_image_add_elf(img, path, 0), -PFT_E_FORMAT);
	pft_image_free(img);
	remove(path);
}

/* The TC2 kernel dump as cpu_3.ini maps it, against the file itself. */
static void test_tc2(void)
{
	char path[512];
	size_t len;
	uint8_t *raw, out[256];
	struct pft_image *img = pft_image_alloc();

	check_data_path(path, sizeof(path), "TC2/kernel_dump.bin");
	raw = check_read_file(path, &len);
	CHECK(raw != NULL);
	if (!raw)
		return;
	CHECK_EQ(pft_image_add_file(img, path, 0xC0008000u, 0, 0x50000), 0x50000);
	CHECK_EQ(pft_image_read(img, 0xC0018D82u, out, 256), 256);
	CHECK(memcmp(out, raw + (0xC0018D82u - 0xC0008000u), 256) == 0);
	/* 0xC0018D82: ADD.W r3,r2,r5,LSL #2 = EB02 0385 (DS-5 dump, row 0) */
	CHECK_EQ(out[0] | out[1] << 8, 0xEB02);
	CHECK_EQ(out[2] | out[3] << 8, 0x0385);
	CHECK_EQ(pft_image_read(img, 0xC0058000u, out, 4), -PFT_E_NOMAP);
	free(raw);
	pft_image_free(img);
}

/* Random overlapping buffers against a byte-per-address model where the
 * buffer added last wins: the segment map (built by a sweep) agrees. */
static void test_overlap_model(void)
{
	static uint8_t bufs[40][64], model[1024];
	static int16_t who[1024];
	uint32_t x = 12345;
	int round;

	for (round = 0; round < 50; round++) {
		struct pft_image *img = pft_image_alloc();
		int k, a, ok = 1;

		memset(who, 0xFF, sizeof who);
		for (k = 0; k < 40; k++) {
			unsigned addr, len, j;

			x = x * 1103515245u + 12345u;
			addr = (x >> 8) % 960;
			len = 1 + (x >> 20) % 64;
			for (j = 0; j < 64; j++)
				bufs[k][j] = (uint8_t)(k * 7 + j);
			CHECK_EQ(pft_image_add_buffer(img, addr, bufs[k], len), 0);
			for (j = 0; j < len; j++) {
				who[addr + j] = (int16_t)k;
				model[addr + j] = bufs[k][j];
			}
			if (k % 9 == 0) { /* reads between adds rebuild the map */
				uint8_t b;

				(void)pft_image_read(img, addr, &b, 1);
			}
		}
		for (a = 0; a < 1024; a++) {
			uint8_t b;
			int r = pft_image_read(img, (uint64_t)a, &b, 1);

			if (who[a] < 0 ? r != -PFT_E_NOMAP : (r != 1 || b != model[a]))
				ok = 0;
		}
		CHECK(ok);
		pft_image_free(img);
	}
}

/* 60,000 regions (a snapshot with that many [dump] sections) map in well
 * under a second: the map is built once, in n log n. */
static void test_many_regions(void)
{
	static uint8_t buf[16];
	struct pft_image *img = pft_image_alloc();
	clock_t t0 = clock();
	uint8_t out[4];
	double secs;
	int i;

	buf[3] = 0x5A;
	for (i = 0; i < 60000; i++) /* in reverse address order, some overlapping */
		CHECK_EQ(pft_image_add_buffer(img, 0x10000000u - (uint64_t)i * 12, buf, 16), 0);
	CHECK_EQ(pft_image_read(img, 0x10000000u - 12 * 59999 + 3, out, 1), 1);
	CHECK_EQ(out[0], 0x5A);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	printf("60000 regions: %.3f s\n", secs);
	CHECK(secs < 0.5);
	pft_image_free(img);
}

/* A directory or a device is no image file: an I/O error that says why,
 * not a huge allocation. */
static void test_not_regular(void)
{
	struct pft_image *img = pft_image_alloc();

	errno = 0;
	CHECK_EQ(pft_image_add_file(img, "/tmp", 0, 0, 0), -PFT_E_IO);
	CHECK_EQ(errno, EISDIR);
	CHECK_EQ(pft_image_add_file(img, "/dev/null", 0, 0, 0), -PFT_E_IO);
	CHECK_EQ(pft_image_region_count(img), 0);
	pft_image_free(img);
}

int main(void)
{
	test_overlap_model();
	test_many_regions();
	test_not_regular();
	test_buffers();
	test_callback();
	test_files();
	test_tc2();
	return check_report();
}
