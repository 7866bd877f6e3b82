/* SPDX-License-Identifier: BSD-3-Clause */
/* ETMv2 trace port generator: FIFO bytes + pipeline statuses + TFO and
 * trigger events -> one port cycle per input cycle.
 *
 * Rules implemented (ARM IHI 0014Q chapter 6, "Trace FIFO offsets" and
 * 6.1.6/6.1.7), and the choices doc/tfo.md records:
 *  - the FIFO drains onto TRACEPKT in every cycle it holds data: one nibble
 *    (4-bit, low nibble first), one byte (8-bit) or up to two bytes (16-bit,
 *    first byte on [7:0]); a byte may leave in the cycle it enters;
 *  - a WT cycle with an empty FIFO becomes TD with TRACEPKT[0] = 0, or
 *    TRACEPKT[3:0] = 0111 when cycle-accurate (Table 6.4);
 *  - a TFO cycle outputs TD and the TFO value (Table 6.4 formula): over one
 *    cycle on 8/16-bit ports, over two on a 4-bit port (low nibble with the
 *    TD, high nibble on the next cycle with that cycle's own status); the
 *    value counts the FIFO bytes before the TFO header, a partly output byte
 *    counting as one; when that byte is partly output (mid-byte, 4-bit) the
 *    gap nibble 0x6 follows the value; FIFO output waits until all of that
 *    is out;
 *  - the TFO packet (pft's header byte + the caller's bytes) enters the FIFO
 *    on the TFO cycle; reason 0 needs an IE (which the TD implies), reasons
 *    1-3 have no functional status (the input status is dropped);
 *  - trigger: PIPESTAT TR with the replaced status on TRACEPKT[3:0] (TD =
 *    0111 on a TFO cycle, whose value then follows on the next cycle(s));
 *    the port output (TFO nibble, gap nibble or FIFO data) of that cycle
 *    moves to the next cycle; "the trigger can occur only once per trace
 *    run" (the TFO text), and a generator is one trace run, so a second
 *    trigger is refused (repeated TR cycles would stall the FIFO output
 *    without bound, which no ETM does);
 *  - a lane with nothing to carry (empty FIFO on a non-WT cycle, second lane
 *    of a 16-bit cycle with one byte) is driven 0 and counted in
 *    note->idle_lanes: a port-level decoder cannot tell it from data. */
#include <stdlib.h>
#include <string.h>

#include "pft/tfo.h"

/* Port output that must go out before FIFO data resumes. */
enum slot_kind { SLOT_TFO_LO, SLOT_TFO_HI, SLOT_TFO_BYTE, SLOT_GAP };

struct pft_tfo_gen {
	struct pft_tfo_port port;
	uint8_t *fifo;       /* ring of fifo_size bytes */
	size_t fifo_size, head, level;
	uint8_t half;        /* 4-bit: low nibble of the head byte is out */
	uint8_t slots[4];    /* pending port slots (TFO value, gap) */
	uint8_t nslots, tfo_code;
	uint8_t triggered;   /* the one trigger of the trace run has occurred */
	uint64_t offset;     /* stream offset of the next byte pushed */
};

struct pft_tfo_gen *pft_tfo_gen_alloc(const struct pft_tfo_port *port, size_t fifo_size)
{
	struct pft_tfo_gen *g;

	if (pft_tfo_port_check(port) || fifo_size < 1 || fifo_size > 4096)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->fifo = malloc(fifo_size);
	if (!g->fifo) {
		free(g);
		return NULL;
	}
	g->port = *port;
	g->fifo_size = fifo_size;
	return g;
}

void pft_tfo_gen_free(struct pft_tfo_gen *g)
{
	if (!g)
		return;
	free(g->fifo);
	free(g);
}

size_t pft_tfo_gen_fifo_level(const struct pft_tfo_gen *g)
{
	return g ? g->level : 0;
}

int pft_tfo_gen_busy(const struct pft_tfo_gen *g)
{
	return g && g->nslots > 0;
}

uint64_t pft_tfo_gen_stream_offset(const struct pft_tfo_gen *g)
{
	return g ? g->offset : 0;
}

static void fifo_push(struct pft_tfo_gen *g, uint8_t b)
{
	g->fifo[(g->head + g->level) % g->fifo_size] = b;
	g->level++;
	g->offset++;
}

static uint8_t fifo_pop(struct pft_tfo_gen *g)
{
	uint8_t b = g->fifo[g->head];

	g->head = (g->head + 1) % g->fifo_size;
	g->level--;
	return b;
}

/* One cycle of FIFO data; returns the TRACEPKT value. */
static uint16_t drain(struct pft_tfo_gen *g, struct pft_tfo_gen_note *note)
{
	uint16_t pkt;

	switch (g->port.width) {
	case 4:
		if (!g->half) {
			g->half = 1;
			return g->fifo[g->head] & 0xFu;
		}
		g->half = 0;
		return (uint16_t)(fifo_pop(g) >> 4);
	case 8:
		return fifo_pop(g);
	default:
		pkt = fifo_pop(g);
		if (g->level)
			pkt |= (uint16_t)(fifo_pop(g) << 8);
		else
			note->idle_lanes++;
		return pkt;
	}
}

static uint16_t slot_value(const struct pft_tfo_gen *g, uint8_t slot)
{
	switch (slot) {
	case SLOT_TFO_LO:
		return g->tfo_code & 0xFu;
	case SLOT_TFO_HI:
		return (uint16_t)(g->tfo_code >> 4);
	case SLOT_TFO_BYTE:
		return g->tfo_code;
	default:
		return 0x6; /* the gap nibble is always 0x6 */
	}
}

static uint16_t pop_slot(struct pft_tfo_gen *g)
{
	uint16_t v = slot_value(g, g->slots[0]);

	memmove(g->slots, g->slots + 1, --g->nslots);
	return v;
}

int pft_tfo_gen_step(struct pft_tfo_gen *g, const struct pft_tfo_gen_cycle *in,
		     const uint8_t *bytes, struct pft_tfo_cycle *out,
		     struct pft_tfo_gen_note *note)
{
	struct pft_tfo_gen_note dummy;
	int tfo, trig, code = 0, header = 0;
	size_t need, i;

	if (!g || !in || !out || (in->npush && !bytes))
		return -PFT_E_INVAL;
	if (!note)
		note = &dummy;
	if (in->status > 15 || in->status == PFT_TFO_PS_TR || in->status == PFT_TFO_PS_TD)
		return -PFT_E_INVAL;
	tfo = (in->flags & PFT_TFO_GEN_TFO) != 0;
	trig = (in->flags & PFT_TFO_GEN_TRIGGER) != 0;
	if (trig && g->triggered)
		return -PFT_E_INVAL;
	need = in->npush;
	if (tfo) {
		if (in->reason > 3 || g->nslots)
			return -PFT_E_INVAL;
		if (in->reason == PFT_TFO_REASON_SYNC && in->status != PFT_TFO_PS_IE)
			return -PFT_E_INVAL;
		code = pft_tfo_encode((unsigned)g->level);
		if (code < 0)
			return -PFT_E_INVAL;
		header = pft_tfo_header_encode(in->reason, in->lsm);
		need++;
	}
	if (g->level + need > g->fifo_size)
		return -PFT_E_NOSPC;

	memset(note, 0, sizeof(*note));
	note->tfo_value = -1;
	out->pad = 0;
	if (tfo) {
		note->tfo_value = (int8_t)g->level;
		note->header_offset = g->offset;
		note->gap = g->port.width == 4 && g->half;
		note->status_dropped = in->reason != PFT_TFO_REASON_SYNC;
		g->tfo_code = (uint8_t)code;
		fifo_push(g, (uint8_t)header);
		if (g->port.width == 4) {
			g->slots[g->nslots++] = SLOT_TFO_LO;
			g->slots[g->nslots++] = SLOT_TFO_HI;
			if (note->gap)
				g->slots[g->nslots++] = SLOT_GAP;
		} else {
			g->slots[g->nslots++] = SLOT_TFO_BYTE;
		}
	}
	for (i = 0; i < in->npush; i++)
		fifo_push(g, bytes[i]);

	if (trig) {
		g->triggered = 1;
		/* 6.1.7: TR replaces the status; TRACEPKT[3:0] shows the replaced
		 * one, TD only for a TFO.  Port output moves to the next cycle. */
		out->pipestat = PFT_TFO_PS_TR;
		out->tracepkt = tfo ? PFT_TFO_PS_TD : in->status;
		return 0;
	}
	if (tfo) {
		out->pipestat = PFT_TFO_PS_TD;
		out->tracepkt = pop_slot(g);
		return 0;
	}
	out->pipestat = in->status;
	if (g->nslots) {
		out->tracepkt = pop_slot(g);
	} else if (g->level) {
		out->tracepkt = drain(g, note);
	} else if (in->status == PFT_TFO_PS_WT) {
		out->pipestat = PFT_TFO_PS_TD;
		out->tracepkt = g->port.cycle_accurate ? 0x7 : 0x0;
	} else {
		out->tracepkt = 0;
		note->idle_lanes = g->port.width == 16 ? 2 : 1;
	}
	return 0;
}
