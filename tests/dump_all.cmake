# pft dump --id all: several PFT sources of one capture merged in capture
# order, each line with its trace ID, equal per source to the one-source
# listing (tests/scripts/dump_all.py).  Included by tests/CMakeLists.txt.
find_program(PFT_DUMP_ALL_PYTHON3 python3)
if(PFT_DUMP_ALL_PYTHON3 AND TARGET pft_shared)
  add_test(NAME dump_all
           COMMAND ${PFT_DUMP_ALL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/dump_all.py
                   $<TARGET_FILE:pft> $<TARGET_FILE:pft_shared> ${PFT_DATA_DIR})
  set(PFT_DUMP_ALL_ENV ${PFT_TEST_ENV})
  if(PFT_SANITIZE)
    # python3 loads the sanitized libpft.so: preload the sanitizer runtime
    # (python's own allocations are not ours to check for leaks)
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
                    OUTPUT_VARIABLE PFT_ASAN_RT OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND PFT_DUMP_ALL_ENV "LD_PRELOAD=${PFT_ASAN_RT}"
         "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
  endif()
  set_tests_properties(dump_all PROPERTIES ENVIRONMENT "${PFT_DUMP_ALL_ENV}" TIMEOUT 120)
endif()
