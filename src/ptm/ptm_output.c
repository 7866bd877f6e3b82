/* SPDX-License-Identifier: BSD-3-Clause */
/* Software PTM output: packets encoded into the trace FIFO (ptm_emit, the
 * FIFO overflow, periodic-sync byte counting, the packet callback), and
 * the drained bytes read out, plain or wrapped in CoreSight frames by the
 * frame layer's formatter with the PTM's trace ID. */
#include <string.h>

#include "pft/frame.h"
#include "ptm/ptm_internal.h"

static void set_overflow(struct pft_ptm *p)
{
	p->overflowed = 1;
	p->ovf_unreported = 1;
	p->st.overflows++;
	p->atom_n = 0;
	p->atom_bits = 0;
	p->tracing = 0;
	p->ts_full = 1;
}

/* Encode one packet into the FIFO.  Returns 0, or < 0 when it was not
 * output (PTM disabled, FIFO overflowed). */
int ptm_emit(struct pft_ptm *p, struct pft_packet *k)
{
	uint8_t b[PFT_PKT_MAX_BYTES * 2];
	if (!p->enabled)
		return -PFT_E_INVAL;
	if (p->overflowed) {
		p->st.lost_packets++;
		return -PFT_E_NOSPC;
	}
	int n = pft_pkt_encoder_encode(p->enc, k, b, sizeof(b));
	if (n <= 0) {
		/* the model built a packet the encoder refuses: a bug */
		p->enc_err = n < 0 ? n : -PFT_E_INTERNAL;
		return p->enc_err;
	}
	if (ptm_fifo_put(&p->fifo, b, (size_t)n) < 0) {
		set_overflow(p);
		p->st.lost_packets++;
		return -PFT_E_NOSPC;
	}
	p->st.packets++;
	p->st.bytes += (uint64_t)n;
	if (k->type == PFT_PKT_ASYNC) {
		p->sync_bytes = 0;
	} else {
		uint32_t fr = p->regs[PFT_PTM_ETMSYNCFR] & 0xFFF;
		p->sync_bytes += (uint64_t)n;
		if (fr && p->sync_bytes >= fr)
			p->sync_pending = 1;
	}
	if (p->cb) {
		k->offset = p->fifo.wr - (uint64_t)n;
		k->size = (uint32_t)n;
		k->nbytes = (uint8_t)(n < PFT_PKT_MAX_BYTES ? n : PFT_PKT_MAX_BYTES);
		memcpy(k->bytes, b, k->nbytes);
		p->cb(k, p->cb_arg);
	}
	return 0;
}

void ptm_flush_atoms(struct pft_ptm *p)
{
	if (!p->atom_n)
		return;
	struct pft_packet k;
	memset(&k, 0, sizeof(k));
	k.type = PFT_PKT_ATOM;
	k.atoms = p->atom_bits;
	k.atom_count = p->atom_n;
	p->atom_n = 0;
	p->atom_bits = 0;
	(void)ptm_emit(p, &k);
}

size_t pft_ptm_read(struct pft_ptm *p, uint8_t *buf, size_t cap)
{
	if (!p || !buf)
		return 0;
	return ptm_fifo_read(&p->fifo, buf, cap);
}

size_t pft_ptm_pending(const struct pft_ptm *p)
{
	return p ? ptm_fifo_pending(&p->fifo) : 0;
}

size_t pft_ptm_fifo_level(const struct pft_ptm *p)
{
	return p ? ptm_fifo_level(&p->fifo) : 0;
}


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
		int n = pft_frame_encoder_encode(p->fenc, p->f.trace_id, tmp, len, buf + out, room, &used);
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
