# Empty custom commands generated dependencies file for example_recursion.
# This may be replaced when dependencies are built.
