# Empty compiler generated dependencies file for test_frame.
# This may be replaced when dependencies are built.
