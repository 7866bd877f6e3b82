# Empty compiler generated dependencies file for test_flow_tc2.
# This may be replaced when dependencies are built.
