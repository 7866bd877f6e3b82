# Empty compiler generated dependencies file for test_pkt_roundtrip.
# This may be replaced when dependencies are built.
