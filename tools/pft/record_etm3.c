/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record --protocol etm3: registers from the options, the record
 * part's ETMv3 sink (pft_rec_etm3, pft/record.h) and the snapshot folder
 * (pft_snapshot_write with an ETMv3 device). */
#include <errno.h>
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
	struct pft_rec_consumer inner;  /* the sink's consumer */
	int frames;
	int data;                       /* ETMCR[3:2] != 0 */
	FILE *dlog;                     /* --data-log */
	const char *dlog_path;
	int dlog_err;
	uint64_t accesses;              /* data transfers the emulator gave */
	uint64_t insns;                 /* instructions seen */
};

/* --data-log: one line per data transfer of a retired instruction, in the
 * emulator's order: "INDEX INSN_ADDR R|W SIZE ADDRESS VALUE", INDEX the
 * instruction's (decimal, from 0: its line among the instruction lines of
 * --log), the rest hex (an instruction whose condition failed has none). */
static int dlog_insn(void *ctx, const struct pft_rec_full *f)
{
	struct record_etm3 *re = ctx;
	unsigned i, n = f->in.naccess < PFT_REC_MAX_ACCESS ? f->in.naccess : PFT_REC_MAX_ACCESS;

	re->accesses += f->in.naccess;
	for (i = 0; re->dlog && i < n; i++) {
		const struct pft_rec_access *a = &f->in.access[i];

		if (fprintf(re->dlog, "%llu %08llx %c %u %08x %0*llx\n",
		            (unsigned long long)re->insns, (unsigned long long)f->in.addr,
		            a->write ? 'W' : 'R', a->size, a->addr, 2 * a->size,
		            (unsigned long long)a->value) < 0 && !re->dlog_err)
			re->dlog_err = errno ? errno : EIO;
	}
	re->insns++;
	return re->inner.insn(re->inner.ctx, f);
}

static int dlog_exc(void *ctx, const struct pft_rec_exc *x, uint64_t cycle)
{
	struct record_etm3 *re = ctx;

	return re->inner.exception(re->inner.ctx, x, cycle);
}

static int dlog_end(void *ctx, uint64_t cycle)
{
	struct record_etm3 *re = ctx;

	return re->inner.end(re->inner.ctx, cycle);
}

int record_etm3_open(struct record_etm3 **out, const struct record_ptm_opts *o,
                     uint64_t cpu_freq, uint64_t ts_freq, unsigned data_bits,
                     const char *data_log, const char *cmd)
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
	cfg.etmcr |= data_bits & (PFT_ETM3_ETMCR_DATA_VALUE | PFT_ETM3_ETMCR_DATA_ADDRESS);
	if (o->have_syncfr)
		cfg.etmsyncfr = o->syncfr;
	if (pft_etm3_config_features(&cfg, &f, why, sizeof(why)) < 0) {
		cli_error(cmd, "bad ETMv3 registers: %s", why);
		return PFT_EXIT_USAGE;
	}
	if (f.data_only) {
		cli_error(cmd, "--protocol etm3: data-only mode (ETMCR[20]) is not generated");
		return PFT_EXIT_USAGE;
	}
	re = calloc(1, sizeof(*re));
	if (!re) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	re->cfg = cfg;
	re->frames = o->io.format != PFT_FRAME_RAW;
	re->data = f.data_value || f.data_address;
	if (data_log) {
		re->dlog_path = data_log;
		re->dlog = cli_open_output(cmd, data_log);
		if (!re->dlog) {
			free(re);
			return PFT_EXIT_USAGE;
		}
	}
	rc = pft_rec_etm3_alloc(&re->sink, &cfg, re->frames, 1u << PFT_REC_EXC_DABT, cpu_freq, ts_freq);
	if (rc < 0) {
		cli_error(cmd, "cannot create the ETMv3: %s", pft_errstr(rc));
		if (re->dlog && re->dlog != stdout)
			fclose(re->dlog);
		free(re);
		return PFT_EXIT_USAGE;
	}
	*out = re;
	return PFT_EXIT_OK;
}

void record_etm3_consumer(struct record_etm3 *re, struct pft_rec_consumer *c)
{
	pft_rec_etm3_consumer(re->sink, &re->inner);
	c->insn = dlog_insn;
	c->exception = dlog_exc;
	c->end = dlog_end;
	c->ctx = re;
}

int record_etm3_wants_accesses(const struct record_etm3 *re)
{
	return re->data || re->dlog;
}

int record_etm3_close_log(struct record_etm3 *re, const char *cmd)
{
	int err = re->dlog_err;

	if (re->dlog && re->dlog != stdout && fclose(re->dlog) != 0 && !err)
		err = errno ? errno : EIO;
	re->dlog = NULL;
	if (err) {
		cli_error(cmd, "%s: %s", re->dlog_path, strerror(err));
		return PFT_EXIT_USAGE;
	}
	return PFT_EXIT_OK;
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
	if (re->data || re->dlog)
		fprintf(f, "pft record: ETMv3 data: %llu transfers, %llu normal data packets "
		        "(%llu with an address), ETMCR[3:2] %s\n", (unsigned long long)re->accesses,
		        (unsigned long long)st.data, (unsigned long long)st.data_addresses,
		        re->data ? ((re->cfg.etmcr & 0xc) == 0xc ? "address and value" :
		                    (re->cfg.etmcr & 0x8) ? "address" : "value") : "off");
}

void record_etm3_free(struct record_etm3 *re)
{
	if (!re)
		return;
	if (re->dlog && re->dlog != stdout)
		fclose(re->dlog);
	pft_rec_etm3_free(re->sink);
	free(re);
}
