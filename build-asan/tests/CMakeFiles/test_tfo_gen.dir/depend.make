# Empty dependencies file for test_tfo_gen.
# This may be replaced when dependencies are built.
