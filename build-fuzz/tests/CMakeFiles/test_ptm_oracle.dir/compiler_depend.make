# Empty compiler generated dependencies file for test_ptm_oracle.
# This may be replaced when dependencies are built.
