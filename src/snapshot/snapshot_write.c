/* SPDX-License-Identifier: BSD-3-Clause */
/* Snapshot writer: one core with its memory dumps, one PTM with its
 * registers, one trace buffer (include/pft/snapshot.h).  The layout is the
 * one DS-5 writes and OpenCSD's trc_pkt_lister reads. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "common/struct_size.h"
#include "pft/etm3.h"
#include "pft/snapshot.h"
#include "snapshot/snap_regs.h"
#include "snapshot/snapshot_int.h"

void pft_snapshot_spec_init(struct pft_snapshot_spec *spec)
{
	if (!spec)
		return;
	memset(spec, 0, sizeof(*spec));
	spec->size = sizeof(*spec);
	spec->core_name = "cpu_0";
	spec->core_type = "Cortex-A15";
	spec->source_name = "PTM_0";
	pft_config_init(&spec->config);
	spec->trace_format = PFT_FRAME_RAW;
}

static int good_name(const char *s)
{
	if (!s || !*s || strlen(s) > 64)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' || *s == '.'))
			return 0;
	return 1;
}

static int put_file(const char *dir, const char *name, const void *data, size_t len,
		    char *msg, size_t cap)
{
	char *path = snap_join(dir, name);
	FILE *f;
	int ok;

	if (!path)
		return -PFT_E_NOMEM;
	f = fopen(path, "wb");
	if (!f) {
		if (msg)
			snprintf(msg, cap, "cannot write %s: %s", path, strerror(errno));
		free(path);
		return -PFT_E_IO;
	}
	ok = (len == 0 || fwrite(data, 1, len, f) == len);
	ok = (fclose(f) == 0) && ok;
	if (!ok) {
		if (msg)
			snprintf(msg, cap, "cannot write %s: %s", path, strerror(errno));
		free(path);
		return -PFT_E_IO;
	}
	free(path);
	return 0;
}

/* A small growing text buffer for the ini files. */
struct text {
	char *p;
	size_t n, cap;
	int oom;
};

static void tprintf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void tprintf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int need;

	if (t->oom)
		return;
	for (;;) {
		size_t room = t->cap - t->n;
		va_start(ap, fmt);
		need = vsnprintf(t->p ? t->p + t->n : NULL, room, fmt, ap);
		va_end(ap);
		if (need < 0) {
			t->oom = 1;
			return;
		}
		if ((size_t)need < room) {
			t->n += (size_t)need;
			return;
		}
		{
			size_t nc = (t->cap + (size_t)need + 256) * 2;
			char *np = realloc(t->p, nc);
			if (!np) {
				t->oom = 1;
				return;
			}
			t->p = np;
			t->cap = nc;
		}
	}
}

static int put_text(const char *dir, const char *name, struct text *t, char *msg, size_t cap)
{
	int r;

	if (t->oom) {
		free(t->p);
		return -PFT_E_NOMEM;
	}
	r = put_file(dir, name, t->p, t->n, msg, cap);
	free(t->p);
	memset(t, 0, sizeof(*t));
	return r;
}

int pft_snapshot_write(const char *dir, const struct pft_snapshot_spec *user, char *msg,
		       size_t cap)
{
	struct pft_snapshot_spec sp;
	const struct pft_snapshot_spec *spec = user ? &sp : NULL;
	struct text t = { 0 };
	char file[80], ini[80], why[200], etm3_type[16];
	struct pft_etm3_features ef = { 0 };
	const char *stype, *bufname, *buffile;
	const struct pft_config *c;
	size_t i;
	int r, etm3;

	if (msg && cap)
		msg[0] = '\0';
	if (user && user->size >= sizeof(user->size)) {
		/* a caller's spec of any version: fields it lacks keep defaults */
		pft_snapshot_spec_init(&sp);
		pft_copy_in(&sp, sizeof(sp), user, user->size);
		sp.size = sizeof(sp);
	}
	if (!dir || !*dir || !user || user->size < sizeof(user->size) ||
	    (!spec->trace && spec->trace_len) || (!spec->mem && spec->n_mem)) {
		if (msg)
			snprintf(msg, cap, "pft_snapshot_write: bad arguments");
		return -PFT_E_INVAL;
	}
	if (!good_name(spec->core_name) || !good_name(spec->source_name) ||
	    !good_name(spec->core_type) || (spec->source_type && !good_name(spec->source_type)) ||
	    !strcmp(spec->core_name, spec->source_name)) {
		if (msg)
			snprintf(msg, cap, "device names and types must be distinct and use only "
				 "letters, digits, '_', '-' and '.'");
		return -PFT_E_INVAL;
	}
	if (spec->trace_format != PFT_FRAME_RAW && spec->trace_format != PFT_FRAME_CORESIGHT) {
		if (msg)
			snprintf(msg, cap, "a snapshot buffer is raw (source_data) or CoreSight frames; "
				 "de-format a TPIU capture first");
		return -PFT_E_INVAL;
	}
	c = &spec->config;
	etm3 = ((c->etmidr >> PFT_ETMIDR_MAJOR_SHIFT) & PFT_ETMIDR_MAJOR_MASK) == PFT_ETM3_ETMIDR_MAJOR;
	if (etm3 ? pft_etm3_config_features(c, &ef, why, sizeof why) != 0
	         : pft_config_check(c, why, sizeof why) != 0) {
		if (msg)
			snprintf(msg, cap, "%s", why);
		return -PFT_E_BAD_CONFIG;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		if (msg)
			snprintf(msg, cap, "cannot create %s: %s", dir, strerror(errno));
		return -PFT_E_IO;
	}
	snprintf(etm3_type, sizeof etm3_type, "ETM3.%u", etm3 ? (unsigned)ef.minor : 0u);
	stype = spec->source_type ? spec->source_type : etm3 ? etm3_type :
		((c->etmidr >> PFT_ETMIDR_MINOR_SHIFT) & PFT_ETMIDR_MINOR_MASK) ? "PTM1.1" : "PTM1.0";
	if (spec->trace_format == PFT_FRAME_CORESIGHT) {
		bufname = "ETB_0";
		buffile = "cstrace.bin";
	} else {
		bufname = spec->source_name;
		snprintf(file, sizeof file, "%s.bin", spec->source_name);
		buffile = file;
	}

	tprintf(&t, "[snapshot]\nversion=1.0\n\n[device_list]\ndevice0=%s.ini\ndevice1=%s.ini\n\n"
		"[trace]\nmetadata=trace.ini\n", spec->core_name, spec->source_name);
	if ((r = put_text(dir, "snapshot.ini", &t, msg, cap)))
		return r;

	tprintf(&t, "[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=%s\nfile=%s\nformat=%s\n\n"
		"[source_buffers]\n%s=%s\n\n[core_trace_sources]\n%s=%s\n",
		bufname, buffile,
		spec->trace_format == PFT_FRAME_CORESIGHT ? "coresight" : "source_data",
		spec->source_name, bufname, spec->core_name, spec->source_name);
	if ((r = put_text(dir, "trace.ini", &t, msg, cap)))
		return r;

	tprintf(&t, "[device]\nname=%s\nclass=trace_source\ntype=%s\n\n[regs]\n",
		spec->source_name, stype);
	{
		/* names from the register table, numbers as DS-5 writes them */
		const struct { unsigned regno; uint32_t v; } regs[] = {
			{ PFT_PTM_ETMCR, c->etmcr }, { PFT_PTM_ETMCCR, c->etmccr },
			{ PFT_PTM_ETMSYNCFR, c->etmsyncfr }, { PFT_PTM_ETMIDR, c->etmidr },
			{ PFT_PTM_ETMCCER, c->etmccer }, { PFT_PTM_ETMTRACEIDR, c->etmtraceidr },
		};
		for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
			tprintf(&t, "%s(0x%03X)=0x%08X\n", snap_reg_name(regs[i].regno),
				regs[i].regno, (unsigned)regs[i].v);
	}
	snprintf(ini, sizeof ini, "%s.ini", spec->source_name);
	if ((r = put_text(dir, ini, &t, msg, cap)))
		return r;

	tprintf(&t, "[device]\nname=%s\nclass=core\ntype=%s\n", spec->core_name, spec->core_type);
	for (i = 0; i < spec->n_mem; i++) {
		char mf[32];

		snprintf(mf, sizeof mf, "mem_%zu.bin", i);
		if ((r = put_file(dir, mf, spec->mem[i].data, spec->mem[i].len, msg, cap))) {
			free(t.p);
			return r;
		}
		tprintf(&t, "\n[dump%zu]\nfile=%s\naddress=0x%08llX\nlength=0x%08llX\n", i + 1, mf,
			(unsigned long long)spec->mem[i].address,
			(unsigned long long)spec->mem[i].len);
	}
	snprintf(ini, sizeof ini, "%s.ini", spec->core_name);
	if ((r = put_text(dir, ini, &t, msg, cap)))
		return r;

	return put_file(dir, buffile, spec->trace, spec->trace_len, msg, cap);
}
