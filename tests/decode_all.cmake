# pft decode --id all: TC2's four sources merged, each equal to its own
# decode and the ETMv3 ones to DS-5; three recordings with timestamps framed
# together, merged in time order (tests/scripts/decode_all.py).  Included by
# tests/CMakeLists.txt.
pft_mode_test(decode_all tc2 120)
pft_mode_test(decode_all order 120 $<TARGET_FILE:pft_shared> ${CMAKE_BINARY_DIR}/examples)
