# Empty compiler generated dependencies file for test_pkt_decoder.
# This may be replaced when dependencies are built.
