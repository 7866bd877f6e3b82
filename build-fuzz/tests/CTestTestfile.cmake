# CMake generated Testfile for 
# Source directory: /work/wt/tfo/tests
# Build directory: /work/wt/tfo/build-fuzz/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[test_config]=] "/work/wt/tfo/build-fuzz/tests/test_config")
set_tests_properties([=[test_config]=] PROPERTIES  ENVIRONMENT "PFT_SHARED=/work/wt/tfo/../shared;PFT_BIN=/work/wt/tfo/build-fuzz/pft;PFT_SOURCE=/work/wt/tfo;PFT_BUILD=/work/wt/tfo/build-fuzz" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/wt/tfo/tests/CMakeLists.txt;23;add_test;/work/wt/tfo/tests/CMakeLists.txt;0;")
add_test([=[test_tfo_capture]=] "/work/wt/tfo/build-fuzz/tests/test_tfo_capture")
set_tests_properties([=[test_tfo_capture]=] PROPERTIES  ENVIRONMENT "PFT_SHARED=/work/wt/tfo/../shared;PFT_BIN=/work/wt/tfo/build-fuzz/pft;PFT_SOURCE=/work/wt/tfo;PFT_BUILD=/work/wt/tfo/build-fuzz" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/wt/tfo/tests/CMakeLists.txt;23;add_test;/work/wt/tfo/tests/CMakeLists.txt;0;")
add_test([=[test_tfo_codec]=] "/work/wt/tfo/build-fuzz/tests/test_tfo_codec")
set_tests_properties([=[test_tfo_codec]=] PROPERTIES  ENVIRONMENT "PFT_SHARED=/work/wt/tfo/../shared;PFT_BIN=/work/wt/tfo/build-fuzz/pft;PFT_SOURCE=/work/wt/tfo;PFT_BUILD=/work/wt/tfo/build-fuzz" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/wt/tfo/tests/CMakeLists.txt;23;add_test;/work/wt/tfo/tests/CMakeLists.txt;0;")
add_test([=[test_tfo_gen]=] "/work/wt/tfo/build-fuzz/tests/test_tfo_gen")
set_tests_properties([=[test_tfo_gen]=] PROPERTIES  ENVIRONMENT "PFT_SHARED=/work/wt/tfo/../shared;PFT_BIN=/work/wt/tfo/build-fuzz/pft;PFT_SOURCE=/work/wt/tfo;PFT_BUILD=/work/wt/tfo/build-fuzz" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/wt/tfo/tests/CMakeLists.txt;23;add_test;/work/wt/tfo/tests/CMakeLists.txt;0;")
add_test([=[test_tfo_sync]=] "/work/wt/tfo/build-fuzz/tests/test_tfo_sync")
set_tests_properties([=[test_tfo_sync]=] PROPERTIES  ENVIRONMENT "PFT_SHARED=/work/wt/tfo/../shared;PFT_BIN=/work/wt/tfo/build-fuzz/pft;PFT_SOURCE=/work/wt/tfo;PFT_BUILD=/work/wt/tfo/build-fuzz" TIMEOUT "300" _BACKTRACE_TRIPLES "/work/wt/tfo/tests/CMakeLists.txt;23;add_test;/work/wt/tfo/tests/CMakeLists.txt;0;")
