# Empty compiler generated dependencies file for test_isa_capstone.
# This may be replaced when dependencies are built.
