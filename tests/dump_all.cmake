# pft dump --id all: several PFT sources of one capture merged in capture
# order, each line with its trace ID, equal per source to the one-source
# listing (tests/scripts/dump_all.py).  Included by tests/CMakeLists.txt.
find_program(PFT_DUMP_ALL_PYTHON3 python3)
if(PFT_DUMP_ALL_PYTHON3 AND TARGET pft_shared)
  add_test(NAME dump_all
           COMMAND ${PFT_DUMP_ALL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/dump_all.py
                   $<TARGET_FILE:pft> $<TARGET_FILE:pft_shared> ${PFT_DATA_DIR})
  set_tests_properties(dump_all PROPERTIES ENVIRONMENT "${PFT_CTYPES_ENV}" TIMEOUT 120)
endif()
