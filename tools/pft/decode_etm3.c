/* SPDX-License-Identifier: BSD-3-Clause */
/* pft decode for ETMv3 trace sources: the ETMv3 packet decoder, then the
 * ETMv3 instruction flow (doc/etm3.md), into the same output as PFT. */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "decode_etm3.h"
#include "input_probe.h"

struct e3 {
	struct pft_etm3_decoder *dec;
	struct pft_etm3_flow_decoder *fl;
	struct decode_out *out;
	uint64_t events[PFT_EV_NR], insns, packets;
};

/* Every packet the decoder has through the flow to the output: -PFT_E_AGAIN,
 * -PFT_E_EOS, or -PFT_E_IO (output failed). */
static int drain(struct e3 *s)
{
	struct pft_etm3_packet p;
	struct pft_flow_item it;
	int r;

	while ((r = pft_etm3_decoder_next(s->dec, &p, sizeof p)) == 0) {
		if (p.type != PFT_ETM3_UNSYNCED && p.type != PFT_ETM3_ERROR)
			s->packets++;
		pft_etm3_flow_decoder_put_packet(s->fl, &p);
		while (pft_etm3_flow_decoder_next(s->fl, &it, sizeof it) == 0) {
			if (it.kind == PFT_FLOW_EVENT && it.type < PFT_EV_NR)
				s->events[it.type]++;
			else
				s->insns += it.ninsns;
			if (decode_out_item(s->out, &it))
				return -PFT_E_IO;
		}
	}
	return r;
}

int decode_etm3(struct input *in, const struct pft_image *img, struct decode_out *out,
		const char *outpath)
{
	struct e3 s;
	const uint8_t *buf = NULL;
	size_t len = 0;
	int k, err = -PFT_E_AGAIN, rc = PFT_EXIT_OK;
	uint64_t problems;

	memset(&s, 0, sizeof s);
	s.out = out;
	s.dec = pft_etm3_decoder_alloc(&in->config);
	s.fl = pft_etm3_flow_decoder_alloc(&in->config, img);
	if (!s.dec || !s.fl) {
		cli_error("decode", "cannot create the ETMv3 decoder (out of memory)");
		rc = PFT_EXIT_USAGE;
		goto done;
	}
	while ((k = input_read(in, &buf, &len)) > 0) {
		pft_etm3_decoder_feed(s.dec, buf, len);
		err = drain(&s);
		if (err != -PFT_E_AGAIN)
			break;
	}
	if (k < 0) {
		rc = in->exit_code;
		goto done;
	}
	if (err == -PFT_E_AGAIN) {
		struct pft_flow_item it;
		pft_etm3_decoder_end(s.dec);
		err = drain(&s);
		pft_etm3_flow_decoder_end(s.fl);
		while (err != -PFT_E_IO && pft_etm3_flow_decoder_next(s.fl, &it, sizeof it) == 0) {
			if (it.kind == PFT_FLOW_EVENT && it.type < PFT_EV_NR)
				s.events[it.type]++;
			if (decode_out_item(s.out, &it))
				err = -PFT_E_IO;
		}
	}
	rc = input_finish(in, "decode");
	if (rc)
		goto done;
	if (decode_out_finish(out, NULL) || err == -PFT_E_IO) {
		cli_error("decode", "error writing %s", outpath ? outpath : "standard output");
		rc = PFT_EXIT_USAGE;
		goto done;
	}
	if (in->frame_errors) {
		cli_error("decode", "%s: %s%s", in->buffer_path ? in->buffer_path : in->path,
			  in->frame_error_msg, in->frame_errors > 1 ? " (and more frame errors)" : "");
		rc = PFT_EXIT_DATA;
	}
	problems = s.events[PFT_EV_PACKET_ERROR] + s.events[PFT_EV_INCONSISTENT] +
		   s.events[PFT_EV_SYNC_MISMATCH];
	if (problems) {
		cli_error("decode", "trace ID 0x%02X (ETMv3): %" PRIu64 " malformed packet(s), %" PRIu64
			  " disagreement(s) with the image, %" PRIu64 " periodic I-sync mismatch(es)",
			  in->trace_id, s.events[PFT_EV_PACKET_ERROR], s.events[PFT_EV_INCONSISTENT],
			  s.events[PFT_EV_SYNC_MISMATCH]);
		rc = PFT_EXIT_DATA;
	}
	if (in->delivered == 0) {
		cli_error("decode", "no trace data for trace ID 0x%02X", in->trace_id);
		rc = PFT_EXIT_DATA;
	} else if (s.events[PFT_EV_TRACE_ON] == 0) {
		cli_error("decode", "trace ID 0x%02X (ETMv3): no I-sync in %" PRIu64 " bytes%s: nothing could be decoded",
			  in->trace_id, in->delivered, s.packets ? "" : " (not even an A-sync)");
		rc = PFT_EXIT_DATA;
	}
done:
	pft_etm3_flow_decoder_free(s.fl);
	pft_etm3_decoder_free(s.dec);
	return rc;
}
