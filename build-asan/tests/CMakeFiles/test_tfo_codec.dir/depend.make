# Empty dependencies file for test_tfo_codec.
# This may be replaced when dependencies are built.
