# pft dump --stats --jobs N equal to --jobs 1 on TC2, a long TC2 stream with
# right and wrong options, and 100 corrupted copies, at 2-8 threads and many
# segment sizes (tests/scripts/dump_jobs.py).  Included by tests/CMakeLists.txt.
find_program(PFT_DUMP_JOBS_PYTHON3 python3)
if(PFT_DUMP_JOBS_PYTHON3 AND TARGET pft_shared)
  add_test(NAME dump_jobs
           COMMAND ${PFT_DUMP_JOBS_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/dump_jobs.py
                   $<TARGET_FILE:pft> $<TARGET_FILE:pft_shared> ${PFT_DATA_DIR})
  set_tests_properties(dump_jobs PROPERTIES ENVIRONMENT "${PFT_CTYPES_ENV}" TIMEOUT 300)
endif()
