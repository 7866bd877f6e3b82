# Empty compiler generated dependencies file for test_ptm_trace.
# This may be replaced when dependencies are built.
