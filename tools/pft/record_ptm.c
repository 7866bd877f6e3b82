/* SPDX-License-Identifier: BSD-3-Clause */
/* pft record: the software PTM side.
 *
 * Registers: pft_config from the shared input options (--etmcr ...,
 * --cycle-accurate ...), then --regs DEVICE.ini (a snapshot device's
 * [regs]) with the flags given on the command line applied again on top,
 * then --range/--exclude-range (address range comparators and ETMTECR1),
 * --sync-freq, and --reg NAME=VALUE last.
 *
 * Feeding: the PTM sink of the record part (pft_rec_ptm, pft/record.h).
 *
 * Output: the drained bytes, raw or in CoreSight frames (--format), are
 * kept in memory and written with pft_snapshot_write() beside memory dumps
 * of the ELF images' loadable segments; the registers set beyond the six
 * the writer records (all of them with --regs) are appended to the PTM
 * device ini's [regs]. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pft/isa.h"
#include "pft/ptm.h"
#include "pft/snapshot.h"
#include "record_ptm.h"

const struct option record_ptm_long_options[] = {
	{ "regs", required_argument, NULL, RECORD_OPT_REGS },
	{ "reg", required_argument, NULL, RECORD_OPT_REG },
	{ "range", required_argument, NULL, RECORD_OPT_RANGE },
	{ "exclude-range", required_argument, NULL, RECORD_OPT_EXCLUDE_RANGE },
	{ "fifo", required_argument, NULL, RECORD_OPT_FIFO },
	{ "drain", required_argument, NULL, RECORD_OPT_DRAIN },
	{ "sync-freq", required_argument, NULL, RECORD_OPT_SYNC_FREQ },
	{ NULL, 0, NULL, 0 }
};

void record_ptm_opts_init(struct record_ptm_opts *o)
{
	memset(o, 0, sizeof(*o));
	input_opts_init(&o->io);
	o->drain_bytes = 16;
	o->drain_cycles = 1;
}

static int parse_u32(const char *s, uint32_t *v)
{
	uint64_t x;

	if (pft_rec_parse_u64(s, &x) || x > 0xffffffffu)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static int parse_pair(const char *arg, char sep, uint64_t *a, uint64_t *b)
{
	char buf[64];
	const char *p = strchr(arg, sep);
	size_t n;

	if (!p || (n = (size_t)(p - arg)) == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, arg, n);
	buf[n] = 0;
	return pft_rec_parse_u64(buf, a) || pft_rec_parse_u64(p + 1, b) ? -1 : 0;
}

int record_ptm_option(struct record_ptm_opts *o, int opt, const char *arg, const char *cmd)
{
	uint64_t a, b;
	const char *eq;

	switch (opt) {
	case RECORD_OPT_REGS:
		o->regs_ini = arg;
		return 1;
	case RECORD_OPT_REG:
		eq = strchr(arg, '=');
		if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(o->regs[0].name) ||
		    o->nregs >= RECORD_PTM_MAX_REGS || parse_u32(eq + 1, &o->regs[o->nregs].value))
			break;
		memcpy(o->regs[o->nregs].name, arg, (size_t)(eq - arg));
		o->regs[o->nregs].name[eq - arg] = 0;
		if (pft_ptm_reg_lookup(o->regs[o->nregs].name) < 0) {
			cli_error(cmd, "--reg: no PTM register '%s'", o->regs[o->nregs].name);
			return -1;
		}
		o->nregs++;
		return 1;
	case RECORD_OPT_RANGE:
	case RECORD_OPT_EXCLUDE_RANGE:
		if (parse_pair(arg, '-', &a, &b) || a >= b || b > 0xffffffffu ||
		    o->nranges >= RECORD_PTM_MAX_RANGES)
			break;
		if (o->nranges && o->exclude != (opt == RECORD_OPT_EXCLUDE_RANGE)) {
			cli_error(cmd, "--range and --exclude-range cannot be mixed "
			          "(ETMTECR1 has one include/exclude bit)");
			return -1;
		}
		o->exclude = opt == RECORD_OPT_EXCLUDE_RANGE;
		o->ranges[o->nranges].lo = a;
		o->ranges[o->nranges].hi = b;
		o->nranges++;
		return 1;
	case RECORD_OPT_FIFO:
		if (parse_u32(arg, &o->fifo_bytes) || (o->fifo_bytes && o->fifo_bytes < 16))
			break;
		return 1;
	case RECORD_OPT_DRAIN:
		if (parse_pair(arg, '/', &a, &b) || !a || !b || a > 0xffff || b > 0xffff)
			break;
		o->drain_bytes = (uint32_t)a;
		o->drain_cycles = (uint32_t)b;
		return 1;
	case RECORD_OPT_SYNC_FREQ:
		if (parse_u32(arg, &o->syncfr) || o->syncfr > 0xfff)
			break;
		o->have_syncfr = 1;
		return 1;
	default:
		return input_parse_option(&o->io, opt, arg, cmd);
	}
	{
		const struct option *lo = record_ptm_long_options;

		while (lo->name && lo->val != opt)
			lo++;
		cli_error(cmd, "bad value '%s' for --%s (see --help)", arg, lo->name ? lo->name : "?");
	}
	return -1;
}


struct record_ptm {
	struct pft_ptm *ptm;    /* owned by sink once it exists */
	struct pft_rec_ptm *sink;
	int frames;
	int all_regs;           /* --regs: list every register in the device ini */
	struct { unsigned regno; uint32_t value; } extra[RECORD_PTM_MAX_REGS + 2 * RECORD_PTM_MAX_RANGES + 2];
	unsigned nextra;
	int err;
};

static int note_reg(struct record_ptm *rp, unsigned regno, uint32_t value)
{
	unsigned i;
	int rc = pft_ptm_set_reg(rp->ptm, regno, value);

	if (rc < 0)
		return rc;
	for (i = 0; i < rp->nextra; i++)
		if (rp->extra[i].regno == regno)
			break;
	if (i == rp->nextra) {
		if (rp->nextra >= sizeof(rp->extra) / sizeof(rp->extra[0]))
			return 0;
		rp->nextra++;
	}
	rp->extra[i].regno = regno;
	rp->extra[i].value = value;
	return 0;
}

static char *read_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t got;

		if (n + 4096 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);
			if (!nb || cap > (64u << 20)) {
				free(nb ? nb : buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

static int configure(struct record_ptm *rp, const struct record_ptm_opts *o, const char *cmd)
{
	const struct input_opts *io = &o->io;
	uint32_t v, tecr1 = 0;
	unsigned i;
	int rc;

	if (o->regs_ini) {
		size_t len;
		char *text = read_text(o->regs_ini, &len);

		if (!text) {
			cli_error(cmd, "--regs: cannot read '%s': %s", o->regs_ini, strerror(errno));
			return -1;
		}
		rc = pft_ptm_load_ini_regs(rp->ptm, text, len);
		free(text);
		if (rc < 0) {
			cli_error(cmd, "--regs %s: %s", o->regs_ini, pft_errstr(rc));
			return -1;
		}
		/* the command line wins over the ini */
		if (io->regs_given & PFT_SNAPSHOT_REG_ETMCCR)
			(void)note_reg(rp, PFT_PTM_ETMCCR, io->regs.etmccr);
		if (io->regs_given & PFT_SNAPSHOT_REG_ETMCCER)
			(void)note_reg(rp, PFT_PTM_ETMCCER, io->regs.etmccer);
		if (io->regs_given & PFT_SNAPSHOT_REG_ETMIDR)
			(void)note_reg(rp, PFT_PTM_ETMIDR, io->regs.etmidr);
		if (io->regs_given & PFT_SNAPSHOT_REG_ETMTRACEIDR)
			(void)note_reg(rp, PFT_PTM_ETMTRACEIDR, io->regs.etmtraceidr);
		if (io->regs_given & PFT_SNAPSHOT_REG_ETMSYNCFR)
			(void)note_reg(rp, PFT_PTM_ETMSYNCFR, io->regs.etmsyncfr);
		if (pft_ptm_get_reg(rp->ptm, PFT_PTM_ETMCR, &v) == 0 &&
		    input_apply_etmcr(io, v & ~PFT_ETMCR_PROGRAMMING) != (v & ~PFT_ETMCR_PROGRAMMING) &&
		    (rc = pft_ptm_set_reg(rp->ptm, PFT_PTM_ETMCR,
		                          input_apply_etmcr(io, v & ~PFT_ETMCR_PROGRAMMING) |
		                          PFT_ETMCR_PROGRAMMING)) < 0) {
			cli_error(cmd, "ETMCR: %s", pft_errstr(rc));
			return -1;
		}
	}
	for (i = 0; i < o->nranges; i++) {
		if ((rc = note_reg(rp, PFT_PTM_ETMACVR(2 * i + 1), (uint32_t)o->ranges[i].lo)) < 0 ||
		    (rc = note_reg(rp, PFT_PTM_ETMACVR(2 * i + 2), (uint32_t)o->ranges[i].hi)) < 0 ||
		    (rc = note_reg(rp, PFT_PTM_ETMACTR(2 * i + 1), 1)) < 0 ||
		    (rc = note_reg(rp, PFT_PTM_ETMACTR(2 * i + 2), 1)) < 0) {
			cli_error(cmd, "--range: %s (the PTM has fewer comparators?)", pft_errstr(rc));
			return -1;
		}
		tecr1 |= 1u << i;
	}
	if (o->nranges && (rc = note_reg(rp, PFT_PTM_ETMTECR1,
	                                 tecr1 | (o->exclude ? 1u << 24 : 0))) < 0) {
		cli_error(cmd, "ETMTECR1: %s", pft_errstr(rc));
		return -1;
	}
	if (o->have_syncfr && (rc = note_reg(rp, PFT_PTM_ETMSYNCFR, o->syncfr)) < 0) {
		cli_error(cmd, "--sync-freq: %s", pft_errstr(rc));
		return -1;
	}
	for (i = 0; i < o->nregs; i++) {
		int regno = pft_ptm_reg_lookup(o->regs[i].name);

		if (regno < 0 || (rc = note_reg(rp, (unsigned)regno, o->regs[i].value)) < 0) {
			cli_error(cmd, "--reg %s=0x%x: %s", o->regs[i].name, (unsigned)o->regs[i].value,
			          pft_errstr(regno < 0 ? regno : rc));
			return -1;
		}
	}
	/* start tracing (the Programming bit clears) if an ini left it set */
	if (pft_ptm_get_reg(rp->ptm, PFT_PTM_ETMCR, &v) == 0 && (v & PFT_ETMCR_PROGRAMMING) &&
	    (rc = pft_ptm_set_reg(rp->ptm, PFT_PTM_ETMCR, v & ~PFT_ETMCR_PROGRAMMING)) < 0) {
		cli_error(cmd, "ETMCR: %s", pft_errstr(rc));
		return -1;
	}
	return 0;
}

int record_ptm_open(struct record_ptm **out, const struct record_ptm_opts *o,
                    uint64_t cpu_freq, uint64_t ts_freq, const char *cmd)
{
	struct record_ptm *rp;
	struct pft_config cfg;
	struct pft_ptm_params params;

	*out = NULL;
	if (o->io.format >= 0 && o->io.format != PFT_FRAME_RAW && o->io.format != PFT_FRAME_CORESIGHT) {
		cli_error(cmd, "--format: a snapshot buffer is raw or frames");
		return PFT_EXIT_USAGE;
	}
	if (o->io.source) {
		cli_error(cmd, "--source names a trace source to read: not for recording");
		return PFT_EXIT_USAGE;
	}
	if (input_config(&o->io, &cfg, cmd) != PFT_EXIT_OK)
		return PFT_EXIT_USAGE;
	if (o->io.id >= 0) {
		char why[160];

		cfg.etmtraceidr = (uint32_t)o->io.id;
		if (pft_config_check(&cfg, why, sizeof(why)) < 0) {
			cli_error(cmd, "--id 0x%x: %s", (unsigned)o->io.id, why);
			return PFT_EXIT_USAGE;
		}
	}
	rp = calloc(1, sizeof(*rp));
	if (!rp) {
		cli_error(cmd, "out of memory");
		return PFT_EXIT_USAGE;
	}
	pft_ptm_params_init(&params);
	params.fifo_bytes = o->fifo_bytes;
	params.drain_bytes = o->drain_bytes;
	params.drain_cycles = o->drain_cycles;
	cfg.etmcr |= PFT_ETMCR_PROGRAMMING; /* programming: cleared once every register is set */
	rp->ptm = pft_ptm_alloc(&cfg, &params);
	if (!rp->ptm) {
		cli_error(cmd, "cannot create the PTM with these registers");
		free(rp);
		return PFT_EXIT_USAGE;
	}
	rp->frames = o->io.format != PFT_FRAME_RAW;
	rp->all_regs = o->regs_ini != NULL;
	if (configure(rp, o, cmd) < 0) {
		record_ptm_free(rp);
		return PFT_EXIT_USAGE;
	}
	if (pft_rec_ptm_alloc(&rp->sink, rp->ptm, rp->frames, cpu_freq, ts_freq) < 0) {
		cli_error(cmd, "out of memory");
		record_ptm_free(rp);
		return PFT_EXIT_USAGE;
	}
	*out = rp;
	return PFT_EXIT_OK;
}

void record_ptm_consumer(struct record_ptm *rp, struct pft_rec_consumer *c)
{
	pft_rec_ptm_consumer(rp->sink, c);
}

/* Registers beyond the six pft_snapshot_write records go into [regs] too. */
static int append_regs(const struct record_ptm *rp, const char *dir, const char *source,
                       char *msg, size_t cap)
{
	char path[4096];
	FILE *f;
	unsigned i;

	if (!rp->nextra && !rp->all_regs)
		return 0;
	snprintf(path, sizeof(path), "%s/%s.ini", dir, source);
	f = fopen(path, "a");
	if (!f) {
		snprintf(msg, cap, "cannot write %s: %s", path, strerror(errno));
		return -PFT_E_IO;
	}
	for (i = 0; i < (rp->all_regs ? (unsigned)PFT_PTM_NR_REGS : rp->nextra); i++) {
		unsigned r = rp->all_regs ? i : rp->extra[i].regno;
		const char *name = pft_ptm_reg_name(r);
		uint32_t v;

		if (r == PFT_PTM_ETMCR || r == PFT_PTM_ETMCCR || r == PFT_PTM_ETMSYNCFR ||
		    r == PFT_PTM_ETMIDR || r == PFT_PTM_ETMCCER || r == PFT_PTM_ETMTRACEIDR || !name)
			continue;
		if (pft_ptm_get_reg(rp->ptm, r, &v) < 0) {
			if (rp->all_regs)
				continue;
			v = rp->extra[i].value;
		}
		fprintf(f, "%s(0x%03X)=0x%08X\n", name, r, (unsigned)v);
	}
	if (fclose(f) != 0) {
		snprintf(msg, cap, "cannot write %s", path);
		return -PFT_E_IO;
	}
	return 0;
}

/* The executable segments of the programs, as a snapshot's memory. */
size_t record_exec_mem(const struct pft_rec_elf *const *elfs, unsigned nelf,
		       struct pft_snapshot_mem *mem, size_t cap)
{
	size_t i, j, n = 0;

	for (i = 0; i < nelf; i++)
		for (j = 0; j < elfs[i]->nseg && n < cap; j++) {
			const struct pft_rec_segment *s = &elfs[i]->seg[j];

			if (!s->filesz || !(s->flags & 1u /* PF_X */))
				continue;
			mem[n].address = s->vaddr;
			mem[n].data = s->data;
			mem[n].len = (size_t)s->filesz;
			n++;
		}
	return n;
}

int record_ptm_write(struct record_ptm *rp, const char *dir,
                     const struct pft_rec_elf *const *elfs, unsigned nelf, char *msg, size_t cap)
{
	struct pft_snapshot_spec spec;
	struct pft_snapshot_mem mem[64];
	uint32_t v;
	int rc;

	pft_snapshot_spec_init(&spec);
	spec.core_name = "cpu_0";
	spec.core_type = "Cortex-A15";
	spec.source_name = "PTM_0";
	pft_config_init(&spec.config);
	(void)pft_ptm_get_reg(rp->ptm, PFT_PTM_ETMCR, &spec.config.etmcr);
	(void)pft_ptm_get_reg(rp->ptm, PFT_PTM_ETMCCR, &spec.config.etmccr);
	(void)pft_ptm_get_reg(rp->ptm, PFT_PTM_ETMCCER, &spec.config.etmccer);
	(void)pft_ptm_get_reg(rp->ptm, PFT_PTM_ETMIDR, &spec.config.etmidr);
	(void)pft_ptm_get_reg(rp->ptm, PFT_PTM_ETMSYNCFR, &spec.config.etmsyncfr);
	if (pft_ptm_get_reg(rp->ptm, PFT_PTM_ETMTRACEIDR, &v) == 0)
		spec.config.etmtraceidr = v;
	spec.mem = mem;
	spec.n_mem = record_exec_mem(elfs, nelf, mem, sizeof(mem) / sizeof(mem[0]));
	spec.trace = pft_rec_ptm_trace(rp->sink, &spec.trace_len);
	spec.trace_format = rp->frames ? PFT_FRAME_CORESIGHT : PFT_FRAME_RAW;
	rc = pft_snapshot_write(dir, &spec, msg, cap);
	if (rc == 0)
		rc = append_regs(rp, dir, spec.source_name, msg, cap);
	return rc;
}

void record_ptm_summary(const struct record_ptm *rp, FILE *f)
{
	struct pft_ptm_stats st;
	size_t len;

	pft_ptm_get_stats(rp->ptm, &st, sizeof(st));
	(void)pft_rec_ptm_trace(rp->sink, &len);
	fprintf(f, "pft record: PTM: %llu instructions traced of %llu, %llu waypoints, "
	        "%llu packets, %llu bytes (%zu in the buffer, %s)",
	        (unsigned long long)st.traced_insns, (unsigned long long)st.insns,
	        (unsigned long long)st.waypoints, (unsigned long long)st.packets,
	        (unsigned long long)st.bytes, len, rp->frames ? "CoreSight frames" : "raw");
	if (st.overflows)
		fprintf(f, ", %llu overflows (%llu packets lost)", (unsigned long long)st.overflows,
		        (unsigned long long)st.lost_packets);
	fputc('\n', f);
}

void record_ptm_free(struct record_ptm *rp)
{
	if (!rp)
		return;
	if (rp->sink)
		pft_rec_ptm_free(rp->sink); /* and the PTM */
	else
		pft_ptm_free(rp->ptm);
	free(rp);
}
