# Empty dependencies file for test_snapshot_write.
# This may be replaced when dependencies are built.
