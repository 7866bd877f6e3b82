# Empty compiler generated dependencies file for test_image_cache.
# This may be replaced when dependencies are built.
