# Empty dependencies file for test_dump_synth.
# This may be replaced when dependencies are built.
