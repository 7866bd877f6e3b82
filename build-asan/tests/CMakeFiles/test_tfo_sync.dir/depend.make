# Empty dependencies file for test_tfo_sync.
# This may be replaced when dependencies are built.
