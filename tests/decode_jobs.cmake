# pft decode --jobs N equal to --jobs 1 (stdout, stderr, exit code) in every
# output format: the real captures in data/, TC2's PTM stream repeated and
# 30 corrupted copies, and 30 recordings of the example programs under
# random configurations, each also corrupted; 2-8 threads, segments from 64
# bytes (tests/scripts/decode_jobs.py).  Included by tests/CMakeLists.txt.
find_program(PFT_DECODE_JOBS_PYTHON3 python3)
if(PFT_DECODE_JOBS_PYTHON3 AND TARGET pft_shared)
  add_test(NAME decode_jobs
           COMMAND ${PFT_DECODE_JOBS_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/decode_jobs.py
                   $<TARGET_FILE:pft> $<TARGET_FILE:pft_shared> ${PFT_DATA_DIR}
                   ${CMAKE_BINARY_DIR}/examples 30 13)
  set_tests_properties(decode_jobs PROPERTIES ENVIRONMENT "${PFT_CTYPES_ENV}" TIMEOUT 600)
endif()
