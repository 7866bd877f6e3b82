# Empty dependencies file for test_tfo_capture.
# This may be replaced when dependencies are built.
