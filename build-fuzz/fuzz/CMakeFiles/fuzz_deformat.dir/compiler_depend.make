# Empty compiler generated dependencies file for fuzz_deformat.
# This may be replaced when dependencies are built.
