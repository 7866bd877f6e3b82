/* SPDX-License-Identifier: BSD-3-Clause */
/* One input's flow through an item callback, on one thread or several
 * (flow_run.h). */
#include <string.h>

#include "flow_run.h"
#include "par_run.h"

/* Hand every item the decoder has to the callback: the decoder's status
 * (-PFT_E_AGAIN, -PFT_E_EOS, an error), or 0 when the callback stopped. */
static int drain(struct flow_any *dec, struct flow_run *r)
{
	struct pft_flow_item it;
	int err;

	while ((err = flow_any_next(dec, &it)) == 0)
		if ((r->stop = r->item(r->arg, &it)) != 0)
			return 0;
	return err;
}

static int serial(struct input *in, struct flow_any *dec, struct flow_run *r)
{
	const uint8_t *buf;
	size_t len;
	int k, err = 0;

	while ((k = input_read(in, &buf, &len)) > 0) {
		if (in->gap) {
			flow_any_resync(dec);
			if ((err = drain(dec, r)) != -PFT_E_AGAIN)
				break;
		}
		err = flow_any_feed(dec, buf, len);
		if (!err)
			err = drain(dec, r);
		if (err != -PFT_E_AGAIN)
			break;
		err = 0;
	}
	if (k < 0)
		return 1;
	if (!err && !r->stop) {
		err = flow_any_end(dec);
		if (!err)
			err = drain(dec, r);
	}
	flow_any_get_stats(dec, &r->st);
	return err;
}

static int put_item(void *arg, const void *it)
{
	struct flow_run *r = arg;

	r->stop = r->item(r->arg, it);
	return r->stop != 0;
}

static int parallel(struct input *in, struct pft_image *img, struct flow_run *r)
{
	struct par_run p;
	int err;

	memset(&p, 0, sizeof p);
	p.jobs = r->jobs;
	p.segment = r->segment;
	p.kind = PFT_PAR_FLOW;
	p.keep = 1;
	p.keep_insns = 1; /* the call-stack tracker and the coverage map read them */
	p.item = put_item;
	p.arg = r;
	err = par_run_stream(in, &in->config, img, in->isync_resync, &p);
	if (err == -PFT_E_IO && r->stop)
		err = 0;
	if (!p.par || pft_par_get_stats(p.par, &r->st, sizeof r->st))
		memset(&r->st, 0, sizeof r->st);
	r->js = p.js;
	pft_par_free(p.par);
	return err;
}

int flow_run(struct input *in, struct flow_any *dec, struct pft_image *img, struct flow_run *r)
{
	const uint8_t *buf;
	size_t len;
	int k, err;

	r->stop = 0;
	r->parallel = r->jobs > 1;
	memset(&r->js, 0, sizeof r->js);
	err = r->parallel ? parallel(in, img, r) : serial(in, dec, r);
	if (err == 1)
		return 1;
	if (r->stop || err != -PFT_E_EOS) {
		/* stopped early: the rest is read for the end-of-stream checks */
		while ((k = input_read(in, &buf, &len)) > 0)
			;
		if (k < 0)
			return 1;
	}
	return err;
}
