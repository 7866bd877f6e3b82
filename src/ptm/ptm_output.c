/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM output in CoreSight frames: the drained PFT bytes wrapped by
 * the frame layer's formatter with the PTM's trace ID. */
#include "pft/frame.h"
#include "ptm/ptm_internal.h"

int64_t pft_ptm_read_frames(struct pft_ptm *p, uint8_t *buf, size_t cap, int flush)
{
	uint8_t tmp[256];
	size_t out = 0;
	if (!p || !buf)
		return -PFT_E_INVAL;
	if (cap < 40)
		return -PFT_E_NOSPC;
	if (!p->fenc) {
		p->fenc = pft_frame_encoder_alloc(PFT_FRAME_CORESIGHT, 0, 0);
		if (!p->fenc)
			return -PFT_E_NOMEM;
	}
	for (;;) {
		size_t room = cap - out;
		if (room < 40)
			break;
		/* cap >= 20 * (len / 7 + 2) lets the formatter take everything */
		size_t len = (room / 20 - 2) * 7;
		if (len > sizeof(tmp))
			len = sizeof(tmp);
		if (len == 0)
			break;
		len = ptm_fifo_read(&p->fifo, tmp, len);
		if (len == 0)
			break;
		size_t used = 0;
		int n = pft_frame_encode(p->fenc, p->f.trace_id, tmp, len, buf + out, room, &used);
		if (n < 0)
			return n;
		if (used != len)
			return -PFT_E_INTERNAL;
		out += (size_t)n;
	}
	if (flush && ptm_fifo_pending(&p->fifo) == 0 && cap - out >= 20) {
		int n = pft_frame_encoder_flush(p->fenc, buf + out, cap - out);
		if (n < 0)
			return n;
		out += (size_t)n;
	}
	return (int64_t)out;
}
