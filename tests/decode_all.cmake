# pft decode --id all: TC2's four sources merged, each equal to its own
# decode and the ETMv3 ones to DS-5; three recordings with timestamps framed
# together, merged in time order (tests/scripts/decode_all.py).  Included by
# tests/CMakeLists.txt.
find_program(PFT_DECODE_ALL_PYTHON3 python3)
if(PFT_DECODE_ALL_PYTHON3 AND TARGET pft_shared)
  add_test(NAME decode_all_tc2
           COMMAND ${PFT_DECODE_ALL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/decode_all.py
                   tc2 $<TARGET_FILE:pft> ${PFT_DATA_DIR})
  add_test(NAME decode_all_order
           COMMAND ${PFT_DECODE_ALL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/decode_all.py
                   order $<TARGET_FILE:pft> ${PFT_DATA_DIR} $<TARGET_FILE:pft_shared>
                   ${CMAKE_BINARY_DIR}/examples)
  set_tests_properties(decode_all_tc2 decode_all_order PROPERTIES
                       ENVIRONMENT "${PFT_CTYPES_ENV}" TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()
