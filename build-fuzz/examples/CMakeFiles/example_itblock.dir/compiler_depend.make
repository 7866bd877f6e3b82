# Empty custom commands generated dependencies file for example_itblock.
# This may be replaced when dependencies are built.
