/* SPDX-License-Identifier: BSD-3-Clause */
/* The flow decoder's output queue: every item a step queues comes out, in
 * order; a step that queued more than the queue holds (a bug, never met by
 * the real decoder) makes pft_flow_decoder_next fail with -PFT_E_INTERNAL,
 * also after a resync, instead of losing an item silently.  The items are
 * put in through the internal pft_flow_emit, as a step would. */
#ifndef NDEBUG
#define NDEBUG /* the assertion would stop the test before the check */
#endif
#include "flow/flow_int.h"

#include "check.h"
#include "pft/pft.h"

static struct pft_flow_decoder *make(struct pft_image *img)
{
	struct pft_config cfg;

	pft_config_init(&cfg);
	return pft_flow_alloc_cache(&cfg, img, 16);
}

int main(void)
{
	struct pft_image *img = pft_image_alloc();
	struct pft_flow_decoder *d;
	struct pft_flow_item it;
	unsigned i;

	CHECK(img != NULL);

	/* A full queue: every item out, in order, then more input wanted. */
	d = make(img);
	CHECK(d != NULL);
	for (i = 0; i < FLOW_QCAP; i++)
		pft_flow_emit(d, PFT_FLOW_EVENT, PFT_EV_TRIGGER)->value = i;
	for (i = 0; i < FLOW_QCAP; i++) {
		CHECK_EQ(pft_flow_decoder_next(d, &it, sizeof it), 0);
		CHECK_EQ(it.type, PFT_EV_TRIGGER);
		CHECK_EQ(it.value, i);
	}
	CHECK_EQ(pft_flow_decoder_next(d, &it, sizeof it), -PFT_E_AGAIN);
	pft_flow_decoder_free(d);

	/* One item more than the queue holds: an error, from then on. */
	d = make(img);
	CHECK(d != NULL);
	for (i = 0; i < FLOW_QCAP + 1; i++)
		pft_flow_emit(d, PFT_FLOW_EVENT, PFT_EV_TRIGGER)->value = i;
	CHECK_EQ(pft_flow_decoder_next(d, &it, sizeof it), -PFT_E_INTERNAL);
	CHECK_EQ(pft_flow_decoder_next(d, &it, sizeof it), -PFT_E_INTERNAL);
	pft_flow_decoder_resync(d);
	CHECK_EQ(pft_flow_decoder_next(d, &it, sizeof it), -PFT_E_INTERNAL);
	pft_flow_decoder_free(d);

	pft_image_free(img);
	return check_report();
}
