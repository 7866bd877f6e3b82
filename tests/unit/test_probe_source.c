/* SPDX-License-Identifier: BSD-3-Clause */
/* The probe inside the source layer (pft/source.h): a capture given with
 * no layout, trace ID or source name is probed when it can be read twice.
 *   - TC2's ETB bytes in memory and as a file: frames, trace ID 0x13, the
 *     registers CA + timestamps (ETMCR 0x10001000), the stream of 0x13
 *     (4533 bytes), pft_source_get_probe names 0x10-0x12 ETMv3;
 *   - with a trace ID or a format given: no probe;
 *   - from a pipe: no probe (the defaults: raw);
 *   - random bytes: no PFT stream, no probe report, the defaults. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pft/probe.h"
#include "pft/source.h"

static uint64_t drain(struct pft_source *s)
{
	struct pft_source_chunk c;
	uint64_t n = 0;

	while (pft_source_next(s, &c, sizeof c) == 0)
		n += c.len;
	return n;
}

static void check_tc2(struct pft_source *s)
{
	struct pft_source_info i;
	struct pft_config cfg;
	const struct pft_probe_report *rep = pft_source_get_probe(s);
	unsigned k, etm3 = 0;

	CHECK(rep != NULL);
	CHECK_EQ(pft_source_get_info(s, &i, sizeof i), 0);
	CHECK_EQ(i.format, PFT_FRAME_CORESIGHT);
	CHECK_EQ(i.trace_id, 0x13);
	CHECK_EQ(pft_source_get_config(s, &cfg), 0);
	CHECK_EQ(cfg.etmcr, 0x10001000u);
	CHECK_EQ(cfg.etmtraceidr & 0x7F, 0x13);
	CHECK_EQ(drain(s), 4533);
	for (k = 0; rep && k < rep->nstreams; k++)
		etm3 += rep->streams[k].protocol == PFT_PROBE_PROTO_ETM3;
	CHECK_EQ(etm3, 3);
}

int main(void)
{
	char path[4096], msg[1024];
	size_t n;
	uint8_t *tc2 = check_read_file(check_data_path(path, sizeof path, "TC2/cstrace.bin"), &n);
	struct pft_source_params p;
	struct pft_source_info i;
	struct pft_source *s;
	uint8_t rnd[4096];
	uint64_t st = check_seed(5);
	int fds[2];
	size_t k;

	CHECK(tc2 != NULL);
	if (!tc2)
		return check_report();
	pft_source_params_init(&p);

	CHECK_EQ(pft_source_open_memory(&s, tc2, n, &p, msg, sizeof msg), 0);
	check_tc2(s);
	pft_source_close(s);

	CHECK_EQ(pft_source_open(&s, check_data_path(path, sizeof path, "TC2/cstrace.bin"), &p, msg,
	                         sizeof msg), 0);
	check_tc2(s);
	pft_source_close(s);

	/* an ID given: no probe, the registers are the defaults */
	p.trace_id = 0x10;
	CHECK_EQ(pft_source_open_memory(&s, tc2, n, &p, msg, sizeof msg), 0);
	CHECK(pft_source_get_probe(s) == NULL);
	CHECK_EQ(drain(s), 10873);
	pft_source_close(s);
	p.trace_id = -1;
	p.format = PFT_FRAME_RAW;
	CHECK_EQ(pft_source_open_memory(&s, tc2, n, &p, msg, sizeof msg), 0);
	CHECK(pft_source_get_probe(s) == NULL);
	pft_source_close(s);
	p.format = PFT_SOURCE_FORMAT_AUTO;

	/* a pipe: read once, not probed */
	CHECK_EQ(pipe(fds), 0);
	CHECK_EQ(write(fds[1], tc2, 4096), 4096);
	close(fds[1]);
	CHECK_EQ(pft_source_open_fd(&s, fds[0], "pipe", &p, msg, sizeof msg), 0);
	CHECK(pft_source_get_probe(s) == NULL);
	CHECK_EQ(pft_source_get_info(s, &i, sizeof i), 0);
	CHECK_EQ(i.format, PFT_FRAME_RAW);
	pft_source_close(s);
	close(fds[0]);

	/* random bytes: no PFT, the defaults (raw) */
	for (k = 0; k < sizeof rnd; k++)
		rnd[k] = (uint8_t)check_rand(&st);
	CHECK_EQ(pft_source_open_memory(&s, rnd, sizeof rnd, &p, msg, sizeof msg), 0);
	CHECK(pft_source_get_probe(s) == NULL);
	CHECK_EQ(pft_source_get_info(s, &i, sizeof i), 0);
	CHECK_EQ(i.format, PFT_FRAME_RAW);
	pft_source_close(s);

	free(tc2);
	return check_report();
}
