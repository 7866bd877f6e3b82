# --id all beyond pft decode: pft dump with ETMv3 sources, and the analysis
# commands (profile, coverage, tail, timeline) over every source of TC2 and
# of recordings of several cores framed together, each checked against the
# one-source runs (tests/scripts/idall_*.py).  Included by tests/CMakeLists.txt.
if(PFT_CTYPES_PYTHON3)
  add_test(NAME idall_dump
           COMMAND ${PFT_CTYPES_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/idall_dump.py
                   $<TARGET_FILE:pft> ${PFT_DATA_DIR})
  set_tests_properties(idall_dump PROPERTIES ENVIRONMENT "${PFT_CTYPES_ENV}" TIMEOUT 120)
endif()
pft_mode_test(idall_analysis tc2 300)
pft_mode_test(idall_analysis cores 300 $<TARGET_FILE:pft_shared> ${CMAKE_BINARY_DIR}/examples)
