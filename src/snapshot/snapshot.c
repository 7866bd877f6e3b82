/* SPDX-License-Identifier: BSD-3-Clause */
/* Snapshot reader: snapshot.ini, trace.ini and the device inis of a DS-5 /
 * OpenCSD snapshot folder (include/pft/snapshot.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pft/snapshot.h"
#include "snapshot/ini.h"
#include "snapshot/snap_regs.h"
#include "snapshot/snapshot_int.h"

struct device {
	struct ini_file ini;
	const char *name, *dclass, *type;
	struct snap_reg *regs;
	size_t nregs;
	struct pft_snapshot_dump *dumps;
	size_t ndumps, dumpcap;
};

struct buffer {
	const char *name, *format;
	char *path;
};

struct source {
	size_t dev;
	const char *core;
	long buf;           /* index into buffers, -1 if none */
	uint32_t present;
	uint8_t is_ptm, is_etm3, trace_id;
	struct pft_config cfg;
};

struct pft_snapshot {
	char *dir;
	const struct snap_io *io;
	unsigned flags;     /* PFT_SNAPSHOT_* */
	struct ini_file snap, trace;
	struct device *dev;
	size_t ndev;
	struct buffer *buf;
	size_t nbuf, bufcap;
	struct source *src;
	size_t nsrc;
};

char *snap_join(const char *dir, const char *file)
{
	size_t a = strlen(dir), b = strlen(file);
	char *p;

	if (file[0] == '/' || !a)
		return strdup(file);
	p = malloc(a + b + 2);
	if (!p)
		return NULL;
	memcpy(p, dir, a);
	if (dir[a - 1] != '/')
		p[a++] = '/';
	memcpy(p + a, file, b + 1);
	return p;
}

/* file (as an ini file names it) stays inside the folder: relative, and
 * no ".." that climbs out of it; when both exist, the resolved path is
 * under the resolved folder (no symbolic link out of it). */
static int inside(const char *dir, const char *file, int on_disk)
{
	const char *p = file;
	long depth = 0;
	char *joined, *rd = NULL, *rf = NULL;
	int ok = 1;

	if (file[0] == '/')
		return 0;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return 0;
		} else if (n && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	if (!on_disk)
		return 1;
	joined = snap_join(dir, file);
	if (joined) {
		rd = realpath(dir, NULL);
		rf = realpath(joined, NULL);
	}
	if (rd && rf) {
		size_t l = strlen(rd);

		ok = !strncmp(rf, rd, l) && (!rf[l] || rf[l] == '/' || (l == 1 && rd[0] == '/'));
	}
	free(rd);
	free(rf);
	free(joined);
	return ok;
}

/* The path of a file an ini file names (ini_path:line), joined to the
 * folder; NULL with *err set when it leaves the folder without
 * PFT_SNAPSHOT_ALLOW_OUTSIDE (or out of memory). */
static char *snap_file(const struct pft_snapshot *sn, const char *dir, const char *file,
		       const char *ini_path, unsigned line, int *err, char *msg, size_t cap)
{
	char *p;

	if (!(sn->flags & PFT_SNAPSHOT_ALLOW_OUTSIDE) && !inside(dir, file, !sn->io)) {
		char shown[80];

		ini_excerpt(shown, sizeof shown, file, strlen(file));
		if (msg && cap)
			snprintf(msg, cap, "%s:%u: '%s' is outside the snapshot folder (not followed "
				 "unless allowed: pft --allow-outside)", ini_path, line, shown);
		*err = -PFT_E_FORMAT;
		return NULL;
	}
	p = snap_join(dir, file);
	if (!p)
		*err = -PFT_E_NOMEM;
	return p;
}

/* The registers a pft_config holds, with their PFT_SNAPSHOT_REG_* bit. */
static uint32_t set_config_reg(struct pft_config *cfg, int regno, uint32_t v)
{
	switch (regno) {
	case PFT_PTM_ETMCR: cfg->etmcr = v; return PFT_SNAPSHOT_REG_ETMCR;
	case PFT_PTM_ETMCCR: cfg->etmccr = v; return PFT_SNAPSHOT_REG_ETMCCR;
	case PFT_PTM_ETMSYNCFR: cfg->etmsyncfr = v; return PFT_SNAPSHOT_REG_ETMSYNCFR;
	case PFT_PTM_ETMIDR: cfg->etmidr = v; return PFT_SNAPSHOT_REG_ETMIDR;
	case PFT_PTM_ETMCCER: cfg->etmccer = v; return PFT_SNAPSHOT_REG_ETMCCER;
	case PFT_PTM_ETMTRACEIDR: cfg->etmtraceidr = v; return PFT_SNAPSHOT_REG_ETMTRACEIDR;
	default: return 0;
	}
}

static int fail(char *msg, size_t cap, int err, const char *fmt, const char *a, unsigned line,
		const char *b)
{
	if (msg && cap) {
		if (line)
			snprintf(msg, cap, "%s:%u: ", a, line);
		else
			snprintf(msg, cap, "%s: ", a);
		snprintf(msg + strlen(msg), cap - strlen(msg), fmt, b ? b : "");
	}
	return err;
}

/* "dump", "dump1", "dump_2" ... (DS-5 numbers them, OpenCSD writes [dump]) */
static int is_dump_section(const char *name)
{
	if (strncasecmp(name, "dump", 4))
		return 0;
	for (name += 4; *name; name++)
		if (!((*name >= '0' && *name <= '9') || *name == '_'))
			return 0;
	return 1;
}

static int load_ini(const struct pft_snapshot *sn, struct ini_file *ini, const char *path,
		    char *msg, size_t cap)
{
	char *text = NULL;
	size_t len = 0;
	int r;

	if (!sn->io)
		return ini_load(ini, path, msg, cap);
	memset(ini, 0, sizeof(*ini));
	r = sn->io->load(sn->io->ctx, path, &text, &len, msg, cap);
	if (r)
		return r;
	r = ini_parse(ini, path, text, len, msg, cap);
	free(text);
	return r;
}

static int load_device(const struct pft_snapshot *sn, struct device *d, const char *dir, const char *file, unsigned list_line,
		       const char *snap_path, char *msg, size_t cap)
{
	char *path;
	const struct ini_section *dev;
	size_t i;
	int r = 0;

	path = snap_file(sn, dir, file, snap_path, list_line, &r, msg, cap);
	if (!path)
		return r;
	r = load_ini(sn, &d->ini, path, msg, cap);
	free(path);
	if (r == -PFT_E_IO && msg && cap) {
		char tmp[600];
		snprintf(tmp, sizeof tmp, "%s:%u: device file: %s", snap_path, list_line, msg);
		snprintf(msg, cap, "%s", tmp);
	}
	if (r)
		return r;
	dev = ini_find(&d->ini, "device", 0, NULL);
	if (!dev)
		return fail(msg, cap, -PFT_E_FORMAT, "no [device] section%s", d->ini.path, 0, "");
	d->name = ini_get(dev, "name", NULL);
	d->dclass = ini_get(dev, "class", NULL);
	d->type = ini_get(dev, "type", NULL);
	if (!d->name || !*d->name)
		return fail(msg, cap, -PFT_E_FORMAT, "[device] has no name%s", d->ini.path, dev->line, "");
	if (!d->dclass)
		d->dclass = "";
	if (!d->type)
		d->type = "";
	r = snap_regs_read(&d->ini, &d->regs, &d->nregs, NULL, msg, cap);
	if (r)
		return r;
	for (i = 0; i < d->ini.n; i++) {
		struct ini_section *s = &d->ini.s[i];

		if (is_dump_section(s->name)) {
			struct pft_snapshot_dump *dp;
			unsigned fline = 0;
			const char *f = ini_get(s, "file", &fline);
			const char *a = ini_get(s, "address", NULL);
			const char *o = ini_get(s, "offset", NULL);
			const char *l = ini_get(s, "length", NULL);
			unsigned long long av = 0, ov = 0, lv = 0;

			if (!f || !*f)
				return fail(msg, cap, -PFT_E_FORMAT, "[dump] has no file%s", d->ini.path,
					    s->line, "");
			if (!a || ini_number(a, &av))
				return fail(msg, cap, -PFT_E_FORMAT,
					    "[dump] needs address=<number>%s", d->ini.path, s->line, "");
			if ((o && ini_number(o, &ov)) || (l && ini_number(l, &lv)))
				return fail(msg, cap, -PFT_E_FORMAT,
					    "[dump] offset/length are not numbers%s", d->ini.path,
					    s->line, "");
			if (ini_grow((void **)&d->dumps, &d->dumpcap, d->ndumps, sizeof(*d->dumps)))
				return -PFT_E_NOMEM;
			dp = &d->dumps[d->ndumps];
			dp->path = snap_file(sn, dir, f, d->ini.path, fline, &r, msg, cap);
			if (!dp->path)
				return r;
			d->ndumps++;
			dp->address = av;
			dp->offset = ov;
			dp->length = lv;
			dp->space = ini_get(s, "space", NULL);
		}
	}
	return 0;
}

static void make_source(struct pft_snapshot *sn, size_t di, struct source *s)
{
	const struct device *d = &sn->dev[di];
	size_t i;

	memset(s, 0, sizeof(*s));
	s->dev = di;
	s->buf = -1;
	pft_config_init(&s->cfg);
	for (i = 0; i < d->nregs; i++)
		s->present |= set_config_reg(&s->cfg, d->regs[i].regno, (uint32_t)d->regs[i].value);
	if (s->present & PFT_SNAPSHOT_REG_ETMTRACEIDR)
		s->trace_id = s->cfg.etmtraceidr & PFT_ETMTRACEIDR_MASK;
	s->is_ptm = !strncasecmp(d->type, "PTM", 3) || !strncasecmp(d->type, "PFT", 3) ||
		    ((s->present & PFT_SNAPSHOT_REG_ETMIDR) &&
		     ((s->cfg.etmidr >> PFT_ETMIDR_MAJOR_SHIFT) & PFT_ETMIDR_MAJOR_MASK) == 3);
	s->is_etm3 = !s->is_ptm &&
		     (!strncasecmp(d->type, "ETM3", 4) ||
		      ((s->present & PFT_SNAPSHOT_REG_ETMIDR) &&
		       ((s->cfg.etmidr >> PFT_ETMIDR_MAJOR_SHIFT) & PFT_ETMIDR_MAJOR_MASK) == 2));
}

static int load_trace(struct pft_snapshot *sn, const char *file, unsigned meta_line, char *msg,
		      size_t cap)
{
	char *path;
	const struct ini_section *tb, *sb, *cs;
	const char *list;
	unsigned line = 0;
	char *copy, *tok, *save = NULL;
	size_t i, j;
	int r = 0;

	path = snap_file(sn, sn->dir, file, sn->snap.path, meta_line, &r, msg, cap);
	if (!path)
		return r;
	r = load_ini(sn, &sn->trace, path, msg, cap);
	free(path);
	if (r)
		return r;
	tb = ini_find(&sn->trace, "trace_buffers", 0, NULL);
	if (!tb)
		return fail(msg, cap, -PFT_E_FORMAT, "no [trace_buffers] section%s", sn->trace.path, 0, "");
	list = ini_get(tb, "buffers", &line);
	if (!list)
		return fail(msg, cap, -PFT_E_FORMAT, "[trace_buffers] has no buffers=%s",
			    sn->trace.path, tb->line, "");
	copy = strdup(list);
	if (!copy)
		return -PFT_E_NOMEM;
	for (tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		const struct ini_section *bs = ini_find(&sn->trace, tok, 0, NULL);
		unsigned fline = 0;
		struct buffer *b;
		const char *f;

		if (!bs) {
			r = fail(msg, cap, -PFT_E_FORMAT, "buffer section [%s] is missing",
				 sn->trace.path, line, tok);
			break;
		}
		f = ini_get(bs, "file", &fline);
		if (!f || !*f) {
			r = fail(msg, cap, -PFT_E_FORMAT, "[%s] has no file=", sn->trace.path,
				 bs->line, tok);
			break;
		}
		if (ini_grow((void **)&sn->buf, &sn->bufcap, sn->nbuf, sizeof(*sn->buf))) {
			r = -PFT_E_NOMEM;
			break;
		}
		b = &sn->buf[sn->nbuf];
		b->path = snap_file(sn, sn->dir, f, sn->trace.path, fline, &r, msg, cap);
		if (!b->path)
			break;
		sn->nbuf++;
		b->name = ini_get(bs, "name", NULL);
		if (!b->name)
			b->name = bs->name;
		b->format = ini_get(bs, "format", NULL);
	}
	free(copy);
	if (r)
		return r;
	sb = ini_find(&sn->trace, "source_buffers", 0, NULL);
	cs = ini_find(&sn->trace, "core_trace_sources", 0, NULL);
	for (i = 0; i < sn->nsrc; i++) {
		struct source *s = &sn->src[i];
		const char *name = sn->dev[s->dev].name;
		const char *bn = ini_get(sb, name, NULL);

		if (bn) {
			for (j = 0; j < sn->nbuf; j++)
				if (!strcmp(sn->buf[j].name, bn))
					s->buf = (long)j;
		} else if (sn->nbuf == 1) {
			s->buf = 0;
		}
		if (cs)
			for (j = 0; j < cs->n; j++)
				if (!strcmp(cs->e[j].value, name))
					s->core = cs->e[j].key;
	}
	return 0;
}

void pft_snapshot_close(struct pft_snapshot *sn)
{
	size_t i, j;

	if (!sn)
		return;
	for (i = 0; i < sn->ndev; i++) {
		for (j = 0; j < sn->dev[i].ndumps; j++)
			free((char *)sn->dev[i].dumps[j].path);
		free(sn->dev[i].dumps);
		free(sn->dev[i].regs);
		ini_free(&sn->dev[i].ini);
	}
	free(sn->dev);
	for (i = 0; i < sn->nbuf; i++)
		free(sn->buf[i].path);
	free(sn->buf);
	free(sn->src);
	ini_free(&sn->snap);
	ini_free(&sn->trace);
	free(sn->dir);
	free(sn);
}

int pft_snapshot_open(const char *dir, struct pft_snapshot **out, char *msg, size_t cap)
{
	return snap_open_io(dir, NULL, 0, out, msg, cap);
}

int pft_snapshot_open_flags(const char *dir, unsigned flags, struct pft_snapshot **out,
			    char *msg, size_t cap)
{
	return snap_open_io(dir, NULL, flags, out, msg, cap);
}

int snap_open_io(const char *dir, const struct snap_io *io, unsigned flags,
		 struct pft_snapshot **out, char *msg, size_t cap)
{
	struct pft_snapshot *sn;
	const struct ini_section *dl, *tr;
	char *path;
	size_t i;
	int r;

	if (msg && cap)
		msg[0] = '\0';
	if (!dir || !out)
		return -PFT_E_INVAL;
	*out = NULL;
	sn = calloc(1, sizeof(*sn));
	if (!sn)
		return -PFT_E_NOMEM;
	sn->io = io;
	sn->flags = flags;
	sn->dir = strdup(dir);
	path = snap_join(dir, "snapshot.ini");
	if (!sn->dir || !path) {
		free(path);
		pft_snapshot_close(sn);
		return -PFT_E_NOMEM;
	}
	r = load_ini(sn, &sn->snap, path, msg, cap);
	free(path);
	if (r)
		goto out;
	dl = ini_find(&sn->snap, "device_list", 0, NULL);
	if (!dl) {
		r = fail(msg, cap, -PFT_E_FORMAT, "no [device_list] section%s", sn->snap.path, 0, "");
		goto out;
	}
	sn->dev = calloc(dl->n ? dl->n : 1, sizeof(*sn->dev));
	sn->src = calloc(dl->n ? dl->n : 1, sizeof(*sn->src));
	if (!sn->dev || !sn->src) {
		r = -PFT_E_NOMEM;
		goto out;
	}
	for (i = 0; i < dl->n; i++) {
		size_t k;

		r = load_device(sn, &sn->dev[i], dir, dl->e[i].value, dl->e[i].line, sn->snap.path,
				msg, cap);
		sn->ndev = i + 1;
		if (r)
			goto out;
		for (k = 0; k < i; k++)
			if (!strcmp(sn->dev[k].name, sn->dev[i].name)) {
				r = fail(msg, cap, -PFT_E_FORMAT, "device name '%s' is used twice",
					 sn->dev[i].ini.path, 0, sn->dev[i].name);
				goto out;
			}
		if (!strcasecmp(sn->dev[i].dclass, "trace_source"))
			make_source(sn, i, &sn->src[sn->nsrc++]);
	}
	tr = ini_find(&sn->snap, "trace", 0, NULL);
	if (tr && ini_get(tr, "metadata", NULL)) {
		unsigned line = 0;
		const char *meta = ini_get(tr, "metadata", &line);

		r = load_trace(sn, meta, line, msg, cap);
		if (r)
			goto out;
	}
	*out = sn;
	return 0;
out:
	pft_snapshot_close(sn);
	return r;
}

const char *pft_snapshot_dir(const struct pft_snapshot *sn)
{
	return sn ? sn->dir : NULL;
}

const char *pft_snapshot_ini_path(const struct pft_snapshot *sn)
{
	return sn ? sn->snap.path : NULL;
}

const char *pft_snapshot_trace_ini_path(const struct pft_snapshot *sn)
{
	return sn ? sn->trace.path : NULL;
}

size_t pft_snapshot_device_count(const struct pft_snapshot *sn)
{
	return sn ? sn->ndev : 0;
}

int pft_snapshot_device(const struct pft_snapshot *sn, size_t i, struct pft_snapshot_device *out)
{
	if (!sn || !out || i >= sn->ndev)
		return -PFT_E_INVAL;
	out->name = sn->dev[i].name;
	out->dclass = sn->dev[i].dclass;
	out->type = sn->dev[i].type;
	out->ini = sn->dev[i].ini.path;
	return 0;
}

int pft_snapshot_find_device(const struct pft_snapshot *sn, const char *name)
{
	size_t i;

	if (!sn || !name)
		return -PFT_E_INVAL;
	for (i = 0; i < sn->ndev; i++)
		if (!strcmp(sn->dev[i].name, name))
			return (int)i;
	return -PFT_E_NOTFOUND;
}

size_t pft_snapshot_source_count(const struct pft_snapshot *sn)
{
	return sn ? sn->nsrc : 0;
}

int pft_snapshot_source(const struct pft_snapshot *sn, size_t i, struct pft_snapshot_source *out)
{
	const struct source *s;

	if (!sn || !out || i >= sn->nsrc)
		return -PFT_E_INVAL;
	s = &sn->src[i];
	memset(out, 0, sizeof(*out));
	out->name = sn->dev[s->dev].name;
	out->type = sn->dev[s->dev].type;
	out->core = s->core;
	if (s->buf >= 0) {
		out->buffer_name = sn->buf[s->buf].name;
		out->buffer_file = sn->buf[s->buf].path;
		out->buffer_format = sn->buf[s->buf].format;
	}
	out->regs_present = s->present;
	out->is_ptm = s->is_ptm;
	out->is_etm3 = s->is_etm3;
	out->trace_id = s->trace_id;
	out->config = s->cfg;
	return 0;
}

int pft_snapshot_find_source(const struct pft_snapshot *sn, const char *name)
{
	size_t i;

	if (!sn || !name)
		return -PFT_E_INVAL;
	for (i = 0; i < sn->nsrc; i++)
		if (!strcmp(sn->dev[sn->src[i].dev].name, name))
			return (int)i;
	return -PFT_E_NOTFOUND;
}

int pft_snapshot_find_trace_id(const struct pft_snapshot *sn, uint8_t id)
{
	size_t i;

	if (!sn)
		return -PFT_E_INVAL;
	for (i = 0; i < sn->nsrc; i++)
		if ((sn->src[i].present & PFT_SNAPSHOT_REG_ETMTRACEIDR) && sn->src[i].trace_id == id)
			return (int)i;
	return -PFT_E_NOTFOUND;
}

int pft_snapshot_buffer_format(const char *format)
{
	if (!format)
		return -PFT_E_INVAL;
	if (!strcasecmp(format, "coresight"))
		return PFT_FRAME_CORESIGHT;
	if (!strcasecmp(format, "source_data"))
		return PFT_FRAME_RAW;
	return -PFT_E_UNSUPPORTED;
}

int pft_snapshot_reg(const struct pft_snapshot *sn, const char *device, const char *reg,
		     uint64_t *val)
{
	unsigned long long num;
	int by_number, di;
	size_t i;

	if (!sn || !device || !reg || !val)
		return -PFT_E_INVAL;
	di = pft_snapshot_find_device(sn, device);
	if (di < 0)
		return di;
	by_number = !ini_number(reg, &num);
	for (i = sn->dev[di].nregs; i-- > 0;) {
		const struct snap_reg *r = &sn->dev[di].regs[i];
		if (by_number ? r->number == (long)num : !strcasecmp(r->name, reg)) {
			*val = r->value;
			return 0;
		}
	}
	return -PFT_E_NOTFOUND;
}

size_t pft_snapshot_dump_count(const struct pft_snapshot *sn, const char *device)
{
	int di = sn && device ? pft_snapshot_find_device(sn, device) : -1;

	return di < 0 ? 0 : sn->dev[di].ndumps;
}

int pft_snapshot_dump(const struct pft_snapshot *sn, const char *device, size_t i,
		      struct pft_snapshot_dump *out)
{
	int di;

	if (!sn || !device || !out)
		return -PFT_E_INVAL;
	di = pft_snapshot_find_device(sn, device);
	if (di < 0)
		return di;
	if (i >= sn->dev[di].ndumps)
		return -PFT_E_INVAL;
	*out = sn->dev[di].dumps[i];
	return 0;
}
