/* SPDX-License-Identifier: BSD-3-Clause */
#include "tc2.h"

#include <stdlib.h>

#include "check.h"
#include "pft/frame.h"

uint8_t *tc2_stream(unsigned id, size_t *len)
{
	char path[1024];
	size_t n = 0;
	uint8_t *cap = check_read_file(check_data_path(path, sizeof path, "TC2/cstrace.bin"), &n);
	uint8_t *s = cap ? malloc(n) : NULL;
	int64_t r = s ? pft_frame_extract(PFT_FRAME_CORESIGHT, (uint8_t)id, cap, n, s, n, NULL) : -1;

	free(cap);
	CHECK(r > 0);
	if (r <= 0) {
		free(s);
		return NULL;
	}
	*len = (size_t)r;
	return s;
}

struct pft_config tc2_ptm_config(void)
{
	struct pft_config c;

	pft_config_init(&c);
	c.etmcr = 0x10001000u;
	c.etmidr = 0x411CF312u;
	c.etmccer = 0x34C01AC2u;
	c.etmtraceidr = 0x13u;
	return c;
}

int tc2_add_kernel(struct pft_image *img)
{
	char path[1024];
	int64_t r = pft_image_add_file(img, check_data_path(path, sizeof path, "TC2/kernel_dump.bin"),
				       0xC0008000u, 0, 0x50000);

	CHECK_EQ(r, 0x50000);
	return r == 0x50000 ? 0 : -1;
}
