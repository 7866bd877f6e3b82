# Empty compiler generated dependencies file for test_frame_roundtrip.
# This may be replaced when dependencies are built.
