/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record --protocol etm3: registers from the options, the record
 * part's ETMv3 sink (pft_rec_etm3, pft/record.h) and the snapshot folder
 * (pft_snapshot_write with an ETMv3 device). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pft/etm3.h"
#include "pft/etm3gen.h"
#include "pft/snapshot.h"
#include "record_etm3.h"
#include "record_ptm.h"

#define ETM3_DEFAULT_ETMIDR   0x410CF250u /* ETMv3.5 (Cortex-A7) */
#define ETM3_DEFAULT_ETMCCER  0x344008F2u
#define ETM3_DEFAULT_ID       0x10u
#define ETM3_DEFAULT_SYNCFR   0x400u

struct record_etm3 {
	struct pft_config cfg;
	struct pft_rec_etm3 *sink;
	int frames;
};

int record_etm3_open(struct record_etm3 **out, const struct record_ptm_opts *o,
                     uint64_t cpu_freq, uint64_t ts_freq, const char *cmd)
{
	struct record_etm3 *re;
	struct pft_config cfg;
	struct pft_etm3_features f;
	char why[200];
	int rc;

	*out = NULL;
	if (o->regs_ini || o->nregs || o->nranges || o->fifo_bytes || o->io.return_stack ||
	    o->io.vmid || o->io.pft_minor >= 0) {
		cli_error(cmd, "--protocol etm3: --regs, --reg, --range, --exclude-range, --fifo, "
		          "--return-stack, --vmid and --pft-version are PTM options");
		return PFT_EXIT_USAGE;
	}
	if (o->io.format >= 0 && o->io.format != PFT_FRAME_RAW && o->io.format != PFT_FRAME_CORESIGHT) {
		cli_error(cmd, "--format: a snapshot buffer is raw or frames");
		return PFT_EXIT_USAGE;
	}
	if (o->io.source) {
		cli_error(cmd, "--source names a trace source to read: not for recording");
		return PFT_EXIT_USAGE;
	}
	pft_config_init(&cfg);
	cfg.etmcr = 0;
	cfg.etmidr = ETM3_DEFAULT_ETMIDR;
	cfg.etmccer = ETM3_DEFAULT_ETMCCER;
	cfg.etmtraceidr = ETM3_DEFAULT_ID;
	cfg.etmsyncfr = ETM3_DEFAULT_SYNCFR;
	input_apply_options(&cfg, &o->io);
	if (o->have_syncfr)
		cfg.etmsyncfr = o->syncfr;
	if (pft_etm3_config_features(&cfg, &f, why, sizeof(why)) < 0) {
		cli_error(cmd, "bad ETMv3 registers: %s", why);
		return PFT_EXIT_USAGE;
	}
	if (f.data_only || f.data_value || f.data_address) {
		cli_error(cmd, "--protocol etm3: data trace (ETMCR[3:2], ETMCR[20]) is not generated");
		return PFT_EXIT_USAGE;
	}
	re = calloc(1, sizeof(*re));
	if (!re) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	re->cfg = cfg;
	re->frames = o->io.format != PFT_FRAME_RAW;
	rc = pft_rec_etm3_alloc(&re->sink, &cfg, re->frames, 1u << PFT_REC_EXC_DABT, cpu_freq, ts_freq);
	if (rc < 0) {
		cli_error(cmd, "cannot create the ETMv3: %s", pft_errstr(rc));
		free(re);
		return PFT_EXIT_USAGE;
	}
	*out = re;
	return PFT_EXIT_OK;
}

void record_etm3_consumer(struct record_etm3 *re, struct pft_rec_consumer *c)
{
	pft_rec_etm3_consumer(re->sink, c);
}

int record_etm3_write(struct record_etm3 *re, const char *dir,
                      const struct pft_rec_elf *const *elfs, unsigned nelf, char *msg, size_t cap)
{
	struct pft_snapshot_spec spec;
	struct pft_snapshot_mem mem[64];

	pft_snapshot_spec_init(&spec);
	spec.core_name = "cpu_0";
	spec.core_type = "Cortex-A7";
	spec.source_name = "ETM_0";
	spec.config = re->cfg;
	spec.mem = mem;
	spec.n_mem = record_exec_mem(elfs, nelf, mem, sizeof(mem) / sizeof(mem[0]));
	spec.trace = pft_rec_etm3_trace(re->sink, &spec.trace_len);
	spec.trace_format = re->frames ? PFT_FRAME_CORESIGHT : PFT_FRAME_RAW;
	return pft_snapshot_write(dir, &spec, msg, cap);
}

void record_etm3_summary(const struct record_etm3 *re, FILE *f)
{
	struct pft_etm3_gen_stats st;
	size_t len;

	memset(&st, 0, sizeof(st));
	(void)pft_rec_etm3_get_stats(re->sink, &st, sizeof(st));
	(void)pft_rec_etm3_trace(re->sink, &len);
	fprintf(f, "pft record: ETMv3: %llu instructions, %llu atoms, %llu packets, %llu bytes "
	        "(%zu in the buffer, %s); %llu I-syncs, %llu branch addresses, %llu exceptions "
	        "(%llu cancelling), %llu exception returns, %llu timestamps, %llu context IDs\n",
	        (unsigned long long)st.insns, (unsigned long long)st.atoms,
	        (unsigned long long)st.packets, (unsigned long long)st.bytes, len,
	        re->frames ? "CoreSight frames" : "raw", (unsigned long long)st.isyncs,
	        (unsigned long long)st.branches, (unsigned long long)st.exceptions,
	        (unsigned long long)st.cancels, (unsigned long long)st.exc_returns,
	        (unsigned long long)st.timestamps, (unsigned long long)st.context_ids);
}

void record_etm3_free(struct record_etm3 *re)
{
	if (!re)
		return;
	pft_rec_etm3_free(re->sink);
	free(re);
}
