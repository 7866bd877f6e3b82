# Empty compiler generated dependencies file for test_ptm_roundtrip.
# This may be replaced when dependencies are built.
