# Empty compiler generated dependencies file for test_pkt_tables.
# This may be replaced when dependencies are built.
