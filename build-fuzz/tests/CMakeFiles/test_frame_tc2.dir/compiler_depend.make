# Empty compiler generated dependencies file for test_frame_tc2.
# This may be replaced when dependencies are built.
