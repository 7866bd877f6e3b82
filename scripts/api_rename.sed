# The one verb set of the public API (doc/architecture.md, "The API verb
# set"): old name -> new name.  To bring a branch or an embedding program
# up to date:  sed -i -E -f scripts/api_rename.sed FILE...
s/\bpft_pkt_feed\b/pft_pkt_decoder_feed/g
s/\bpft_pkt_end\b/pft_pkt_decoder_end/g
s/\bpft_pkt_next_batch\b/pft_pkt_decoder_next_batch/g
s/\bpft_pkt_next\b/pft_pkt_decoder_next/g
s/\bpft_pkt_resync\b/pft_pkt_decoder_resync/g
s/\bpft_pkt_get_offset\b/pft_pkt_decoder_get_offset/g
s/\bpft_enc_alloc\b/pft_pkt_encoder_alloc/g
s/\bpft_enc_free\b/pft_pkt_encoder_free/g
s/\bpft_enc_packet\b/pft_pkt_encoder_encode/g
s/\bpft_enc_reset\b/pft_pkt_encoder_reset/g
s/\bstruct pft_encoder\b/struct pft_pkt_encoder/g
s/\bpft_flow_alloc\b/pft_flow_decoder_alloc/g
s/\bpft_flow_free\b/pft_flow_decoder_free/g
s/\bpft_flow_feed\b/pft_flow_decoder_feed/g
s/\bpft_flow_put_packet\b/pft_flow_decoder_put_packet/g
s/\bpft_flow_end\b/pft_flow_decoder_end/g
s/\bpft_flow_next\b/pft_flow_decoder_next/g
s/\bpft_flow_resync\b/pft_flow_decoder_resync/g
s/\bpft_flow_get_offset\b/pft_flow_decoder_get_offset/g
s/\bpft_flow_get_stats\b/pft_flow_decoder_get_stats/g
s/\bpft_frame_feed\b/pft_frame_decoder_feed/g
s/\bpft_frame_end\b/pft_frame_decoder_end/g
s/\bpft_frame_next\b/pft_frame_decoder_next/g
s/\bpft_frame_get_offset\b/pft_frame_decoder_get_offset/g
s/\bpft_frame_get_stats\b/pft_frame_decoder_get_stats/g
s/\bpft_frame_reset\b/pft_frame_decoder_resync/g
s/\bpft_frame_encode\b/pft_frame_encoder_encode/g
s/\bpft_tfo_dec_alloc\b/pft_tfo_decoder_alloc/g
s/\bpft_tfo_dec_free\b/pft_tfo_decoder_free/g
s/\bpft_tfo_dec_push\b/pft_tfo_decoder_feed/g
s/\bpft_tfo_dec_end\b/pft_tfo_decoder_end/g
s/\bpft_tfo_dec_next\b/pft_tfo_decoder_next/g
s/\bpft_tfo_dec_get_offset\b/pft_tfo_decoder_get_offset/g
s/\bstruct pft_tfo_dec\b/struct pft_tfo_decoder/g
s/\bpft_tfo_err_str\b/pft_tfo_err_name/g
s/\bpft_rec_exc_name\b/pft_rec_exc_type_name/g
s/\bpft_etm3_flow_alloc\b/pft_etm3_flow_decoder_alloc/g
s/\bpft_etm3_flow_free\b/pft_etm3_flow_decoder_free/g
s/\bpft_etm3_flow_next\b/pft_etm3_flow_decoder_next/g
s/\bpft_etm3_flow_put_packet\b/pft_etm3_flow_decoder_put_packet/g
s/\bstruct pft_etm3_flow\b/struct pft_etm3_flow_decoder/g
