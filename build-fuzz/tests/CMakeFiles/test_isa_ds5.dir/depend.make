# Empty dependencies file for test_isa_ds5.
# This may be replaced when dependencies are built.
