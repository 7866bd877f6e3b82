# Empty compiler generated dependencies file for test_pkt_encoder.
# This may be replaced when dependencies are built.
