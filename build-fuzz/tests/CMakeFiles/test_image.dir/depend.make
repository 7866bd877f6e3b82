# Empty dependencies file for test_image.
# This may be replaced when dependencies are built.
