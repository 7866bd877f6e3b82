# Empty compiler generated dependencies file for test_pkt_stream.
# This may be replaced when dependencies are built.
