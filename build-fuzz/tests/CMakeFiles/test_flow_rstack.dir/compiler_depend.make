# Empty compiler generated dependencies file for test_flow_rstack.
# This may be replaced when dependencies are built.
