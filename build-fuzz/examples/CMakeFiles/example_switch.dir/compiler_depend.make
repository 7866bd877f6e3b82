# Empty custom commands generated dependencies file for example_switch.
# This may be replaced when dependencies are built.
