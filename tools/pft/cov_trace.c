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

int cov_trace_source(const char *path, const struct input_opts *io, const struct jobs_opts *jobs,
		     const struct cov_image_arg *a, int na, int dumps, struct pft_cov *cov,
		     struct sources_all *sa)
{
	struct input in;
	struct input_opts o = *io;
	struct pft_image *img = NULL;
	struct flow_any *dec = NULL;
	struct pft_flow_stats st;
	struct flow_run fr;
	int rc, err;

	memset(&in, 0, sizeof(in));
	o.allow_etm3 = 1; /* an ETMv3 source gives the same flow items */
	rc = input_open(&in, path, &o, 0, "coverage");
	if (rc)
		return rc;
	img = pft_image_alloc();
	if (!img) {
		cli_error("coverage", "out of memory");
		rc = PFT_EXIT_USAGE;
		goto out;
	}
	rc = load_image(img, a, na, &in, dumps);
	if (rc)
		goto out;
	dec = flow_any_alloc(&in.config, img, in.isync_resync);
	if (!dec) {
		cli_error("coverage", "cannot create the flow decoder (out of memory)");
		rc = PFT_EXIT_USAGE;
		goto out;
	}
	memset(&fr, 0, sizeof(fr));
	fr.jobs = jobs_count_one(jobs);
	fr.segment = jobs->segment;
	fr.item = put_item;
	fr.arg = cov;
	err = flow_run(&in, dec, img, &fr);
	if (err == 1) {
		rc = in.exit_code;
		goto out;
	}
	if (fr.stop)
		err = fr.stop; /* pft_cov_put's error */
	rc = input_finish(&in, "coverage");
	if (rc)
		goto out;
	if (sa)
		sources_all_saw(sa, &in);
	if (err != -PFT_E_EOS) {
		cli_error("coverage", "%s: %s", path, pft_errstr(err));
		rc = err == -PFT_E_NOMEM ? PFT_EXIT_USAGE : PFT_EXIT_DATA;
		goto out;
	}
	st = fr.st;
	if (in.frame_errors) {
		cli_error("coverage", "%s: %s%s", in.buffer_path ? in.buffer_path : in.path,
			  in.frame_error_msg, in.frame_errors > 1 ? " (and more frame errors)" : "");
		rc = PFT_EXIT_DATA;
	}
	if (st.events[PFT_EV_PACKET_ERROR] || st.events[PFT_EV_INCONSISTENT]) {
		cli_error("coverage", "%s: %" PRIu64 " malformed packet(s), %" PRIu64
			  " disagreement(s) with the image", path, st.events[PFT_EV_PACKET_ERROR],
			  st.events[PFT_EV_INCONSISTENT]);
		rc = PFT_EXIT_DATA;
	}
	if (in.delivered == 0 || st.events[PFT_EV_TRACE_ON] == 0) {
		cli_error("coverage", "%s: trace ID 0x%02X: nothing could be decoded (%s)", path,
			  in.trace_id, in.delivered ? "no I-sync" : "no trace data");
		rc = PFT_EXIT_DATA;
	}
out:
	flow_any_free(dec);
	pft_image_free(img);
	input_close(&in);
	return rc;
}
