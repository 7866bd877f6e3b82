# Empty compiler generated dependencies file for test_snapshot_ini.
# This may be replaced when dependencies are built.
