# pft profile (every format), coverage (lcov, listing), timeline and tail
# (also stopped by --before) with --jobs N equal to --jobs 1 (stdout,
# stderr, exit code): the real captures in data/, TC2's PTM and ETMv3
# streams repeated and corrupted copies of them, and 20 recordings of the
# example programs under random configurations with their ELF, each also
# corrupted; 2-8 threads, segments from 64 bytes
# (tests/scripts/analysis_jobs.py).  Included by tests/CMakeLists.txt.
find_program(PFT_ANALYSIS_JOBS_PYTHON3 python3)
if(PFT_ANALYSIS_JOBS_PYTHON3 AND TARGET pft_shared)
  add_test(NAME analysis_jobs
           COMMAND ${PFT_ANALYSIS_JOBS_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/analysis_jobs.py
                   $<TARGET_FILE:pft> $<TARGET_FILE:pft_shared> ${PFT_DATA_DIR}
                   ${CMAKE_BINARY_DIR}/examples 20 17)
  set_tests_properties(analysis_jobs PROPERTIES ENVIRONMENT "${PFT_CTYPES_ENV}" TIMEOUT 600)
endif()
