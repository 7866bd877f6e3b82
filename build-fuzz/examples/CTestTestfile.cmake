# CMake generated Testfile for 
# Source directory: /work/wt/tfo/examples
# Build directory: /work/wt/tfo/build-fuzz/examples
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
