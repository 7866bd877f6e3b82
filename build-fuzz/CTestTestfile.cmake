# CMake generated Testfile for 
# Source directory: /work/wt/tfo
# Build directory: /work/wt/tfo/build-fuzz
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
subdirs("tests")
subdirs("examples")
subdirs("fuzz")
