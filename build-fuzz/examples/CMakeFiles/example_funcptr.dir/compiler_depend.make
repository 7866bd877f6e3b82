# Empty custom commands generated dependencies file for example_funcptr.
# This may be replaced when dependencies are built.
