# --id all beyond pft decode: pft dump with ETMv3 sources, and the analysis
# commands (profile, coverage, tail, timeline) over every source of TC2 and
# of recordings of several cores framed together, each checked against the
# one-source runs (tests/scripts/idall_*.py).  Included by tests/CMakeLists.txt.
find_program(PFT_IDALL_PYTHON3 python3)
if(PFT_IDALL_PYTHON3)
  add_test(NAME idall_dump
           COMMAND ${PFT_IDALL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/idall_dump.py
                   $<TARGET_FILE:pft> ${PFT_DATA_DIR})
  set_tests_properties(idall_dump PROPERTIES ENVIRONMENT "${PFT_CTYPES_ENV}" TIMEOUT 120)
endif()
if(PFT_IDALL_PYTHON3 AND TARGET pft_shared)
  add_test(NAME idall_analysis_tc2
           COMMAND ${PFT_IDALL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/idall_analysis.py
                   tc2 $<TARGET_FILE:pft> ${PFT_DATA_DIR})
  add_test(NAME idall_analysis_cores
           COMMAND ${PFT_IDALL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/idall_analysis.py
                   cores $<TARGET_FILE:pft> ${PFT_DATA_DIR} $<TARGET_FILE:pft_shared>
                   ${CMAKE_BINARY_DIR}/examples)
  set_tests_properties(idall_analysis_tc2 idall_analysis_cores PROPERTIES
                       ENVIRONMENT "${PFT_CTYPES_ENV}" TIMEOUT 300 SKIP_RETURN_CODE 77)
endif()
