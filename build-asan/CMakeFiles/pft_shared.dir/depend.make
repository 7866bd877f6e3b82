# Empty dependencies file for pft_shared.
# This may be replaced when dependencies are built.
