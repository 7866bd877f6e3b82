# CMake generated Testfile for 
# Source directory: /work/wt/tfo/fuzz
# Build directory: /work/wt/tfo/build-fuzz/fuzz
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
