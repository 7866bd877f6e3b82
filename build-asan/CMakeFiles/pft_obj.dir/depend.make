# Empty dependencies file for pft_obj.
# This may be replaced when dependencies are built.
