# pft dump and pft decode on a 256 MiB stream piped through standard input:
# peak RSS stays that of a 1 MiB input (bounded memory).  Included by
# tests/CMakeLists.txt.
find_program(PFT_STREAM_PYTHON3 python3)
if(PFT_STREAM_PYTHON3)
  add_test(NAME stream_memory
           COMMAND ${PFT_STREAM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/stream_memory.py
                   $<TARGET_FILE:pft> ${PFT_DATA_DIR})
  set_tests_properties(stream_memory PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 300)
endif()
add_test(NAME stream_pipe COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/scripts/stream_pipe.sh)
set_tests_properties(stream_pipe PROPERTIES ENVIRONMENT "${PFT_TEST_ENV}" TIMEOUT 120)
