# Empty compiler generated dependencies file for test_ptm_regs.
# This may be replaced when dependencies are built.
