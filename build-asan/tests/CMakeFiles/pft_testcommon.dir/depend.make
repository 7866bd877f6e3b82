# Empty dependencies file for pft_testcommon.
# This may be replaced when dependencies are built.
