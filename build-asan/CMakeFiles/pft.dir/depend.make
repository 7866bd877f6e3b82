# Empty dependencies file for pft.
# This may be replaced when dependencies are built.
