# A raw capture file is mapped (tools/pft/input.c): pft dump --stats and pft
# decode --stats on 128 MiB keep the peak RSS of 32 MiB, at --jobs 1 and 2
# (tests/scripts/raw_file_memory.py).  Included by tests/CMakeLists.txt.
find_program(PFT_RAW_FILE_PYTHON3 python3)
if(PFT_RAW_FILE_PYTHON3 AND TARGET pft_shared)
  add_test(NAME raw_file_memory
           COMMAND ${PFT_RAW_FILE_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/raw_file_memory.py
                   $<TARGET_FILE:pft> $<TARGET_FILE:pft_shared> ${PFT_DATA_DIR})
  set_tests_properties(raw_file_memory PROPERTIES ENVIRONMENT "${PFT_CTYPES_ENV}" TIMEOUT 300)
endif()
