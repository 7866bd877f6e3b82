# Empty compiler generated dependencies file for pft_static.
# This may be replaced when dependencies are built.
