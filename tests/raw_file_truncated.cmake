# A raw capture file cut short while pft reads its mapping: a message naming
# the file and exit 1, not death by SIGBUS (tests/scripts/raw_file_truncated.py).
# Included by tests/CMakeLists.txt.
find_program(PFT_RAW_TRUNC_PYTHON3 python3)
if(PFT_RAW_TRUNC_PYTHON3 AND TARGET pft_shared)
  add_test(NAME raw_file_truncated
           COMMAND ${PFT_RAW_TRUNC_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/raw_file_truncated.py
                   $<TARGET_FILE:pft> $<TARGET_FILE:pft_shared> ${PFT_DATA_DIR})
  set_tests_properties(raw_file_truncated PROPERTIES ENVIRONMENT "${PFT_CTYPES_ENV}" TIMEOUT 120)
endif()
