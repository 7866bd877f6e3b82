# Empty dependencies file for test_ptm_resources.
# This may be replaced when dependencies are built.
