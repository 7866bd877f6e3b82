# Empty custom commands generated dependencies file for example_interwork.
# This may be replaced when dependencies are built.
