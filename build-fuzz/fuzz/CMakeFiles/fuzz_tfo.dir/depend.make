# Empty dependencies file for fuzz_tfo.
# This may be replaced when dependencies are built.
