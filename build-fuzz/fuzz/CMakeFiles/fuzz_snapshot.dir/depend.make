# Empty dependencies file for fuzz_snapshot.
# This may be replaced when dependencies are built.
