# Empty custom commands generated dependencies file for example_irq.
# This may be replaced when dependencies are built.
