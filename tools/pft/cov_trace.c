/* SPDX-License-Identifier: BSD-3-Clause */
/* pft coverage: one trace input decoded into coverage counts. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "image_load.h"
#include "cov_out.h"
#include "flow_any.h"
#include "flow_run.h"
#include "sources_all.h"

static int load_image(struct pft_image *img, const struct cov_image_arg *a, int na,
		      const struct input *in, int dumps)
{
	int i, r;

	if (dumps && in->snap && in->core_name &&
	    image_load_dumps(img, "coverage", in->snap, in->core_name))
		return PFT_EXIT_USAGE;
	for (i = 0; i < na; i++) {
		if (a[i].kind == COV_ARG_ELF)
			r = image_load_elf(img, "coverage", a[i].path, a[i].addr);
		else if (a[i].kind == COV_ARG_IMAGE)
			r = image_load_raw(img, "coverage", a[i].path, a[i].addr);
		else
			continue;
		if (r)
			return PFT_EXIT_USAGE;
	}
	return PFT_EXIT_OK;
}

static int put_item(void *arg, const struct pft_flow_item *it)
{
	int r = pft_cov_put(arg, it, sizeof(*it));

	return r < 0 ? r : 0;
}

int cov_trace(const char *path, const struct input_opts *io, const struct jobs_opts *jobs,
	      const struct cov_image_arg *a, int na, int dumps, struct pft_cov *cov)
{
	return cov_trace_source(path, io, jobs, a, na, dumps, cov, NULL);
}

int cov_src_open(struct cov_src *s, const char *path, const struct input_opts *io,
		 const struct cov_image_arg *a, int na, int dumps, struct pft_cov *cov)
{
	struct input_opts o = *io;

	memset(s, 0, sizeof(*s));
	s->path = path;
	o.allow_etm3 = 1; /* an ETMv3 source gives the same flow items */
	s->rc = input_open(&s->in, path, &o, 0, "coverage");
	if (s->rc)
		return s->rc;
	s->img = pft_image_alloc();
	if (!s->img) {
		cli_error("coverage", "out of memory");
		return s->rc = PFT_EXIT_USAGE;
	}
	s->rc = load_image(s->img, a, na, &s->in, dumps);
	if (s->rc)
		return s->rc;
	s->dec = flow_any_alloc(&s->in.config, s->img, s->in.isync_resync);
	if (!s->dec) {
		cli_error("coverage", "cannot create the flow decoder (out of memory)");
		return s->rc = PFT_EXIT_USAGE;
	}
	s->fr.jobs = 1;
	s->fr.item = put_item;
	s->fr.arg = cov;
	return PFT_EXIT_OK;
}

void cov_src_run(struct cov_src *s)
{
	if (!s->rc)
		s->err = flow_run(&s->in, s->dec, s->img, &s->fr);
}

int cov_src_end(struct cov_src *s, struct sources_all *sa)
{
	struct pft_flow_stats st;
	const char *path = s->path;
	int rc = s->rc, err = s->err;

	if (rc)
		return rc;
	if (err == 1)
		return s->in.exit_code;
	if (s->fr.stop)
		err = s->fr.stop; /* pft_cov_put's error */
	rc = input_finish(&s->in, "coverage");
	if (rc)
		return rc;
	if (sa)
		sources_all_saw(sa, &s->in);
	if (err != -PFT_E_EOS) {
		cli_error("coverage", "%s: %s", path, pft_errstr(err));
		return err == -PFT_E_NOMEM ? PFT_EXIT_USAGE : PFT_EXIT_DATA;
	}
	st = s->fr.st;
	if (s->in.frame_errors) {
		cli_error("coverage", "%s: %s%s", s->in.buffer_path ? s->in.buffer_path : s->in.path,
			  s->in.frame_error_msg, s->in.frame_errors > 1 ? " (and more frame errors)" : "");
		rc = PFT_EXIT_DATA;
	}
	if (st.events[PFT_EV_PACKET_ERROR] || st.events[PFT_EV_INCONSISTENT]) {
		cli_error("coverage", "%s: %" PRIu64 " malformed packet(s), %" PRIu64
			  " disagreement(s) with the image", path, st.events[PFT_EV_PACKET_ERROR],
			  st.events[PFT_EV_INCONSISTENT]);
		rc = PFT_EXIT_DATA;
	}
	if (s->in.delivered == 0 || st.events[PFT_EV_TRACE_ON] == 0) {
		cli_error("coverage", "%s: trace ID 0x%02X: nothing could be decoded (%s)", path,
			  s->in.trace_id, s->in.delivered ? "no I-sync" : "no trace data");
		rc = PFT_EXIT_DATA;
	}
	return rc;
}

void cov_src_close(struct cov_src *s)
{
	flow_any_free(s->dec);
	pft_image_free(s->img);
	input_close(&s->in);
	s->dec = NULL;
	s->img = NULL;
}

int cov_trace_source(const char *path, const struct input_opts *io, const struct jobs_opts *jobs,
		     const struct cov_image_arg *a, int na, int dumps, struct pft_cov *cov,
		     struct sources_all *sa)
{
	struct cov_src s;
	int rc;

	if (!cov_src_open(&s, path, io, a, na, dumps, cov)) {
		s.fr.jobs = jobs_count_one(jobs);
		s.fr.segment = jobs->segment;
		cov_src_run(&s);
	}
	rc = cov_src_end(&s, sa);
	cov_src_close(&s);
	return rc;
}
