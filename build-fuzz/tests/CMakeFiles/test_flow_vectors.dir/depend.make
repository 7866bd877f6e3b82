# Empty dependencies file for test_flow_vectors.
# This may be replaced when dependencies are built.
