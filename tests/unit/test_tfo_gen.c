/* SPDX-License-Identifier: BSD-3-Clause */
/* Port generator against the spec's signal sequences: Table 6.5 (data 0xABCD,
 * mid-byte TFO, gap nibble, remaining nibble, TFO header), and the trigger
 * rules of the "Trace FIFO offsets" text and IHI 0014 6.1.7, each written
 * out cycle by cycle from the prose. */
#include <string.h>

#include "check.h"
#include "pft/tfo.h"

enum { IE = PFT_TFO_PS_IE, DE = PFT_TFO_PS_DE, IN = PFT_TFO_PS_IN, DN = PFT_TFO_PS_DN,
       WT = PFT_TFO_PS_WT, DW = PFT_TFO_PS_DW, TR = PFT_TFO_PS_TR, TD = PFT_TFO_PS_TD };

struct exp { uint8_t ps; uint16_t pkt; };

/* Run the generator over n input cycles; bytes are taken in order from
 * data.  Checks every output cycle against want. */
static void run(const struct pft_tfo_port *port, const struct pft_tfo_gen_cycle *in, size_t n,
		const uint8_t *data, const struct exp *want, struct pft_tfo_gen_note *notes)
{
	struct pft_tfo_gen *g = pft_tfo_gen_alloc(port, 64);
	size_t i, used = 0;

	CHECK(g != NULL);
	if (!g)
		return;
	for (i = 0; i < n; i++) {
		struct pft_tfo_cycle out;
		struct pft_tfo_gen_note note;

		CHECK_EQ(pft_tfo_gen_step(g, &in[i], data + used, &out, &note), 0);
		used += in[i].npush;
		if (out.pipestat != want[i].ps || out.tracepkt != want[i].pkt)
			fprintf(stderr, "cycle %zu: got %s 0x%x want %s 0x%x\n", i,
				pft_tfo_ps_name(out.pipestat), out.tracepkt,
				pft_tfo_ps_name(want[i].ps), want[i].pkt);
		CHECK_EQ(out.pipestat, want[i].ps);
		CHECK_EQ(out.tracepkt, want[i].pkt);
		if (notes)
			notes[i] = note;
	}
	pft_tfo_gen_free(g);
}

/* Table 6.5.  Data 0xABCD is in the FIFO as bytes 0xCD, 0xAB (low nibble
 * first).  The TFO (periodic, on an IE) comes after nibble B; value 1 (one
 * byte left: gap + A), header b0RR00000 with RR = 00. */
static void test_table_6_5(void)
{
	static const struct pft_tfo_port port = { 4, 0 };
	static const uint8_t data[] = { 0xCD, 0xAB, 0x00, 0x80, 0x00, 0x00, 0x5A };
	const struct pft_tfo_gen_cycle in[] = {
		{ DE, 0, 0, 0, 2 },                /* ID: D */
		{ IE, 0, 0, 0, 0 },                /* IE: C */
		{ WT, 0, 0, 0, 0 },                /* WT: B */
		{ IE, PFT_TFO_GEN_TFO, 0, 0, 4 },  /* TD (originally IE), TFO + address */
		{ IE, 0, 0, 0, 0 },                /* IE: TFO[7:4] */
		{ WT, 0, 0, 0, 0 },                /* WT: gap nibble */
		{ IN, 0, 0, 0, 0 },                /* IN: A */
		{ DN, 0, 0, 0, 1 },                /* DN: TFO header [3:0] */
		{ IE, 0, 0, 0, 0 },                /* (beyond the table) header [7:4] */
	};
	const struct exp want[] = {
		{ DE, 0xD }, { IE, 0xC }, { WT, 0xB },
		{ TD, 0x9 }, /* b1001 */
		{ IE, 0x1 }, /* b0001 */
		{ WT, 0x6 }, /* b0110 */
		{ IN, 0xA }, /* b1010 */
		{ DN, 0x0 }, /* header [3:0] */
		{ IE, 0x0 },
	};
	struct pft_tfo_gen_note notes[9];

	run(&port, in, 9, data, want, notes);
	CHECK_EQ(notes[3].tfo_value, 1);
	CHECK_EQ(notes[3].gap, 1);
	CHECK_EQ(notes[3].header_offset, 2);
	CHECK_EQ(notes[3].status_dropped, 0);
	CHECK_EQ(notes[0].tfo_value, -1);
}

/* 8-bit port, trigger on the TFO cycle: "the PIPESTAT is TR, and
 * TRACEPKT[3:0] = 0111 (TD)... The offset is output on the following
 * cycle"; FIFO output waits until it is out. */
static void test_trigger_on_tfo_8(void)
{
	static const struct pft_tfo_port port = { 8, 0 };
	static const uint8_t data[] = { 0x11, 0x22, 0x33 };
	const struct pft_tfo_gen_cycle in[] = {
		{ DE, 0, 0, 0, 2 },
		{ IE, PFT_TFO_GEN_TFO | PFT_TFO_GEN_TRIGGER, 0, 0, 1 },
		{ IN, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
	};
	const struct exp want[] = {
		{ DE, 0x11 },
		{ TR, 0x7 },
		{ IN, 0x19 },  /* value 1: 0x22 is still ahead of the header */
		{ WT, 0x22 },
		{ WT, 0x00 },  /* header, reason 0 */
		{ WT, 0x33 },
		{ TD, 0x00 },  /* empty FIFO: WT -> TD, TRACEPKT[0] = 0 */
	};

	run(&port, in, 7, data, want, NULL);
}

/* 4-bit port, trigger on the TFO cycle: the offset takes the following two
 * cycles; mid-byte, so the gap nibble follows. */
static void test_trigger_on_tfo_4(void)
{
	static const struct pft_tfo_port port = { 4, 1 };
	static const uint8_t data[] = { 0xCD };
	const struct pft_tfo_gen_cycle in[] = {
		{ DE, 0, 0, 0, 1 },
		{ WT, PFT_TFO_GEN_TFO | PFT_TFO_GEN_TRIGGER, 1, 0, 0 },
		{ IE, 0, 0, 0, 0 },
		{ IE, 0, 0, 0, 0 },
		{ IE, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
	};
	const struct exp want[] = {
		{ DE, 0xD },
		{ TR, 0x7 },
		{ IE, 0x9 }, /* value 1 low */
		{ IE, 0x1 }, /* value 1 high */
		{ IE, 0x6 }, /* gap */
		{ WT, 0xC },
		{ WT, 0x0 }, /* header b0010 0000, reason 1: low nibble */
		{ WT, 0x2 },
		{ TD, 0x7 }, /* cycle-accurate idle TD: 0111 */
	};
	struct pft_tfo_gen_note notes[9];

	run(&port, in, 9, data, want, notes);
	CHECK_EQ(notes[1].status_dropped, 1);
}

/* 4-bit: "If a trigger occurs on the cycle in which the upper 4 bits of the
 * offset are being output ... the replacement PIPESTAT is output, and the
 * upper 4 bits of the offset are output on the following cycle." */
static void test_trigger_on_upper_nibble(void)
{
	static const struct pft_tfo_port port = { 4, 0 };
	static const uint8_t data[] = { 0x00 };
	const struct pft_tfo_gen_cycle in[] = {
		{ WT, PFT_TFO_GEN_TFO, 1, 0, 0 },
		{ IN, PFT_TFO_GEN_TRIGGER, 0, 0, 0 },
		{ IE, 0, 0, 0, 0 },
		{ IE, 0, 0, 0, 0 },
		{ IE, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
	};
	const struct exp want[] = {
		{ TD, 0x9 }, { TR, IN }, { IE, 0x0 }, { IE, 0x0 }, { IE, 0x2 }, { TD, 0x0 },
	};

	(void)data;
	run(&port, in, 6, data, want, NULL);
}

/* 4-bit: "If a trigger occurs on the same cycle as a gap nibble ... the
 * replacement PIPESTAT is output and the gap nibble is output on the
 * following cycle." */
static void test_trigger_on_gap(void)
{
	static const struct pft_tfo_port port = { 4, 0 };
	static const uint8_t data[] = { 0xAB };
	const struct pft_tfo_gen_cycle in[] = {
		{ DE, 0, 0, 0, 1 },
		{ IE, PFT_TFO_GEN_TFO, 0, 0, 0 },
		{ IE, 0, 0, 0, 0 },
		{ DN, PFT_TFO_GEN_TRIGGER, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
	};
	const struct exp want[] = {
		{ DE, 0xB }, { TD, 0x9 }, { IE, 0x1 }, { TR, DN }, { WT, 0x6 }, { WT, 0xA },
		{ WT, 0x0 }, { WT, 0x0 },
	};

	run(&port, in, 8, data, want, NULL);
}

/* 6.1.7: a trigger with an empty FIFO shows WT as the replaced status.
 * 16-bit: two bytes a cycle, TFO value on [7:0]. */
static void test_trigger_16_empty(void)
{
	static const struct pft_tfo_port port = { 16, 0 };
	static const uint8_t data[] = { 1, 2, 3, 4, 5 };
	const struct pft_tfo_gen_cycle in[] = {
		{ WT, PFT_TFO_GEN_TRIGGER, 0, 0, 0 },
		{ WT, PFT_TFO_GEN_TFO, 1, 0, 1 },
		{ DE, 0, 0, 0, 4 },
		{ IE, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
	};
	const struct exp want[] = {
		{ TR, WT },
		{ TD, 0x0009 },     /* value 0, upper byte unused */
		{ DE, 0x0120 },     /* header (reason 1) + byte 1 */
		{ IE, 0x0302 },
		{ WT, 0x0504 },
	};

	run(&port, in, 5, data, want, NULL);
}

/* A trigger during FIFO output stops the draining for that cycle; the
 * data comes one cycle later.  16-bit. */
static void test_trigger_16(void)
{
	static const struct pft_tfo_port port = { 16, 0 };
	static const uint8_t data[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	const struct pft_tfo_gen_cycle in[] = {
		{ WT, PFT_TFO_GEN_TFO, 1, 0, 1 },
		{ DE, 0, 0, 0, 4 },
		{ IE, PFT_TFO_GEN_TRIGGER, 0, 0, 0 },
		{ IE, 0, 0, 0, 0 },
		{ DW, 0, 0, 0, 5 },
		{ WT, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
		{ WT, 0, 0, 0, 0 },
	};
	const struct exp want[] = {
		{ TD, 0x0009 },     /* value 0, upper byte unused */
		{ DE, 0x0120 },     /* header (reason 1) + byte 1 */
		{ TR, IE },
		{ IE, 0x0302 },
		{ DW, 0x0504 },
		{ WT, 0x0706 },
		{ WT, 0x0908 },
		{ WT, 0x000A },     /* one byte: upper lane idle */
	};
	struct pft_tfo_gen_note notes[8];

	run(&port, in, 8, data, want, notes);
	CHECK_EQ(notes[7].idle_lanes, 1);
	CHECK_EQ(notes[1].idle_lanes, 0);
}

/* "The trigger can occur only once per trace run" (the TFO text).  A
 * generator that triggered on every cycle stalled the FIFO output for as
 * long as it liked, a port no ETM drives and no bounded synchroniser can
 * follow: the second trigger is refused and nothing changes. */
static void test_one_trigger(void)
{
	static const struct pft_tfo_port port = { 4, 0 };
	struct pft_tfo_gen *g = pft_tfo_gen_alloc(&port, 16);
	const struct pft_tfo_gen_cycle tfo = { WT, PFT_TFO_GEN_TFO, 1, 0, 0 };
	const struct pft_tfo_gen_cycle trig = { IN, PFT_TFO_GEN_TRIGGER, 0, 0, 0 };
	const struct pft_tfo_gen_cycle plain = { IN, 0, 0, 0, 0 };
	struct pft_tfo_cycle out;

	CHECK(g != NULL);
	if (!g)
		return;
	CHECK_EQ(pft_tfo_gen_step(g, &tfo, NULL, &out, NULL), 0);
	CHECK_EQ(pft_tfo_gen_step(g, &trig, NULL, &out, NULL), 0);
	CHECK_EQ(out.pipestat, TR);
	CHECK_EQ(pft_tfo_gen_step(g, &trig, NULL, &out, NULL), -PFT_E_INVAL);
	CHECK_EQ(pft_tfo_gen_busy(g), 1); /* the upper value nibble is still due */
	CHECK_EQ(pft_tfo_gen_step(g, &plain, NULL, &out, NULL), 0);
	CHECK_EQ(out.pipestat, IN);
	CHECK_EQ(out.tracepkt, 0x0);       /* value 0: TFO[7:4] */
	CHECK_EQ(pft_tfo_gen_step(g, &trig, NULL, &out, NULL), -PFT_E_INVAL);
	pft_tfo_gen_free(g);
}

/* Idle lanes (doc/tfo.md): an empty FIFO on a non-WT cycle leaves
 * TRACEPKT without data; the generator drives 0 and counts the lane. */
static void test_idle_lanes(void)
{
	static const struct pft_tfo_port port = { 8, 0 };
	const struct pft_tfo_gen_cycle in[] = {
		{ IE, 0, 0, 0, 0 }, { WT, 0, 0, 0, 0 }, { IN, 0, 0, 0, 0 },
	};
	const struct exp want[] = { { IE, 0x00 }, { TD, 0x00 }, { IN, 0x00 } };
	static const uint8_t none[1];
	struct pft_tfo_gen_note notes[3];

	run(&port, in, 3, none, want, notes);
	CHECK_EQ(notes[0].idle_lanes, 1);
	CHECK_EQ(notes[1].idle_lanes, 0);
	CHECK_EQ(notes[2].idle_lanes, 1);
}

static void test_errors(void)
{
	static const struct pft_tfo_port port = { 4, 0 }, bad = { 5, 0 };
	struct pft_tfo_gen *g = pft_tfo_gen_alloc(&port, 100);
	struct pft_tfo_gen_cycle c = { IE, PFT_TFO_GEN_TFO, 0, 0, 0 };
	struct pft_tfo_cycle out;
	uint8_t data[100];

	memset(data, 0x55, sizeof(data));
	CHECK(pft_tfo_gen_alloc(&bad, 16) == NULL);
	CHECK(pft_tfo_gen_alloc(&port, 0) == NULL);
	CHECK(g != NULL);
	if (!g)
		return;
	c.status = WT; /* periodic sync needs an IE */
	CHECK_EQ(pft_tfo_gen_step(g, &c, NULL, &out, NULL), -PFT_E_INVAL);
	c.status = TD;
	c.flags = 0;
	CHECK_EQ(pft_tfo_gen_step(g, &c, NULL, &out, NULL), -PFT_E_INVAL);
	c.status = IE;
	c.flags = PFT_TFO_GEN_TFO;
	c.reason = 4;
	CHECK_EQ(pft_tfo_gen_step(g, &c, NULL, &out, NULL), -PFT_E_INVAL);
	c.reason = 0;
	CHECK_EQ(pft_tfo_gen_step(g, &c, NULL, &out, NULL), 0);
	CHECK_EQ(pft_tfo_gen_busy(g), 1);
	CHECK_EQ(pft_tfo_gen_step(g, &c, NULL, &out, NULL), -PFT_E_INVAL); /* value still going */
	c.flags = 0;
	c.npush = 96;
	CHECK_EQ(pft_tfo_gen_step(g, &c, data, &out, NULL), 0);
	CHECK_EQ(pft_tfo_gen_busy(g), 0);
	c.flags = PFT_TFO_GEN_TFO;
	c.npush = 0;
	CHECK_EQ(pft_tfo_gen_step(g, &c, NULL, &out, NULL), -PFT_E_INVAL); /* 97 bytes > 95 */
	c.flags = 0;
	c.npush = 10;
	CHECK_EQ(pft_tfo_gen_step(g, &c, data, &out, NULL), -PFT_E_NOSPC);
	CHECK_EQ(pft_tfo_gen_fifo_level(g), 97);
	CHECK_EQ(pft_tfo_gen_stream_offset(g), 97);
	pft_tfo_gen_free(g);
}

int main(void)
{
	test_table_6_5();
	test_trigger_on_tfo_8();
	test_trigger_on_tfo_4();
	test_trigger_on_upper_nibble();
	test_trigger_on_gap();
	test_trigger_16_empty();
	test_trigger_16();
	test_one_trigger();
	test_idle_lanes();
	test_errors();
	return check_report();
}
