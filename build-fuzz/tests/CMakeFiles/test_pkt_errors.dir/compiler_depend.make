# Empty compiler generated dependencies file for test_pkt_errors.
# This may be replaced when dependencies are built.
