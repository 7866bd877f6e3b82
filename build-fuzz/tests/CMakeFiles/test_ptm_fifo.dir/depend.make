# Empty dependencies file for test_ptm_fifo.
# This may be replaced when dependencies are built.
