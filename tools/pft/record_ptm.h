/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: the software PTM side: register configuration from the
 * command line or a snapshot device ini, feeding the PTM, and writing the
 * snapshot folder. */
#ifndef PFT_RECORD_PTM_H
#define PFT_RECORD_PTM_H

#include <getopt.h>
#include <stdio.h>

#include "input.h"
#include "pft/record.h"

#define RECORD_PTM_MAX_REGS 64
#define RECORD_PTM_MAX_RANGES 8

struct record_ptm_opts {
	struct input_opts io;      /* --etmXX, --cycle-accurate ..., --format raw|frames */
	const char *regs_ini;      /* --regs DEVICE.ini */
	struct { char name[40]; uint32_t value; } regs[RECORD_PTM_MAX_REGS]; /* --reg */
	unsigned nregs;
	struct { uint64_t lo, hi; } ranges[RECORD_PTM_MAX_RANGES]; /* --range */
	unsigned nranges;
	int exclude;               /* --exclude-range given */
	uint32_t fifo_bytes, drain_bytes, drain_cycles;
	int have_syncfr;
	uint32_t syncfr;
};

/* getopt_long codes of record's own PTM options. */
enum {
	RECORD_OPT_BASE = 0x2000,
	RECORD_OPT_REGS = RECORD_OPT_BASE,
	RECORD_OPT_REG,
	RECORD_OPT_RANGE,
	RECORD_OPT_EXCLUDE_RANGE,
	RECORD_OPT_FIFO,
	RECORD_OPT_DRAIN,
	RECORD_OPT_SYNC_FREQ,
	RECORD_OPT_END
};
extern const struct option record_ptm_long_options[]; /* ends with { 0 } */

#define RECORD_PTM_OPTIONS_HELP                                                                  \
	"PTM registers (also: the PTM configuration options below):\n"                           \
	"  --regs DEVICE.ini     load the [regs] of a snapshot device ini (the flags\n"           \
	"                        given on the command line win)\n"                                \
	"  --reg NAME=VALUE      set one PTM register (ETMTECR1, ETMACVR1 ...); repeatable\n"     \
	"  --range LO-HI         trace only instruction blocks overlapping [LO, HI)\n"           \
	"                        (address range comparators + ETMTECR1); repeatable, up to 8\n"   \
	"  --exclude-range LO-HI do not trace blocks wholly inside [LO, HI); repeatable\n"        \
	"  --sync-freq N         ETMSYNCFR: periodic sync every N bytes of trace\n"              \
	"  --fifo BYTES          trace FIFO size (default: never overflows)\n"                   \
	"  --drain BYTES/CYCLES  FIFO drain rate (default 16/1)\n"

void record_ptm_opts_init(struct record_ptm_opts *o);
/* 1 = ours and valid, 0 = not ours, -1 = bad value (message printed). */
int record_ptm_option(struct record_ptm_opts *o, int opt, const char *arg, const char *cmd);

struct record_ptm;

/* Create the PTM from the options; PFT_EXIT_OK or PFT_EXIT_USAGE (message
 * printed). */
int record_ptm_open(struct record_ptm **out, const struct record_ptm_opts *o,
                    uint64_t cpu_freq, uint64_t ts_freq, const char *cmd);
/* The consumer the pipeline feeds. */
void record_ptm_consumer(struct record_ptm *rp, struct pft_rec_consumer *c);
/* Flush the PTM and write the snapshot folder (memory dumps of the ELF
 * images).  0 or -PFT_E_*; msg says what. */
int record_ptm_write(struct record_ptm *rp, const char *dir,
                     const struct pft_rec_elf *const *elfs, unsigned nelf, char *msg, size_t cap);
/* The executable segments of the programs, as a snapshot's memory (at most
 * cap): their number. */
size_t record_exec_mem(const struct pft_rec_elf *const *elfs, unsigned nelf,
		       struct pft_snapshot_mem *mem, size_t cap);
void record_ptm_summary(const struct record_ptm *rp, FILE *f);
void record_ptm_free(struct record_ptm *rp);

#endif
