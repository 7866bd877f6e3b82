/* SPDX-License-Identifier: BSD-3-Clause */
/* ETMv2 trace port: PIPESTAT names, the TFO value codec, TFO packet headers,
 * the periodic synchronisation counter and the message tables.
 *
 * Sources (ARM IHI 0014Q, ETM Architecture Specification, chapter 6 "ETMv2
 * Signal Protocol"):
 *   6.1.2  branch phantom PIPESTATs (PT../PN.. followed by IE, DE, IN, DN);
 *   6.1.3  data PIPESTATs: a "D" mnemonic placed a packet in the FIFO;
 *   6.1.6  TD: no FIFO data on TRACEPKT; TRACEPKT[0]=1 marks a TFO;
 *   6.1.7  TR: TRACEPKT[3:0] holds the replaced status; TD (b0111) there
 *          means a TFO is pending;
 *   6.5.x  "Trace FIFO offsets": Table 6.4 and the TFO formula, Example 6.1;
 *   6.5.3  TFO packet headers (Table 6.6), 6.5.4 reason codes (Table 6.7).
 * The PIPESTAT values: TD = b0111 is fixed by 6.1.7 / the TFO text ("TR, and
 * TRACEPKT[3:0] = 0111 (TD)"); the others follow Table 6.1 of the ETMv2
 * chapter (bit 0 = data placed, bit 3 = branch phantom), see doc/tfo.md. */
#include <string.h>

#include "pft/tfo.h"

static const char *const ps_names[16] = {
	"IE", "DE", "IN", "DN", "WT", "DW", "TR", "TD",
	"PTIE", "PTDE", "PTIN", "PTDN", "PNIE", "PNDE", "PNIN", "PNDN"
};

const char *pft_tfo_ps_name(unsigned ps)
{
	return ps < 16 ? ps_names[ps] : "??";
}

static int upper(int c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

static int eq_nocase(const char *s, size_t len, const char *name)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!name[i] || upper((unsigned char)s[i]) != name[i])
			return 0;
	return name[len] == '\0';
}

int pft_tfo_ps_parse(const char *s, size_t len)
{
	unsigned i;

	if (!s)
		return -PFT_E_INVAL;
	if (eq_nocase(s, len, "ID"))
		return PFT_TFO_PS_DE;
	for (i = 0; i < 16; i++)
		if (eq_nocase(s, len, ps_names[i]))
			return (int)i;
	return -PFT_E_INVAL;
}

/* Table 6.4 formula: TRACEPKT[7:4] = TFO[3:0], TRACEPKT[3] = !TFO[6],
 * TRACEPKT[2:1] = TFO[5:4], TRACEPKT[0] = 1. */
int pft_tfo_encode(unsigned value)
{
	unsigned pkt;

	if (value > PFT_TFO_MAX_VALUE)
		return -PFT_E_INVAL;
	pkt = (value & 0xFu) << 4;
	pkt |= ((value >> 6) & 1u) ? 0u : 0x8u;
	pkt |= ((value >> 4) & 3u) << 1;
	return (int)(pkt | 1u);
}

/* Table 6.4, read backwards.  The two codes with TFO[6:5] = 11 are not TFO
 * values: b0101 is reserved and b0111 is a cycle-accurate trace-disabled
 * cycle, which is why 95 is the largest value. */
enum pft_tfo_kind pft_tfo_classify(unsigned tracepkt, unsigned *value)
{
	unsigned lo = tracepkt & 0xFu;

	if (!(lo & 1u))
		return PFT_TFO_KIND_DISABLED;
	if (lo == 0x7u)
		return PFT_TFO_KIND_DISABLED_CA;
	if (lo == 0x5u)
		return PFT_TFO_KIND_RESERVED;
	if (value)
		*value = ((tracepkt >> 4) & 0xFu) | (((lo >> 1) & 3u) << 4) |
			 ((lo & 0x8u) ? 0u : 0x40u);
	return PFT_TFO_KIND_VALUE;
}

static const char *const reason_names[4] = { "sync", "enable", "overflow", "debug" };

const char *pft_tfo_kind_name(enum pft_tfo_kind k)
{
	switch (k) {
	case PFT_TFO_KIND_DISABLED: return "disabled";
	case PFT_TFO_KIND_DISABLED_CA: return "disabled_ca";
	case PFT_TFO_KIND_VALUE: return "value";
	case PFT_TFO_KIND_RESERVED: return "reserved";
	default: return "?";
	}
}

const char *pft_tfo_item_kind_name(enum pft_tfo_item_kind k)
{
	switch (k) {
	case PFT_TFO_ITEM_STATUS: return "status";
	case PFT_TFO_ITEM_BYTES: return "bytes";
	case PFT_TFO_ITEM_TFO: return "tfo";
	case PFT_TFO_ITEM_TRIGGER: return "trigger";
	case PFT_TFO_ITEM_SKIPPED: return "skipped";
	case PFT_TFO_ITEM_ERROR: return "error";
	default: return "?";
	}
}

const char *pft_tfo_reason_name(unsigned reason)
{
	return reason < 4 ? reason_names[reason] : "?";
}

/* Table 6.6 lost its bit pattern in our copy of the text (the figure is
 * missing).  pft uses b L R R 0 0 0 0 0: RR, the reason code, in bits [6:5]
 * and bit 7 for the LSM-in-progress header, the layout of the information
 * byte of the ETMv3/PFT I-sync packet, which IHI 0014 7.14.2 calls the
 * successor of the ETMv2 TFO packet.  Kept in these two functions only. */
int pft_tfo_header_encode(unsigned reason, int lsm)
{
	if (reason > 3)
		return -PFT_E_INVAL;
	return (int)((lsm ? 0x80u : 0u) | (reason << 5));
}

int pft_tfo_header_decode(unsigned byte, unsigned *reason, int *lsm)
{
	if (reason)
		*reason = (byte >> 5) & 3u;
	if (lsm)
		*lsm = (byte >> 7) & 1u;
	return (byte & 0x1Fu) ? -PFT_E_BAD_PACKET : 0;
}

int pft_tfo_port_check(const struct pft_tfo_port *port)
{
	if (!port || (port->width != 4 && port->width != 8 && port->width != 16))
		return -PFT_E_INVAL;
	if (port->cycle_accurate > 1)
		return -PFT_E_INVAL;
	return 0;
}

/* IHI 0014 6.5.x: the counter reloads as soon as it reaches zero; the
 * periodic TFO waits for an IE; a second expiry before that gives a TFO with
 * reason b10 at once.  The spec's "If a periodic TFO does occur before the
 * counter next reaches zero" is read as "does not occur". */
void pft_tfo_sync_counter_init(struct pft_tfo_sync_counter *s, uint32_t period)
{
	if (!s)
		return;
	s->period = period;
	s->count = period;
	s->pending = 0;
}

int pft_tfo_sync_counter_tick(struct pft_tfo_sync_counter *s, unsigned ps)
{
	if (!s || !s->period)
		return -1;
	if (s->count > 0)
		s->count--;
	if (s->count == 0) {
		s->count = s->period;
		if (s->pending) {
			s->pending = 0;
			return PFT_TFO_REASON_OVERFLOW;
		}
		s->pending = 1;
	}
	if (s->pending && ps == PFT_TFO_PS_IE) {
		s->pending = 0;
		return PFT_TFO_REASON_SYNC;
	}
	return -1;
}

static const char *const err_strs[] = {
	"no error",
	"TD cycle with the reserved TFO encoding b0101",
	"TD cycle without a TFO while a TFO value was being output",
	"TD cycle without a TFO while a TFO header was still in the FIFO",
	"gap nibble is not 0x6",
	"TFO header with reserved bits set",
	"TFO header not reached within the decoder's bound",
	"capture ended inside a TFO or a byte",
	"PIPESTAT or TRACEPKT out of range for the port width",
	"TFO started while the previous TFO value was being output",
	"TFO value puts its header before the header of an earlier TFO",
};

const char *pft_tfo_err_name(unsigned detail)
{
	if (detail < sizeof(err_strs) / sizeof(err_strs[0]))
		return err_strs[detail];
	return "unknown TFO port error";
}
