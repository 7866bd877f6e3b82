# Empty compiler generated dependencies file for fuzz_isa.
# This may be replaced when dependencies are built.
