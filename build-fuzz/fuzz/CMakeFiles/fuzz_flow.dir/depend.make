# Empty dependencies file for fuzz_flow.
# This may be replaced when dependencies are built.
